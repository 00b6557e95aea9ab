"""The lobby app (Pilot) on a club served in the test's own loop (a real store file,
the hub, each game's referee) playing the toy ruleset (``tests/net/toynet.py``):
since you last looked, a finished game's report, watching a game made public (and
not before), declining, and a force built in the editor that ``check`` refuses."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from joined_helpers import screen_text, until
from server_helpers import a_game, challenge_and_accept, play_turn, running, seated, toynet, whose

from deathzap_tui.app.common.dialogs import AskScreen
from deathzap_tui.app.editor.editor import EditorScreen
from deathzap_tui.app.gameover.gameover import GameOverScreen
from deathzap_tui.app.start.since import SinceScreen
from deathzap_tui.club.lobby import ClubBattleScreen, LobbyApp

SIZE = (80, 24)


pytestmark = pytest.mark.usefixtures("toy_ruleset", "saves_dir")


def status(app: LobbyApp) -> str:
    return str(app.lobby.query_one("#lobby-status").render())


def test_opening_after_moves_unseen_shows_the_marker_then_since_you_last_looked(
        tmp_path: Path) -> None:
    """Two turns played while bob had last looked at none of them: his lobby marks
    the game (●2), and opening it shows "since you last looked" over the board."""
    async def main() -> None:
        async with running(tmp_path / "club.sqlite") as club:
            alice, bob, game = await a_game(club)
            seats = await seated(game, alice, bob)
            for _ in range(2):
                await play_turn(seats, whose(await seats["red"].fresh()))
            for seat in seats.values():
                await seat.close()
            table = club.club.hosted[game].table
            while any(table.connected.values()):
                await asyncio.sleep(0.02)
            club.store.mark_seen(game, "bob", 0)  # bob last looked before both turns
            app = LobbyApp(club.hub.path, "bob", club.hub.issue("bob"))
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: app.data.get("games"))
                assert app.data["games"][0]["unread"] == 2
                assert app.lobby.rows[f"games:{game}"][1]["unread"] == 2
                assert "●2" in screen_text(app)
                await pilot.press("enter")
                await until(pilot, lambda: isinstance(app.screen, SinceScreen))
                assert app.screen.page_title == f"Game {game}: since you last looked"
                assert any("hits" in line for line in app.screen.lines)
                await pilot.press("enter")
                await until(pilot, lambda: isinstance(app.screen, ClubBattleScreen))
                assert app.session.side in ("red", "black")  # type: ignore[union-attr]
                await pilot.press("ctrl+l")
                await until(pilot, lambda: app.screen is app.lobby and app.data["games"]
                            and app.data["games"][0]["unread"] == 0)

    asyncio.run(main())


def test_a_finished_game_opens_on_its_report(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path / "club.sqlite") as club:
            alice, bob, game = await a_game(club)
            seats = await seated(game, alice, bob)
            for _ in range(200):
                state = await seats["red"].fresh()
                if state["over"]:
                    break
                await play_turn(seats, whose(state))
            for seat in seats.values():
                await seat.close()
            app = LobbyApp(club.hub.path, "alice", club.hub.issue("alice"))
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: app.data.get("finished"))
                assert app.lobby.selected_id() == f"finished:{game}"
                await pilot.press("r")
                await until(pilot, lambda: isinstance(app.screen, GameOverScreen)
                            and app.screen.report is not None)
                await pilot.press("ctrl+l")
                await until(pilot, lambda: app.screen is app.lobby and app.session is None)

    asyncio.run(main())


def test_a_game_is_watched_only_once_its_players_make_it_public(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path / "club.sqlite") as club:
            for n, name in enumerate(("alice", "bob", "carol"), 1):
                club.member(name, n)
            alice, bob = await club.lobby("alice"), await club.lobby("bob")
            game = await challenge_and_accept(club, alice, bob)
            app = LobbyApp(club.hub.path, "carol", club.hub.issue("carol"))
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: "watch" in app.data)
                assert app.data["watch"] == [] and app.data["games"] == []
                await pilot.press("w")
                assert "choose a public game" in status(app)
                await alice.request("public", game=game, public=True)
                await pilot.press("g")
                await until(pilot, lambda: app.data["watch"])
                await pilot.press("w")
                await until(pilot, lambda: isinstance(app.screen, ClubBattleScreen))
                assert app.session.side == "watch"  # type: ignore[union-attr]
                await pilot.press("ctrl+l")
                await until(pilot, lambda: app.screen is app.lobby)

    asyncio.run(main())


def test_declining_a_challenge_takes_it_off_both_lobbies(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path / "club.sqlite") as club:
            club.member("alice", 1), club.member("bob", 2)
            alice = await club.lobby("alice")
            await alice.request("challenge", ruleset=toynet.ID, opponent="bob",
                                force={"toml": "ruleset = \"nettoy\"\nname = \"Reds\"\n"})
            app = LobbyApp(club.hub.path, "bob", club.hub.issue("bob"))
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: app.data.get("challenges"))
                await pilot.press("d")
                await until(pilot, lambda: not app.data["challenges"])
                assert "declined" in status(app)
                assert (await alice.request("lobby"))["challenges"] == []

    asyncio.run(main())


def test_a_force_with_errors_built_in_the_editor_is_refused_saying_why(tmp_path: Path) -> None:
    """ctrl+e in the new-game form: the editor on a new force; saved as it is (no
    units), the club checks it as `deathzap check` does and refuses it, and the form
    says why."""
    async def main() -> None:
        async with running(tmp_path / "club.sqlite") as club:
            club.member("alice", 1), club.member("bob", 2)
            app = LobbyApp(club.hub.path, "alice", club.hub.issue("alice"))
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: "games" in app.data)
                await pilot.press("n")
                await until(pilot, lambda: app.screen.__class__.__name__ == "GameFormScreen")
                form = app.screen
                await pilot.press("ctrl+e")
                await until(pilot, lambda: isinstance(app.screen, EditorScreen))
                await pilot.press("ctrl+s")  # the editor asks: save with errors?
                await until(pilot, lambda: isinstance(app.screen, AskScreen))
                await pilot.press("y", "escape")
                await until(pilot, lambda: app.screen is form
                            and "cannot be used" in str(form.query_one("#form-problems")
                                                        .render()))
                assert (await (await club.lobby("alice")).request("forces"))["forces"] == []

    asyncio.run(main())



def test_names_from_members_are_shown_as_typed_never_as_markup(tmp_path: Path) -> None:
    """A force named with Textual markup and a bidi override: the lobby shows the
    brackets as typed (no link, no style) and drops the override."""
    name = "[@click=app.quit]Evil[/] \u202eSquad"

    async def main() -> None:
        async with running(tmp_path / "club.sqlite") as club:
            club.member("alice", 1), club.member("bob", 2)
            alice = await club.lobby("alice")
            await alice.request("challenge", ruleset=toynet.ID, opponent="bob",
                                force={"toml": f'ruleset = "{toynet.ID}"\nname = "{name}"\n'})
            app = LobbyApp(club.hub.path, "bob", club.hub.issue("bob"))
            async with app.run_test(size=(120, 24)) as pilot:
                await until(pilot, lambda: app.data.get("challenges"))
                await pilot.pause(0.1)
                shown = screen_text(app)
                assert "[@click=app.quit]Evil[/] Squad" in shown
                assert "\u202e" not in shown and app.is_running

    asyncio.run(main())

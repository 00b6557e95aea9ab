"""The club's lobby app (``deathzap club session``) driven by Pilot against a real
club: the SQLite store, :class:`~deathzap_tui.club.hosting.Club` and the hub on a Unix
socket, running in a thread of their own (as the server's process would), each game
at its own real referee."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from club_fixtures import key_text
from dz3play import play_one
from joined_helpers import screen_text, until

from deathzap_tui.app.editor.editor import EditorScreen
from deathzap_tui.club.hosting import Club
from deathzap_tui.club.hub import HubServer
from deathzap_tui.club.lobby import FORCE_FILE, ClubBattleScreen, ClubWizardScreen, LobbyApp
from deathzap_tui.club.lobbyform import GameFormScreen
from deathzap_tui.club.lobbyscreen import LobbyScreen, ago_text, game_line
from deathzap_tui.club.members import PublicKey
from deathzap_tui.club.sqlstore import open_store
from deathzap_tui.net.client import RemoteSession
from deathzap_tui.paths import PROJECT_ROOT
from deathzap_tui.rules.ruleset import other_side

SIZE = (80, 24)
RED_FORCE = {"shipped": "demo-ashfall-legion"}
BLACK_FORCE = {"shipped": "demo-vanta-syndicate"}


class ClubThread:
    """A real club (store, games, hub) served from its own thread and event loop."""

    def __init__(self, tmp_path: Path, members: tuple[str, ...]) -> None:
        self.rundir = tmp_path / "run"
        self.rundir.mkdir(mode=0o700)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.store = open_store(tmp_path / "club.sqlite")
        for n, name in enumerate(members, 1):
            self.store.add_member(name, PublicKey.parse(key_text(n)))
        self.club = Club(self.store, self.rundir, log=lambda text: None,
                         forces_dir=PROJECT_ROOT / "forces", clock=lambda: 0.0)
        """A clock at the epoch: every game's last move was "now" (steady snapshots)."""
        self.hub = HubServer(self.club, self.rundir / "hub.sock", log=lambda text: None)
        self.call(self.hub.start())
        self.call(self.club.start())

    def call(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(30)

    def do(self, member: str, t: str, **fields: Any) -> dict[str, Any]:
        """``member``'s lobby asks the club for ``t`` (as the hub would pass it on)."""
        from deathzap_tui.club.hub import check_request

        msg = check_request({"t": t, "id": 1, **fields})
        return self.call(self.club.handle(member, msg))

    def app(self, member: str) -> LobbyApp:
        return LobbyApp(self.hub.path, member, self.hub.issue(member))

    def game(self, challenger: str, taker: str) -> tuple[int, dict[str, str]]:
        """A game of ``challenger`` against ``taker``: its number and side -> member."""
        made = self.do(challenger, "challenge", ruleset="deathzap3", opponent=taker,
                       force=RED_FORCE)["challenge"]
        game = self.do(taker, "accept", challenge=made["challenge"],
                       force=BLACK_FORCE)["game"]
        side = game["side"]
        other = other_side(side)
        return int(game["game"]), {side: taker, other: challenger}

    def table(self, game: int, sides: tuple[str, ...]) -> dict[str, RemoteSession]:
        """Players at the game's referee, through the API (as their terminals are)."""
        sock = self.call(self.club.host(game)).socket
        return {side: RemoteSession.connect(sock, side) for side in sides}

    def close(self) -> None:
        self.call(self.hub.close())
        self.call(self.club.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.store.close()


@pytest.fixture
def club_thread(tmp_path: Path, saves_dir: Path) -> Iterator[ClubThread]:
    running = ClubThread(tmp_path, ("alice", "bob", "carol"))
    yield running
    running.close()


def lobby_rows(app: LobbyApp, section: str) -> list[dict[str, Any]]:
    return list(app.data.get(section, ()))


# --- rows as text --------------------------------------------------------------------

def test_ago_text_takes_the_largest_whole_unit() -> None:
    assert [ago_text(s) for s in (0, 59, 60, 3599, 3600, 86399, 86400, 200000)] == [
        "now", "now", "1m", "59m", "1h", "23h", "1d", "2d"]


def test_a_game_line_marks_your_move_and_unread_and_strips_control_characters() -> None:
    row = {"game": 7, "title": "Deathzap 3", "opponent": "bob\x1b]52;c;eA==\x07[b]x[/b]",
           "turn": "card 3, 40 left", "whose": "red", "yours": True, "ago": 7200,
           "unread": 3}
    text = game_line(row).plain
    assert text.startswith("▶ #7 ")
    assert "your move" in text and "2h" in text and text.endswith(" ●3")
    assert "\x1b" not in text and "\x07" not in text
    assert "[b]x[/b]" in text[:80] or "…" in text  # shown as typed, never as markup
    quiet = game_line({**row, "yours": False, "unread": 0}).plain
    assert quiet.startswith("  #7 ") and "●" not in quiet and "their move" in quiet


def test_a_wider_terminal_gives_the_lines_its_columns() -> None:
    """80 columns first: a member name of 24 characters is cut there (…), and shown
    whole at 120."""
    name = "Bartholomew-Quintessence"
    row = {"game": 12, "title": "Deathzap 3", "opponent": name, "turn": "card 3, 40 left",
           "whose": "black", "yours": False, "ago": 90, "unread": 0}
    narrow, wide = game_line(row).plain, game_line(row, 120).plain
    assert len(narrow) <= 80 and name not in narrow and "v Bartholomew" in narrow
    assert len(wide) <= 120 and f"v {name}" in wide


def test_force_choices_are_the_rulesets_shipped_forces_then_your_saved_ones(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from deathzap_tui.club.lobbyform import force_choices, force_spec

    monkeypatch.setenv("DEATHZAP_FORCES_DIR", str(PROJECT_ROOT / "forces"))
    saved = [{"name": "My Lot\x1b[2J", "ruleset": "deathzap3"},
             {"name": "Other", "ruleset": "classic"}]
    choices = force_choices("deathzap3", saved)
    assert ("shipped:demo-ashfall-legion", "demo-ashfall-legion (shipped)") in choices
    assert choices[-1] == ("saved:My Lot\x1b[2J", "My Lot[2J (yours)")  # shown cleaned
    assert not any("Other" in label or "cl-" in value for value, label in choices)
    assert force_spec(choices[-1][0]) == {"saved": "My Lot\x1b[2J"}
    assert force_spec("shipped:demo-ashfall-legion") == {"shipped": "demo-ashfall-legion"}


# --- the lobby against a real club ----------------------------------------------------

def test_lobby_sections_accept_and_open_the_game_then_back(club_thread: ClubThread) -> None:
    """A challenge to bob is listed under Challenges; accepting it with a shipped
    force (the form) opens the new game on the joined battle screen; ctrl+l goes back
    to the lobby, where it is under Your games."""
    club = club_thread
    made = club.do("alice", "challenge", ruleset="deathzap3", opponent="bob",
                   force=RED_FORCE)["challenge"]
    club.do("carol", "challenge", ruleset="deathzap3", force=RED_FORCE)

    async def main() -> None:
        app = club.app("bob")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: len(lobby_rows(app, "challenges")) == 2)
            text = screen_text(app)
            for heading in ("Your games (0)", "Challenges (2)", "Finished (0)", "Watch (0)"):
                assert heading in text
            assert "alice → you" in text and "carol → anyone" in text
            screen = app.screen
            assert isinstance(screen, LobbyScreen)
            assert screen.selected_id() == f"challenges:{made['challenge']}"
            await pilot.press("a")
            await until(pilot, lambda: isinstance(app.screen, GameFormScreen))
            await pilot.press("ctrl+s")  # no force chosen yet
            assert "choose your force" in screen_text(app)
            app.screen.query_one("#form-force").value = "shipped:demo-vanta-syndicate"
            await pilot.press("ctrl+s")
            await until(pilot, lambda: isinstance(app.screen, ClubBattleScreen))
            assert app.session is not None and app.session.side in ("red", "black")
            assert app.game_open is not None
            assert "Back to the lobby" in [t for t, _h, _c in app.screen.palette_commands()]
            await pilot.press("ctrl+l")
            await until(pilot, lambda: app.screen is app.lobby and app.session is None
                        and len(lobby_rows(app, "games")) == 1)
            (row,) = lobby_rows(app, "games")
            assert row["opponent"] == "alice" and row["game"] == app.lobby.rows[
                f"games:{row['game']}"][1]["game"]
            assert lobby_rows(app, "challenges")[0]["by"] == "carol"

    asyncio.run(main())


def test_an_opponents_move_marks_the_game_and_rings_the_bell(club_thread: ClubThread) -> None:
    """Live: alice moves while bob sits in the lobby; bob's row of that game gets the
    unread marker and his terminal's bell rings."""
    club = club_thread
    game, players = club.game("alice", "bob")
    tables = club.table(game, ("red", "black"))
    try:
        play_one(tables)  # set-up begins; both were there
    finally:
        tables[next(s for s, m in players.items() if m == "bob")].close()
    alice = next(s for s, m in players.items() if m == "alice")

    async def main() -> None:
        app = club.app("bob")
        rings: list[float] = []
        app.bell = lambda: rings.append(time.monotonic())  # type: ignore[method-assign]
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: len(lobby_rows(app, "games")) == 1)
            before = lobby_rows(app, "games")[0]["unread"]
            assert "●" not in screen_text(app) or before
            await asyncio.to_thread(_move_alone, tables[alice])
            await until(pilot, lambda: rings and lobby_rows(app, "games")[0]["unread"]
                        > before)
            assert f"●{lobby_rows(app, 'games')[0]['unread']}" in screen_text(app)
            assert "moved" in screen_text(app)  # the push's text, under the list

    try:
        asyncio.run(main())
    finally:
        tables[alice].close()


def _move_alone(me: RemoteSession) -> None:
    """One action of ``me``'s that needs no one else: the first offered whose steps
    are all ``me``'s (began and given up otherwise)."""
    from deathzap_tui.headless.describe import auto_answer
    from deathzap_tui.net.wire import Waiting

    for option in me.intents():
        if option.side not in ("", me.side, None):
            continue
        action = me.begin(option.intent)
        res = action.resolution
        while res.step is not None and not isinstance(res.step, Waiting):
            res.answer(auto_answer(res.step))
        if res.step is None:
            me.commit(action)
            return
        action.cancel()
    raise AssertionError(f"{me.side} has nothing to do alone")


def test_leaving_a_step_that_waits_on_the_other_keeps_it_for_when_you_come_back(
        club_thread: ClubThread) -> None:
    """Red begins the roll-off and rolls: the step now waits on black, and the wizard
    says ctrl+l goes back to the lobby meanwhile. Leaving closes the link as a dropped
    one does, the referee keeps the action, and opening the game again brings the
    wizard back where it was."""
    club = club_thread
    _game, players = club.game("alice", "bob")

    async def main() -> None:
        app = club.app(players["red"])
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: lobby_rows(app, "games"))
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, ClubBattleScreen))
            await pilot.press("n")  # the set-up step: the roll-off (DZ3 §1)
            await until(pilot, lambda: isinstance(app.screen, ClubWizardScreen))
            await pilot.press("ctrl+r")
            await until(pilot, lambda: "waiting for black" in screen_text(app))
            assert "ctrl+l: back" in screen_text(app)
            await pilot.press("ctrl+l")
            await until(pilot, lambda: app.screen is app.lobby and app.session is None)
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, ClubWizardScreen)
                        and "waiting for black" in screen_text(app))
            kept = app.session.pending_action()  # type: ignore[union-attr]
            assert kept.mine and len(kept.resolution.answers) == 1

    asyncio.run(main())

def test_club_session_without_the_servers_token_says_so(capsys, monkeypatch,
                                                        tmp_path: Path) -> None:
    from deathzap_tui.cli import main
    from deathzap_tui.club.hub import TOKEN_ENV

    monkeypatch.delenv(TOKEN_ENV, raising=False)
    assert main(["club", "session", "--hub", str(tmp_path / "hub.sock"),
                 "--member", "bob"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("deathzap club session: no session token") and TOKEN_ENV in err


@pytest.mark.parametrize("token, member, said", [
    ("forged", "bob", "Cannot reach the club: this session is not known to the club"),
    ("alice's", "bob", "The club says this session is alice, not bob."),
])
def test_a_session_the_hub_does_not_confirm_gets_no_lobby(
        club_thread: ClubThread, token: str, member: str, said: str) -> None:
    club = club_thread
    if token == "alice's":
        token = club.hub.issue("alice")

    async def main() -> None:
        app = LobbyApp(club.hub.path, member, token)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: said in str(app.lobby.query_one("#lobby-status")
                                                   .render()))
            assert app.data == {}

    asyncio.run(main())


def test_one_game_open_in_two_sessions_of_a_member_stays_consistent(
        club_thread: ClubThread) -> None:
    """Red's member has the game open in the lobby app and in a second terminal: the
    die rolled in the app is that terminal's action too, at the same step, and
    black's answer reaches both alike."""
    from deathzap_tui.headless.describe import auto_answer
    from deathzap_tui.rules.steps import DiceRequest

    club = club_thread
    game, players = club.game("alice", "bob")
    tables = club.table(game, ("red", "black"))  # red: the member's second terminal
    second, black = tables["red"], tables["black"]

    async def main() -> None:
        app = club.app(players["red"])
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: lobby_rows(app, "games"))
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, ClubBattleScreen))
            await pilot.press("n")  # the roll-off (DZ3 §1); red rolls first
            await until(pilot, lambda: isinstance(app.screen, ClubWizardScreen))
            await pilot.press("ctrl+r")
            await until(pilot, lambda: "waiting for black" in screen_text(app))
            assert second.wait_for(lambda s: (a := s.pending_action()) is not None
                                   and a.mine and len(a.resolution.answers) == 1)
            assert black.wait_for(lambda s: (a := s.pending_action()) is not None
                                  and isinstance(a.resolution.step, DiceRequest))
            theirs = black.pending_action()
            await asyncio.to_thread(theirs.resolution.answer,
                                    auto_answer(theirs.resolution.step))
            await until(pilot, lambda: len(
                app.session.pending_action().resolution.answers) == 2)
            assert second.wait_for(lambda s: len(
                s.pending_action().resolution.answers) == 2)
            assert second.narrative() == app.session.narrative()

    try:
        asyncio.run(main())
    finally:
        for table in tables.values():
            table.close()


def test_every_key_of_the_lobby_and_the_form_is_in_the_palette(
        club_thread: ClubThread) -> None:
    async def main() -> None:
        app = club_thread.app("bob")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "games" in app.data)
            named = {cb.__name__ for _title, _help, cb in app.lobby.palette_commands()}
            for binding in LobbyScreen.BINDINGS:
                assert f"action_{binding.action.removeprefix('app.')}" in named
            await pilot.press("ctrl+p")
            await pilot.press(*"New game")
            await pilot.pause(0.3)
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, GameFormScreen))
            form = app.screen
            named = {cb.__name__ for _title, _help, cb in form.palette_commands()}
            assert {f"action_{b.action}" for b in GameFormScreen.BINDINGS} <= named

    asyncio.run(main())

def test_ctrl_e_in_the_form_asks_the_app_to_build_a_force(club_thread: ClubThread) -> None:
    """The form posts its request up (GameFormScreen.BuildForce) and the lobby app opens
    the force editor on a new force, over the form."""
    async def main() -> None:
        app = club_thread.app("bob")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "games" in app.data)
            await pilot.press("n")
            await until(pilot, lambda: isinstance(app.screen, GameFormScreen))
            form = app.screen
            await pilot.press("ctrl+e")
            await until(pilot, lambda: isinstance(app.screen, EditorScreen))
            assert app.screen.doc.path.name == FORCE_FILE  # in its private folder
            assert form in app.screen_stack

    asyncio.run(main())


def test_lobby_snapshot_80x24(club_thread: ClubThread, snap_compare) -> None:
    """The lobby at 80x24: a game in set-up, a challenge to bob, an open one, bob's own."""
    club = club_thread
    club.game("alice", "bob")
    club.do("alice", "challenge", ruleset="deathzap3", opponent="bob", force=RED_FORCE)
    club.do("carol", "challenge", ruleset="deathzap3", force=BLACK_FORCE)
    club.do("bob", "challenge", ruleset="deathzap3", force=RED_FORCE)

    async def loaded(pilot: Any) -> None:
        app = pilot.app
        await until(pilot, lambda: len(lobby_rows(app, "challenges")) == 3)
        await pilot.pause(0.1)

    assert snap_compare(club.app("bob"), run_before=loaded, terminal_size=SIZE)

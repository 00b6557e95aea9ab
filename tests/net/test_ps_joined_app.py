"""Deathzap Plasmashok joined: a real referee and two joined terminals (two apps),
each player acting from its own. Turn 1 is played with keys: Red's terminal starts
the movement roll-off and each terminal rolls its own die (PS §3); each side moves
into contact from its terminal; Black's Rootmother uses special combat while Red
rolls Red's defence dice in Red's terminal (PS §4); Red shoots while Black rolls its
defence, size and shield dice, and picks its casualties, in Black's (PS §5); each side
fights with its own units, the defender rolling in its own terminal (PS §6); Black's
terminal plays the morale phase (PS §7). Turns 2 to 4 are played through each
player's own session, and both terminals end on the game-over screen with the result
on points lost (PS §8)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from joined_helpers import run, screen_text, settle_action, synced, until
from referee_harness import HostThread, connecting, hosting

from deathzap_tui.headless.describe import auto_answer
from deathzap_tui.net.client import RemoteSession
from deathzap_tui.paths import PROJECT_ROOT
from deathzap_tui.rules.ruleset import ADVANCE, UNIT
from deathzap_tui.rules.steps import DiceRequest, Question

pytest.importorskip("textual")

PS = tuple(PROJECT_ROOT / "forces" / name
           for name in ("ps-iron-choir.toml", "ps-verdant-swarm.toml"))
SIZE = (120, 36)


@pytest.fixture
def ps_host(saves_dir: Path, tmp_path: Path) -> Iterator[HostThread]:
    """Seed 7 after the set-up roll-off: Red will move first in turn 1 (5 v 2)."""
    from deathzap_tui.headless.flow import quick_setup
    from deathzap_tui.session import Session

    session = Session.new(PS[0], PS[1], seed=7, save_path="ps-joined")
    quick_setup(session)
    yield from hosting(session, tmp_path / "psj.sock")


@pytest.fixture
def ps_clients(ps_host: HostThread) -> Iterator[Callable[..., RemoteSession]]:
    yield from connecting(ps_host)


def clock(session: RemoteSession) -> tuple[int, str, str]:
    c = session.view().clock
    return c.number, c.current, c.active


def play_by_api(clients: dict[str, RemoteSession]) -> bool:
    """One intent at the table through the sessions (run in a thread): a unit's
    action by its owner, else ``next`` by whoever may; each step answered by the
    session it is asked of (generated dice, defaults). Returns False once the game
    is over."""
    red = clients["red"]
    if red.view().over:
        return False
    offered = [(side, o) for side, c in clients.items() for o in c.intents()]
    units = [(s, o) for s, o in offered if o.group == UNIT]
    side, option = (units or [(s, o) for s, o in offered if o.group == ADVANCE])[0]
    me = clients[side]
    action = me.begin(option.intent)
    settle_action(clients, me, action, auto_answer)
    return True


@pytest.mark.slow
@run
async def test_ps_joined_game_each_player_at_its_terminal(ps_host, ps_clients) -> None:
    from deathzap_tui.app.gameover.gameover import GameOverScreen
    from deathzap_tui.app.remote.app import JoinedApp
    from deathzap_tui.app.remote.battle import JoinedBattleScreen
    from deathzap_tui.app.remote.wizard import JoinedWizardScreen

    red = ps_clients("red")
    black = await asyncio.to_thread(ps_clients, "black")
    sessions = {"red": red, "black": black}
    apps = {"red": JoinedApp(red, side="red"), "black": JoinedApp(black, side="black")}
    # The keys of the steps each terminal answered in the other player's actions.
    answered: dict[str, list[str]] = {"red": [], "black": []}
    async with apps["red"].run_test(size=SIZE) as red_pilot, \
            apps["black"].run_test(size=SIZE) as black_pilot:
        pilots = {"red": red_pilot, "black": black_pilot}
        assert all(isinstance(a.screen, JoinedBattleScreen) for a in apps.values())

        async def play(side: str, key: str) -> None:
            """``side`` presses ``key`` at its terminal and answers its own steps
            there (its unit's action: the first it offers; dice rolled, defaults);
            the other terminal answers the steps its player is asked."""
            await synced(red_pilot, apps, sessions)
            before = sessions[side].events
            await pilots[side].press(key)
            deadline = time.monotonic() + 60
            while sessions[side].events == before:
                assert time.monotonic() < deadline, f"{side}'s {key} never finished"
                for who, app in apps.items():
                    screen, pilot = app.screen, pilots[who]
                    if not isinstance(screen, JoinedWizardScreen):
                        continue
                    step = None if screen.resolution is None else screen.resolution.step
                    if screen.resolution is None:
                        await pilot.press("1")
                    elif step is None and screen._mine():
                        await pilot.press("ctrl+s")
                    elif isinstance(step, DiceRequest | Question):
                        if who != side:
                            answered[who].append(step.key)
                        await pilot.press("ctrl+r" if isinstance(step, DiceRequest)
                                          else "enter")
                await red_pilot.pause(0.02)

        def units(side: str) -> list[str]:
            return [o.intent["unit"] for o in sessions[side].intents() if o.group == UNIT]

        assert clock(red) == (0, "", "")
        await play("red", "d")  # the movement roll-off: each terminal rolls its die
        assert clock(red) == (1, "Movement", "red")
        assert {"rolloff.1.black"} <= set(answered["black"])
        await play("red", "a")  # Red's Choir Wardens into contact with the Thorn Hounds
        await play("red", "d")
        await synced(red_pilot, apps, sessions)
        assert clock(black) == (1, "Movement", "black")
        await play("black", "a")  # a Black unit into contact with a Red one
        await play("black", "d")
        await synced(red_pilot, apps, sessions)
        assert clock(red)[1] == "Special combat"
        state = ps_host.table.game.state
        assert state.unit("red.0").engaged and state.unit("black.1").engaged

        assert units("black") == ["black.4"]  # the Rootmother, elite (PS §4)
        await play("black", "a")  # Red rolls its defence dice in its own terminal
        assert any(k == "special.defence" for k in answered["red"])
        while clock(red)[1] == "Special combat":
            await play("red", "d")  # end the brackets: casualties come off
        assert clock(red)[1] == "Shooting"
        await play("red", "a")  # Red's first shooter; Black rolls defence, size, saves
        assert {k.split(".")[0] for k in answered["black"]} >= {"defence", "size", "saves"}
        while clock(red)[1] == "Shooting":
            await play("red", "d")
        assert clock(red)[1] == "Melee"
        while clock(red)[1] == "Melee":  # every unit in contact fights (PS §6)
            await synced(red_pilot, apps, sessions)
            side = next((s for s in ("red", "black") if units(s)), "red")
            await play(side, "a" if units(side) else "d")
        assert clock(red)[1] == "Morale"
        assert any(k.startswith("casualty.black.") for k in answered["black"])
        assert {"melee.defence", "melee.saves"} <= set(answered["red"]) & set(answered["black"])
        await play("black", "d")  # morale: each side rolls its own units' dice
        await synced(red_pilot, apps, sessions)
        # Issue 22: between turns the track shows the turn the header announces.
        assert clock(red) == clock(black) == (2, "", "")
        assert "Turn 2 of 4" in screen_text(apps["black"])

        # Turns 2 to 4 through each player's own session; the terminals follow.
        while await asyncio.to_thread(play_by_api, sessions):
            pass
        await synced(red_pilot, apps, sessions)
        lost = ps_host.table.game.state.lost
        words = (f"turn 4 of 4 is over; Red lost {lost['red']} points of models, Black "
                 f"{lost['black']}")
        for side, app in apps.items():
            await until(pilots[side], lambda a=app: isinstance(a.screen, GameOverScreen))
            await pilots[side].pause()
            assert words in screen_text(app)
    assert red.view() == black.view()  # no secrets in Plasmashok: one table
    assert red.narrative() == black.narrative()
    state = ps_host.table.game.state
    assert state.over and state.turn == 4
    assert state.winner == ("red" if lost["red"] < lost["black"] else
                            "black" if lost["black"] < lost["red"] else "draw")

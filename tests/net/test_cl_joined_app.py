"""The joined app playing Deathzap Classic against a real referee: red's terminal
plays turn 1 with keys (impetus, movement, shooting, melee, morale) while black
plays through the API; each side answers its own steps (red in its wizard, black
by its responder) and both end the turn at the same table, phase track and all."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from joined_helpers import answer_while, run, until
from referee_harness import HostThread, connecting, hosting
from test_joined_app import Responder, api_move, screen_text

from deathzap_tui.net.client import RemoteSession
from deathzap_tui.paths import PROJECT_ROOT
from deathzap_tui.rules.ruleset import ADVANCE, UNIT
from deathzap_tui.rules.steps import DiceRequest, Question

pytest.importorskip("textual")

CL = tuple(PROJECT_ROOT / "forces" / name
           for name in ("cl-red-dawn-irregulars.toml", "cl-black-maw-brood.toml"))


@pytest.fixture
def cl_host(saves_dir: Path, tmp_path: Path) -> Iterator[HostThread]:
    from deathzap_tui.headless.flow import quick_setup
    from deathzap_tui.session import Session

    session = Session.new(CL[0], CL[1], seed=7, save_path="cl-joined")
    quick_setup(session)
    yield from hosting(session, tmp_path / "clj.sock")


@pytest.fixture
def cl_clients(cl_host: HostThread) -> Iterator[Callable[..., RemoteSession]]:
    yield from connecting(cl_host)


def clock(session: RemoteSession) -> tuple[int, str, str]:
    c = session.view().clock
    return c.number, c.current, c.active


@pytest.mark.slow
@run
async def test_joined_classic_turn(cl_host, cl_clients) -> None:
    from deathzap_tui.app.remote.app import JoinedApp
    from deathzap_tui.app.remote.battle import JoinedBattleScreen
    from deathzap_tui.app.remote.wizard import JoinedWizardScreen

    red = cl_clients("red")
    black = await asyncio.to_thread(cl_clients, "black")
    app = JoinedApp(red, side="red")
    answered_in_app = 0
    black_answered: list[str] = []
    async with app.run_test(size=(120, 36)) as pilot:
        battle = app.screen
        assert isinstance(battle, JoinedBattleScreen)

        async def synced() -> None:
            await until(pilot, lambda: red.events == black.events
                        and battle._shown_narrative == red.narrative())

        async def red_key(key: str) -> None:
            """Red plays ``key`` in the app; black's responder answers black's steps."""
            await synced()
            before = red.events
            responder = Responder(black)
            responder.start()
            try:
                await pilot.press(key)
                deadline = time.monotonic() + 60
                while red.events == before:
                    assert time.monotonic() < deadline, f"red's {key} never finished"
                    screen = app.screen
                    if not isinstance(screen, JoinedWizardScreen):
                        await pilot.pause(0.02)
                    elif screen.resolution is None:
                        await pilot.press("1")
                    elif screen.resolution.step is None:
                        await pilot.press("ctrl+s")
                    elif isinstance(screen.resolution.step, DiceRequest):
                        await pilot.press("ctrl+r")
                    elif isinstance(screen.resolution.step, Question):
                        await pilot.press("enter")
                    else:  # black's step: black answers it
                        await pilot.pause(0.05)
            finally:
                responder.stop.set()
                responder.join(2)
            black_answered.extend(responder.answered)

        async def black_plays(group: str) -> None:
            """Black plays its first option of ``group`` by the API; red's terminal
            answers what it asks of red."""
            nonlocal answered_in_app
            await synced()
            option = next(o for o in await asyncio.to_thread(black.intents)
                          if o.group == group and o.side in (None, "black"))
            answered_in_app += await answer_while(
                pilot, app, lambda: api_move(black, option), option.label)

        assert clock(red) == (0, "", "")
        await red_key("d")  # impetus: red rolls red's die, black's responder black's
        number, phase, first = clock(red)
        assert (number, phase) == (1, "Movement") and first in ("red", "black")
        assert "Turn 1 of 6" in screen_text(app)
        for side in (first, "black" if first == "red" else "red"):
            if side == "red":
                await red_key("a")  # move into contact with black's first unit
                await red_key("d")  # red has moved
            else:
                await black_plays(ADVANCE)  # black has moved
        await synced()
        assert clock(red)[1] == "Shooting"
        await red_key("a")  # red's first unit fires; black rolls its saves
        await black_plays(UNIT)  # black's first unit fires (red rolls saves for any hits)
        await red_key("d")  # casualties come off
        await synced()
        assert clock(red)[1] == "Melee"
        await black_plays(UNIT)  # black starts the melee: red's terminal rolls red's dice
        await red_key("d")  # end of the melee phase
        await red_key("d")  # morale
        await synced()
        # Issue 22: between turns the track shows the turn the header announces.
        assert clock(red) == clock(black) == (2, "", "")
    assert black_answered, "black never answered its own steps in red's actions"
    assert answered_in_app, "red's terminal never answered a step of black's"
    assert red.narrative() == black.narrative()
    assert red.view() == black.view()  # no secrets in Classic: one table
    state = cl_host.table.game.state
    assert state.turn == 1 and not any(u.engaged for u in state.units["red"])

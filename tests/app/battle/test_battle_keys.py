"""Issue 26: every battle-screen key acts or says why not. Textual passes over a
disabled binding without a word; the board answers with a notification naming what
can be done instead (``BattleScreen.why_not``)."""

from __future__ import annotations

from typing import Any

import pytest
from app_helpers import aiotest, battle_app, session_at
from ch_helpers import ch_forces, ch_session

from deathzap_tui.app.app import GamePlan
from deathzap_tui.app.battle.battle import BattleScreen
from deathzap_tui.app.battle.cover import CoverScreen
from deathzap_tui.headless.flow import new_session


def said(app: Any) -> list[str]:
    return [n.message for n in app._notifications]


@aiotest
async def test_draw_while_activations_remain_says_so(demo_paths) -> None:
    session = session_at(*demo_paths)
    app = battle_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("d")
        events = len(session.game.log)
        assert isinstance(app.screen, BattleScreen) and app.screen.in_group("unit")
        await pilot.press("d")
        await pilot.pause()
        assert len(session.game.log) == events
        words = said(app)[-1]
        assert words.startswith("not yet") and "a activate" in words


@aiotest
async def test_keys_during_an_unfinished_set_up_say_to_finish_it(demo_paths) -> None:
    session = new_session(GamePlan(*demo_paths, 7, {}, "unfinished"))
    app = battle_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        assert isinstance(app.screen, BattleScreen)
        for key in ("d", "a"):
            await pilot.press(key)
            await pilot.pause()
            assert said(app)[-1].startswith("finish the set-up first: n plays the next step")
        assert len(session.game.log) == 0


@aiotest
async def test_undo_with_nothing_to_undo_says_so(demo_paths) -> None:
    app = battle_app(session_at(*demo_paths))
    async with app.run_test(size=(100, 30)) as pilot:
        while app.screen.session.can_undo:
            app.screen.session.undo()
        await pilot.press("u")
        await pilot.pause()
        assert said(app)[-1] == "nothing to undo"


@pytest.fixture
def ch_paths(workdir):
    return ch_forces(workdir)


@aiotest
async def test_command_hand_keys_during_a_secret_interrupt_point_to_h(ch_paths) -> None:
    """Red may interrupt 3♣ (seed 7): `a` and `o` point to `h`, the only way to the
    decision on a shared terminal (the README said `o`)."""
    session = ch_session(*ch_paths)
    app = battle_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(10):
            await pilot.press("d")
            await pilot.pause()
            if session.view().secret_turn:
                break
        assert isinstance(app.screen, CoverScreen)
        await pilot.press("escape")
        for key in ("a", "o", "d"):
            await pilot.press(key)
            await pilot.pause()
            assert said(app)[-1].startswith("RED decides in secret first: press h"), key
        assert session.view().secret_turn == "red"

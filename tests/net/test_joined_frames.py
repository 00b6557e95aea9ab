"""A joined terminal draws what the table pushes in one frame (issue 23): a wizard the
table closes (its question answered at another terminal) shows the board again
already up to date, not repainted whole and then updated in a second frame.

Frames are counted in-process, as tests/app/wizard/test_wizard_frames.py does: every
``App._display`` with something to draw is one frame."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from joined_helpers import run, until
from textual.app import App

from deathzap_tui.rules.steps import ROLL, DiceRequest


@run
async def test_a_wizard_the_table_closes_shows_the_board_in_one_frame(
        two_terminals, monkeypatch) -> None:
    from deathzap_tui.app.remote import app as joined
    from deathzap_tui.net.client import RemoteSession

    frames = []
    display = App._display

    def counted(app: App[Any], screen: Any, renderable: Any) -> None:
        if renderable is not None and not app._batch_count:
            frames.append(type(screen).__name__)
        display(app, screen, renderable)

    monkeypatch.setattr(App, "_display", counted)
    red, black, hand = (RemoteSession.connect(two_terminals.socket_path, side, timeout=5)
                        for side in ("red", "black", "black"))
    try:
        app = joined.JoinedApp(black, side="black")
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, joined.JoinedBattleScreen))
            battle = app.screen
            for _ in range(10):  # a hit until one asks black for saves
                action = await asyncio.to_thread(red.begin, {"type": "hit", "side": "red"})
                await asyncio.to_thread(action.resolution.answer, "open")
                await asyncio.to_thread(action.resolution.answer, ROLL)
                if action.resolution.step is not None:
                    break
                await asyncio.to_thread(red.commit, action)
            else:
                pytest.fail("ten hits and never a save")
            await until(pilot, lambda: isinstance(app.screen, joined.JoinedWizardScreen)
                        and isinstance(app.screen.resolution.step, DiceRequest))
            for _ in range(3):
                await pilot.pause(0.05)
            before = len(frames)
            saves = hand.pending_action()
            assert saves is not None
            await asyncio.to_thread(saves.resolution.answer, ROLL)  # at the other terminal
            await until(pilot, lambda: app.screen is battle
                        and any("saves" in line for line in battle._live))
            for _ in range(3):
                await pilot.pause(0.05)
            assert frames[before:] == ["JoinedBattleScreen"]
    finally:
        for session in (red, black, hand):
            session.close()

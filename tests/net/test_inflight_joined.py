"""A joined player's action in progress is never lost (issue 26): the referee keeps
it over a closed terminal, a dropped link or its own restart (tests/net/test_faults),
and the player's terminal opens the wizard on it again at the same step."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import pytest
from joined_helpers import hit_to_its_dice, run, until

from deathzap_tui.net.wire import Waiting
from deathzap_tui.rules.steps import ROLL, DiceRequest, Refused

pytest.importorskip("textual")


async def finish_in_wizard(pilot: Any, wizard: Any, black: Any) -> None:
    """Red's dice by keys, black's saves through the API, then red confirms."""
    await pilot.press(*"66", "enter")
    await until(pilot, lambda: isinstance(wizard.resolution.step, Waiting))
    assert black.wait_for(lambda s: (a := s.pending_action()) is not None
                          and isinstance(a.resolution.step, DiceRequest))
    await asyncio.to_thread(black.pending_action().resolution.answer, ROLL)
    await until(pilot, lambda: wizard.resolution.step is None)
    await pilot.press("ctrl+s")
    await until(pilot, lambda: black.events == 1)


@run
async def test_a_new_terminal_opens_the_wizard_where_the_last_one_left_it(
        host, clients) -> None:
    from deathzap_tui.app.remote.app import JoinedApp
    from deathzap_tui.app.remote.wizard import JoinedWizardScreen

    first, black = clients("red"), clients("black")
    action = first.begin({"type": "hit", "side": "red"})
    action.resolution.answer("open")
    first.close()  # that terminal is gone (its SSH link dropped, say)
    assert black.wait_for(lambda s: s.presence["red"] == 0)
    red = clients("red")
    app = JoinedApp(red, side="red")
    async with app.run_test(size=(110, 34)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, JoinedWizardScreen))
        wizard = app.screen
        assert isinstance(wizard.resolution.step, DiceRequest)  # red's to-hit dice
        assert wizard.resolution.answers == ["open"]
        await finish_in_wizard(pilot, wizard, black)


@run
async def test_the_wizard_stays_on_its_action_over_a_dropped_link(host, clients) -> None:
    from deathzap_tui.app.remote.app import JoinedApp

    red, black = clients("red"), clients("black")
    app = JoinedApp(red, side="red")
    async with app.run_test(size=(110, 34)) as pilot:
        wizard = await hit_to_its_dice(pilot, app)
        action = wizard.token
        red._loop.call_soon_threadsafe(  # the link breaks under it
            lambda: red._writer.transport.get_extra_info("socket").shutdown(socket.SHUT_RDWR))
        await until(pilot, lambda: not red.connected)
        await until(pilot, lambda: red.connected and red.presence.get("red") == 1)
        await pilot.pause()
        assert app.screen is wizard and wizard.token is action and not action.discarded
        assert wizard.resolution.answers == ["open"]
        await finish_in_wizard(pilot, wizard, black)


@run
async def test_quitting_mid_action_says_the_table_keeps_it(host, clients) -> None:
    from deathzap_tui.app.common.dialogs import AskScreen
    from deathzap_tui.app.remote.app import JoinedApp
    from deathzap_tui.app.remote.wizard import JoinedWizardScreen

    red = clients("red")
    app = JoinedApp(red, side="red")
    async with app.run_test(size=(110, 34)) as pilot:
        await pilot.press("o")
        await until(pilot, lambda: isinstance(app.screen, JoinedWizardScreen))
        if app.screen.resolution is None:
            await pilot.press("1")
        await until(pilot, lambda: app.screen.resolution is not None)
        await pilot.press("ctrl+q")
        await until(pilot, lambda: isinstance(app.screen, AskScreen))
        assert "The table keeps it: join again as red" in app.screen.message
        await pilot.press("y")
    assert host.table.pending is not None  # kept for red's next terminal


def test_a_restarted_table_knows_who_gave_each_answer(new_session) -> None:
    """The kept record holds no answerers: each step says whose it was, so a new
    table hands the next step (and taking one back) to the right player."""
    from deathzap_tui.net.referee import Table
    from deathzap_tui.session import Session

    table = Table(new_session("duel"))
    aid = table.begin("red", {"type": "hit", "side": "red"})
    table.answer("red", aid, "open")
    table.answer("red", aid, {"faces": [6, 6]})
    table.answer("black", aid, {"faces": [5, 1]})  # black's saves, typed
    answers = list(table.pending.action.resolution.answers)
    again = Table(Session.resume("duel"))  # the referee restarted
    assert again.pending is not None and again.pending.answerers == ["red", "red", "black"]
    assert again.pending.action.resolution.answers == answers  # the same dice
    assert "red's hit was in progress" in again.notice
    with pytest.raises(Refused, match="black's to take back"):
        again.back("red", again.pending.aid)
    again.back("black", again.pending.aid)
    assert again.pending.answerer == "black"

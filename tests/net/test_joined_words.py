"""Issue 22, the words of a joined table: a step of another player's action is titled
with the action, not as that player's ("RED's rolloff" while Black answers), and the
table's status names sides as words and actions by the rules' own label; a wizard
closed from another terminal of its player says what closed it (issue 23)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from joined_helpers import run, until

from deathzap_tui.rules.ruleset import IntentOption
from deathzap_tui.rules.steps import Dice, DiceRequest

pytest.importorskip("textual")


@run
async def test_the_answering_players_wizard_is_titled_by_the_action(host, clients) -> None:
    from textual.widgets import Static

    from deathzap_tui.app.remote.app import JoinedApp
    from deathzap_tui.app.remote.battle import JoinedBattleScreen
    from deathzap_tui.app.remote.wizard import JoinedWizardScreen

    red, black = clients("red"), clients("black")
    app = JoinedApp(black, side="black")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, JoinedBattleScreen))
        await pilot.pause()
        action = red.begin({"type": "hit", "side": "red"})
        action.resolution.answer("open")
        action.resolution.answer(Dice(faces=(5, 5)))
        await until(pilot, lambda: isinstance(app.screen, JoinedWizardScreen)
                    and app.screen.is_mounted)
        wizard = app.screen

        def title() -> str:
            return str(wizard.query_one("#wiz-title", Static).render())

        await until(pilot, lambda: isinstance(wizard.resolution.step, DiceRequest)
                    and title() != "")
        assert "(begun by RED)" in title() and "RED's" not in title()
        assert black.turn["text"] == "Black: saves"


def test_the_status_names_sides_and_the_rules_label(host, clients, monkeypatch) -> None:
    red, black = clients("red"), clients("black")
    action = red.begin({"type": "hit", "side": "red"})
    action.resolution.answer("open")
    action.resolution.answer(Dice(faces=(5, 5)))
    assert black.wait_for(lambda s: (a := s.pending_action()) is not None
                          and isinstance(a.resolution.step, DiceRequest))
    black.pending_action().resolution.answer(Dice(faces=(1, 1)))
    assert red.wait_for(lambda s: action.resolution.step is None)
    assert black.wait_for(lambda s: s.turn["text"].startswith("Red to confirm"))
    assert black.turn == {"side": "red", "text": "Red to confirm: hit"}
    table = host.table
    rolloff = IntentOption({"type": "rolloff"}, "Roll off for base lines")
    monkeypatch.setattr(type(table.ruleset), "intents",
                        lambda self, state, viewer=None: [rolloff])
    assert table._label({"type": "rolloff"}) == "Roll off for base lines"
    assert table._label({"type": "hit", "side": "red"}) == "hit"  # more than its type


@run
async def test_a_wizard_ended_at_the_players_other_terminal_says_what_ended_it(
        new_session, tmp_path) -> None:
    """Issue 23: two terminals of one player stay consistent. The wizard open on the
    action at one closes when the other cancels it, saying so, and closes quietly
    when the other commits it (the log shows what it did), never "dropped"."""
    from referee_harness import HostThread

    from deathzap_tui.app.remote.app import JoinedApp
    from deathzap_tui.app.remote.battle import JoinedBattleScreen
    from deathzap_tui.app.remote.wizard import JoinedWizardScreen
    from deathzap_tui.net.client import RemoteSession
    from deathzap_tui.net.limits import Limits

    h = HostThread(new_session("hands"), tmp_path / "h.sock",
                   limits=Limits(player_terminals=2)).start()
    red = RemoteSession.connect(h.socket_path, "red", timeout=5)
    hands = RemoteSession.connect(h.socket_path, "red", timeout=5)
    try:
        app = JoinedApp(red, side="red")
        async with app.run_test(size=(80, 24)) as pilot:
            def told() -> list[str]:
                return [n.message for n in app._notifications]

            async def begun_there() -> Any:
                action = await asyncio.to_thread(hands.begin, {"type": "hit", "side": "red"})
                await until(pilot, lambda: isinstance(app.screen, JoinedWizardScreen)
                            and app.screen.token is red.pending_action())
                return action

            await until(pilot, lambda: isinstance(app.screen, JoinedBattleScreen))
            action = await begun_there()
            await asyncio.to_thread(action.cancel)
            await until(pilot, lambda: isinstance(app.screen, JoinedBattleScreen))
            await until(pilot, told)  # (App.notify posts a message: shown a turn later)
            assert told() == ["The action was cancelled at your other terminal."]

            action = await begun_there()
            wizard = app.screen
            await asyncio.to_thread(action.resolution.answer, "open")
            await asyncio.to_thread(action.resolution.answer, Dice(faces=(1, 1)))  # missed
            await until(pilot, lambda: wizard.resolution.done)
            await asyncio.to_thread(hands.commit, action)
            await until(pilot, lambda: isinstance(app.screen, JoinedBattleScreen))
            await pilot.pause()
            assert told() == ["The action was cancelled at your other terminal."]
            assert wizard.token.committed and not wizard.token.discarded
            assert app.screen._shown_narrative[-1] == wizard.token.ended.line != ""
    finally:
        for c in (red, hands):
            c.close()
        h.stop()

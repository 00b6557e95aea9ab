"""Pilot tests: the app driven by key presses, checked against the engine state."""

from __future__ import annotations

import pytest
from app_helpers import aiotest, battle_app, finish_wizard, keys_for, session_at

from deathzap_tui.app.battle.battle import BattleScreen
from deathzap_tui.app.gameover.gameover import GameOverScreen
from deathzap_tui.app.wizard.wizard import WizardScreen
from deathzap_tui.rules.events import effective
from deathzap_tui.rules.ruleset import UNIT
from deathzap_tui.session import Session


@pytest.mark.slow
@aiotest
async def test_short_game_through_the_ui(demo_paths) -> None:
    """Set-up done, then cards drawn and units activated with keys only, dice both
    typed and generated, until the players end the game by agreement (DZ3-R2)."""
    session = session_at(*demo_paths, options={"end": "agreement"}, save="ui-game")
    app = battle_app(session)
    dice_steps = 0
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(3):
            await pilot.press("d")
            assert isinstance(app.screen, BattleScreen)
            for _ in range(3):
                if not app.screen.in_group(UNIT):
                    break
                await pilot.press("a")
                dice_steps += await finish_wizard(pilot, app, dice="mixed")
                assert isinstance(app.screen, BattleScreen)
        await pilot.press("e", "y")  # ending is confirmed first (issue 22)
        await finish_wizard(pilot, app, dice="typed")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
    state = session.game.state
    assert state.over and state.winner in ("red", "black", "draw")
    assert dice_steps >= 4, "the game should have rolled dice both ways"
    answers = [a for e in effective(session.game.log) for a in e.data.get("answers", [])]
    faces = [a for a in answers if isinstance(a, dict) and "faces" in a]
    assert any(a["generated"] for a in faces) and any(not a["generated"] for a in faces)
    # The save is current: resuming it rebuilds the same final state.
    again = Session.resume(session.path)
    assert again.game.state == state


@aiotest
async def test_cancel_changes_nothing_and_back_steps(demo_paths) -> None:
    session = session_at(*demo_paths, draws=5)
    before = session.game.state.snapshot()
    events = len(session.game.log)
    app = battle_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("d", "a", "1", "1")
        wiz = app.screen
        assert isinstance(wiz, WizardScreen) and wiz.resolution is not None
        first = wiz.resolution.step
        await pilot.press(*keys_for(first, entered=True))
        assert wiz.resolution.step != first or len(wiz.resolution.answers) == 1
        await pilot.press("escape")
        assert wiz.resolution.answers == [] and wiz.resolution.step == first
        await pilot.press("ctrl+x")
        assert isinstance(app.screen, BattleScreen)
    assert len(session.game.log) == events + 1  # only the draw
    session.undo()
    assert session.game.state.snapshot() == before


@aiotest
async def test_the_wizard_starts_clean_for_every_action(demo_paths) -> None:
    """The battle screen keeps one wizard and restarts it per action (for speed):
    nothing of the last action (answers, history, the done state, the odds chart)
    may show in the next one, and a confirmed action is recorded once."""
    from deathzap_tui.app.wizard.odds import OddsPanel

    session = session_at(*demo_paths, draws=5)
    app = battle_app(session, dice_mode="generated")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("d", "a")
        wiz = app.screen
        assert isinstance(wiz, WizardScreen)
        charted = False
        for _ in range(60):  # walk to the end, opening the odds chart on the way
            if wiz.resolution is None:
                await pilot.press("1")
                continue
            if wiz.query_one(OddsPanel).display and not wiz.query_one(OddsPanel).detail:
                await pilot.press("ctrl+o")
                charted = True
            if wiz.resolution.step is None:
                break
            await pilot.press(*keys_for(wiz.resolution.step, entered=False))
        assert wiz.resolution is not None and wiz.resolution.done
        assert wiz.has_class("-done") and charted
        events = len(session.game.log)
        await pilot.press("enter")
        assert isinstance(app.screen, BattleScreen)
        assert len(session.game.log) == events + 1
        await pilot.press("a")
        assert app.screen is wiz  # the same screen, restarted
        assert wiz.resolution is None and wiz.token is None and wiz.asked == []
        assert wiz.pick is not None and wiz.pick.title.startswith("Choose")
        assert not wiz.has_class("-done") and not wiz.query_one(OddsPanel).detail
        assert "▶" not in str(wiz.query_one("#wiz-history").render())
        await pilot.press("ctrl+x")
        assert isinstance(app.screen, BattleScreen)
        assert len(session.game.log) == events + 1
    assert len(app.screen_stack) <= 2


@aiotest
async def test_dice_entry_feedback_and_refusal(demo_paths) -> None:
    session = session_at(*demo_paths, draws=5)
    app = battle_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("d", "a", "1", "1")
        wiz = app.screen
        from deathzap_tui.rules.steps import DiceRequest

        for _ in range(10):  # walk to the first dice request
            step = wiz.resolution.step
            if isinstance(step, DiceRequest):
                break
            await pilot.press(*keys_for(step, entered=True))
        step = wiz.resolution.step
        assert isinstance(step, DiceRequest)
        feedback = wiz.query_one("#wiz-feedback")
        if step.count > 1:
            await pilot.press("3")
            assert f"1 of {step.count} dice entered" in str(feedback.render())
        await pilot.press("9", "enter")
        assert "✗" in str(feedback.render())
        assert wiz.resolution.step == step  # refused: still on the same step


@aiotest
async def test_undo_redo_keys(demo_paths) -> None:
    session = session_at(*demo_paths, draws=1)
    app = battle_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        n = len(effective(session.game.log))
        await pilot.press("u")
        assert len(effective(session.game.log)) == n - 1
        await pilot.press("r")
        assert len(effective(session.game.log)) == n


@aiotest
async def test_help_search_from_battle(demo_paths) -> None:
    session = session_at(*demo_paths)
    app = battle_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        from deathzap_tui.app.common.help import HelpScreen

        assert isinstance(app.screen, HelpScreen)
        await pilot.press(*"morale")
        text = str(app.screen.query_one("#help-text").render())
        assert "morale" in text.lower()
        await pilot.press("escape")
        assert isinstance(app.screen, BattleScreen)


@pytest.mark.parametrize("quick", [True, False])
@aiotest
async def test_start_screen_starts_a_game(demo_paths, quick) -> None:
    from deathzap_tui.app.app import DeathzapApp, Launch

    app = DeathzapApp(Launch("start", seed=3))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+g" if quick else "ctrl+s")
        await pilot.pause()
        if not quick:
            await pilot.press("g")  # set-up: everything generated
            await pilot.pause()
        assert isinstance(app.screen, BattleScreen)
        assert app.session is not None and app.session.path.exists()
        assert app.session.game.state.phase == "battle"


@aiotest
async def test_command_palette_offers_the_legal_actions(demo_paths) -> None:
    session = session_at(*demo_paths)
    app = battle_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+p", *"draw a card")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, BattleScreen)
        assert session.game.state.card  # a card is up


@pytest.mark.slow
@aiotest
async def test_quick_resolve_runs_the_same_wizard_without_a_save(demo_paths, workdir) -> None:
    """Quick resolve (issue 3): two units of any forces, one shooting attack through
    the same wizard with typed and generated dice; the result is shown and nothing is
    saved."""
    from deathzap_tui.app.app import DeathzapApp, Launch

    app = DeathzapApp(Launch("resolve", attacker=f"forces/{demo_paths[0].name}:2",
                             target=f"forces/{demo_paths[1].name}:Shade Cell"))
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, WizardScreen)
        assert await finish_wizard(pilot, app, dice="mixed") >= 2
        await pilot.pause()
        shown = app.screen.query_one("#quick-result")
        result = str(shown.render())
        assert "Result" in shown.border_title and "fires" in result
    assert list((workdir / "saves").iterdir()) == []

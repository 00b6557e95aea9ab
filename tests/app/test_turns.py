"""The app carries any turn structure: a toy turn-based ruleset (turntoy.py) shows
its phase track instead of a deck, labels the advance key from its view, walks its
own set-up step, and offers every intent group; the score is labelled in the
ruleset's terms (the Command Hand "figures" bug)."""

from __future__ import annotations

import sys

import pytest
import turntoy
from app_helpers import aiotest, battle_app, keys_for
from ch_helpers import ch_forces, ch_session, screen_text

from deathzap_tui.app.app import DeathzapApp, GamePlan, Launch
from deathzap_tui.app.battle.battle import BattleScreen
from deathzap_tui.app.battle.clock import ClockWidget, render_clock, turn_line
from deathzap_tui.app.battle.deck import DeckWidget
from deathzap_tui.app.battle.units import UnitTable
from deathzap_tui.app.common.keybar import KeyBar
from deathzap_tui.app.gameover.gameover import GameOverScreen, render_over
from deathzap_tui.app.wizard.wizard import WizardScreen
from deathzap_tui.headless.flow import new_session, quick_setup
from deathzap_tui.net.wire import intent_from_data, to_data, view_from_data
from deathzap_tui.rules import registry
from deathzap_tui.rules.ruleset import ADVANCE, END, OTHER, SETUP, UNIT, TurnClock


@pytest.fixture
def drill(workdir, monkeypatch):
    """The toy registered for this test only, and its two force files."""
    monkeypatch.setitem(sys.modules, "turntoy", turntoy)
    monkeypatch.setitem(registry._PLUGINS, turntoy.ID, "turntoy")
    return turntoy.write_forces(workdir / "forces")


def drill_session(drill, save: str = "drill"):
    session = new_session(GamePlan(*drill, 3, {}, save))
    quick_setup(session)
    return session


def palette_titles(screen) -> set[str]:
    return {title for title, _help, _callback in screen.palette_commands()}


def test_quick_setup_walks_every_setup_step(drill) -> None:
    """The roll-off and then the toy's own step (naming a general: a question with
    choices, answered with the first) are walked with no type names known."""
    state = drill_session(drill).game.state
    assert state.stage == "battle"
    assert state.general == state.figures[state.first][0]


def test_clock_text() -> None:
    clock = TurnClock(2, 6, "Turn", ("Impetus", "Movement", "Shooting"), "Movement",
                      "red", "Red chose the order")
    assert turn_line(clock) == "Turn 2 of 6"
    assert turn_line(TurnClock(0, 6)) == "Before turn 1 of 6"
    assert turn_line(TurnClock(3, unit="Round")) == "Round 3"
    lines = render_clock(clock).plain.splitlines()
    assert lines == ["  Impetus", "▶ Movement ", "  Shooting", "RED to act",
                     "Red chose the order"]
    assert render_clock(clock).spans  # done phases dim, the current one reversed


def test_groups_and_views_cross_the_wire(drill) -> None:
    """A joined terminal gets the same groups, clock and no-deck view."""
    session = drill_session(drill)
    view = session.view()
    assert view_from_data(to_data(view)) == view
    assert view.deck is None and view.clock is not None
    for option in session.intents():
        assert intent_from_data(to_data(option)) == option


@aiotest
async def test_setup_screen_walks_a_custom_step(drill) -> None:
    """The set-up screen renders whatever a SETUP intent asks: dice, then a question
    naming the general; the choice made is the one recorded."""
    app = DeathzapApp(Launch("setup", plan=GamePlan(*drill, 3, {}, "drill")))
    asked = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        for _ in range(10):
            screen = app.screen
            if not isinstance(screen, WizardScreen):
                break
            step = screen.resolution.step
            if step is None:
                await pilot.press("ctrl+s")
                continue
            asked.append(step.key)
            if step.key == "general":
                assert "Which figure is red's general?" in screen_text(app)
                await pilot.press("2")
            else:
                await pilot.press(*keys_for(step, entered=True))  # 6 6: red wins
        await pilot.pause()
        assert isinstance(app.screen, BattleScreen)
    assert asked == ["rolloff", "general"]
    assert app.session.game.state.general == "Bo"


@aiotest
async def test_turn_based_battle_screen(drill) -> None:
    """The clock where the deck would be, no deck, the advance key labelled from the
    view, the score in the view's terms, every group in the palette and its key."""
    session = drill_session(drill)
    app = battle_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        clock, deck = screen.query_one(ClockWidget), screen.query_one(DeckWidget)
        assert clock.display and not deck.display and deck.region.height == 0
        keys = screen.query_one(KeyBar)._text.plain
        assert "d Next phase" in keys and "Draw card" not in keys
        assert "0 kills" in screen.query_one("#units-red", UnitTable).border_title
        text = screen_text(app)
        assert "Turn 1 of 3" in text and "▶ Move" in text and "RED to act" in text

        await pilot.press("d")  # Move -> Shoot: black acts
        assert "▶ Shoot" in screen_text(app)
        groups = {o.group for o in screen.options}
        assert groups == {ADVANCE, UNIT, END}
        assert {"Next phase", "black squad: shoot", "Concede the drill"} <= palette_titles(
            screen)
        assert screen.check_action("unit", ()) and not screen.check_action("other", ())

        await pilot.press("d")  # Shoot -> Rally: the OTHER intent, on "o" and the palette
        assert OTHER in {o.group for o in screen.options}
        assert "Sound the rally" in palette_titles(screen)
        assert screen.check_action("other", ())

        await pilot.press("e", "y")  # END, confirmed: conceding asks nothing, it is over
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        assert "Final kills" in screen_text(app)


@aiotest
async def test_setup_key_and_palette_before_setup(drill) -> None:
    """A game opened before its set-up: SETUP intents are on "n" and the palette."""
    session = new_session(GamePlan(*drill, 3, {}, "drill"))
    app = battle_app(session)
    async with app.run_test(size=(80, 24)):
        screen = app.screen
        assert {o.group for o in screen.options} == {SETUP}
        assert screen.check_action("setup", ()) and "Roll off" in palette_titles(screen)
        assert "n Set-up step" in screen.query_one(KeyBar)._text.plain
        assert "Before turn 1 of 3" in screen_text(app)


@aiotest
async def test_command_hand_scores_figures_without_objectives(workdir) -> None:
    """CH playing for elimination counts figures: the unit tables, the score and the
    game-over screen all say so (they said "VP" before)."""
    red, black = ch_forces(workdir)
    session = ch_session(red, black)
    view = session.view()
    assert view.score_label == "figures"
    over = render_over(view, {"red": "Ironbark Rangers", "black": "Cinder Collective"}).plain
    assert "Final figures" in over and "RED (Ironbark Rangers): 10 figures" in over
    assert "VP" not in over
    app = battle_app(session)
    async with app.run_test(size=(80, 24)):
        title = app.screen.query_one("#units-red", UnitTable).border_title
        assert "RED — Ironbark Rangers — 10 figures" in title
    objectives = new_session(GamePlan(red, black, 7, {"victory": "objectives"}, "ch-vp"))
    quick_setup(objectives)
    assert objectives.view().score_label == "VP"

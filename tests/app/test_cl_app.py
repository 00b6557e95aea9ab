"""Deathzap Classic in the app: the start screen offers it with its own forces, the
battle screen shows its phase track (no deck) at both sizes, and one whole turn
(impetus, movement, shooting, melee, morale) is played with keys only."""

from __future__ import annotations

from pathlib import Path

import pytest
from app_helpers import (
    aiotest,
    battle_app,
    choose_ruleset,
    copy_forces,
    finish_wizard,
    play_quick,
    quick_start_turns,
)
from ch_helpers import screen_text

from deathzap_tui.app.app import DeathzapApp, GamePlan, Launch
from deathzap_tui.app.battle.clock import ClockWidget
from deathzap_tui.app.common.keybar import KeyBar
from deathzap_tui.headless.describe import auto_answer
from deathzap_tui.headless.flow import new_session, quick_setup
from deathzap_tui.rules.ruleset import ADVANCE, SETUP, UNIT
from deathzap_tui.session import Session

CL_FORCES = ("cl-red-dawn-irregulars.toml", "cl-black-maw-brood.toml")
CL_SEED = 7
"""Seed 7: red has the impetus in turn 1 (5 v 2); the objectives are Hard Hitters
and Push."""
SMALL = (80, 24)
LARGE = (120, 40)


@pytest.fixture
def cl_paths(workdir: Path) -> tuple[Path, Path]:
    """Copies of the two shipped Classic forces in the test's forces/."""
    return copy_forces(workdir, CL_FORCES)


def cl_session(red: Path, black: Path, *, impetus: bool = True) -> Session:
    """A Classic game after quick set-up and, with ``impetus``, turn 1's impetus
    roll (generated dice, the default order): red is moving."""
    session = new_session(GamePlan(red, black, CL_SEED, {}, "cl"))
    quick_setup(session)
    if impetus:
        (advance,) = [o for o in session.intents() if o.group == ADVANCE]
        action = session.begin(advance.intent)
        while action.resolution.step is not None:
            action.resolution.answer(auto_answer(action.resolution.step))
        session.commit(action)
    return session


def test_cl_battle_small(snap_compare, cl_paths) -> None:
    assert snap_compare(battle_app(cl_session(*cl_paths)), terminal_size=SMALL)


def test_cl_battle_large(snap_compare, cl_paths) -> None:
    assert snap_compare(battle_app(cl_session(*cl_paths)), terminal_size=LARGE)


@aiotest
async def test_start_screen_offers_classic_with_its_forces(cl_paths, demo_paths) -> None:
    """Every registered ruleset is offered; choosing Classic preselects its forces,
    and quick start walks its set-up to a battle screen with a phase track. (A
    Classic force with nine units once made the start screen pick it as a "demo"
    beside a Deathzap 3 one, and crash.)"""
    from textual.widgets import Input, Select

    app = DeathzapApp(Launch("start", seed=CL_SEED))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        ruleset = screen.query_one("#ruleset", Select)
        assert {"deathzap3", "command-hand", "classic"} <= {v for _l, v in ruleset._options}
        # It opens on the default ruleset's demo forces, whatever else forces/ holds.
        assert ruleset.value == "deathzap3"
        assert {Path(screen.query_one(f"#{s}-path", Input).value).name
                for s in ("red", "black")} == {p.name for p in demo_paths}
        assert await choose_ruleset(pilot, "classic") == set(CL_FORCES)
        await quick_start_turns(pilot, "classic")


def test_play_quick_walks_the_classic_setup(cl_paths, monkeypatch) -> None:
    """``deathzap play --quick`` reaches turn 1's impetus roll with no set-up left."""
    session = play_quick(cl_paths, 7, monkeypatch)
    assert session.ruleset.id == "classic"
    groups = {o.group for o in session.intents()}
    assert ADVANCE in groups and SETUP not in groups
    assert session.view().clock.number == 0


@pytest.mark.slow
@aiotest
async def test_one_classic_turn_with_keys(cl_paths) -> None:
    """Turn 1 from its impetus roll to the next turn's, keys only, every die rolled
    by the app: one unit moves into contact, one unit shoots, the melee is fought,
    morale is tested. The clock and the advance key follow each phase."""
    session = cl_session(*cl_paths, impetus=False)
    app = battle_app(session, dice_mode="generated")
    async with app.run_test(size=LARGE) as pilot:
        screen = app.screen
        keys = screen.query_one(KeyBar)

        async def key(name: str) -> None:
            await pilot.press(name)
            await finish_wizard(pilot, app, dice="rolled")
            assert app.screen is screen

        def clock() -> tuple[int, str, str]:
            c = session.view().clock
            return c.number, c.current, c.active

        assert clock() == (0, "", "")
        assert "d Impetus" in keys._text.plain
        await key("d")  # impetus: both dice, the objectives, red's order
        assert clock() == (1, "Movement", "red")
        assert "▶ Movement" in screen_text(app) and "RED to act" in screen_text(app)
        assert f"d {session.view().advance_label}" in keys._text.plain

        await key("a")  # red's first unit moves into contact with black's first
        state = session.game.state
        assert state.units["red"][0].engaged
        await key("d")  # red has moved
        assert clock() == (1, "Movement", "black")
        await key("d")  # black has moved
        assert clock()[1] == "Shooting"

        shots = [o for o in screen.options if o.group == UNIT]
        await key("a")  # the first unit able to shoot fires (the wizard asks the rest)
        assert len([o for o in screen.options if o.group == UNIT]) == len(shots) - 1
        await key("d")  # end shooting: casualties come off
        assert clock()[1] == "Melee"

        await key("a")  # fight the melee
        assert not session.game.state.units["red"][0].engaged
        await key("d")  # end the melee phase
        assert clock()[1] == "Morale"
        await key("d")  # morale
        # Issue 22: between turns the track shows the turn the header announces.
        assert clock() == (2, "", "") and session.view().prompt.startswith("Turn 2:")
        assert "▶" not in str(screen.query_one(ClockWidget).render())
    # The save is current: resuming it rebuilds the same state.
    assert Session.resume(session.path).game.state == session.game.state

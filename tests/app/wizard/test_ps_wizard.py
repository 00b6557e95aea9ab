"""The wizard answering every kind of Plasmashok shooting step by keys, with faces
typed in (physical dice): the Rootmother fires its Radius Weapon and its Arc Weapon
at the Choir Wardens (PS §5, app reading 6), and the narration and the pending
wounds follow the faces typed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from app_helpers import aiotest, battle_app, copy_forces
from test_ps_app import PS_FORCES, ps_session

from deathzap_tui.app.wizard.odds import OddsPanel
from deathzap_tui.app.wizard.wizard import WizardScreen
from deathzap_tui.rules.steps import DiceRequest, Question

SMALL = (80, 24)


@pytest.fixture
def ps_paths(workdir: Path) -> tuple[Path, Path]:
    return copy_forces(workdir, PS_FORCES)


def step_of(app: Any) -> Any:
    screen = app.screen
    assert isinstance(screen, WizardScreen)
    return screen.resolution.step


async def type_faces(pilot: Any, faces: str) -> None:
    """Type the faces into the step's field ("4411") and press Enter."""
    from textual.widgets import Input

    step = step_of(pilot.app)
    assert isinstance(step, DiceRequest) and step.count == len(faces)
    pilot.app.screen.query_one("#wiz-input", Input).value = faces
    await pilot.press("enter")


@aiotest
async def test_ps_radius_and_arc_shot_with_typed_faces(ps_paths) -> None:
    """PS §5 with the players' own dice. Soft cover and 7" give the Wardens 2 + 1 + 1
    defence dice (step 2); the blast covers 3 of their models (3 attack dice) and the
    Arc Weapon rolls one die per point of their size, 5 (app reading 6); defence 4 4
    1 1 blocks the Radius 1 and both Arc 4s; the size dice 1 1 1 1 1 let only the
    strength 1s through; four shield saves fail at 4+ (step 5): 4 wounds pending
    (PS §3)."""
    app = battle_app(ps_session(*ps_paths, to="shooting"))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("a")
        screen = app.screen
        units = [payload for _label, payload in screen.pick.options]
        await pilot.press(str(units.index(("unit", "black.4")) + 1), "1")  # Rootmother
        assert step_of(app).key == "target.radius-weapon"
        await pilot.press("1")  # the Choir Wardens
        assert step_of(app).key == "cover.red.0"
        await pilot.press("2")  # soft cover
        await pilot.press("7", "enter")  # 7": one full 6", one more defence die
        step = step_of(app)
        assert isinstance(step, Question) and step.key == "radius.radius-weapon.red.0"
        assert (step.minimum, step.maximum) == (1, 5)
        await pilot.press("3", "enter")  # three Wardens within 3" of the aimed-at one
        step = step_of(app)
        assert step.key.startswith("blast.") and step.choices[-1].value == step.default
        await pilot.press(str(len(step.choices)))  # no other unit under the blast
        await pilot.press("1")  # the Arc Weapon at the Wardens too
        step = step_of(app)
        assert isinstance(step, DiceRequest) and step.count == 3  # radius: 3 models
        await type_faces(pilot, "123")
        assert step_of(app).count == 5  # arc: the Wardens' size
        await type_faces(pilot, "44556")
        step = step_of(app)
        assert step.key == "defence.1" and step.side == "red" and step.count == 4
        await pilot.press(*"4411", "enter")
        notes = [n.text for n in screen.resolution.ctx.notes]
        assert notes[-1] == ("Defence 4 4 1 1: the 1s block 1 Radius Weapon die, the 4s "
                             "block 2 Arc Weapon dice; unblocked: Radius Weapon 2, Arc "
                             "Weapon 3 (PS §5 step 2).")
        assert step_of(app).count == 6  # 2 unblocked x strength 3
        await type_faces(pilot, "111222")
        assert step_of(app).count == 6  # 3 unblocked x strength 2
        await type_faces(pilot, "123456")
        assert step_of(app).key == "size.1"
        await type_faces(pilot, "11111")
        said = screen.resolution.ctx.notes[-1].text
        assert "3 hits x damage 2 = 6" in said and "1 hit x damage 1 = 1" in said
        assert "7 damage (PS §5 step 4)" in said
        step = step_of(app)
        assert step.key == "saves.1" and step.target == 4 and step.count == 7
        odds = screen.query_one(OddsPanel)
        assert odds.display and "wounds" in odds.plain()
        await type_faces(pilot, "1111666")
        assert step_of(app) is None
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is not screen
    assert app.session.game.state.unit("red.0").pending == 4

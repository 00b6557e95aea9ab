"""Quick resolve (issue 3): one attack or morale test outside a game, through the
real combat code."""

from __future__ import annotations

from pathlib import Path

import pytest

from deathzap_tui.forcefile import load_force
from deathzap_tui.rules.steps import ROLL, Dice, DiceRequest, Refused

FORCES = Path(__file__).resolve().parents[2] / "forces"
MORTAN = load_force(FORCES / "mortans-men.toml")
VANTA = load_force(FORCES / "demo-vanta-syndicate.toml")
RULESET = MORTAN.ruleset


def run(res, answers: dict) -> list[str]:
    """Answer by key, else dice with ROLL and questions with their default."""
    keys = []
    while not res.done:
        step = res.step
        keys.append(step.key)
        if step.key in answers:
            res.answer(answers[step.key])
        elif isinstance(step, DiceRequest):
            res.answer(ROLL)
        else:
            res.answer(step.default if step.default is not None else step.choices[0].value)
    return keys


def test_kinds_offered() -> None:
    assert [k for k, _ in RULESET.quick_kinds()] == ["shoot", "melee", "morale"]


def test_shooting_uses_the_game_pipeline_dz3_s6() -> None:
    res = RULESET.quick_resolution("shoot", (MORTAN.force, 1), (VANTA.force, 1), seed=3)
    keys = run(res, {"shoot.cover.black.0": "hard"})
    assert "shoot.cover.black.0" in keys and any(k.endswith(".hit") for k in keys)
    assert any("fires" in n.text for n in res.ctx.notes)


def test_melee_dice_are_figures_times_attacks_dz3_s7() -> None:
    res = RULESET.quick_resolution("melee", (MORTAN.force, 0), (VANTA.force, 1), seed=3)
    assert res.step.key == "melee.target"
    res.answer("black.0")
    assert isinstance(res.step, DiceRequest) and res.step.count == 7  # 7 cultists x MA 1


def test_morale_alone_with_leader_in_the_unit_dz3_s10() -> None:
    """Squad 1 holds its Platoon Leader: +1 to each die (Basic 6+ becomes 5+)."""
    res = RULESET.quick_resolution("morale", (MORTAN.force, 0), None, seed=1)
    res.answer(3)  # 3 figures left
    assert isinstance(res.step, DiceRequest)
    assert res.step.count == 3 and res.step.target == 5
    res.answer(Dice(faces=(1, 2, 4)))
    assert any("FAILED" in n.text for n in res.ctx.notes)


def test_quick_mode_always_asks_about_a_leader_near_dz3_s11() -> None:
    """Outside a game the app cannot know the table: a unit without its own leader
    is asked whether one is within 6"."""
    res = RULESET.quick_resolution("morale", (MORTAN.force, 1), None, seed=1)
    res.answer(7)
    assert res.step.key == "morale.leader"
    res.answer("yes")
    assert res.step.target == 5


@pytest.mark.parametrize(("kind", "target", "reason"), [
    ("dance", (VANTA.force, 0), "unknown kind"),
    ("shoot", None, "pick the target"),
    ("shoot", (VANTA.force, 99), "no unit 99"),
])
def test_bad_requests_are_refused(kind, target, reason) -> None:
    with pytest.raises(Refused, match=reason):
        RULESET.quick_resolution(kind, (MORTAN.force, 0), target, seed=1)

"""Quick resolve (issue 3): one attack or morale test outside a game, through the
real combat code."""

from __future__ import annotations

from pathlib import Path

import pytest

from deathzap_tui.forcefile import load_force
from deathzap_tui.rules.steps import ROLL, Dice, DiceRequest, Refused

FORCES = Path(__file__).resolve().parents[3] / "forces"
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
    assert "shoot.cover.black.0" in keys and "shoot.target" not in keys
    assert any(k.endswith(".hit") for k in keys)
    assert any("fires" in n.text for n in res.ctx.notes)


def _as_they_stand(res, acting_figures: int, shields: int, target_figures: int) -> None:
    assert res.step.key == "quick.standing" and res.step.default == "full"
    res.answer("set")
    assert res.step.key == "quick.acting.figures" and res.step.default == res.step.maximum
    res.answer(acting_figures)
    assert res.step.key == "quick.target.shields" and res.step.default == res.step.maximum
    res.answer(shields)
    assert res.step.key == "quick.target.figures"
    res.answer(target_figures)


def test_two_units_at_full_strength_take_one_key_before_the_cover_issue_26() -> None:
    """One key says both units stand as in their files; the target picked is not asked
    again, so the shooting's first question is the cover (DZ3 §6)."""
    res = RULESET.quick_resolution("shoot", (MORTAN.force, 1), (VANTA.force, 1), seed=3)
    res.answer("full")
    assert res.step.key == "shoot.cover.black.0"
    assert res.ctx.notes[0].text.startswith("As they stand: Squad 2 7/7 figures")


def test_melee_dice_are_figures_times_attacks_dz3_s7() -> None:
    res = RULESET.quick_resolution("melee", (MORTAN.force, 0), (VANTA.force, 1), seed=3)
    _as_they_stand(res, 7, 2, 3)
    assert isinstance(res.step, DiceRequest) and res.step.count == 7  # 7 cultists x MA 1


def test_the_units_are_set_as_they_stand_at_the_table_dz3_s6_s7() -> None:
    """Figures lost and shields used before the attack are asked first (issue 11):
    fewer attackers roll fewer dice, and the target's shields start where they are."""
    res = RULESET.quick_resolution("melee", (MORTAN.force, 0), (VANTA.force, 1), seed=3)
    _as_they_stand(res, 4, 0, 2)
    target = res.ctx.state.units["black"][0]
    assert (target.shields, target.figures_left) == (0, 2)
    assert any(n.text.startswith("As they stand:") for n in res.ctx.notes)
    assert res.step.count == 4  # 4 figures left x MA 1


def test_a_crippled_vehicle_gun_is_asked_and_hits_on_6_dz3_s9() -> None:
    tank = next(i for i, u in enumerate(VANTA.force.units) if u.vehicle)
    res = RULESET.quick_resolution("shoot", (VANTA.force, tank), (MORTAN.force, 0), seed=3)
    seen = []
    while not res.done:
        step = res.step
        seen.append(step)
        if step.key == "quick.standing":
            res.answer("set")
        elif step.key == "quick.acting.gun_crippled":
            res.answer("yes")
        else:
            res.answer(ROLL if isinstance(step, DiceRequest) else step.default)
    hits = [s for s in seen if isinstance(s, DiceRequest) and s.key.endswith(".hit")]
    assert hits and all(s.target == 6 for s in hits)  # open ground, yet 6+
    assert "(gun crippled)" in res.ctx.notes[0].text


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

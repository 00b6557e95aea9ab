"""Deathzap Classic quick resolve (issue 26): one unit's shooting with the casualties
and suppression after it, a whole melee, a panicked unit's morale test (CL §5-§7)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fixtures_common import answer_all

from deathzap_tui.forcefile import load_force
from deathzap_tui.rules.steps import ROLL, Dice, DiceRequest, Refused

FORCES = Path(__file__).resolve().parents[3] / "forces"
BROOD = load_force(FORCES / "cl-black-maw-brood.toml")
DAWN = load_force(FORCES / "cl-red-dawn-irregulars.toml")
RULESET = BROOD.ruleset
GUARD = (BROOD.force, 0)  # heavy infantry, 4 figures with Advanced guns
SQUAD = (DAWN.force, 0)  # Command Squad: infantry, 6 figures


def test_kinds() -> None:
    assert [k for k, _ in RULESET.quick_kinds()] == ["shoot", "melee", "suppression",
                                                     "morale"]


def test_shooting_then_casualties_then_suppression_cl_s5() -> None:
    res = RULESET.quick_resolution("shoot", GUARD, SQUAD, seed=2)
    res.answer("full")
    assert res.step.key == "cover.advanced.black.0"  # the target was not asked
    res.answer("soft")
    assert (res.step.count, res.step.target) == (4, 4)  # 4 guns, Advanced soft 4+
    res.answer(Dice(faces=(6, 6, 6, 1)))
    assert (res.step.key, res.step.target) == ("fire.1.save", 5)  # infantry 5+ (CL-R3)
    res.answer(Dice(faces=(1, 1, 6)))
    seen = answer_all(res, {}, dice=ROLL)
    assert [s.key for s in seen if isinstance(s, DiceRequest)] == [
        "suppression.black.0.left", "suppression.black.0.killed"]
    assert res.ctx.state.unit("black.0").figures_left == 4


def test_a_panicked_shooter_hits_only_on_a_6_cl_s5() -> None:
    res = RULESET.quick_resolution("shoot", GUARD, SQUAD, seed=2)
    for answer in ("set", 4, "yes", 6, 0, "open"):
        res.answer(answer)
    assert res.step.target == 6


def test_melee_is_both_sides_then_the_end_roll_cl_s6() -> None:
    """Pips / power (heavy infantry 5, infantry 6): 4 and 6 pips make no hit, so both
    sides stand and the end-of-melee roll follows."""
    res = RULESET.quick_resolution("melee", GUARD, SQUAD, seed=2)
    seen = answer_all(res, {"quick.standing": "full", "melee.red.1": Dice(faces=(1,) * 4),
                            "melee.black.1": Dice(faces=(1,) * 6)}, dice=ROLL)
    keys = [s.key for s in seen]
    assert keys[1:3] == ["melee.red.1", "melee.black.1"]
    assert "end.1.red" in keys and "over" in res.ctx.notes[-1].text


@pytest.mark.parametrize(("roll", "word"), [(4, "recovers"), (3, "fails")])
def test_morale_recovers_on_4_cl_s7(roll, word) -> None:
    res = RULESET.quick_resolution("morale", SQUAD, None, seed=2)
    res.answer(5)
    assert res.step.key == "morale.red.0"
    res.answer(Dice(faces=(roll,)))
    assert res.done and word in res.ctx.notes[-1].text


def test_a_unit_without_guns_cannot_shoot() -> None:
    with pytest.raises(Refused, match="has no guns"):
        RULESET.quick_resolution("shoot", (BROOD.force, 3), SQUAD, seed=1)


def test_casualties_pending_from_earlier_fire_cap_the_new_ones_cl_r2() -> None:
    """4 of the 6 are already pending: 3 failed saves add only 2 (CL-R2)."""
    res = RULESET.quick_resolution("shoot", GUARD, SQUAD, seed=2)
    for answer in ("set", 4, "no", 6, 4, "open"):
        res.answer(answer)
    res.answer(Dice(faces=(6, 6, 6, 6)))
    res.answer(Dice(faces=(1, 1, 1, 6)))
    assert "4 pending" in res.ctx.notes[0].text
    assert any("(1 more than it has figures)" in n.text for n in res.ctx.notes)
    assert res.ctx.state.unit("black.0").figures_left == 0  # all 6 come off
    assert sum(h.kills for h in res.ctx.harms if h.by == "red.0") == 2


@pytest.mark.parametrize(("left", "killed", "panicked"), [(4, 2, True), (4, 1, False)])
def test_suppression_on_its_own_cl_s5(left, killed, panicked) -> None:
    """D6 x left against D6 x killed: 2 x 4 = 8 against 5 x 2 = 10 panics, against
    5 x 1 = 5 holds."""
    res = RULESET.quick_resolution("suppression", SQUAD, None, seed=1)
    answer_all(res, {"suppression.figures": left, "suppression.killed": killed,
                     "suppression.red.0.left": Dice(faces=(2,)),
                     "suppression.red.0.killed": Dice(faces=(5,))})
    assert res.ctx.state.unit("red.0").is_panicked == panicked


def test_a_lone_figure_has_no_suppression_test_cl_s5() -> None:
    with pytest.raises(Refused, match="has one figure"):
        RULESET.quick_resolution("suppression", (BROOD.force, 6), None, seed=1)

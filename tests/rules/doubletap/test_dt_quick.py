"""Double Tap quick resolve (issue 26): shooting, charges and grenades with the
enemy's reaction, a hack, the morale test and a bare quality test (DT §1-§7)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fixtures_common import answer_all

from deathzap_tui.forcefile import load_force
from deathzap_tui.rules.steps import ROLL, Dice, Question, Refused

FORCES = Path(__file__).resolve().parents[3] / "forces"
GANG = load_force(FORCES / "dt-rustmoth-gang.toml")
CELL = load_force(FORCES / "dt-kestrel-cell.toml")
RULESET = GANG.ruleset
KARN = (GANG.force, 0)  # Tough, Sword only
MOTT = (GANG.force, 1)  # LMG
SIKE = (GANG.force, 2)  # SMG, Grenade
VEY = (CELL.force, 0)
NADIR = (CELL.force, 4)  # Hacker
ORO = (CELL.force, 1)  # Camouflage


def test_kinds() -> None:
    assert [k for k, _ in RULESET.quick_kinds()] == [
        "shoot", "melee", "grenade", "hack", "detect", "morale", "quality"]


def test_shooting_with_its_one_gun_asks_range_cover_and_the_reaction_dt_s4_s6() -> None:
    res = RULESET.quick_resolution("shoot", MOTT, VEY, seed=2)
    seen = answer_all(res, {"distance.black.0": 20}, dice=ROLL)
    keys = [s.key for s in seen]
    assert keys[:5] == ["quick.standing", "distance.black.0", "cover.black.0",
                        "down.black.0", "react.black"]
    hit = next(s for s in seen if s.key == "hit.1")
    assert (hit.count, hit.target) == (4, 3)  # LMG 4 attacks, best +1 at 19-27" (DT-R2)


def test_a_hacked_shooter_and_a_stunned_target_dt_s5_s7() -> None:
    """Hacked: -1 to its next attack (4+ becomes 5+); stunned: no reaction."""
    res = RULESET.quick_resolution("shoot", MOTT, VEY, seed=2)
    seen = answer_all(res, {"quick.standing": "set", "quick.red.hacked": "yes",
                            "quick.black.stunned": "yes", "distance.black.0": 12}, dice=ROLL)
    keys = [s.key for s in seen]
    assert "react.black" not in keys
    assert next(s for s in seen if s.key == "hit.1").target == 5
    assert "Gunner Mott, hacked; Sergeant Vey, stunned" in res.ctx.notes[0].text


def test_the_target_may_dodge_and_cancel_successes_dt_s6() -> None:
    """Saying that Black reacts is enough to pick the target (the only unit that may):
    its reaction follows, and a dodge's tests come before the blocks."""
    res = RULESET.quick_resolution("melee", SIKE, VEY, seed=2)
    seen = answer_all(res, {"react.black": "yes", "reaction.black.0": "dodge"}, dice=ROLL)
    keys = [s.key for s in seen]
    assert keys[1:3] == ["react.black", "reaction.black.0"]
    assert "cancel.black.0" in keys


def test_a_grenade_needs_the_rule_dt_s7() -> None:
    with pytest.raises(Refused, match="has no Grenade"):
        RULESET.quick_resolution("grenade", MOTT, VEY, seed=1)
    res = RULESET.quick_resolution("grenade", SIKE, VEY, seed=1)
    res.answer("full")
    assert res.step.key == "grenade"  # the weapon is the grenade: not asked


def test_hack_needs_a_hacker_dt_s7() -> None:
    with pytest.raises(Refused, match="not a Hacker"):
        RULESET.quick_resolution("hack", VEY, KARN, seed=1)
    res = RULESET.quick_resolution("hack", NADIR, KARN, seed=1)
    seen = answer_all(res, {"quick.standing": "full"}, dice=ROLL)
    assert "hack.black.0" in [s.key for s in seen]


def test_tough_wound_markers_are_asked_dt_s7() -> None:
    res = RULESET.quick_resolution("shoot", MOTT, KARN, seed=1)
    for answer in ("set", "no", "no"):  # neither unit is hacked
        res.answer(answer)
    assert res.step.key == "quick.black.wounds" and res.step.maximum == 2
    res.answer(2)
    assert res.ctx.state.unit("black.0").wounds == 2


def test_morale_after_melee_stuns_on_a_failure_dt_s5() -> None:
    res = RULESET.quick_resolution("morale", VEY, None, seed=1)
    res.answer("melee")
    res.answer(Dice(faces=(3,)))
    assert res.done and res.ctx.state.unit("red.0").stunned


@pytest.mark.parametrize(("modifier", "target", "second"), [(0, 4, False), (-1, 5, False),
                                                             (-3, 6, True)])
def test_quality_test_target_by_modifier_dt_s1(modifier, target, second) -> None:
    res = RULESET.quick_resolution("quality", VEY, None, seed=1)
    assert isinstance(res.step, Question) and res.step.default == 0
    res.answer(modifier)
    assert res.step.target == target
    res.answer(Dice(faces=(6,)))
    assert (not res.done) == second  # 7+: a six, then 4+ (DT §1)


def test_detect_needs_a_camouflaged_target_dt_s7() -> None:
    with pytest.raises(Refused, match="no camouflaged enemy"):
        RULESET.quick_resolution("detect", KARN, VEY, seed=1)
    res = RULESET.quick_resolution("detect", KARN, ORO, seed=1)
    answer_all(res, {"quick.standing": "full", "detect.black.0": Dice(faces=(4,))}, dice=ROLL)
    assert not res.ctx.state.unit("black.0").camo  # 4+: it loses its camo marker


def test_an_attacked_target_has_no_camo_marker_dt_s7() -> None:
    """Camouflaged units cannot be attacked: the one picked to shoot at has been seen."""
    res = RULESET.quick_resolution("shoot", MOTT, ORO, seed=1)
    assert not res.ctx.state.unit("black.0").camo

"""Command Hand quick resolve (issue 26): Walk and shoot, Aimed shots and melee
between two units outside a game, through the real combat code (CH §3-§5)."""

from __future__ import annotations

from pathlib import Path

from fixtures_common import answer_all

from deathzap_tui.forcefile import load_force
from deathzap_tui.rules.steps import ROLL, Dice, DiceRequest

FORCES = Path(__file__).resolve().parents[3] / "forces"
CINDER = load_force(FORCES / "ch-cinder-collective.toml")
RANGERS = load_force(FORCES / "ch-ironbark-rangers.toml")
RULESET = CINDER.ruleset
BREACHERS = (CINDER.force, 0)  # 4 Breachers with Scattergun (3 shots near, 0 far)
SECTION = (RANGERS.force, 0)


def test_kinds() -> None:
    assert [k for k, _ in RULESET.quick_kinds()] == ["shoot", "aimed", "melee"]


def test_shots_by_range_band_against_cover_ch_s4() -> None:
    res = RULESET.quick_resolution("shoot", BREACHERS, SECTION, seed=2)
    res.answer("full")
    assert res.step.key == "shoot.range"  # the target is the one picked
    res.answer("near")
    res.answer("soft")
    assert isinstance(res.step, DiceRequest)
    assert (res.step.count, res.step.target) == (12, 4)  # 4 figures x 3 shots, soft 4+
    assert res.ctx.facts["attack"]["dice"] == 12  # the odds panel has the attack


def test_no_shots_beyond_12_inches_ch_s4() -> None:
    res = RULESET.quick_resolution("shoot", BREACHERS, SECTION, seed=2)
    answer_all(res, {"quick.standing": "full", "shoot.range": "far"}, dice=ROLL)
    assert any("has no shots beyond" in n.text for n in res.ctx.notes)


def test_aimed_shots_reroll_the_ones_ch_s3_5() -> None:
    res = RULESET.quick_resolution("aimed", BREACHERS, SECTION, seed=2)
    for answer in ("full", "near", "open"):
        res.answer(answer)
    res.answer(Dice(faces=(1, 1, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2)))
    assert res.step.key == "shoot.1.reroll" and res.step.count == 2


def test_damage_strips_the_shields_left_then_kills_ch_s4() -> None:
    res = RULESET.quick_resolution("melee", BREACHERS, SECTION, seed=2)
    answer_all(res, {"quick.standing": "set", "quick.acting.figures": 3,
                     "quick.target.shields": 1, "quick.target.figures": 5,
                     "melee.damage": Dice(faces=(4, 4, 4, 1, 1, 1))}, dice=ROLL)
    target = res.ctx.state.unit("black.0")
    assert (target.shields, target.figures_left) == (0, 3)  # 3 damage: 1 shield, 2 kills

"""Plasmashok quick resolve (issue 26): shooting, melee and special combat with the
wounds coming off as at the end of a bracket, and the morale test (PS §3-§7)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fixtures_common import answer_all

from deathzap_tui.forcefile import load_force
from deathzap_tui.rules.steps import ROLL, Dice, DiceRequest, Refused

FORCES = Path(__file__).resolve().parents[3] / "forces"
CHOIR = load_force(FORCES / "ps-iron-choir.toml")
SWARM = load_force(FORCES / "ps-verdant-swarm.toml")
RULESET = CHOIR.ruleset
WARDENS = (CHOIR.force, 0)  # elite infantry, special combat 1
HOUNDS = (SWARM.force, 0)


def test_kinds() -> None:
    assert [k for k, _ in RULESET.quick_kinds()] == ["shoot", "melee", "special", "morale"]


def test_shooting_defence_dice_by_cover_and_range_ps_s5() -> None:
    """Infantry defence 2, +2 hard cover, +1 per full 6" (13": 2)."""
    res = RULESET.quick_resolution("shoot", WARDENS, HOUNDS, seed=2)
    seen = answer_all(res, {"quick.standing": "full", "cover.black.0": "hard",
                            "distance.black.0": 13}, dice=ROLL)
    defence = next(s for s in seen if isinstance(s, DiceRequest) and s.key == "defence.1")
    assert defence.count == 6
    assert "target.advanced-rifle" not in [s.key for s in seen]  # the target was picked


def test_special_combat_wounds_come_off_at_the_end_of_the_bracket_ps_s3_s4() -> None:
    res = RULESET.quick_resolution("special", WARDENS, HOUNDS, seed=2)
    res.answer("full")
    assert (res.step.key, res.step.count) == ("special.attack", 1)
    res.answer(Dice(faces=(6,)))
    assert res.step.count == 2  # the Hounds' special combat 0 + 2
    res.answer(Dice(faces=(1, 2)))
    assert res.done and res.ctx.state.unit("black.0").figures_left == 7


def test_a_unit_without_special_combat_is_refused_ps_s4() -> None:
    with pytest.raises(Refused, match="has no special combat"):
        RULESET.quick_resolution("special", (CHOIR.force, 1), HOUNDS, seed=1)


def test_morale_routs_d3_more_when_the_casualties_are_higher_ps_s7() -> None:
    res = RULESET.quick_resolution("morale", WARDENS, None, seed=2)
    seen = answer_all(res, {"morale.figures": 2, "morale.lost": 3,
                            "morale.red.0.left": Dice(faces=(1,)),
                            "morale.red.0.lost": Dice(faces=(6,)),
                            "morale.red.0.rout": Dice(faces=(3,))}, dice=ROLL)
    assert [s.key for s in seen][:2] == ["morale.figures", "morale.lost"]
    assert res.ctx.state.unit("red.0").figures_left == 0  # 2 left, D3 (3 -> 2) rout


def test_melee_is_both_units_bracket_by_bracket_then_the_end_roll_ps_s3_s6() -> None:
    """The elite Wardens strike first and the Hounds' wounds come off before the
    regular Hounds strike back with the models they have left; then the end-of-melee
    roll."""
    res = RULESET.quick_resolution("melee", WARDENS, HOUNDS, seed=2)
    seen = answer_all(res, {"quick.standing": "full"}, dice=ROLL)
    attacks = [s for s in seen if s.key == "melee.attack.1"]
    hounds = res.ctx.state.unit("black.0")
    assert [a.side for a in attacks] == ["red", "black"]
    assert attacks[1].count == hounds.figures_left * hounds.melee[0] < 8 * hounds.melee[0]
    assert [s.key for s in seen][-2:] == ["end.1.red", "end.1.black"]


def test_a_model_of_many_wounds_keeps_the_wounds_it_took_ps_s5_step_5() -> None:
    """The Cantor Engine (a vehicle, 12 wounds) with 11 already: one more ends it."""
    engine = (CHOIR.force, 4)
    res = RULESET.quick_resolution("special", WARDENS, engine, seed=2)
    seen = answer_all(res, {"quick.standing": "set", "quick.acting.figures": 5,
                            "quick.target.wounds": 11, "special.attack": Dice(faces=(6,)),
                            "special.defence": "1 2"}, dice=ROLL)
    assert "quick.target.figures" not in [s.key for s in seen]  # one model: not asked
    assert "a model with 11 of 12 wounds" in res.ctx.notes[0].text
    assert res.ctx.state.unit("black.0").figures_left == 0


def test_a_melee_tied_twice_fights_another_round_ps_s6() -> None:
    """Every attack die blocked (all 1s against a 1): no wounds; equal products and
    equal models left fight round 2 at once, which the lower product then loses."""
    res = RULESET.quick_resolution("melee", WARDENS, WARDENS, seed=2)
    res.answer("full")
    ends = {"end.1.red": 3, "end.1.black": 3, "end.2.red": 4, "end.2.black": 3}
    while not res.done:
        step = res.step
        if step.key in ends:
            res.answer(Dice(faces=(ends[step.key],)))
        else:
            assert step.key.startswith(("melee.attack", "melee.defence")), step.key
            res.answer(Dice(faces=(1,) * step.count))
    text = [n.text for n in res.ctx.notes]
    assert "Round 2 of the melee is fought at once (PS §6)." in text
    assert text[-1].startswith("Black Choir Wardens retreats")

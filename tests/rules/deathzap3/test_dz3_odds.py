"""Issue 4: the odds API, rule by rule, with numbers worked by hand.

The oracles (brute force, Fractions, icepool, Monte Carlo of the engine) live in
``test_dz3_odds_oracles.py``; here each rule of the pipeline gets a small case.
"""

from __future__ import annotations

import math

import pytest
from dz3_fixtures import WEAPONS, battle, figs, squad, vehicle

from deathzap_tui.rules.deathzap3 import RULESET, tables
from deathzap_tui.rules.deathzap3.model import Figure, Force, Unit
from deathzap_tui.rules.deathzap3.odds import (
    PER_CASUALTY,
    Attack,
    Target,
    attack_odds,
    break_probability,
    melee_attack,
    mix_odds,
    morale_test_odds,
    odds_cli,
    odds_from_facts,
    shooting_attacks,
    split_fire_odds,
    target_from_unit,
)
from deathzap_tui.rules.distributions import (
    binomial_pmf,
    capped_binomial_rows,
    convolve,
    p_success,
)

close = pytest.approx


def test_to_hit_skill_and_cover_dz3_s6_r5():
    # one die into no shields, 1 figure, save 7+ (never saves): P(casualty) = P(hit)*P(dmg)
    for (_skill, _cover), n in tables.TO_HIT.items():
        o = attack_odds(Attack(1, n, 2), Target(0, 1, 7))
        assert o.p_any_casualty == close((7 - n) / 6 * 5 / 6)


def test_power_vs_strength_and_7_plus_never_dz3_r7():
    o = attack_odds(Attack(1, 2, tables.VS_SHIELDS[("light", "heavy")]), Target(0, 1, 7))
    assert o.p_any_casualty == close(5 / 6 * 1 / 6)
    assert attack_odds(Attack(5, 7, 2), Target(0, 3, 7)).casualties[0] == 1.0
    assert p_success(7) == 0.0 and p_success(1) == 1.0


def test_shield_pool_absorbs_damage_first_dz3_s6_r6():
    # 2 sure hits of sure damage into 2 shields: no saves, no casualty, 0 shields left
    o = attack_odds(Attack(2, 1, 1), Target(2, 3, 7))
    assert o.casualties[0] == 1.0 and o.shields_left[0] == 1.0
    o = attack_odds(Attack(3, 1, 1), Target(2, 3, 7))  # the third point forces a save
    assert o.casualties[1] == 1.0


def test_strike_removes_a_shield_and_forces_a_save_dz3_s6():
    o = attack_odds(Attack(1, 1, 1, strike=True), Target(2, 3, 4))
    assert o.shields_left[1] == 1.0
    assert o.casualties[1] == close(0.5)


def test_saves_by_skill_and_figure_cap_dz3_s6():
    for skill, save in tables.SAVE.items():
        o = attack_odds(Attack(1, 1, 1), Target(0, 1, save))
        assert o.p_wiped_out == close((save - 1) / 6), skill
    o = attack_odds(Attack(10, 1, 1), Target(0, 2, 7, 6))  # 10 sure casualties, 2 figures
    assert o.casualties == (0.0, 0.0, 1.0) and o.p_wiped_out == 1.0 and o.p_break == 0.0


def test_melee_hits_remove_shields_directly_dz3_s7():
    o = attack_odds(Attack(3, 1, None), Target(2, 2, 7, 6))
    assert o.kind == "melee" and o.damage_mean == 3
    assert o.casualties[1] == 1.0


def test_morale_with_and_without_leader_dz3_s10_s11():
    # 1 sure casualty of 3 basic figures: 2 dice at 6+ (leader: 5+)
    atk, tgt = Attack(1, 1, 1), Target(0, 3, 7, 6)
    assert attack_odds(atk, tgt).p_break == close((5 / 6) ** 2)
    assert attack_odds(atk, tgt, leader_near=True).p_break == close((4 / 6) ** 2)
    both = attack_odds(atk, tgt, leader_near=None)
    assert both.p_break == close((5 / 6) ** 2)
    assert both.p_break_with_leader == close((4 / 6) ** 2)
    assert attack_odds(atk, Target(0, 3, 7)).p_break is None  # morale unknown


def test_morale_option_per_casualty_dz3_r11():
    # as the engine: casualties removed together, then one test per casualty, each
    # with the figures left
    assert break_probability(5, 2, 6) == close((5 / 6) ** 3)
    assert break_probability(5, 2, 6, PER_CASUALTY) == close(1 - (1 - (5 / 6) ** 3) ** 2)
    assert break_probability(5, 5, 6, PER_CASUALTY) == 0.0  # wiped out: R12
    assert break_probability(5, 0, 6, PER_CASUALTY) == 0.0
    with pytest.raises(ValueError):
        break_probability(5, 1, 6, "sometimes")


def test_morale_test_on_its_own_dz3_s10():
    o = morale_test_odds(3, 5)
    assert o.p_break == close((4 / 6) ** 3) and o.kind == "morale"
    assert morale_test_odds(3, 5, True).p_break == close((3 / 6) ** 3)


def test_vehicle_damage_table_dz3_s9_r9_r13():
    o = attack_odds(Attack(1, 1, 1), Target(0, 1, 7, vehicle=True))  # one roll
    v = o.vehicle
    assert v["destroyed"] == close(2 / 6) and v["killed"] == close(1 / 6)
    for key in ("immobilised", "gun-crippled", "weapon-crippled", "no-effect"):
        assert v[key] == close(1 / 6)
    assert o.p_break == 0.0 and o.casualties == close((4 / 6, 2 / 6))
    v = attack_odds(Attack(2, 1, 1), Target(0, 1, 7, vehicle=True)).vehicle
    assert v["destroyed"] == close(1 - (4 / 6) ** 2)
    assert v["immobilised"] == close(1 / 6 + 3 / 6 * 1 / 6)  # the 2nd roll only if alive
    assert v["no-effect"] == close(1 / 36)
    with pytest.raises(ValueError):
        Target(0, 2, 4, vehicle=True)


def test_weapon_groups_carry_shields_and_figures():
    one = attack_odds([Attack(2, 1, 1), Attack(2, 1, 1)], Target(3, 5, 7))
    assert one.casualties[1] == 1.0  # 3 shields, then 1 sure casualty
    # a unit that fled is not attacked again: the second group's hits count only
    # while it is there
    fled = attack_odds([Attack(1, 1, 1), Attack(6, 1, 1)], Target(0, 3, 7, 7))
    assert fled.p_break == 1.0 and fled.casualties[1] == 1.0 and fled.hits_mean == 1.0


def test_conditional_entry_points():
    atk, tgt = Attack(6, 4, 4), Target(2, 4, 5, 5)
    assert attack_odds(atk, tgt, hits=0).casualties[0] == 1.0
    assert attack_odds(atk, tgt, hits=3).hits_mean == 3.0
    o = attack_odds(atk, tgt, hits=4, damage=3)
    assert o.shields_left[0] == 1.0 and o.casualties[1] == close(4 / 6)
    o = attack_odds(atk, tgt, hits=4, damage=3, failed_saves=1)
    assert o.casualties[1] == 1.0 and o.p_break == close((4 / 6) ** 3)
    # damage known, hits not: the posterior mean of hits
    o = attack_odds(Attack(2, 4, 4), tgt, damage=0)
    assert o.hits_mean == close(2 * (1 / 4) / (3 / 4))
    for bad in ({"hits": 7}, {"hits": 2, "damage": 3}, {"failed_saves": 1},
                {"hits": 3, "damage": 3, "failed_saves": 2}):
        with pytest.raises(ValueError):
            attack_odds(atk, tgt, **bad)


def fact(**kw):
    base = {"target": "black.1", "kind": "shooting", "weapon": "Repeater", "dice": 8,
            "to_hit": 4, "vs_shields": 4, "strike": False, "shields": 2, "figures": 4,
            "save": 6, "vehicle": False, "morale_target": 0, "stage": "declared",
            "hits": 0, "damage": 0, "failed_saves": 0}
    base.update(kw)
    return base


def test_odds_from_the_engine_facts_by_stage():
    atk, tgt = Attack(8, 4, 4), Target(2, 4, 6, 6)
    declared = attack_odds(atk, tgt, leader_near=None)
    for stage in ("declared", "hit"):  # the to-hit roll is being asked for
        assert odds_from_facts(fact(stage=stage)) == declared
    assert odds_from_facts(fact(stage="shields", hits=5)) == attack_odds(
        atk, tgt, leader_near=None, hits=5)
    assert odds_from_facts(fact(stage="saves", hits=5, damage=4)) == attack_odds(
        atk, tgt, leader_near=None, hits=5, damage=4)
    got = odds_from_facts(fact(stage="morale", hits=5, damage=4, failed_saves=1,
                               morale_target=5))  # 5+: leader bonus already in
    assert got.casualties[1] == 1.0 and got.p_break == close((4 / 6) ** 3)
    assert odds_from_facts(fact(stage="done", hits=0)).casualties[0] == 1.0
    melee = odds_from_facts(fact(kind="melee", vs_shields=0, stage="saves", hits=3,
                                 damage=3))
    assert melee.shields_left[0] == 1.0 and melee.casualties[1] == close(5 / 6)
    alone = odds_from_facts({"kind": "morale", "figures": 2, "save": 6,
                             "morale_target": 0}, leader_near=False)
    assert alone.p_break == close((5 / 6) ** 2)
    with pytest.raises(ValueError):
        odds_from_facts(fact(stage="later"))


def test_explosion_facts_mix_the_d6_dz3_s9():
    f = fact(kind="explosion", dice=0, to_hit=0, vs_shields=0, stage="hit", shields=0)
    got = odds_from_facts(f, leader_near=False)
    parts = [attack_odds(Attack(6, 1, None), Target(0, 4, 6, 6), hits=k, damage=k)
             for k in range(1, 7)]
    want = mix_odds([(1 / 6, o) for o in parts])
    assert got.casualties == close(want.casualties)
    assert sum(got.casualties) == close(1.0)
    known = odds_from_facts({**f, "dice": 3, "hits": 3}, leader_near=False)
    assert known.casualties == close(parts[2].casualties)


def test_json_shape():
    out = attack_odds(Attack(24, 4, 4), Target(6, 10, 6, 6)).to_json()
    assert isinstance(out["casualties"], list) and len(out["casualties"]) == 11
    for key in ("mean_casualties", "p_any_casualty", "p_wiped_out", "p_break"):
        assert isinstance(out[key], float)
    assert math.isclose(sum(out["casualties"]), 1.0)
    assert "vehicle" in attack_odds(Attack(1, 2, 2), Target(1, 1, 4, vehicle=True)).to_json()


def test_split_fire_gives_odds_per_target():
    plan = [([Attack(4, 4, 4)], Target(1, 5, 6, 6)), ([Attack(2, 4, 4)], Target(0, 1, 4))]
    a, b = split_fire_odds(plan, leader_near=[False, None])
    assert a == attack_odds(Attack(4, 4, 4), Target(1, 5, 6, 6))
    assert b.figures == 1 and b.p_break is None


def test_attacks_from_model_objects():
    shooter = Unit("Alpha", "regular", 6, 2, "light", 3, False,
                   (*figs(3, "Trooper", "small-arms"), Figure("Gunner", ("destroyer",))))
    force = Force("F", dict(WEAPONS), (shooter,))
    target = squad("Pickets", 4, "basic", 4, strength="medium")
    groups = shooting_attacks(force, shooter, target, "soft")
    assert [(g.dice, g.to_hit, g.vs_shields, g.strike) for g in groups] == [
        (3, 4, 5, False), (1, 4, 3, True)]
    spread = shooting_attacks(force, shooter, target, "open", ["destroyer:Destroyer (light)"])
    assert [(g.dice, g.to_hit, g.vs_shields) for g in spread] == [(2, 3, 5)]
    assert shooting_attacks(force, shooter, target, "open", gun_crippled=True)[0].to_hit == 6
    with pytest.raises(ValueError, match="carries: small-arms, destroyer"):
        shooting_attacks(force, shooter, target, "open", ["cannon"])
    with pytest.raises(ValueError, match="profiles"):
        shooting_attacks(force, shooter, target, "open", ["destroyer:Nope"])
    m = melee_attack(shooter, target)
    assert (m.dice, m.to_hit, m.melee) == (8, 3, True)
    assert melee_attack(shooter, target, weapon_crippled=True).to_hit == 6
    t = target_from_unit(target)
    assert (t.shields, t.figures, t.save, t.morale) == (4, 4, 6, 6)
    v = target_from_unit(vehicle("Tank", "regular", 2))
    assert v.vehicle and v.figures == 1 and v.save == 5


def test_distribution_helpers():
    assert sum(binomial_pmf(240, 0.3)) == close(1.0, abs=1e-13)
    assert binomial_pmf(3, 0.5) == close([1 / 8, 3 / 8, 3 / 8, 1 / 8])
    assert sum(binomial_pmf(1500, 0.5)) == close(1.0, abs=1e-10)  # lgamma path
    rows = capped_binomial_rows(0.5, 4, 2)
    assert rows[4] == close([1 / 16, 4 / 16, 11 / 16])
    assert convolve([0.5, 0.5], [0.5, 0.5]) == [0.25, 0.5, 0.25]


def test_largest_dz3_attack_is_fast():
    """The issue's speed goal with a wide margin (the benchmark quotes figures)."""
    import time

    atk, tgt = Attack(24, 2, 2, strike=True), Target(24, 10, 6, 6)
    best = min(_timed(lambda: attack_odds(atk, tgt), time) for _ in range(20))
    assert best < 0.01


def _timed(fn, time):
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def test_odds_give_a_unit_with_its_own_leader_the_bonus_dz3_s11():
    """DZ3 §10/§11 and the app's ruling: a unit whose own leader is alive gets the +1
    without the "friendly leader within 6\"?" question, so its odds assume the bonus
    (no 'with a leader' alternative), in the panel and in ``deathzap odds``."""
    atk, tgt = Attack(8, 4, 4), Target(2, 4, 6, 6)
    got = odds_from_facts(fact(own_leader=True))
    assert got == attack_odds(atk, tgt, leader_near=True)
    assert got.p_break_with_leader is None
    assert odds_from_facts(fact(own_leader=False)) == attack_odds(atk, tgt, leader_near=None)


def test_engine_facts_say_the_target_has_its_own_leader_dz3_s11():
    g = battle()
    res = g.begin({"type": "activate", "unit": "red.1", "action": "advance"}).resolution
    for ans in ("black.0", "no", "open"):  # Lancers, with their leader; grenades held
        res.answer(ans)
    facts = res.ctx.facts["attack"]
    assert facts["target"] == "black.0" and facts["own_leader"] is True
    assert RULESET.attack_odds(g.state, facts) == odds_from_facts(facts, leader_near=True)
    res = g.begin({"type": "activate", "unit": "red.1", "action": "advance"}).resolution
    for ans in ("black.1", "no", "open"):  # Pickets: no leader of their own
        res.answer(ans)
    assert res.ctx.facts["attack"]["own_leader"] is False


def test_odds_cli_gives_a_target_with_its_own_leader_the_bonus_dz3_s11():
    shooter = squad("Alpha", 4, "regular", 3)
    led = squad("Lancers", 5, "basic", 2, leader_cp=1)
    force = Force("F", dict(WEAPONS), (shooter, led))
    settings = {"cover": "open", "leader_near": False}
    odds, lines = odds_cli((force, shooter), (force, led), settings)
    want = attack_odds(shooting_attacks(force, shooter, led, "open"), target_from_unit(led),
                       leader_near=True)
    assert odds == want
    assert any("its own leader (+1 morale, DZ3 §11)" in line for line in lines)
    plain = squad("Pickets", 5, "basic", 2)
    odds, lines = odds_cli((force, shooter), (force, plain), settings)
    assert odds.p_break == attack_odds(shooting_attacks(force, shooter, plain, "open"),
                                       target_from_unit(plain)).p_break
    assert any("no leader near" in line for line in lines)

"""Issue 4: the odds DP against independent oracles.

* brute force: every face of every die enumerated (small cases), exact Fractions;
* an exact ``Fraction`` pipeline stage by stage (hits, then damage, then saves...)
  with binomial coefficients, for large cases and for hypothesis-generated ones;
* icepool (the test dependency) for the largest attacks;
* a seeded Monte Carlo of a straightforward dice simulator (``dice.Rng``), and of
  the real engine once it exists.

Both exact oracles share one driver (:func:`oracle`) that walks the DZ3 pipeline
literally (DZ3 §6, §7, §9, §10) group by group over a distribution of whole
states; they differ in how one roll of ``n`` dice at ``N+`` is counted.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deathzap_tui.rules.deathzap3 import tables
from deathzap_tui.rules.deathzap3.odds import (
    PER_ATTACK,
    PER_CASUALTY,
    Attack,
    Target,
    attack_odds,
)
from deathzap_tui.rules.dice import Rng

TOL = 1e-12


# --------------------------------------------------------------------------- rolls
@cache
def roll_brute(n: int, target: int) -> tuple[tuple[int, Fraction], ...]:
    """Successes of ``n`` dice at ``target``+ by enumerating all 6**n faces (DZ3-R7)."""
    counts = Counter(sum(f >= target for f in faces)
                     for faces in product(range(1, 7), repeat=n))
    return tuple((k, Fraction(v, 6**n)) for k, v in sorted(counts.items()))


@cache
def roll_exact(n: int, target: int) -> tuple[tuple[int, Fraction], ...]:
    """The same with binomial coefficients."""
    p = Fraction(max(0, min(6, 7 - target)), 6)
    return tuple((k, math.comb(n, k) * p**k * (1 - p) ** (n - k)) for k in range(n + 1))


def oracle(groups, target: Target, leader: bool, option: str, roll=roll_exact):
    """Exact outcome distribution of the attack(s).

    Returns ``(dist, hits_mean, damage_mean)``; ``dist`` maps an end state to its
    probability. Unit state: ``(shields, figures, fled)``; vehicle state:
    ``(shields, destroyed_by, effects)`` with ``effects`` the set of table results
    rolled (1 = no effect) in order of the sequential damage rolls (DZ3-R9).
    """
    mt = target.morale - (tables.LEADER_MORALE_BONUS if leader else 0)
    start = ((target.shields, "", frozenset()) if target.vehicle
             else (target.shields, target.figures, False))
    states = {start: Fraction(1)}
    hits_mean = dmg_mean = Fraction(0)
    for g in groups:
        new: dict = {}

        def add(key, p, new=new):
            new[key] = new.get(key, 0) + p

        for state, w in states.items():
            gone = state[1] != "" if target.vehicle else (state[1] == 0 or state[2])
            if gone:
                add(state, w)
                continue
            s = state[0]
            for h, ph in roll(g.dice, g.to_hit):
                hits_mean += w * ph * h
                # DZ3 §7: melee hits are damage; §6: each hit rolls vs shields
                dmg_roll = ((h, Fraction(1)),) if g.vs_shields is None else roll(h, g.vs_shields)
                for d, pd in dmg_roll:
                    dmg_mean += w * ph * pd * d
                    s2 = max(s - d, 0)
                    forced = d if g.strike else max(d - s, 0)  # DZ3 §6 Strike
                    for ok, pf in roll(forced, target.save):
                        failed = forced - ok
                        p = w * ph * pd * pf
                        if target.vehicle:
                            for end, pv in vehicle_rolls(failed, state[2]):
                                add((s2, *end), p * pv)
                            continue
                        f = state[1]
                        c = min(failed, f)
                        for fled, pm in morale(f, c, mt, option, roll):
                            add((s2, f - c, fled), p * pm)
        states = new
    return states, hits_mean, dmg_mean


@cache
def vehicle_rolls(failed: int, effects: frozenset):
    """Sequential damage-table rolls (DZ3 §9, R9), each face enumerated; a 5 or 6
    removes the vehicle so later rolls are moot. Returns ((by, effects), p) pairs."""
    states = {("", effects): Fraction(1)}
    for _ in range(failed):
        new: dict = {}
        for (by, eff), p in states.items():
            if by:
                new[(by, eff)] = new.get((by, eff), 0) + p
                continue
            for face in range(1, 7):
                key = (tables.VEHICLE_DAMAGE[face] if face >= 5 else "", eff | {face})
                new[key] = new.get(key, 0) + p / 6
        states = new
    return tuple(states.items())


def morale(f: int, c: int, mt: int, option: str, roll):
    """(fled, probability) after an attack causing ``c`` casualties (DZ3 §10, R11, R12)."""
    if c == 0 or c >= f or mt <= 0:
        return [(False, Fraction(1))]
    # per casualty: the engine removes the attack's casualties together, then tests
    # once per casualty with the figures left (combat.morale)
    tests = [f - c] if option == PER_ATTACK else [f - c] * c
    keep = Fraction(1)
    for dice in tests:
        keep *= sum(p for k, p in roll(dice, mt) if k >= 1)
    return [(False, keep), (True, 1 - keep)]


def summarise(groups, target, leader, option, roll=roll_exact):
    states, hm, dm = oracle(groups, target, leader, option, roll)
    shields = [Fraction(0)] * (target.shields + 1)
    for st_, p in states.items():
        shields[st_[0]] += p
    out = {"hits_mean": hm, "damage_mean": dm, "shields_left": shields}
    if target.vehicle:
        destroyed = sum(p for (_, by, _), p in states.items() if by)
        out["casualties"] = [1 - destroyed, destroyed]
        out["vehicle"] = {
            "destroyed": destroyed,
            "killed": sum(p for (_, by, _), p in states.items() if by == "killed"),
            "explodes": sum(p for (_, by, _), p in states.items() if by == "explodes"),
            "immobilised": sum(p for (_, _, e), p in states.items() if 2 in e),
            "gun-crippled": sum(p for (_, _, e), p in states.items() if 3 in e),
            "weapon-crippled": sum(p for (_, _, e), p in states.items() if 4 in e),
            "no-effect": sum(p for (_, _, e), p in states.items() if e <= {1}),
        }
        out["p_break"] = Fraction(0)
        return out
    cas = [Fraction(0)] * (target.figures + 1)
    for (_, f, _), p in states.items():
        cas[target.figures - f] += p
    out["casualties"] = cas
    out["p_break"] = sum(p for (_, _, fled), p in states.items() if fled)
    return out


def assert_matches(odds, exact):
    assert len(odds.casualties) == len(exact["casualties"])
    for a, b in zip(odds.casualties, exact["casualties"], strict=True):
        assert abs(a - b) <= TOL
    for a, b in zip(odds.shields_left, exact["shields_left"], strict=True):
        assert abs(a - b) <= TOL
    assert abs(odds.p_break - exact["p_break"]) <= TOL
    assert abs(odds.hits_mean - exact["hits_mean"]) <= 1e-10
    assert abs(odds.damage_mean - exact["damage_mean"]) <= 1e-10
    mean = sum(k * p for k, p in enumerate(exact["casualties"]))
    assert abs(odds.mean_casualties - mean) <= 1e-11
    assert abs(odds.p_wiped_out - exact["casualties"][-1]) <= TOL
    assert abs(odds.p_any_casualty - (1 - exact["casualties"][0])) <= TOL
    if "vehicle" in exact:
        for key, value in exact["vehicle"].items():
            assert abs(odds.vehicle[key] - value) <= TOL, key


# --------------------------------------------------------------------------- brute force
BRUTE_CASES = [
    # (groups, target, leader, option): every rule of the pipeline at least once
    ([Attack(3, 4, 4)], Target(1, 2, 6, 6), False, PER_ATTACK),           # shields, saves
    ([Attack(4, 2, 2)], Target(0, 3, 4, 4), False, PER_ATTACK),           # no shields, cap
    ([Attack(4, 2, 2)], Target(0, 3, 4, 4), True, PER_ATTACK),            # leader (DZ3 §11)
    ([Attack(4, 2, 2)], Target(0, 3, 4, 4), False, PER_CASUALTY),         # R11 option
    ([Attack(4, 2, 2)], Target(0, 4, 5, 5), True, PER_CASUALTY),
    ([Attack(3, 3, 3, strike=True)], Target(2, 2, 5, 5), False, PER_ATTACK),  # Strike
    ([Attack(4, 4, None)], Target(1, 3, 5, 5), False, PER_ATTACK),        # melee
    ([Attack(4, 6, 2)], Target(1, 2, 4, 4), False, PER_ATTACK),           # 6+ (hard cover)
    ([Attack(3, 7, 2)], Target(0, 2, 4, 4), False, PER_ATTACK),           # 7+ never (R7)
    ([Attack(2, 2, 3), Attack(2, 3, 2, strike=True)], Target(1, 3, 5, 5), False, PER_ATTACK),
    ([Attack(2, 2, 2), Attack(3, 2, None)], Target(1, 3, 4, 4), True, PER_CASUALTY),
    ([Attack(3, 2, 2)], Target(1, 1, 4, 0, vehicle=True), False, PER_ATTACK),   # DZ3 §9
    ([Attack(3, 2, 2, strike=True)], Target(2, 1, 5, 0, vehicle=True), False, PER_ATTACK),
    ([Attack(2, 2, 2), Attack(2, 2, None)], Target(1, 1, 4, 0, vehicle=True), False,
     PER_ATTACK),
]


@pytest.mark.parametrize("case", range(len(BRUTE_CASES)))
def test_dp_matches_brute_force_enumeration(case):
    groups, target, leader, option = BRUTE_CASES[case]
    exact = summarise(groups, target, leader, option, roll=roll_brute)
    odds = attack_odds(groups, target, leader_near=leader, morale_option=option)
    assert_matches(odds, exact)


def test_exact_oracle_agrees_with_brute_force():
    """The two oracles are independent ways of counting; they agree exactly."""
    for groups, target, leader, option in BRUTE_CASES[:6]:
        assert (summarise(groups, target, leader, option, roll_brute)
                == summarise(groups, target, leader, option, roll_exact))


# --------------------------------------------------------------------------- Fraction
LARGE_CASES = [
    # the DZ3 §13 limit: 24 shots into 24 shields, 10 figures
    ([Attack(24, 2, 2)], Target(24, 10, 6, 6), False, PER_ATTACK),
    ([Attack(24, 2, 2, strike=True)], Target(24, 10, 5, 5), True, PER_CASUALTY),
    ([Attack(24, 3, 3)], Target(6, 10, 6, 6), False, PER_CASUALTY),
    ([Attack(24, 4, None)], Target(12, 10, 5, 5), False, PER_ATTACK),    # 24 melee dice
    # Mortan's Men firing everything at a squad in soft cover, in order
    ([Attack(5, 5, 4), Attack(6, 5, 4), Attack(1, 5, 2, strike=True)],
     Target(6, 7, 6, 6), True, PER_CASUALTY),
    ([Attack(12, 3, 2), Attack(2, 3, 2, strike=True)], Target(8, 1, 4, 0, vehicle=True),
     False, PER_ATTACK),
]


@pytest.mark.parametrize("case", range(len(LARGE_CASES)))
def test_dp_matches_exact_fractions(case):
    groups, target, leader, option = LARGE_CASES[case]
    exact = summarise(groups, target, leader, option)
    odds = attack_odds(groups, target, leader_near=leader, morale_option=option)
    assert_matches(odds, exact)


attacks = st.builds(
    Attack,
    dice=st.integers(0, 9),
    to_hit=st.integers(2, 7),
    vs_shields=st.one_of(st.none(), st.integers(2, 7)),
    strike=st.booleans(),
)


@st.composite
def scenarios(draw):
    vehicle = draw(st.booleans())
    groups = draw(st.lists(attacks, min_size=1, max_size=3))
    groups = [g if g.vs_shields is not None else Attack(g.dice, g.to_hit, None)
              for g in groups]  # no Strike in melee
    target = Target(
        shields=draw(st.integers(0, 8)),
        figures=1 if vehicle else draw(st.integers(1, 6)),
        save=draw(st.integers(2, 7)),
        morale=0 if vehicle else draw(st.integers(2, 7)),
        vehicle=vehicle,
    )
    return groups, target, draw(st.booleans()), draw(st.sampled_from([PER_ATTACK,
                                                                       PER_CASUALTY]))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_dp_matches_exact_fractions_generated(scenario):
    groups, target, leader, option = scenario
    exact = summarise(groups, target, leader, option)
    odds = attack_odds(groups, target, leader_near=leader, morale_option=option)
    assert_matches(odds, exact)


@settings(max_examples=40, deadline=None)
@given(scenarios(), st.data())
def test_conditional_odds_match_the_oracle_given_the_dice(scenario, data):
    """After each step the odds are those of the rest of the pipeline (issue 4)."""
    groups, target, leader, option = scenario
    g = groups[0]
    hits = data.draw(st.integers(0, g.dice))
    damage = hits if g.melee else data.draw(st.integers(0, hits))
    # hits known: the first group's hits are a fixed 6+ roll ... encode as an oracle
    # attack whose dice all hit (to_hit 1) then roll the rest.
    known = [Attack(hits, 1, g.vs_shields, g.strike), *groups[1:]]
    exact = summarise(known, target, leader, option)
    odds = attack_odds(groups, target, leader_near=leader, morale_option=option, hits=hits)
    for a, b in zip(odds.casualties, exact["casualties"], strict=True):
        assert abs(a - b) <= TOL
    assert abs(odds.p_break - exact["p_break"]) <= TOL
    # damage known: every hit is a point of damage
    known = [Attack(damage, 1, 1 if not g.melee else None, g.strike), *groups[1:]]
    exact = summarise(known, target, leader, option)
    odds = attack_odds(groups, target, leader_near=leader, morale_option=option,
                       hits=hits, damage=damage)
    for a, b in zip(odds.casualties, exact["casualties"], strict=True):
        assert abs(a - b) <= TOL
    for a, b in zip(odds.shields_left, exact["shields_left"], strict=True):
        assert abs(a - b) <= TOL
    if "vehicle" in exact:
        for key, value in exact["vehicle"].items():
            assert abs(odds.vehicle[key] - value) <= TOL


# --------------------------------------------------------------------------- icepool
def icepool_casualties(n, to_hit, vs, shields, figures, save, strike=False):
    """The single-group pipeline in icepool: casualties distribution.

    Each die is a point of damage with chance P(hit) P(beats shields) (the two rolls
    are independent per die), so damage = n @ Bernoulli(that); each point beyond the
    shields (each point with Strike) forces a save; casualties capped at figures.
    """
    icepool = pytest.importorskip("icepool")

    def p(target):
        return Fraction(max(0, min(6, 7 - target)), 6)

    def bern(q):
        return icepool.Die({1: q.numerator, 0: q.denominator - q.numerator})

    dmg = n @ bern(p(to_hit) * (1 if vs is None else p(vs)))
    fail = bern(1 - p(save))

    def casualties(d):
        forced = d if strike else max(d - shields, 0)
        if forced == 0:
            return 0
        return (forced @ fail).map(lambda x: min(x, figures))

    cas = dmg.map(casualties)
    return [Fraction(cas.probability(k)) for k in range(figures + 1)]


@pytest.mark.slow
@pytest.mark.parametrize("n,to_hit,vs,shields,figures,save,strike", [
    (24, 2, 2, 24, 10, 6, False),
    (240, 3, 3, 24, 10, 5, False),
    (60, 2, 2, 12, 10, 4, True),
    (120, 4, None, 12, 10, 5, False),
])
def test_dp_matches_icepool(n, to_hit, vs, shields, figures, save, strike):
    exact = icepool_casualties(n, to_hit, vs, shields, figures, save, strike)
    odds = attack_odds(Attack(n, to_hit, vs, strike), Target(shields, figures, save))
    assert odds.p_break is None  # morale unknown
    for a, b in zip(odds.casualties, exact, strict=True):
        assert abs(a - b) <= TOL


# --------------------------------------------------------------------------- Monte Carlo
def simulate(groups, target, leader, option, rng: Rng):
    """One play of the attack(s) with real dice: (casualties, fled, destroyed)."""
    mt = target.morale - (1 if leader else 0)
    s, f = target.shields, target.figures
    destroyed = fled = False
    for g in groups:
        if f == 0 or fled or destroyed:
            break
        hits = sum(x >= g.to_hit for x in rng.roll(g.dice))
        dmg = hits if g.vs_shields is None else sum(x >= g.vs_shields for x in rng.roll(hits))
        forced = dmg if g.strike else max(dmg - s, 0)
        s = max(s - dmg, 0)
        failed = sum(x < target.save for x in rng.roll(forced))
        if target.vehicle:
            for _ in range(failed):
                if rng.d6() >= 5:
                    destroyed = True
                    break
            continue
        c = min(failed, f)
        f -= c
        if c > 0 and f > 0:
            tests = [f] if option == PER_ATTACK else [f] * c
            for k in tests:
                if not any(x >= mt for x in rng.roll(k)):
                    fled = True
                    break
    if target.vehicle:
        return int(destroyed), False
    return target.figures - f, fled


@pytest.mark.slow
@pytest.mark.parametrize("groups,target,leader,option,trials", [
    ([Attack(24, 3, 3)], Target(6, 10, 6, 6), False, PER_ATTACK, 20000),
    ([Attack(10, 2, 2, strike=True), Attack(8, 3, None)], Target(4, 6, 5, 5), True,
     PER_CASUALTY, 20000),
    ([Attack(8, 2, 2)], Target(3, 1, 4, 0, vehicle=True), False, PER_ATTACK, 20000),
])
def test_monte_carlo_simulator_agrees(groups, target, leader, option, trials):
    """A seeded simulation agrees within 5 standard errors."""
    rng = Rng.from_seed(20240604)
    cas = Counter()
    breaks = 0
    for _ in range(trials):
        c, fled = simulate(groups, target, leader, option, rng)
        cas[c] += 1
        breaks += fled
    odds = attack_odds(groups, target, leader_near=leader, morale_option=option)
    for k, p in enumerate(odds.casualties):
        err = 5 * math.sqrt(max(p * (1 - p), 1e-6) / trials)
        assert abs(cas[k] / trials - p) <= err, (k, cas[k] / trials, p)
    p = odds.p_break
    assert abs(breaks / trials - p) <= 5 * math.sqrt(max(p * (1 - p), 1e-6) / trials)


# --------------------------------------------------------------------------- the engine
def engine_outcomes(game, intent, answers, trials, seed, observe):
    """Resolve ``intent`` ``trials`` times from the same state with the game's RNG
    reseeded each time (dice: ROLL, questions: ``answers`` by key, else defaults);
    returns ``observe(state)`` of each result. Nothing is committed."""
    from deathzap_tui.rules.steps import ROLL, DiceRequest

    out = []
    for i in range(trials):
        game.state.rng = Rng.from_seed(seed + i)  # test poke: a fresh stream per trial
        res = game.begin(intent).resolution
        while not res.done:
            step = res.step
            if isinstance(step, DiceRequest):
                res.answer(ROLL)
            else:
                res.answer(answers.get(step.key, step.default))
        out.append(observe(res.ctx.state))
    return out


def check_frequencies(counts: Counter, trials: int, expected: dict) -> None:
    for key, p in expected.items():
        err = 5 * math.sqrt(max(p * (1 - p), 1e-4) / trials)
        assert abs(counts[key] / trials - p) <= err, (key, counts[key] / trials, p)


ALPHA_ADVANCE = {"type": "activate", "unit": "red.0", "action": "advance"}


@pytest.mark.slow
@pytest.mark.parametrize("option", [PER_ATTACK, PER_CASUALTY])
def test_monte_carlo_of_the_engine_shooting_agrees(option):
    """Red Alpha (Regular, 6 Small Arms + a Destroyer, Strike profile) shoots Black
    Pickets (Basic, 4 figures) in the open, shields poked to 0: the real engine,
    seeded, agrees with the odds within 5 standard errors."""
    from dz3_fixtures import battle

    game = battle(options={"morale": option})
    game.state.unit("black.1").shields = 0  # test poke, so casualties are common
    trials = 2000

    def observe(state):
        u = state.unit("black.1")
        return (4 - u.figures_left, u.fled)

    seen = engine_outcomes(game, ALPHA_ADVANCE, {"shoot.target": "black.1"}, trials,
                           1000, observe)
    odds = attack_odds([Attack(6, tables.TO_HIT[("regular", "open")],
                               tables.VS_SHIELDS[("light", "light")]),
                        Attack(1, tables.TO_HIT[("regular", "open")],
                               tables.VS_SHIELDS[("heavy", "light")], strike=True)],
                       Target(0, 4, tables.SAVE["basic"], tables.MORALE["basic"]),
                       leader_near=False, morale_option=option)
    counts = Counter(c for c, _ in seen)
    counts["fled"] = sum(f for _, f in seen)
    expected = {k: p for k, p in enumerate(odds.casualties)}
    expected["fled"] = odds.p_break
    check_frequencies(counts, trials, expected)


@pytest.mark.slow
def test_monte_carlo_of_the_engine_melee_agrees():
    from dz3_fixtures import battle

    game = battle()
    game.state.unit("black.1").shields = 1
    trials = 2000
    seen = engine_outcomes(
        game, {"type": "activate", "unit": "red.0", "action": "charge"},
        {"melee.target": "black.1"}, trials, 5000,
        lambda s: (4 - s.unit("black.1").figures_left, s.unit("black.1").fled))
    odds = attack_odds(Attack(7, tables.MELEE_TO_HIT[("regular", "basic")], None),
                       Target(1, 4, 6, 6), leader_near=False)
    counts = Counter(c for c, _ in seen)
    counts["fled"] = sum(f for _, f in seen)
    expected = dict(enumerate(odds.casualties))
    expected["fled"] = odds.p_break
    check_frequencies(counts, trials, expected)


@pytest.mark.slow
def test_monte_carlo_of_the_engine_vehicle_agrees():
    """Red Alpha shoots the Black Walker (Basic vehicle, medium shields poked to 0):
    the damage-table outcomes (DZ3 §9, R9, R10) agree with the odds."""
    from dz3_fixtures import battle

    game = battle(walker=True)
    game.state.unit("black.2").shields = 0
    trials = 2000

    def observe(state):
        w = state.unit("black.2")
        return {"destroyed": w.destroyed, "immobilised": w.immobilised,
                "gun-crippled": w.gun_crippled, "weapon-crippled": w.weapon_crippled,
                "no-effect": not (w.destroyed or w.immobilised or w.gun_crippled
                                  or w.weapon_crippled)}

    seen = engine_outcomes(game, ALPHA_ADVANCE, {"shoot.target": "black.2"}, trials, 9000,
                           observe)
    odds = attack_odds([Attack(6, 3, tables.VS_SHIELDS[("light", "medium")]),
                        Attack(1, 3, tables.VS_SHIELDS[("heavy", "medium")], strike=True)],
                       Target(0, 1, tables.SAVE["basic"], vehicle=True))
    counts = Counter()
    for obs in seen:
        for key, hit in obs.items():
            counts[key] += hit
    check_frequencies(counts, trials, {k: odds.vehicle[k] for k in
                                       ("destroyed", "immobilised", "gun-crippled",
                                        "weapon-crippled", "no-effect")})

"""Double Tap exact odds (DT §1, §4-§7): enumeration of every die in exact fractions
(the second die at 7+ or higher, DT-R1, cancelling, blocks, Tough, Regeneration,
morale) and the facts contract stage by stage."""

from __future__ import annotations

import json
import math
from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import product

import pytest

from deathzap_tui.rules.doubletap import tables
from deathzap_tui.rules.doubletap.odds import (
    FLAGS,
    PANEL_DICE,
    STAGES,
    Attack,
    attack_odds,
    killed_by,
    modifier_words,
    odds_from_facts,
)

FACES = range(1, 7)
EXACT = 1e-12


# --------------------------------------------------------------------------- oracle
@cache
def one_test(modifier: int) -> Fraction:
    """P(one quality test succeeds), every face of the die and of the second die at
    7+ or higher (DT §1, DT-R1: seed "If you need to roll a 7+ or higher to succeed,
    then a roll of 6+ followed by 4+ is a success."): 4+ shifted by the modifier, a 1
    always fails."""
    need = 4 - modifier
    wins = Fraction(0)
    for face in FACES:
        if face == 1:
            continue
        if need >= 7:
            wins += sum(Fraction(1, 36) for second in FACES if face == 6 and second >= 4)
        elif face >= need:
            wins += Fraction(1, 6)
    return wins


@cache
def successes(dice: int, modifier: int) -> Counter:
    """The successes of ``dice`` tests: every outcome of every test enumerated."""
    p = one_test(modifier)
    out: Counter = Counter()
    for wins in product((True, False), repeat=dice):
        chance = Fraction(1)
        for w in wins:
            chance *= p if w else 1 - p
        out[sum(wins)] += chance
    return out


def oracle(a: Attack, given_successes: int | None = None, given_hits: int | None = None,
           given_failed: int | None = None) -> dict[str, object]:
    """Every roll of the attack in exact fractions: hits, failed blocks, P(killed),
    P(hit, alive, morale failed)."""
    hits: Counter = Counter()
    if given_hits is not None:
        hits[given_hits] = Fraction(1)
    else:
        rolled = (Counter({given_successes: Fraction(1)}) if given_successes is not None
                  else successes(a.attacks, a.hit))
        cancels = successes(a.cancel_dice, a.cancel_modifier)
        for s, ps in rolled.items():
            if a.kind == "grenade":  # lands short, or 1 hit never cancelled
                hits[min(s, 1)] += ps
                continue
            for c, pc in cancels.items():
                hits[max(0, s - c)] += ps * pc
    failed: Counter = Counter()
    killed = Fraction(0)
    standing_hit = Fraction(0)
    regen = Fraction(sum(1 for f in FACES if f >= 5), 6)
    for h, ph in hits.items():
        blocks = (Counter({given_failed: Fraction(1)}) if given_failed is not None
                  else Counter({h - k: p for k, p in successes(h, a.block).items()}))
        for f, pf in blocks.items():
            failed[f] += ph * pf
            dead = f >= 1 and (a.tough == tables.NOT_TOUGH or a.tough + f >= 3)
            kill = (1 - regen if a.regeneration else 1) if dead else 0
            killed += ph * pf * kill
            if h:
                standing_hit += ph * pf * (1 - kill)
    return {"hits": hits, "failed": failed, "killed": killed,
            "break": standing_hit * (1 - one_test(a.morale))}


def same(odds, want: dict[str, object]) -> None:
    for name, dist in (("hits", odds.hits), ("failed", odds.wounds)):
        exact = want[name]
        assert len(dist) > max(exact), name
        for k, p in enumerate(dist):
            assert abs(p - float(exact.get(k, 0))) < EXACT, (name, k, p, exact.get(k, 0))
    assert abs(odds.casualties[1] - float(want["killed"])) < EXACT
    assert abs(odds.casualties[0] - float(1 - want["killed"])) < EXACT
    assert abs(odds.p_break - float(want["break"])) < EXACT


# --------------------------------------------------------------------------- tests
@pytest.mark.parametrize("modifier", range(-6, 5))
def test_dt_one_quality_test_matches_the_faces_dt_s1_dt_r1(modifier) -> None:
    assert tables.p_quality(modifier) == pytest.approx(float(one_test(modifier)), abs=1e-15)


CASES = [
    Attack(attacks=3),
    Attack(attacks=3, hit=1, block=-1),
    Attack(attacks=2, hit=-3, block=0),                 # 7+ to hit: a 6 then a 4+
    Attack(attacks=2, hit=-4),                          # 8+: a 6 then a 4+ (DT-R1)
    Attack(attacks=3, hit=-6, block=0),                 # 10+: the same (DT-R1)
    Attack(attacks=3, hit=3, block=3),                  # 2+ still fails on a 1
    Attack(attacks=3, hit=1, block=-3),                 # 7+ blocks
    Attack(attacks=2, hit=1, block=-5),                 # 9+ blocks: 1 in 12 (DT-R1)
    Attack(attacks=4, hit=0, block=1, cancel_dice=2),   # dodge
    Attack(attacks=3, hit=1, cancel_dice=2, cancel_modifier=-2),  # dodge a camo unit
    Attack(attacks=2, hit=0, cancel_dice=1, cancel_modifier=-3),  # 7+ reaction
    Attack(attacks=4, hit=1, block=0, tough=0),
    Attack(attacks=4, hit=1, block=-1, tough=1),
    Attack(attacks=3, hit=0, block=0, tough=2, cancel_dice=1),
    Attack(attacks=3, hit=1, block=0, regeneration=True),
    Attack(attacks=4, hit=1, block=-2, tough=1, regeneration=True),
    Attack(kind="melee", attacks=6, hit=0, block=1, cancel_dice=1, morale=-2),
    Attack(kind="grenade", attacks=2, hit=0, block=0, cancel_dice=2),  # not cancelled
    Attack(kind="grenade", attacks=2, hit=-3, block=-1, tough=1, regeneration=True),
    Attack(attacks=0),
    Attack(kind="grenade", attacks=0),                  # no throw: it lands short
    Attack(kind="grenade", attacks=1, hit=1),
]


@pytest.mark.parametrize("attack", CASES, ids=repr)
def test_dt_odds_match_every_die_dt_s4_s6_s7(attack) -> None:
    same(attack_odds(attack), oracle(attack))


@pytest.mark.parametrize("attack", CASES[8:17], ids=repr)
def test_dt_odds_given_the_rolls_so_far_match_every_die(attack) -> None:
    """Each known roll conditions the rest (the odds panel after every roll)."""
    for s in range(attack.attacks + 1):
        same(attack_odds(attack, successes=s), oracle(attack, given_successes=s))
        for h in range(s + 1):
            same(attack_odds(attack, successes=s, hits=h), oracle(attack, given_hits=h))
            for f in range(h + 1):
                same(attack_odds(attack, successes=s, hits=h, failed_blocks=f),
                     oracle(attack, given_hits=h, given_failed=f))


def test_dt_one_failed_block_kills_tough_takes_three_dt_s4_s7() -> None:
    """2+ to hit (5/6); blocks at 9+ still hold 1 in 12 (DT-R1), so fail 11/12."""
    hit_fail = 5 / 6 * 11 / 12
    plain = Attack(attacks=1, hit=6, block=-5)
    assert attack_odds(plain).casualties[1] == pytest.approx(hit_fail)
    tough = Attack(attacks=2, hit=6, block=-5, tough=0)
    assert attack_odds(tough).casualties[1] == 0.0  # 2 failed blocks: 2 markers
    assert attack_odds(Attack(attacks=2, hit=6, block=-5, tough=1)).casualties[1] == (
        pytest.approx(hit_fail ** 2))
    regen = Attack(attacks=1, hit=6, block=-5, regeneration=True)
    assert attack_odds(regen).casualties[1] == pytest.approx(hit_fail * 2 / 3)


def test_dt_a_regenerated_tough_unit_dies_at_its_next_failed_block_dt_s7() -> None:
    """Regeneration undoes the death, not the markers: 3 or more stay on the unit, so
    it is killed by its next failed block, never by none."""
    assert not killed_by(0, 3) and not killed_by(0, 5)
    assert killed_by(1, 3) and killed_by(1, 2) and not killed_by(1, 1)
    assert not killed_by(0, tables.NOT_TOUGH) and killed_by(1, tables.NOT_TOUGH)
    for markers in (3, 4, 7):
        regenerated = {**FACT, "tough": markers}
        assert odds_from_facts(regenerated) == odds_from_facts({**FACT, "tough": 2})


def test_dt_the_odds_say_what_they_are_dt_s5() -> None:
    shot = attack_odds(Attack(attacks=2, hit=0, block=0))
    assert (shot.figures, shot.damage_step, shot.break_removes) == (1, False, False)
    assert shot.break_label == "falls back" and "2\"" in shot.break_text
    melee = attack_odds(Attack(kind="melee", attacks=2))
    assert melee.break_label == "stunned" and melee.break_text == "stunned on morale"
    assert attack_odds(Attack(kind="grenade", attacks=2)).break_label == "falls back"
    out = json.loads(json.dumps(shot.to_json()))
    assert out["casualties"] == [pytest.approx(1 - out["p_wiped_out"]), out["p_wiped_out"]]
    assert out["mean_wounds"] == pytest.approx(2 * 0.5 * 0.5)  # expected failed blocks
    assert out["p_break_means"] == shot.break_text and len(out["hits"]) == 3


def test_dt_large_attacks_stay_distributions() -> None:
    odds = attack_odds(Attack(attacks=200, hit=0, block=-2, cancel_dice=2, tough=0))
    assert math.fsum(odds.hits) == pytest.approx(1.0)
    assert math.fsum(odds.wounds) == pytest.approx(1.0)
    assert odds.casualties[1] == pytest.approx(1.0)


@pytest.mark.parametrize("modifier,words", [
    (0, "+0: needs 4+"), (1, "+1: needs 3+"), (5, "+5: needs 2+"),
    (-3, "-3: needs 7+ (a 6, then 4+)"), (-4, "-4: needs 8+ (a 6, then 4+)")])  # DT-R1
def test_dt_modifier_words_dt_s1(modifier, words) -> None:
    assert modifier_words(modifier) == words


# --------------------------------------------------------------------------- facts
FACT = {"kind": "shooting", "target": "black.1", "attacks": 3, "hit": -1, "block": 1,
        "cancel": {"kind": "dodge", "dice": 2, "modifier": 0}, "tough": 1,
        "regeneration": True}
FACT_ATTACK = Attack(attacks=3, hit=-1, block=1, cancel_dice=2, tough=1,
                     regeneration=True)


def test_dt_facts_stage_by_stage() -> None:
    """The facts format ("Facts for the odds panel", ``doubletap/attacks.py``):
    successes known at "cancel", hits at "block", the failed blocks at "regeneration",
    the kill at "done"."""
    a = FACT_ATTACK
    assert odds_from_facts({**FACT, "stage": "hit"}) == attack_odds(a)
    assert odds_from_facts(FACT) == attack_odds(a)  # no stage yet: nothing rolled
    rolled = {**FACT, "successes": 3, "cancelled": 1, "hits": 2, "failed_blocks": 2,
              "killed": False}
    assert odds_from_facts({**rolled, "stage": "hit"}) == attack_odds(a)
    same(odds_from_facts({**rolled, "stage": "cancel"}), oracle(a, given_successes=3))
    same(odds_from_facts({**rolled, "stage": "block"}), oracle(a, given_hits=2))
    at_regen = odds_from_facts({**rolled, "stage": "regeneration"})
    same(at_regen, oracle(a, given_hits=2, given_failed=2))
    assert at_regen.casualties[1] == pytest.approx(2 / 3)  # 1 + 2 markers; 5+ saves
    done = odds_from_facts({**rolled, "stage": "done"})
    assert done.casualties == (1.0, 0.0) and done.p_break == pytest.approx(0.5)
    dead = odds_from_facts({**rolled, "stage": "done", "killed": True})
    assert dead.casualties == (0.0, 1.0) and dead.p_break == 0.0


def test_dt_facts_without_a_cancelling_reaction_and_with_a_morale_modifier() -> None:
    bare = {"kind": "melee", "attacks": 4, "hit": 0, "block": 0,
            "cancel": {"kind": "", "dice": 2, "modifier": 0}, "tough": -1,
            "regeneration": False, "stage": "hit", "morale": -2}
    assert odds_from_facts(bare) == attack_odds(Attack(kind="melee", attacks=4, morale=-2))
    grenade = {**FACT, "kind": "grenade", "attacks": 2, "stage": "cancel",
               "successes": 2}  # the throw only carries it: one hit under the blast
    assert odds_from_facts(grenade).hits == (0.0, 1.0, 0.0)  # never cancelled
    short = odds_from_facts({**grenade, "successes": 0})
    assert short.hits == (1.0, 0.0, 0.0) and short.casualties == (1.0, 0.0)


@pytest.mark.parametrize("facts,message", [
    ({**FACT, "stage": "saves"}, "unknown stage"),
    ({**FACT, "kind": "special"}, "unknown attack kind"),
    ({**FACT, "tough": -2}, "tough -2: a Tough unit has 0 to 2"),
    ({**FACT, "attacks": -1}, "attacks -1: 0 to 200 dice"),
    ({**FACT, "stage": "cancel", "successes": 4}, "4 successes from 3 dice"),
    ({**FACT, "stage": "block", "successes": 1, "hits": 2}, "2 hits is impossible"),
    ({**FACT, "stage": "regeneration", "hits": 1, "failed_blocks": 2}, "failed blocks"),
])
def test_dt_facts_the_dice_cannot_give_are_refused(facts, message) -> None:
    with pytest.raises(ValueError, match=message):
        odds_from_facts(facts)


def test_dt_stages_are_the_facts_format_of_attacks_py() -> None:
    """``stage`` as "Facts for the odds panel" in ``doubletap/attacks.py`` lists it."""
    assert STAGES == ("hit", "cancel", "block", "regeneration", "done")


def test_dt_the_panel_leaves_out_attacks_over_panel_dice() -> None:
    """The panel computes in the key handler: beyond :data:`PANEL_DICE` dice, the
    cancelling tests counted, no odds (``headless/oddsview.py``)."""
    dodged = {**FACT, "attacks": PANEL_DICE - 2}
    assert odds_from_facts(dodged) is not None
    assert odds_from_facts({**dodged, "attacks": PANEL_DICE - 1}) is None
    assert odds_from_facts({**dodged, "cancel": {"kind": ""}, "attacks": PANEL_DICE})
    assert odds_from_facts({**FACT, "attacks": 10 ** 6}) is None


def test_dt_attack_names_its_numbers_by_flag_for_the_command() -> None:
    with pytest.raises(ValueError, match=r"^cancel dice 201: 0 to 200 dice"):
        Attack(attacks=1, cancel_dice=201)
    with pytest.raises(ValueError, match=r"^--tough 3: a Tough unit has 0 to 2 wound"):
        Attack(attacks=1, tough=3, names=FLAGS)
    with pytest.raises(ValueError, match=r"^--attacks 201: .* too large"):
        Attack(attacks=201, names=FLAGS)

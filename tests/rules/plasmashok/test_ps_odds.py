"""Deathzap Plasmashok exact odds (PS §4 special combat, PS §5 shooting, PS §6 melee):
enumeration of every die in exact fractions, several groups at one target, the
casualties of app reading 1, and the facts contract stage by stage."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import product
from math import comb

import pytest

from deathzap_tui.rules.distributions import sum_of
from deathzap_tui.rules.plasmashok import tables
from deathzap_tui.rules.plasmashok.odds import (
    PANEL_WORK,
    SHOOTING_STAGES,
    odds_from_facts,
    shooting_odds,
    special_odds,
)
from deathzap_tui.rules.plasmashok.oddsmath import (
    Group,
    casualties_from_wounds,
    check_target,
    damage_dist,
    distinct_faces,
    killed,
    work,
    wounds_from_damage,
)

FACES = range(1, 7)
EXACT = 1e-12


# --------------------------------------------------------------------------- oracles
def convolve(a: Counter, b: Counter) -> Counter:
    out: Counter = Counter()
    for x, px in a.items():
        for y, py in b.items():
            out[x + y] += px * py
    return out


def rolls(n: int, known: tuple[int, ...] | None = None):
    """Every roll of ``n`` dice with its chance (the ``known`` one: chance 1)."""
    if known is not None:
        return [(known, Fraction(1))]
    return [(faces, Fraction(1, 6**n)) for faces in product(FACES, repeat=n)]


@cache
def one_die(strength: int, damage: int, blocked: frozenset, sizes: frozenset) -> Counter:
    """PS §5 steps 2-4 for one attack die, every face of it and of its strength dice,
    given the target's defence and size faces: its (hits, damage) with chances."""
    out: Counter = Counter()
    for face in FACES:
        if face in blocked:
            out[(0, 0)] += Fraction(1, 6)
            continue
        for faces in product(FACES, repeat=strength):
            hits = sum(f in sizes for f in faces)
            out[(hits, hits * damage)] += Fraction(1, 6 * 6**strength)
    return out


def add_pairs(a: Counter, b: Counter) -> Counter:
    out: Counter = Counter()
    for (h1, d1), p1 in a.items():
        for (h2, d2), p2 in b.items():
            out[(h1 + h2, d1 + d2)] += p1 * p2
    return out


@cache
def saves(points: int, save: int) -> Counter:
    """PS §5 step 5: one save die per point, every face of each; a face below
    ``save`` fails: a wound."""
    if points == 0:
        return Counter({0: Fraction(1)})
    die = Counter()
    for f in FACES:
        die[int(f < save)] += Fraction(1, 6)
    return convolve(saves(points - 1, save), die)


def brute(groups, defence, size, save, *, attack=None, defence_faces=None,
          strength=None, size_faces=None):
    """Every die of the attack (PS §5): the target's defence and size faces, then each
    attack die and its strength dice, then the saves. ``attack`` / ``strength``: faces
    known per group (the strength faces of the group's unblocked dice, in order).
    Returns (hits, damage, wounds) as {count: Fraction}."""
    pairs: Counter = Counter()
    for dfaces, pd in rolls(defence, defence_faces):
        for sfaces, ps in rolls(size, size_faces):
            blocked, sizes = frozenset(dfaces), frozenset(sfaces)
            total: Counter = Counter({(0, 0): Fraction(1)})
            for g, (dice, s, d) in enumerate(groups):
                if attack is None:
                    for _ in range(dice):
                        total = add_pairs(total, one_die(s, d, blocked, sizes))
                    continue
                free = sum(f not in blocked for f in attack[g])
                if strength is None:
                    for _ in range(free):
                        total = add_pairs(total, one_die(s, d, frozenset(), sizes))
                else:
                    assert len(strength[g]) == free * s
                    hits = sum(f in sizes for f in strength[g])
                    total = add_pairs(total, Counter({(hits, hits * d): Fraction(1)}))
            for key, p in total.items():
                pairs[key] += pd * ps * p
    hits: Counter = Counter()
    damage: Counter = Counter()
    wounds: Counter = Counter()
    for (h, d), p in pairs.items():
        hits[h] += p
        damage[d] += p
        for w, pw in saves(d, save).items():
            wounds[w] += p * pw
    return hits, damage, wounds


def brute_special(dice, defence, attack=None, defence_faces=None) -> Counter:
    """PS §4: every attack and defence die; each attack face the defender does not
    show is a wound."""
    out: Counter = Counter()
    for afaces, pa in rolls(dice, attack):
        for dfaces, pd in rolls(defence, defence_faces):
            out[sum(f not in dfaces for f in afaces)] += pa * pd
    return out


def same(dist, exact: Counter) -> None:
    size = max(len(dist), max(exact) + 1)
    got = list(dist) + [0.0] * (size - len(dist))
    assert sum(exact.values()) == 1
    for k in range(size):
        assert got[k] == pytest.approx(float(exact.get(k, 0)), abs=EXACT), k


# --------------------------------------------------------------------------- the dice
def test_ps_distinct_faces_agree_with_every_roll_ps_s5_step2() -> None:
    for k in range(5):
        exact = Counter(len(set(f)) for f in product(FACES, repeat=k))
        same(distinct_faces(k), Counter({b: Fraction(c, 6**k) for b, c in exact.items()}))
    assert sum(distinct_faces(40)) == pytest.approx(1.0, abs=EXACT)


SMALL = [  # (dice, strength, damage) groups, defence, size, save
    ([(1, 1, 1)], 1, 1, 4),
    ([(2, 1, 1)], 2, 1, 4),
    ([(3, 1, 1)], 1, 2, 7),
    ([(2, 2, 1)], 2, 2, 4),
    ([(3, 2, 2)], 2, 2, 7),
    ([(1, 2, 3)], 0, 2, 4),
    ([(3, 1, 2)], 2, 1, 4),
]


@pytest.mark.parametrize("groups,defence,size,save", SMALL)
def test_ps_one_group_agrees_with_every_die_ps_s5(groups, defence, size, save) -> None:
    """PS §5 steps 1-5: the whole hits, damage and wound distributions."""
    hits, damage, wounds = brute(groups, defence, size, save)
    odds = shooting_odds([Group(*g) for g in groups], defence, size, save, models=9)
    same(odds.hits, hits)
    same(odds.damage, damage)
    same(odds.wounds, wounds)
    assert odds.hits_mean == pytest.approx(float(sum(k * p for k, p in hits.items())))
    assert odds.damage_mean == pytest.approx(float(sum(k * p for k, p in damage.items())))


@pytest.mark.parametrize("groups,defence,size,save", [
    ([(2, 1, 1), (1, 2, 2)], 2, 2, 4),
    ([(1, 2, 1), (2, 1, 3)], 1, 2, 7),
    ([(1, 1, 1), (1, 1, 2), (1, 2, 1)], 2, 1, 4),
])
def test_ps_groups_at_one_target_share_the_defence_and_size_rolls_ps_s5(
        groups, defence, size, save) -> None:
    """App reading 6: one defence roll and one size roll for every group at the
    target, so the groups are not independent; the exact answer convolves them
    inside each roll."""
    hits, damage, wounds = brute(groups, defence, size, save)
    odds = shooting_odds([Group(*g) for g in groups], defence, size, save, models=20)
    if len({d for _n, _s, d in groups}) == 1:
        same(odds.hits, hits)
    else:  # damage per hit differs: only the mean hits are worked out
        assert odds.hits is None
    assert odds.hits_mean == pytest.approx(float(sum(k * p for k, p in hits.items())))
    same(odds.damage, damage)
    same(odds.wounds, wounds)
    independent = sum_of(shooting_odds(Group(*g), defence, size, save, models=20).damage
                         for g in groups)  # as if each group rolled its own dice
    assert max(abs(a - b) for a, b in zip(odds.damage, independent, strict=True)) > 1e-4


@pytest.mark.parametrize("dice,defence", [(1, 2), (2, 2), (3, 3), (2, 4), (0, 2)])
def test_ps_special_combat_agrees_with_every_die_ps_s4(dice, defence) -> None:
    odds = special_odds(dice, defence, models=dice or 1)
    same(odds.wounds, brute_special(dice, defence))
    assert odds.hits is None and odds.damage is None
    assert not odds.hits_step and odds.kind_text == "special combat"  # wounds, no hits


def test_ps_no_save_at_7_every_point_is_a_wound_ps_s5_step5() -> None:
    odds = shooting_odds(Group(3, 2, 2), 2, 2, tables.NO_SAVE, models=20)
    assert odds.wounds == odds.damage


# --------------------------------------------------------------------------- casualties
def test_ps_casualties_wound_the_wounded_model_first_app_reading_1() -> None:
    """Reading 1: at most one model is partly wounded and takes the next wounds."""
    assert killed(3, 6, 0, 5) == 0
    assert killed(3, 6, 4, 2) == 1
    assert killed(3, 6, 4, 8) == 2
    assert killed(3, 6, 4, 100) == 3
    assert killed(5, 1, 0, 3) == 3
    # 2 models of 6 wounds, 4 on one, 3 pending: the pending wounds kill it (4 + 3 >= 6)
    # and leave 1 on the other; new wounds kill the other at 5 more.
    dist = [0.0] * 12
    for w in range(12):
        dist[w] = 1 / 12
    cas = casualties_from_wounds(dist, 2, 6, 4, 3)
    assert len(cas) == 2  # one model left to kill
    assert cas[0] == pytest.approx(5 / 12) and cas[1] == pytest.approx(7 / 12)


def test_ps_casualties_agree_with_the_wounds_one_by_one_app_reading_1() -> None:
    """Apply the wounds one at a time to a list of models and compare."""
    for models, per, wounded, pending in [(3, 6, 2, 0), (2, 12, 11, 4), (5, 1, 0, 2),
                                          (1, 6, 0, 9)]:
        odds = shooting_odds(Group(4, 2, 2), 2, 3, 4, models, per, wounded, pending)
        want = [0.0] * (len(odds.casualties))

        def dead(wounds: int, models=models, per=per, wounded=wounded) -> int:
            left = [per - wounded] + [per] * (models - 1)  # wounds each can take
            count = 0
            for _ in range(wounds):
                if not left:
                    break
                left[0] -= 1
                if left[0] == 0:
                    left.pop(0)
                    count += 1
            return count

        before = dead(pending)
        assert odds.figures == models - before
        for w, p in enumerate(odds.wounds):
            want[dead(pending + w) - before] += p
        assert list(odds.casualties) == pytest.approx(want, abs=EXACT)


def test_ps_target_numbers_are_checked() -> None:
    """The wrong number is named: by the quantity, or by the flag the command gives."""
    with pytest.raises(ValueError, match="wounded 6: a model of 6 wounds with 6 would be"):
        shooting_odds(Group(1, 1, 1), 1, 1, 4, 2, 6, wounded=6)
    with pytest.raises(ValueError, match="at least 1 model"):
        special_odds(2, 2, 0)
    with pytest.raises(ValueError, match="shield save"):
        shooting_odds(Group(1, 1, 1), 1, 1, 8, 2)
    with pytest.raises(ValueError, match="no weapon group"):
        shooting_odds([], 1, 1, 4, 2)
    with pytest.raises(ValueError, match="--pending -1: pending wounds are 0 or more"):
        check_target(1, 1, 0, -1, ("--models", "--wounds-per-model", "--wounded",
                                   "--pending"))
    with pytest.raises(ValueError, match="weapon group's strength must be 0 or more, not -2"):
        Group(1, -2, 1)


# --------------------------------------------------------------------------- known dice
GROUPS = [(2, 2, 1), (1, 1, 2)]


def facts(stage: str, **known) -> dict:
    return {"kind": "shooting", "target": "black.0", "stage": stage,
            "groups": [{"weapon": f"W{i}", "dice": d, "strength": s, "damage": dm}
                       for i, (d, s, dm) in enumerate(GROUPS)],
            "defence": 2, "size": 2, "save": 4, "models": 3, "wounds_per_model": 1,
            "wounded": 0, "pending": 0, **known}


ROLLED = {"attack_faces": [[1, 5], [5]], "defence_faces": [3, 5],
          "strength_faces": [[2, 6], []], "size_faces": [6, 6], "damage": 1, "wounds": 0}


ORDER = ("attack_faces", "defence_faces", "strength_faces", "size_faces", "damage")


@pytest.mark.parametrize("stage", SHOOTING_STAGES)
def test_ps_facts_condition_on_the_dice_rolled_so_far_ps_s5(stage) -> None:
    """At each stage the rolls before it are known (as the engine fills them in):
    the odds are exact given them. ``declared`` and the first group's ``attack``:
    nothing rolled yet."""
    known = max(SHOOTING_STAGES.index(stage) - 1, 0)
    rolled = {k: ROLLED[k] for k in ORDER[:known]}
    if stage == "done":
        rolled["wounds"] = ROLLED["wounds"]
    odds = odds_from_facts(facts(stage, **rolled))
    kw = {}
    if known > 0:
        kw["attack"] = ((1, 5), (5,))
    if known > 1:
        kw["defence_faces"] = (3, 5)
    if known > 2:
        kw["strength"] = ((2, 6), ())
    if known > 3:
        kw["size_faces"] = (6, 6)
    hits, damage, wounds = brute(GROUPS, 2, 2, 4, **kw)
    if stage == "done":
        same(odds.wounds, Counter({0: Fraction(1)}))
        assert odds.casualties[0] == 1.0
    else:
        same(odds.wounds, wounds)
    assert odds.hits is None
    assert odds.hits_mean == pytest.approx(float(sum(k * p for k, p in hits.items())))
    same(odds.damage, damage)


def test_ps_faces_of_later_rolls_are_not_read_before_their_stage() -> None:
    """A stray later fact does not condition the odds (the stage says what is in)."""
    assert (odds_from_facts(facts("defence", **ROLLED)).damage
            == odds_from_facts(facts("defence", attack_faces=ROLLED["attack_faces"])).damage)


def test_ps_groups_rolled_so_far_condition_the_odds_at_their_stage_ps_s5() -> None:
    """One request per group (keys ``attack.<n>.<g>``, ``strength.<n>.<g>``): at the
    attack stage of the second group the first group's faces are known."""
    odds = odds_from_facts(facts("attack", attack_faces=[[1, 5]]))
    assert odds.damage == tuple(damage_dist([Group(*g) for g in GROUPS], 2, 2,
                                            attack_faces=[[1, 5]])[0])
    one = odds_from_facts(facts("strength", attack_faces=[[1, 2], [5]],
                                defence_faces=[3, 5], strength_faces=[[2, 6, 6, 1]]))
    _h, damage, _w = brute(GROUPS, 2, 2, 4, attack=((1, 2), (5,)), defence_faces=(3, 5))
    # the second group's die (5) is blocked: its strength roll has no dice, so the
    # first group's strength faces leave only the size dice unknown
    want = Counter()
    for sizes, p in rolls(2):
        want[sum(f in sizes for f in (2, 6, 6, 1))] += p
    same(one.damage, want)
    assert sum(damage.values()) == 1


@pytest.mark.slow
def test_ps_partly_rolled_attack_dice_condition_their_group_only_ps_s5() -> None:
    """A group whose attack dice are in while the next group's are not (keys
    ``attack.<n>.<g>``): the known faces and the binomial of the rest."""
    got = damage_dist([Group(*g) for g in GROUPS], 2, 2, attack_faces=[[1, 5]])
    want = Counter()
    for extra in FACES:
        _h, damage, _w = brute(GROUPS, 2, 2, 4, attack=((1, 5), (extra,)))
        for k, p in damage.items():
            want[k] += p / 6
    same(got[0], want)


def test_ps_special_facts_condition_by_stage_ps_s4() -> None:
    base = {"kind": "special", "target": "black.0", "dice": 3, "defence": 3,
            "models": 5, "wounds_per_model": 1, "wounded": 0, "pending": 0,
            "attack_faces": [1, 1, 4], "defence_faces": [1, 2, 2], "wounds": 1}
    for stage in ("declared", "attack"):  # nothing rolled yet
        same(odds_from_facts({**base, "stage": stage}).wounds, brute_special(3, 3))
    same(odds_from_facts({**base, "stage": "defence"}).wounds,
         brute_special(3, 3, attack=(1, 1, 4)))
    assert odds_from_facts({**base, "stage": "done"}).wounds == (0.0, 1.0, 0.0, 0.0)


def test_ps_melee_facts_are_shooting_facts_with_their_kind_ps_s6() -> None:
    odds = odds_from_facts({**facts("declared"), "kind": "melee"})
    assert odds.kind == "melee"
    assert odds.damage == odds_from_facts(facts("declared")).damage


def test_ps_facts_the_odds_cannot_read_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown stage"):
        odds_from_facts(facts("hit"))
    with pytest.raises(ValueError, match="unknown attack kind"):
        odds_from_facts({"kind": "morale"})
    with pytest.raises(ValueError, match="1 to 6"):
        odds_from_facts(facts("strength", attack_faces=[[7, 1], [2]], defence_faces=[1]))


def test_ps_an_attack_too_large_for_the_key_handler_shows_no_odds() -> None:
    big = {**facts("declared"), "groups": [{"weapon": "X", "dice": 400, "strength": 6,
                                          "damage": 1}]}
    assert work([Group(400, 6, 1)]) > PANEL_WORK
    assert odds_from_facts(big) is None


def test_ps_odds_json_has_damage_and_wounds_and_no_after_effect() -> None:
    odds = shooting_odds(Group(2, 2, 2), 1, 2, 4, models=2)
    out = odds.to_json()
    assert {"damage", "mean_damage", "wounds", "mean_wounds", "p_any_wound"} <= set(out)
    assert out["p_break"] is None and "p_break_means" not in out
    assert out["p_any_wound"] == pytest.approx(1 - odds.wounds[0])


# --------------------------------------------------------------------------- the panel
def test_ps_odds_panel_shows_damage_wounds_and_the_weapons() -> None:
    """The app's panel (generic: keyed on the odds' fields) names the groups' weapons,
    the expected damage and wounds, P(at least one wound) and the wounds line; no
    after-effect row (PS §7 morale is tested at the end of the turn)."""
    from deathzap_tui.app.wizard.odds import panel_text
    from deathzap_tui.headless.oddsview import odds_entries
    from deathzap_tui.rules import registry

    fact = facts("declared")
    entries = odds_entries(registry.get("plasmashok"), None,
                           {"attacks": [fact], "attack": fact}, {"black.0": "Pickets"})
    (entry,) = entries
    assert entry.what == "W0, W1 (shooting)" and entry.current
    compact = panel_text(entries, full=False).plain
    assert "Pickets ← W0, W1 (shooting) · as declared" in compact
    assert "damage" in compact and "wounds" in compact and "≥1 wound" in compact
    assert "breaks" not in compact
    detail = panel_text(entries, full=True, height=30, width=46).plain
    assert "wounds 0 " in detail and "Casualties" in detail
    fact.update(stage="attack", attack_faces=[[1, 5]])  # the second group's dice next
    (entry,) = odds_entries(registry.get("plasmashok"), None, {"attack": fact})
    assert "· given the dice so far" in panel_text([entry], full=False).plain


def test_ps_special_combat_panel_shows_wounds_not_hits_ps_s4() -> None:
    """PS §4: the unblocked dice are the wounds, so no hits; the odds name their kind
    ("special combat") for the panel."""
    from deathzap_tui.app.wizard.odds import panel_text
    from deathzap_tui.headless.oddsview import odds_entries
    from deathzap_tui.rules import registry

    special = {"kind": "special", "target": "black.0", "dice": 2, "defence": 3,
               "models": 5, "stage": "defence", "attack_faces": [1, 2]}
    (entry,) = odds_entries(registry.get("plasmashok"), None, {"attack": special})
    assert entry.what == "special combat"
    text = panel_text([entry], full=False).plain
    assert "given the dice so far" in text
    assert "Expected wounds " in text and "hits" not in text


@pytest.mark.parametrize("save", range(1, tables.NO_SAVE + 1))
def test_ps_wounds_are_one_save_per_point_of_any_damage_ps_s5_step5(save: int) -> None:
    """The wounds of a damage distribution (Horner's rule on its generating function,
    issue 21) are exactly the mixture of one binomial of saves per point of damage,
    up to far more damage than the small exact games reach."""
    damage = [(k % 7 + 1) / 1000 for k in range(60)]
    damage[0] += 1 - sum(damage)
    fails = Fraction(min(save, tables.NO_SAVE) - 1, 6)
    want = [Fraction(0)] * len(damage)
    for d, pd in enumerate(damage):
        for w in range(d + 1):
            want[w] += Fraction(pd) * comb(d, w) * fails**w * (1 - fails) ** (d - w)
    got = wounds_from_damage(damage, save)
    assert len(got) == len(damage)
    assert max(abs(g - float(w)) for g, w in zip(got, want, strict=True)) < EXACT

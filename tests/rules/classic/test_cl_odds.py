"""Deathzap Classic exact odds (CL §5 shooting, CL §6 melee): brute-force enumeration
of every die in exact fractions, the facts contract stage by stage, the CLI (text,
JSON, help, bad flags), a ruleset without odds, and a seeded Monte Carlo of the real
engine (``combat.shoot`` / ``combat.fight``)."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import product
from pathlib import Path

import pytest
from cl_combat_fixtures import engage, state_of, unit
from cli_helpers import run_json

from deathzap_tui.cli import main
from deathzap_tui.rules.classic import tables
from deathzap_tui.rules.classic.odds import (
    DEAD,
    SAFE,
    Volley,
    melee_case,
    melee_casualties,
    melee_hits,
    melee_odds,
    odds_from_facts,
    p_loses_melee,
    p_product_higher,
    shooting_odds,
    spread,
)
from deathzap_tui.rules.dice import Rng

FORCES = Path(__file__).resolve().parents[3] / "forces"
RED = FORCES / "cl-red-dawn-irregulars.toml"
BLACK = FORCES / "cl-black-maw-brood.toml"
FACES = range(1, 7)
EXACT = 1e-12
"""Float DP against exact fractions: the DP sums a few hundred terms at most."""


# --------------------------------------------------------------------------- oracles
@cache
def successes(n: int, target: int) -> Counter:
    """Every face of ``n`` dice: how many of the 6**n reach ``target`` (a count)."""
    return Counter(sum(f >= target for f in faces) for faces in product(FACES, repeat=n))


@cache
def failed_saves(hits: int, save: int) -> Counter:
    """CL §5 / CL-R3: every save die of ``hits`` hits; SAFE: no effect, DEAD: no save."""
    if save == SAFE:
        return Counter({0: 6**hits})
    if save >= DEAD:
        return Counter({hits: 6**hits})
    return Counter({hits - s: c for s, c in successes(hits, save).items()})


def dist(counter: Counter, total: int | None = None) -> dict[int, Fraction]:
    total = total or sum(counter.values())
    return {k: Fraction(c, total) for k, c in counter.items()}


def suppressed(left: int, killed: int) -> Fraction:
    """CL §5: one D6 x left against one D6 x killed, every pair of faces; panicked if
    the killed product is strictly higher. No casualty or none left: no roll."""
    if killed == 0 or left == 0:
        return Fraction(0)
    return Fraction(sum(b * killed > a * left for a, b in product(FACES, FACES)), 36)


def brute_shooting(volleys: list[tuple[int, int, int]], figures: int, pending: int = 0,
                   hits: int | None = None, failed: int | None = None):
    """Every die: to hit, then saves, then the suppression roll (CL §5, CL-R2).
    ``volleys``: (dice, to_hit, save). Returns (casualties, hits, P(panicked))."""
    room = figures - pending
    total_hits: dict[int, Fraction] = {0: Fraction(1)}
    total_failed: dict[int, Fraction] = {0: Fraction(1)}
    for i, (dice, to_hit, save) in enumerate(volleys):
        h_dist = ({hits: Fraction(1)} if i == 0 and hits is not None
                  else dist(successes(dice, to_hit)))
        f_dist: dict[int, Fraction] = Counter()
        for h, ph in h_dist.items():
            known = failed if i == 0 and failed is not None else None
            fails = {known: Fraction(1)} if known is not None else dist(failed_saves(h, save))
            for f, pf in fails.items():
                f_dist[f] += ph * pf
        total_hits = _add(total_hits, h_dist)
        total_failed = _add(total_failed, f_dist)
    cas: dict[int, Fraction] = Counter()
    for f, p in total_failed.items():
        cas[min(f, room)] += p
    p_break = sum((p * suppressed(room - c, pending + c) for c, p in cas.items()),
                  Fraction(0))
    return ([cas.get(c, Fraction(0)) for c in range(room + 1)],
            [total_hits.get(h, Fraction(0)) for h in range(max(total_hits) + 1)], p_break)


def _add(a: dict[int, Fraction], b: dict[int, Fraction]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = Counter()
    for x, px in a.items():
        for y, py in b.items():
            out[x + y] += px * py
    return out


@cache
def pips(n: int) -> Counter:
    return Counter(sum(faces) for faces in product(FACES, repeat=n))


def brute_melee_hits(groups: list[tuple[int, int]]) -> dict[int, Fraction]:
    """CL §6: every face of every group's dice, floor(pips / power) per group, summed."""
    out: dict[int, Fraction] = {0: Fraction(1)}
    for dice, power in groups:
        out = _add(out, dist(_floor_counts(dice, power)))
    return out


def _floor_counts(dice: int, power: int) -> Counter:
    c: Counter = Counter()
    for s, n in pips(dice).items():
        c[s // power] += n
    return c


def brute_melee_casualties(hits: dict[int, Fraction],
                           defenders: list[tuple[int, int]]) -> dict[int, Fraction]:
    """Spread (odd hits to the first types), every save die per type, capped per type."""
    out: dict[int, Fraction] = Counter()
    for h, ph in hits.items():
        per_type: dict[int, Fraction] = {0: Fraction(1)}
        n = len(defenders)
        for i, (figures, save) in enumerate(defenders):
            got = h // n + (1 if i < h % n else 0)
            capped: dict[int, Fraction] = Counter()
            for f, pf in dist(failed_saves(got, save)).items():
                capped[min(f, figures)] += pf
            per_type = _add(per_type, capped)
        for c, pc in per_type.items():
            out[c] += ph * pc
    return out


def lose_melee(mine: int, theirs: int) -> Fraction:
    """CL §6 / CL-R4: one round of two dice enumerated; a tie rolls again, so the
    loss is P(lower) / P(not equal)."""
    low = sum(a * mine < b * theirs for a, b in product(FACES, FACES))
    high = sum(a * mine > b * theirs for a, b in product(FACES, FACES))
    return Fraction(low, low + high)


LONE_PANICKED = ("infantry", "beasts", "heavy-infantry")
"""The seed (deathzap-classic.txt, Movement): "1 figure infantry/beast/heavy infantry
units are automatically panicked" (CL §4), written out here apart from the tables."""


def ends_panicked(type_id: str, panicked: bool, left: int, roll: Fraction) -> Fraction:
    """The oracle's reading of "ends the attack panicked": a unit still there that was
    panicked already, is a lone figure of a type the seed names, or lost the roll."""
    if left == 0:
        return Fraction(0)
    if panicked or (left == 1 and type_id in LONE_PANICKED):
        return Fraction(1)
    return roll


def close_all(floats, fractions) -> None:
    assert len(floats) == len(fractions)
    for x, y in zip(floats, fractions, strict=True):
        assert abs(x - float(y)) <= EXACT, (floats, [float(f) for f in fractions])


# --------------------------------------------------------------------------- shooting
SHOOTING_CASES = [
    # (volleys (dice, to_hit, save), figures, pending): CL §5 columns and CL-R3 saves
    ([(4, 4, 4)], 6, 0),                      # Basic, open, infantry 4+
    ([(3, 5, 2)], 3, 1),                      # Basic, soft, heavy infantry 2+; pending
    ([(4, 3, SAFE)], 2, 0),                   # Basic vs vehicles: safe
    ([(3, 3, DEAD)], 2, 0),                   # Heavy vs infantry: dead, capped at 2
    ([(4, tables.PANICKED_TO_HIT, 5)], 4, 2),  # a panicked shooter hits on 6 only
    ([(2, 4, 5), (2, 3, DEAD)], 3, 1),        # two weapon groups at one target
    ([(4, 4, 4)], 1, 0),                      # one figure: wiped out or untouched
    ([(3, 4, 4)], 4, 4),                      # every figure already pending
]


@pytest.mark.parametrize("volleys,figures,pending", SHOOTING_CASES)
def test_shooting_agrees_with_every_die_cl_s5_r2_r3(volleys, figures, pending) -> None:
    odds = shooting_odds([Volley(*v) for v in volleys], figures, pending)
    cas, hits, p_break = brute_shooting(volleys, figures, pending)
    close_all(odds.casualties, cas)
    close_all(odds.hits, hits)
    assert abs(odds.p_break - float(p_break)) <= EXACT
    assert math.isclose(sum(odds.casualties), 1.0) and math.isclose(sum(odds.hits), 1.0)
    assert odds.figures == figures - pending
    assert odds.hits_mean == pytest.approx(sum(v[0] * (7 - v[1]) / 6 for v in volleys))


@pytest.mark.parametrize("hits,failed", [(0, None), (2, None), (3, None), (3, 1), (3, 3),
                                         (2, 0)])
def test_known_hits_and_failed_saves_condition_the_odds_cl_s5(hits, failed) -> None:
    volleys = [(4, 4, 4), (2, 3, 5)]
    odds = shooting_odds([Volley(*v) for v in volleys], 4, 1, hits=hits, failed_saves=failed)
    cas, hit_dist, p_break = brute_shooting(volleys, 4, 1, hits=hits, failed=failed)
    close_all(odds.casualties, cas)
    close_all(odds.hits, hit_dist)
    assert abs(odds.p_break - float(p_break)) <= EXACT


def test_safe_targets_take_no_casualties_and_dead_ones_no_save_cl_r3() -> None:
    safe = shooting_odds(Volley(6, 3, SAFE), 3)
    assert safe.casualties == (1.0, 0.0, 0.0, 0.0) and safe.p_break == 0.0
    assert safe.hits_mean == pytest.approx(4.0)
    dead = shooting_odds(Volley(2, 1, DEAD), 5)  # every die hits, every hit kills
    assert dead.casualties[2] == pytest.approx(1.0)


def test_suppression_is_strictly_higher_and_only_with_figures_left_cl_s5() -> None:
    # 1 left vs 1 killed: panicked only when the killed die is higher: 15 of 36
    assert p_product_higher(1, 1) == pytest.approx(15 / 36)
    for left, killed in [(1, 1), (5, 1), (1, 5), (3, 4), (6, 2)]:
        assert p_product_higher(left, killed) == pytest.approx(float(suppressed(left, killed)))
    # pending casualties alone make the unit test, even if these shots miss
    odds = shooting_odds(Volley(2, 7, 4), 4, 2)
    assert odds.casualties == (1.0, 0.0, 0.0)
    assert odds.p_break == pytest.approx(float(suppressed(2, 2)))
    # no casualty at all: no test; wiped out: no test (the unit is gone)
    assert shooting_odds(Volley(2, 7, 4), 4).p_break == 0.0
    assert shooting_odds(Volley(4, 1, DEAD), 2).p_break == 0.0


@pytest.mark.parametrize("type_id,panicked", [
    ("infantry", False), ("beasts", False), ("heavy-infantry", False), ("vehicles", False),
    ("monsters", False), ("infantry", True)])
@pytest.mark.parametrize("volleys,figures,pending", SHOOTING_CASES)
def test_ends_panicked_any_cause_agrees_with_every_die_cl_s4_s5(volleys, figures, pending,
                                                                 type_id, panicked) -> None:
    """CL §4 (seed, Movement: "1 figure infantry/beast/heavy infantry units are
    automatically panicked") and CL §5: the chance the target ends the shooting
    panicked from any cause, every die enumerated: suppression, or a lone figure of a
    type the seed names, or panicked already; never when wiped out. The suppression
    key keeps its own number."""
    odds = shooting_odds([Volley(*v) for v in volleys], figures, pending,
                         target_type=type_id, target_panicked=panicked)
    cas, _hits, p_break = brute_shooting(volleys, figures, pending)
    room = figures - pending
    want = sum((p * ends_panicked(type_id, panicked, room - c, suppressed(room - c,
                                                                          pending + c))
                for c, p in enumerate(cas)), Fraction(0))
    assert abs(odds.p_break_any_cause - float(want)) <= EXACT
    assert abs(odds.p_break - float(p_break)) <= EXACT
    assert odds.p_break_any_cause >= odds.p_break - EXACT


def test_a_lone_beast_left_by_a_blast_is_panicked_cl_s4_issue_25() -> None:
    """The issue's case: one Radius gun, hard cover, 2 Beasts, 1 in the blast: to hit
    4+ (1/2), save 5+ (fails 2/3). One casualty leaves a lone Beast, always panicked
    (CL §4); suppression alone (1 left against 1 killed, 15/36) said 13.9%."""
    odds = shooting_odds(Volley(1, 4, 5), 2, target_type="beasts")
    assert odds.p_break == pytest.approx(1 / 3 * 15 / 36)
    assert odds.p_break_any_cause == pytest.approx(1 / 3)
    assert shooting_odds(Volley(1, 4, 5), 2).p_break_any_cause is None  # type unknown


def test_classic_odds_say_what_p_break_means() -> None:
    odds = shooting_odds(Volley(4, 4, 4), 6)
    assert odds.break_label == "panicked" and "suppression" in odds.break_text
    assert not odds.break_removes and odds.p_destroyed == odds.p_wiped_out
    assert not odds.damage_step
    data = odds.to_json()
    for key in ("hits", "casualties", "mean_casualties", "p_any_casualty", "p_wiped_out",
                "p_break", "p_break_means"):
        assert key in data
    assert data["p_break_means"] == "panicked by suppression"


@pytest.mark.parametrize("kwargs,message", [
    ({"hits": 5}, "impossible"),
    ({"failed_saves": 1}, "need the hits"),
    ({"hits": 2, "failed_saves": 3}, "impossible"),
])
def test_impossible_known_dice_are_refused(kwargs, message) -> None:
    with pytest.raises(ValueError, match=message):
        shooting_odds(Volley(4, 4, 4), 6, **kwargs)
    with pytest.raises(ValueError, match="pending"):
        shooting_odds(Volley(4, 4, 4), 3, 4)


# --------------------------------------------------------------------------- melee
MELEE_CASES = [
    # (groups (dice, power), defenders (figures, save)): CL §2 numbers
    ([(3, 4)], [(3, 6)]),                      # 3 beasts vs 3 infantry
    ([(2, 3)], [(1, 4)]),                      # a big beast (2 attacks) vs 1 heavy
    ([(3, 5), (2, 6)], [(2, 6), (2, 4)]),      # mixed attackers, mixed defenders
    ([(2, 6)], [(1, 6), (1, 4), (2, 3)]),      # three defending types: odd hits first
    ([(2, 2)], [(2, 5)]),                      # light vehicles: many hits, capped
    ([(3, tables.PANICKED_MELEE_POWER)], [(3, 3)]),  # panicked attackers: power 6
]


@pytest.mark.parametrize("groups,defenders", MELEE_CASES)
def test_melee_agrees_with_every_die_cl_s6(groups, defenders) -> None:
    odds = melee_odds(groups, defenders)
    hits = brute_melee_hits(groups)
    close_all(odds.hits, [hits.get(h, Fraction(0)) for h in range(max(hits) + 1)])
    cas = brute_melee_casualties(hits, defenders)
    total = sum(f for f, _ in defenders)
    close_all(odds.casualties, [cas.get(c, Fraction(0)) for c in range(total + 1)])
    assert math.isclose(sum(odds.casualties), 1.0) and odds.p_break is None
    assert odds.figures == total


@pytest.mark.parametrize("known", [0, 1, 3, 4])
def test_known_melee_hits_condition_the_casualties_cl_s6(known) -> None:
    defenders = [(2, 6), (1, 4)]
    odds = melee_odds([(3, 4)], defenders, hits=known)
    cas = brute_melee_casualties({known: Fraction(1)}, defenders)
    close_all(odds.casualties, [cas.get(c, Fraction(0)) for c in range(4)])
    assert odds.hits_mean == known


def test_hits_are_spread_evenly_odd_ones_to_the_first_types_cl_s6() -> None:
    assert spread(7, 3) == [3, 2, 2]
    assert spread(2, 3) == [1, 1, 0]
    assert spread(0, 2) == [0, 0]
    # one hit on (1 infantry, 1 vehicle): the infantry takes it, at 6+
    cas = melee_casualties([0.0, 1.0], [(1, 6), (1, 3)])
    assert cas == pytest.approx([1 / 6, 5 / 6, 0.0])


def test_melee_hits_floor_the_pips_per_type_cl_s6() -> None:
    # one die at power 6: a hit only on a 6; at power 1: the pips themselves
    assert melee_hits([(1, 6)]) == pytest.approx([5 / 6, 1 / 6])
    assert melee_hits([(1, 1)]) == pytest.approx([0.0] + [1 / 6] * 6)
    # two groups are floored apart: 1 die at power 4 + 1 die at power 4 is not 2 dice / 4
    apart = melee_hits([(1, 4), (1, 4)])
    together = melee_hits([(2, 4)])
    assert apart != pytest.approx(together[:len(apart)])


@pytest.mark.parametrize("attack,reply", [
    (([(3, 4)], [(3, 6)]), ([(3, 6)], [(3, 6)])),
    (([(2, 3)], [(2, 4)]), ([(2, 5)], [(1, 4)])),
    (([(2, 6)], [(1, 6), (1, 4)]), ([(1, 6), (1, 5)], [(2, 6)])),
])
def test_end_of_melee_roll_agrees_with_every_die_cl_s6_r4(attack, reply) -> None:
    """The defending side is panicked when it loses the end-of-melee roll (neither side
    wiped out; ties re-roll)."""
    groups, defenders = attack
    back_groups, back_defenders = reply
    odds = melee_odds(groups, defenders, reply=(back_groups, back_defenders))
    x = brute_melee_casualties(brute_melee_hits(groups), defenders)
    y = brute_melee_casualties(brute_melee_hits(back_groups), back_defenders)
    mine, theirs = sum(f for f, _ in defenders), sum(f for f, _ in back_defenders)
    want = sum((px * py * lose_melee(mine - a + b, theirs - b + a)
                for a, px in x.items() if a < mine for b, py in y.items() if b < theirs),
               Fraction(0))
    assert abs(odds.p_break - float(want)) <= EXACT
    assert odds.break_text == "loses the melee: panicked"


@pytest.mark.parametrize("type_id,panicked", [
    ("infantry", False), ("beasts", False), ("vehicles", False), ("heavy-infantry", True)])
@pytest.mark.parametrize("attack,reply", [
    (([(3, 4)], [(3, 6)]), ([(3, 6)], [(3, 6)])),
    (([(2, 3)], [(2, 4)]), ([(2, 5)], [(1, 4)])),
    (([(4, 4)], [(2, 5)]), ([(2, 6)], [(4, 6)])),
])
def test_melee_ends_panicked_any_cause_agrees_with_every_die_cl_s4_s6(
        attack, reply, type_id, panicked) -> None:
    """CL §4 (seed, Movement: "1 figure infantry/beast/heavy infantry units are
    automatically panicked") and CL §6: the target unit ends the melee panicked when
    it loses the end-of-melee roll, or its casualties leave a lone figure of a type
    the seed names, or it was panicked already; the attacker wiped out means no roll
    but a lone figure is still panicked."""
    groups, defenders = attack
    back_groups, back_defenders = reply
    odds = melee_odds(groups, defenders, reply=(back_groups, back_defenders),
                      target=(type_id, panicked))
    x = brute_melee_casualties(brute_melee_hits(groups), defenders)
    y = brute_melee_casualties(brute_melee_hits(back_groups), back_defenders)
    mine, theirs = sum(f for f, _ in defenders), sum(f for f, _ in back_defenders)
    want = sum((px * py * ends_panicked(type_id, panicked, mine - a,
                                        lose_melee(mine - a + b, theirs - b + a)
                                        if b < theirs and a < mine else Fraction(0))
                for a, px in x.items() for b, py in y.items()), Fraction(0))
    assert abs(odds.p_break_any_cause - float(want)) <= EXACT
    assert melee_odds(groups, defenders, reply=(back_groups, back_defenders)).p_break == (
        odds.p_break)


def test_end_of_melee_ties_reroll_cl_r4() -> None:
    assert p_loses_melee(3, 3) == pytest.approx(0.5)
    assert p_loses_melee(1, 6) == pytest.approx(float(lose_melee(1, 6)))
    assert p_loses_melee(2, 1) + p_loses_melee(1, 2) == pytest.approx(1.0)


# --------------------------------------------------------------------------- facts
SHOT = {"kind": "shooting", "target": "black.2", "weapon": "Basic x4", "dice": 4,
        "to_hit": 4, "save": 4, "figures": 6, "pending": 1}


@pytest.mark.parametrize("stage,known", [
    ("declared", {}), ("hit", {}), ("saves", {"hits": 3}),
    ("done", {"hits": 3, "failed_saves": 2}),
])
def test_shooting_facts_condition_by_stage(stage, known) -> None:
    fact = {**SHOT, "stage": stage, "hits": 3, "failed_saves": 2}
    odds = odds_from_facts(fact)
    assert odds == shooting_odds(Volley(4, 4, 4), 6, 1, hits=known.get("hits"),
                                 failed_saves=known.get("failed_saves"))
    if stage == "done":
        assert odds.casualties[2] == 1.0


def test_melee_facts_condition_by_stage() -> None:
    fact = {"kind": "melee", "target": "black.1", "weapon": "melee",
            "groups": [[3, 4], [1, 6]], "defenders": [[3, 6], [1, 4]], "stage": "declared"}
    declared = odds_from_facts(fact)
    assert declared == melee_odds([(3, 4), (1, 6)], [(3, 6), (1, 4)])
    assert declared.p_break is None  # the other direction is another fact
    known = odds_from_facts({**fact, "stage": "saves", "hits": 2})
    assert known == melee_odds([(3, 4), (1, 6)], [(3, 6), (1, 4)], hits=2)
    assert odds_from_facts({**fact, "stage": "done", "hits": 2}) == known


def test_facts_the_odds_cannot_read_are_refused() -> None:
    with pytest.raises(ValueError, match="kind"):
        odds_from_facts({"kind": "morale"})
    with pytest.raises(ValueError, match="stage"):
        odds_from_facts({**SHOT, "stage": "shields"})
    with pytest.raises(ValueError, match="pairs"):
        odds_from_facts({"kind": "melee", "groups": 3, "defenders": [[1, 6]]})


# --------------------------------------------------------------------------- rulesets
def test_a_package_ruleset_without_odds_answers_none(tmp_path, monkeypatch) -> None:
    from deathzap_tui.rules.ruleset import PackageRuleset

    (tmp_path / "noodds_plugin").mkdir()
    (tmp_path / "noodds_plugin" / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))

    class NoOdds(PackageRuleset):
        id, title, package = "no-odds", "No Odds", "noodds_plugin"
        points = intents = view = None  # not used here

    ruleset = NoOdds()
    assert ruleset.attack_odds(None, SHOT) is None
    assert ruleset.odds_cli((None, None), (None, None), {}) is None
    assert ruleset.odds_numbers(None) is None
    assert list(ruleset.odds_arguments(None)) == []


def test_deathzap_odds_says_a_ruleset_has_none(tmp_path, monkeypatch, capsys) -> None:
    from deathzap_tui.rules import registry

    pkg = tmp_path / "noodds_cli"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(
        "from types import SimpleNamespace\n"
        "from deathzap_tui.rules.ruleset import PackageRuleset\n"
        "class NoOdds(PackageRuleset):\n"
        "    id, title, package = 'no-odds', 'No Odds', 'noodds_cli'\n"
        "    def parse_force(self, data):\n"
        "        return SimpleNamespace(name=data['name'], units=[SimpleNamespace(\n"
        "            name=u['name'], figures=[]) for u in data['units']])\n"
        "    def force_warnings(self, force):\n"
        "        return []\n"
        "    points = intents = view = None\n"
        "RULESET = NoOdds()\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(registry._PLUGINS, "no-odds", "noodds_cli")
    force = tmp_path / "f.toml"
    force.write_text('name = "F"\nruleset = "no-odds"\n[[units]]\nname = "A"\n')
    assert main(["odds", "--attacker", f"{force}:1", "--target", f"{force}:A"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "deathzap odds: no odds for No Odds forces"
    assert main(["odds", "--ruleset", "no-odds"]) == 2
    assert "no odds from bare numbers for No Odds" in capsys.readouterr().err


# --------------------------------------------------------------------------- the CLI
BARE = ["odds", "--ruleset", "classic", "--guns", "4", "--weapon", "basic", "--cover",
        "open", "--target-type", "infantry", "--figures", "6", "--pending", "1"]
MELEE = ["odds", "--ruleset", "classic", "--melee", "--attacker-type", "beasts",
         "--attacker-figures", "3", "--target-type", "infantry", "--figures", "3"]


def test_bare_numbers_shooting_json_cl_s5(capsys) -> None:
    out = run_json(capsys, BARE)
    want = shooting_odds(Volley(4, 4, 4), 6, 1)
    assert out["casualties"] == list(want.casualties) and out["hits"] == list(want.hits)
    assert out["p_break"] == want.p_break
    assert out["p_break_means"] == "panicked by suppression"
    for key in ("mean_casualties", "p_any_casualty", "p_wiped_out"):
        assert out[key] == pytest.approx(getattr(want, key))


@pytest.mark.parametrize("extra,volley", [
    (["--weapon", "auto-heavy", "--guns", "1"], Volley(6, 3, 5)),  # 6 dice per gun
    (["--weapon", "radius", "--guns", "2", "--in-blast", "3"], Volley(6, 4, 5)),
    (["--weapon", "heavy", "--cover", "hard"], Volley(4, 5, DEAD)),
    (["--panicked", "--cover", "soft"], Volley(4, 6, 4)),  # panicked: 6 whatever the cover
    (["--target-type", "monsters"], Volley(4, 4, SAFE)),
])
def test_bare_numbers_use_the_cl_s5_table(capsys, extra, volley) -> None:
    out = run_json(capsys, [*BARE, *extra])
    want = shooting_odds(volley, 6, 1)
    assert out["casualties"] == list(want.casualties) and out["hits"] == list(want.hits)


def test_bare_numbers_melee_both_ways_cl_s6(capsys) -> None:
    out = run_json(capsys, MELEE)
    stats = tables.TYPES
    want = melee_odds([(3, stats["beasts"].melee_power)], [(3, stats["infantry"].save)],
                      reply=([(3, stats["infantry"].melee_power)],
                             [(3, stats["beasts"].save)]))
    assert out["casualties"] == list(want.casualties) and out["p_break"] == want.p_break
    assert out["p_break_means"] == "loses the melee: panicked"
    heavies = [*MELEE[:-4], "--target-type", "heavy-infantry", "--figures", "3"]
    steady = run_json(capsys, heavies)
    panicked = run_json(capsys, [*heavies, "--target-panicked"])
    assert panicked["casualties"] == steady["casualties"]  # saves as its type (CL §2)
    assert panicked["p_break"] > steady["p_break"]       # strikes back at power 6, not 5
    alone = run_json(capsys, [*MELEE[:-1], "1"])  # one infantry figure: always panicked
    alone_marked = run_json(capsys, [*MELEE[:-1], "1", "--target-panicked"])
    assert alone["p_break"] == alone_marked["p_break"]


ISSUE_25 = ["odds", "--ruleset", "classic", "--guns", "1", "--weapon", "radius", "--cover",
            "hard", "--target-type", "beasts", "--figures", "2", "--in-blast", "1"]


def test_the_command_gives_the_whole_chance_of_ending_panicked_cl_s4_s5(capsys) -> None:
    """Issue 25, CL §4 (seed, Movement: "1 figure infantry/beast/heavy infantry units
    are automatically panicked"): the suppression key keeps 13.9%; a second key gives
    the 33.3% the game then shows, and says what it counts; the text shows both."""
    out = run_json(capsys, ISSUE_25)
    assert out["p_break"] == pytest.approx(1 / 3 * 15 / 36)
    assert out["p_break_means"] == "panicked by suppression"
    assert out["p_break_any_cause"] == pytest.approx(1 / 3)
    assert out["p_break_any_cause_means"] == ("suppression (CL §5) or a lone Beasts figure "
                                              "left (CL §4)")
    assert main(ISSUE_25) == 0
    text = capsys.readouterr().out
    assert "P(panicked by suppression)           13.9%" in text
    assert "P(ends panicked, any cause)          33.3%" in text
    assert "  ends panicked, any cause: suppression (CL §5) or a lone Beasts figure left" in text
    vehicles = run_json(capsys, [*ISSUE_25[:-5], "vehicles", "--figures", "2", "--in-blast",
                                 "1"])
    assert vehicles["p_break_any_cause"] == vehicles["p_break"]  # no lone rule (CL §4)
    assert "not always panicked" in vehicles["p_break_any_cause_means"]


def test_melee_command_gives_the_whole_chance_of_ending_panicked_cl_s4_s6(capsys) -> None:
    out = run_json(capsys, [*MELEE[:-1], "2"])
    stats = tables.TYPES
    want = melee_odds([(3, stats["beasts"].melee_power)], [(2, stats["infantry"].save)],
                      reply=([(2, stats["infantry"].melee_power)],
                             [(3, stats["beasts"].save)]), target=("infantry", False))
    assert out["p_break"] == want.p_break
    assert out["p_break_any_cause"] == want.p_break_any_cause > want.p_break
    assert out["p_break_any_cause_means"] == ("losing the melee (CL §6) or a lone Infantry "
                                              "figure left (CL §4)")
    panicked = run_json(capsys, [*MELEE[:-1], "2", "--target-panicked"])
    assert panicked["p_break_any_cause"] == pytest.approx(1 - panicked["p_wiped_out"])
    assert main([*MELEE[:-1], "2"]) == 0
    assert "P(ends panicked, any cause)" in capsys.readouterr().out


def test_text_output_has_hits_casualties_and_the_labels(capsys) -> None:
    assert main(BARE) == 0
    text = capsys.readouterr().out
    assert text.startswith("Shooting (CL §5)\n  Basic: 4 guns: 4 dice at 4+ (open cover), "
                           "save 4+\nTarget: 6 figures (Infantry), 1 casualty already "
                           "pending (CL-R2)")
    for words in ("Expected hits 2.00", "Expected casualties 1.00 of 5",
                  "P(panicked by suppression)", "\nHits\n", "\nCasualties\n", "█"):
        assert words in text
    assert "shields" not in text and "fled" not in text
    assert main(MELEE) == 0
    text = capsys.readouterr().out
    assert "P(loses the melee: panicked)" in text and "tie re-rolls (CL-R4)" in text


def test_force_files_shooting_and_melee(capsys) -> None:
    rifles = ["odds", "--attacker", f"{RED}:First Rifles", "--target",
              f"{BLACK}:Spitter Swarm", "--cover", "soft", "--pending", "2"]
    out = run_json(capsys, rifles)  # no --ruleset: the files' flags (--pending)
    basic, advanced = tables.WEAPONS["basic"], tables.WEAPONS["advanced"]
    want = shooting_odds([Volley(1, advanced.to_hit["soft"], advanced.save["light"]),
                          Volley(5, basic.to_hit["soft"], basic.save["light"])], 6, 2)
    assert out["casualties"] == pytest.approx(list(want.casualties), abs=1e-15)
    assert main(rifles) == 0
    text = capsys.readouterr().out
    assert "Rail Rifle (Advanced): 1 gun: 1 die at 4+ (soft cover), save 5+" in text
    assert "Spitter Swarm, 6 figures (Infantry), 2 casualties already pending" in text
    tank = run_json(capsys, ["odds", "--attacker", f"{RED}:Old Grudge", "--target",
                             f"{BLACK}:Hive Titan", "--cover", "open", "--weapons", "basic"])
    assert tank["casualties"] == [1.0, 0.0]  # Basic vs monsters: safe (CL §5)
    melee = run_json(capsys, ["odds", "--attacker", f"{BLACK}:Ravagers", "--target",
                              f"{RED}:War Hounds", "--melee", "--attacker-figures", "2"])
    big, hounds = tables.TYPES["big-beasts"], tables.TYPES["beasts"]
    want = melee_odds([(2 * big.melee_attacks, big.melee_power)], [(5, hounds.save)],
                      reply=([(5, hounds.melee_power)], [(2, big.save)]))
    assert melee["casualties"] == pytest.approx(list(want.casualties), abs=1e-15)
    assert melee["p_break"] == pytest.approx(want.p_break, abs=1e-15)


def test_force_file_lone_figures_are_panicked_by_the_figures_counted_cl_s4() -> None:
    """CL §4: shooting from files fires every gun of the unit as written, so a lone
    shooter is one whose file has one figure; in melee --attacker-figures (the living
    figures) decides."""
    from deathzap_tui.rules.classic.force import CLASS_WEAPONS
    from deathzap_tui.rules.classic.model import Force
    from deathzap_tui.rules.classic.odds import odds_cli

    lone, squad = unit("Lone", "infantry", 1), unit("Squad", "infantry", 5)
    red = Force("Red", CLASS_WEAPONS, (lone, squad))
    _, lines = odds_cli((red, lone), (red, squad), {"cover": "open"})
    assert lines[0] == ("Shooting (CL §5): Lone, 1 figure (Infantry) (alone: always "
                        "panicked, CL §4)")
    assert "1 die at 6+ (panicked: only on a 6)" in lines[1]
    _, lines = odds_cli((red, squad), (red, squad), {"cover": "open"})
    assert "alone" not in lines[0] and "at 4+ (open cover)" in lines[1]
    _, lines = odds_cli((red, squad), (red, lone), {"melee": True, "attacker_figures": 1})
    assert "1 figure (Infantry) (alone: always panicked, CL §4): 1 die, pips / 6" in lines[0]


def test_help_lists_each_rulesets_flags(capsys) -> None:
    with pytest.raises(SystemExit) as done:
        main(["odds", "--help"])
    assert done.value.code == 0
    dz3 = capsys.readouterr().out
    assert "--shots" in dz3 and "--leader-near" in dz3 and "--ruleset" in dz3
    assert "--guns" not in dz3
    with pytest.raises(SystemExit):
        main(["odds", "--ruleset", "classic", "--help"])
    cl = capsys.readouterr().out
    for flag in ("--guns", "--weapon", "--target-type", "--in-blast", "--pending",
                 "--panicked", "--attacker-type", "--attacker-figures", "--target-panicked",
                 "--cover", "--figures", "--melee", "--attacker", "--json"):
        assert flag in cl
    assert "--shots" not in cl and "--leader-near" not in cl
    with pytest.raises(SystemExit):
        main(["odds", "--attacker", f"{RED}:1", "--help"])  # the files' ruleset
    assert "--guns" in capsys.readouterr().out


@pytest.mark.parametrize("argv,message", [
    (["odds", "--ruleset", "classic"], "say what attacks"),
    ([*BARE[:3], "--target-type", "infantry", "--figures", "3"], "say what attacks"),
    ([*BARE[:-8], "--figures", "6"], "missing --target-type"),
    ([*BARE, "--guns", "-2"], "--guns must be 0 or more"),
    ([*BARE[:-2], "--pending", "7"], "--pending 7 is more"),
    ([*BARE[:6], "radius", *BARE[7:]], "--in-blast N"),
    ([*BARE, "--in-blast", "2"], "--in-blast is for a Radius weapon"),
    ([*BARE[:-2], "--panicked", "--cover", "open"], None),
    ([*BARE[:7], *BARE[9:]], "missing --cover"),
    ([*BARE, "--hits", "5"], "5 hits from 4 dice is impossible"),
    ([*BARE, "--failed-saves", "1"], "failed saves need the hits"),
    ([*BARE, "--attacker-figures", "3"], "--attacker-figures is for melee"),
    ([*MELEE, "--cover", "open"], "--cover is for shooting"),
    ([*MELEE, "--guns", "2"], "--guns is for shooting"),
    (MELEE[:-4], "missing --target-type"),
    ([*MELEE[:6], *MELEE[8:]], "missing --attacker-figures"),
    ([*MELEE, "--hits", "40"], "40 hits is impossible"),
])
def test_bad_flags_give_one_line(capsys, argv, message) -> None:
    code = main(argv)
    err = capsys.readouterr().err
    if message is None:
        assert code == 0
        return
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith("deathzap odds: ") and message in err


@pytest.mark.parametrize("argv,message", [
    (["--target", f"{BLACK}:1", "--guns", "3"], "leave out --guns"),
    (["--target", f"{BLACK}:1", "--ruleset", "deathzap3"],
     "--ruleset deathzap3: the force files are classic forces"),
    (["--target", f"{FORCES / 'mortans-men.toml'}:1"], "the attacker is a classic force"),
    (["--target", f"{BLACK}:1", "--weapons", "laser"], "carries no weapon 'laser'"),
    (["--target", f"{BLACK}:1", "--melee", "--pending", "1"],
     "--cover, --pending are for shooting"),
    (["--target", f"{BLACK}:1", "--target-panicked"], "--target-panicked is for melee"),
])
def test_force_file_errors_are_one_line(capsys, argv, message) -> None:
    assert main(["odds", "--attacker", f"{RED}:First Rifles", "--cover", "open", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err


def test_mortar_needs_the_blast(capsys) -> None:
    base = ["odds", "--attacker", f"{RED}:Mortar Team", "--target", f"{BLACK}:Spitter Swarm",
            "--cover", "open"]
    assert main(base) == 2
    assert "Field Mortar is a Radius weapon: give --in-blast N" in capsys.readouterr().err
    out = run_json(capsys, [*base, "--in-blast", "4"])
    radius, basic = tables.WEAPONS["radius"], tables.WEAPONS["basic"]
    want = shooting_odds([Volley(4, radius.to_hit["open"], radius.save["light"]),
                          Volley(2, basic.to_hit["open"], basic.save["light"])], 6)
    assert out["casualties"] == pytest.approx(list(want.casualties), abs=1e-15)


# --------------------------------------------------------------------------- the engine
def engine_runs(state, make, trials, seed, observe, snapshot=None):
    """Drive ``make`` ``trials`` times from ``state`` with the RNG reseeded each time
    (every die ROLL, every question its default); ``observe(state)`` of each end.
    ``snapshot(ctx)`` is called once per run at the first dice request (the facts as
    the odds panel sees them then)."""
    from deathzap_tui.rules.steps import ROLL, DiceRequest, Resolution

    seen, facts = [], []
    for i in range(trials):
        state.rng = Rng.from_seed(seed + i)  # test poke: a fresh stream per trial
        res = Resolution(state, make)
        first = True
        while not res.done:
            step = res.step
            if isinstance(step, DiceRequest):
                if first and snapshot is not None:
                    facts.append(snapshot(res.ctx))
                first = False
                res.answer(ROLL)
            else:
                res.answer(step.default)
        seen.append(observe(res.ctx.state))
    return seen, facts


def check(counts: Counter, trials: int, expected: dict) -> None:
    """Within 5 standard errors (a 2000-trial run: about +-0.05 at p = 0.5)."""
    for key, p in expected.items():
        err = 5 * math.sqrt(max(p * (1 - p), 1e-4) / trials)
        assert abs(counts[key] / trials - p) <= err, (key, counts[key] / trials, p)


@pytest.mark.slow
def test_monte_carlo_of_the_engine_shooting_agrees_cl_s5_r2() -> None:
    """Red Squad (4 Basic guns) shoots Black Targets (6 infantry, 1 casualty already
    pending) in the open; the casualties come off and the unit tests for suppression.
    The real engine, seeded, agrees with the odds of its own facts."""
    from deathzap_tui.rules.classic.combat import end_of_shooting, shoot

    state = state_of([unit("Squad", "infantry", 4, "basic")],
                     [unit("Targets", "infantry", 6), unit("Others", "infantry", 5)])
    state.unit("black.0").pending = 1  # test poke: an earlier unit's casualty (CL-R2)

    def make(ctx):
        yield from shoot(ctx, "red.0")
        yield from end_of_shooting(ctx)

    def observe(s):
        u = s.unit("black.0")
        return 5 - u.figures_left, u.panicked, u.is_panicked

    trials = 2000
    seen, facts = engine_runs(state, make, trials, 100, observe,
                              lambda ctx: dict(ctx.facts["attack"]))
    odds = odds_from_facts(facts[0])
    assert odds == shooting_odds(Volley(4, 4, 4), 6, 1, target_type="infantry")
    counts = Counter(c for c, _, _ in seen)
    counts["panicked"] = sum(p for _, p, _ in seen)
    counts["ends panicked"] = sum(e for _, _, e in seen)
    check(counts, trials, {**dict(enumerate(odds.casualties)), "panicked": odds.p_break,
                           "ends panicked": odds.p_break_any_cause})


@pytest.mark.slow
def test_monte_carlo_of_the_engine_lone_figures_end_panicked_cl_s4_s5() -> None:
    """The issue's case in the engine: a Radius gun at 2 Beasts, 1 in the blast; the
    casualty comes off, the survivor is alone and panicked (CL §4: "1 figure
    infantry/beast/heavy infantry units are automatically panicked"). The engine's
    share of units ending panicked matches ``p_break_any_cause`` of its own facts."""
    from deathzap_tui.rules.classic.combat import end_of_shooting, shoot

    state = state_of([unit("Mortar", "infantry", 1, "radius")], [unit("Beasts", "beasts", 2)])

    def make(ctx):
        yield from shoot(ctx, "red.0")
        yield from end_of_shooting(ctx)

    def observe(s):
        u = s.unit("black.0")
        return 2 - u.figures_left, u.is_panicked

    trials = 2000
    seen, facts = engine_runs(state, make, trials, 300, observe,
                              lambda ctx: dict(ctx.facts["attack"]))
    assert (facts[0]["target_type"], facts[0]["target_panicked"]) == ("beasts", False)
    odds = odds_from_facts(facts[0])
    counts = Counter(c for c, _ in seen)
    counts["ends panicked"] = sum(p for _, p in seen)
    check(counts, trials, {**dict(enumerate(odds.casualties)),
                           "ends panicked": odds.p_break_any_cause})
    # every casualty leaves a lone Beast: the whole chance is the casualty's, not
    # suppression's (1 left against 1 killed: 15 in 36 of it)
    assert odds.p_break_any_cause == pytest.approx(odds.casualties[1])
    assert odds.p_break == pytest.approx(odds.casualties[1] * 15 / 36)


@pytest.mark.slow
def test_monte_carlo_of_the_engine_melee_agrees_cl_s6_r4() -> None:
    """Red Beasts (4) in melee with Black infantry (3) and heavy infantry (2): mixed
    defender types, both directions at once, the end-of-melee roll. The casualties on
    Black follow the odds of Red's fact; Black loses the melee as ``p_break`` of the
    attack with the reply."""
    from deathzap_tui.rules.classic.combat import fight

    state = state_of([unit("Beasts", "beasts", 4)],
                     [unit("Squad", "infantry", 3), unit("Heavies", "heavy-infantry", 2)],
                     step="melee")
    engage(state, "red.0", "black.0")
    engage(state, "red.0", "black.1")

    def observe(s):
        black = [s.unit("black.0"), s.unit("black.1")]
        lost = 5 - sum(u.figures_left for u in black)
        return lost, any(u.panicked and u.figures_left for u in black)

    trials = 2000
    seen, facts = engine_runs(state, lambda ctx: fight(ctx, "red.0"), trials, 7000, observe,
                              lambda ctx: [dict(f) for f in ctx.facts["attacks"]])
    red_fact, black_fact = facts[0]
    assert red_fact["groups"] == [[4, 4]] and red_fact["defenders"] == [[3, 6], [2, 4]]
    odds = melee_odds(red_fact["groups"], red_fact["defenders"],
                      reply=(black_fact["groups"], black_fact["defenders"]))
    assert odds.casualties == odds_from_facts(red_fact).casualties
    counts = Counter(c for c, _ in seen)
    counts["panicked"] = sum(p for _, p in seen)
    check(counts, trials, {**dict(enumerate(odds.casualties)), "panicked": odds.p_break})


@pytest.mark.slow
def test_monte_carlo_of_the_engine_melee_lone_figures_end_panicked_cl_s4_s6() -> None:
    """Red Beasts (4) in melee with a Black squad of 2 infantry: the engine's share of
    squads ending the melee panicked (lost the end-of-melee roll, or one figure left:
    CL §4, "1 figure infantry/beast/heavy infantry units are automatically panicked")
    matches ``p_break_any_cause`` from both directions' facts."""
    from deathzap_tui.rules.classic.combat import fight

    state = state_of([unit("Beasts", "beasts", 4)], [unit("Squad", "infantry", 2)],
                     step="melee")
    engage(state, "red.0", "black.0")

    def observe(s):
        u = s.unit("black.0")
        return 2 - u.figures_left, u.is_panicked

    trials = 2000
    seen, facts = engine_runs(state, lambda ctx: fight(ctx, "red.0"), trials, 9000, observe,
                              lambda ctx: [dict(f) for f in ctx.facts["attacks"]])
    red_fact, black_fact = facts[0]
    odds = melee_odds(red_fact["groups"], red_fact["defenders"],
                      reply=(black_fact["groups"], black_fact["defenders"]),
                      target=("infantry", False))
    counts = Counter(c for c, _ in seen)
    counts["ends panicked"] = sum(p for _, p in seen)
    check(counts, trials, {**dict(enumerate(odds.casualties)),
                           "ends panicked": odds.p_break_any_cause})
    # every lone survivor is panicked, whatever the end-of-melee roll
    assert odds.p_break_any_cause > max(odds.p_break, odds.casualties[1])


def test_a_melee_too_large_for_the_key_handler_shows_no_odds_cl_s6() -> None:
    """The panel computes in the key handler: past PANEL_WORK it shows none rather than
    stall the keys; the command line takes more, then says the melee is too large."""
    from deathzap_tui.rules.classic.odds import PANEL_WORK, melee_work, odds_from_facts

    fact = {"kind": "melee", "target": "black.0", "stage": "declared",
            "groups": [[120, 1]], "defenders": [[60, 3], [60, 4]]}
    assert melee_work([(120, 1)], [(60, 3), (60, 4)]) > PANEL_WORK
    assert odds_from_facts(fact) is None
    fact.update(groups=[[6, 4]], defenders=[[5, 6]])
    assert odds_from_facts(fact) is not None


def test_the_command_line_refuses_a_melee_too_large_to_work_out(capsys) -> None:
    """A melee too large to work out is refused; on the command line 10000 figures are
    refused before that, as more than a force file's unit holds (issue 19 fix-up)."""
    with pytest.raises(ValueError, match="too large to work out exactly"):
        melee_case(("monsters", 10000, False), ("infantry", 50, False))
    argv = ["odds", "--ruleset", "classic", "--melee", "--attacker-type", "monsters",
            "--attacker-figures", "10000", "--target-type", "infantry", "--figures", "50"]
    assert main(argv) == 2
    assert "--attacker-figures 10000: at most 100" in capsys.readouterr().err


def test_figures_from_files_cannot_exceed_the_unit(capsys) -> None:
    assert main(["odds", "--attacker", f"{RED}:1", "--target", f"{BLACK}:1",
                 "--cover", "open", "--figures", "500"]) == 2
    err = capsys.readouterr().err
    assert err.strip().endswith("--figures 500: the unit has 4 figures")

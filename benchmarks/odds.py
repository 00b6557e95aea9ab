"""Benchmark of the exact odds preview (issue 4), with icepool side by side.

Run: ``.venv/bin/python benchmarks/odds.py [--repeat N]``. Prints median and p95
timings of :func:`attack_odds` for the largest attack the DZ3 §13 limits allow (24
shots into 24 shields, 10 figures) and for 240 dice, then the same pipeline written
with icepool (2.1.3), timed in the same run, with the speed-up and the largest
absolute difference between the two answers (casualty distribution and P(break)).

Goals (2-core machine): 24 shots < 2 ms, 240 dice < 20 ms, >= 20x icepool.

Then Deathzap Classic (``rules/classic/odds.py``, CL §5, §6): shooting with suppression
and melee (sums of pips floored per figure type, spread over defender types), each
the panel's one-direction case and the CLI's both-directions case; goal < 20 ms (the
panel computes inline, ``headless/oddsview.py``).

Then Deathzap Plasmashok (``rules/plasmashok/oddsmath.py``, PS §4, §5): blocking dice as
a mixture over the distinct faces of the defence and size rolls, the groups
convolved inside it; "12 attack dice, strength 2, size 6, defence 4" is the issue's
case; goal < 20 ms for one panel refresh, which may hold several attacks (a split
fire, a Radius Weapon's blast): each is capped at ``PANEL_WORK`` (about 6 ms), and a
refresh of three targets near that cap is timed too. Cold: the cached binomial rows
cleared before each run (the panel's first refresh of an attack); warm: the panel's
later refreshes.

Then Double Tap (``rules/doubletap/odds.py``, DT §4-§7): binomial successes less the
cancelling tests, blocks as a binomial per hit count (Pascal rows, one row once the
hits are known), Tough, Regeneration and morale. The panel works out attacks up to
:data:`PANEL_DICE` (cancelling tests counted) and a refresh may hold several (a split
fire, a frag blast, reaction strikes): goal < 20 ms for a refresh of three targets at
that cap; the command goes up to :data:`MAX_DICE`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from deathzap_tui.headless.oddsview import odds_entries
from deathzap_tui.rules import registry
from deathzap_tui.rules.classic.odds import (
    DEAD,
    Volley,
    melee_odds,
    odds_from_facts,
    shooting_odds,
)
from deathzap_tui.rules.deathzap3.odds import (
    PER_ATTACK,
    Attack,
    Target,
    attack_odds,
)
from deathzap_tui.rules.doubletap import odds as doubletap
from deathzap_tui.rules.plasmashok import odds as plasmashok
from deathzap_tui.rules.plasmashok import oddsmath

CASES = [
    # name, attack, target: elite heavy weapons (2+ to hit, 2+ vs light shields) are the
    # worst case within the limits; basic targets (save 6+, morale 6+)
    ("24 shots -> 24 shields, 10 figures", Attack(24, 2, 2), Target(24, 10, 6, 6)),
    ("24 shots -> 6 shields, 10 figures", Attack(24, 2, 2), Target(6, 10, 6, 6)),
    ("24 Strike shots -> 24 shields, 10 figures", Attack(24, 2, 2, strike=True),
     Target(24, 10, 6, 6)),
    ("240 dice -> 24 shields, 10 figures", Attack(240, 3, 3), Target(24, 10, 5, 5)),
]


CLASSIC_CASES = [
    # name, a call: the largest units of the demo forces and beyond
    ("CL §5: 6 Basic guns -> 6 infantry, 1 pending (panel, from facts)",
     lambda: odds_from_facts({"kind": "shooting", "dice": 6, "to_hit": 4, "save": 4,
                              "figures": 6, "pending": 1, "stage": "declared"})),
    ("CL §5: 24 Auto-heavy guns (144 dice) -> 20 figures, 2 pending",
     lambda: shooting_odds(Volley(144, 3, 5), 20, 2)),
    ("CL §5: 3 groups (60 + 12 + 6 dice, one Heavy: dead) -> 30 figures",
     lambda: shooting_odds([Volley(60, 4, 4), Volley(12, 3, DEAD), Volley(6, 4, 5)], 30)),
    ("CL §6: 6 beasts -> 6 infantry (panel, one direction)",
     lambda: melee_odds([(6, 4)], [(6, 6)])),
    ("CL §6: 6 beasts <-> 6 infantry, end of melee (CLI, both ways)",
     lambda: melee_odds([(6, 4)], [(6, 6)], reply=([(6, 6)], [(6, 6)]))),
    ("CL §6: 10 monsters (20 dice, power 1) -> 3 types of 10 (hits up to 120)",
     lambda: melee_odds([(20, 1)], [(10, 6), (10, 4), (10, 3)])),
    ("CL §6: 20 + 10 + 5 figures of 3 types <-> 3 types of 10, both ways",
     lambda: melee_odds([(20, 6), (20, 3), (10, 2)], [(10, 6), (10, 4), (10, 3)],
                        reply=([(10, 6), (10, 5), (20, 2)], [(20, 6), (10, 4), (5, 5)]))),
]


_PS = oddsmath.Group
PLASMASHOK_CASES = [
    ("PS §5: 12 attack dice, strength 2, size 6, defence 4 (save 5+, 6 models)",
     lambda: plasmashok.shooting_odds(_PS(12, 2, 1), 4, 6, 5, 6)),
    ("PS §5: the same from facts, defence dice known (panel after step 2)",
     lambda: plasmashok.odds_from_facts({
         "kind": "shooting", "groups": [{"dice": 12, "strength": 2, "damage": 1}],
         "defence": 4, "size": 6, "save": 5, "models": 6, "stage": "strength",
         "attack_faces": [[1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6]],
         "defence_faces": [1, 1, 4, 6], "strength_faces": []})),
    ("PS §5: a vehicle's 3 weapons (8x2x2, 1x6x3, 6x2x1) -> a monster",
     lambda: plasmashok.shooting_odds([_PS(8, 2, 2), _PS(1, 6, 3), _PS(6, 2, 1)], 5, 6, 3,
                                      1, 12)),
    ("PS §5: 40 Arc dice + 12 (strength 2) -> 20 infantry",
     lambda: plasmashok.shooting_odds([_PS(40, 2, 1), _PS(12, 2, 1)], 3, 20, 5, 20)),
    ("PS §5: 25 dice of strength 6 (near the panel's limit, PANEL_WORK)",
     lambda: plasmashok.shooting_odds(_PS(25, 6, 1), 5, 6, 3, 1, 12)),
    ("PS §5: one panel refresh, 3 targets near the limit (split fire, blast)",
     lambda: odds_entries(registry.get("plasmashok"), None, {"attacks": [
         {"kind": "shooting", "target": f"black.{i}", "stage": "declared",
          "groups": [{"dice": 25 - i, "strength": 6, "damage": 1}], "defence": 3 + i,
          "size": 6 + i, "save": 4, "models": 6 + i} for i in range(3)]})),
    ("PS §4: special combat 3 dice against 5",
     lambda: plasmashok.special_odds(3, 5, 5)),
]


_DT = doubletap.Attack


def _dt_fact(target: int, attacks: int, **rolled) -> dict:
    return {"kind": "shooting", "target": f"black.{target}", "attacks": attacks, "hit": 0,
            "block": -2, "cancel": {"kind": "dodge", "dice": 2, "modifier": 0},
            "tough": 0, "regeneration": True, "stage": "hit", **rolled}


DOUBLE_TAP_CASES = [
    ("DT §4: a Rifle's 2 attacks at a Tough target (panel, from facts)",
     lambda: doubletap.odds_from_facts({
         "kind": "shooting", "target": "black.0", "attacks": 2, "hit": 0, "block": 0,
         "cancel": {"kind": "", "dice": 0, "modifier": 0}, "tough": 0,
         "regeneration": False, "stage": "hit"})),
    ("DT §6: an SMG's 4 attacks, dodged (2 tests), Tough 1 + Regeneration",
     lambda: doubletap.attack_odds(_DT(attacks=4, hit=-1, block=-1, cancel_dice=2,
                                       tough=1, regeneration=True))),
    ("DT §4: melee, Sword + Knife (6 attacks), a melee reaction",
     lambda: doubletap.attack_odds(_DT(kind="melee", attacks=6, block=1, cancel_dice=1))),
    (f"DT: {doubletap.PANEL_DICE - 2} attacks, dodged (PANEL_DICE, from facts)",
     lambda: doubletap.odds_from_facts(_dt_fact(0, doubletap.PANEL_DICE - 2))),
    (f"DT: the same at stage block, {doubletap.PANEL_DICE - 2} hits known (one row)",
     lambda: doubletap.odds_from_facts(_dt_fact(0, doubletap.PANEL_DICE - 2,
                                                stage="block", successes=doubletap.PANEL_DICE - 2,
                                                hits=doubletap.PANEL_DICE - 2))),
    ("DT: one panel refresh, 3 targets near PANEL_DICE (split fire, frag)",
     lambda: odds_entries(registry.get("double-tap"), None, {"attacks": [
         _dt_fact(i, doubletap.PANEL_DICE - 2 - i) for i in range(3)]})),
    (f"DT: {doubletap.MAX_DICE} attacks, 2 cancelling tests (MAX_DICE, the command)",
     lambda: doubletap.attack_odds(_DT(attacks=doubletap.MAX_DICE, block=-2,
                                       cancel_dice=2, tough=0))),
]


def _cold(call):
    def run():
        oddsmath.clear_cache()
        return call()
    return run


def _p(target: int) -> Fraction:
    return Fraction(max(0, min(6, 7 - target)), 6)


def icepool_odds(attack: Attack, target: Target) -> tuple[list[float], float]:
    """The same pipeline in icepool: casualties distribution and P(break).

    Damage ~ (dice @ Bernoulli(p_hit p_damage)); each damage point beyond the shields
    (every point with Strike) forces a save; casualties capped at the figures; morale
    per attack (DZ3 §10) as a die mapped over the casualties.
    """
    import icepool

    def bern(p: Fraction) -> icepool.Die:
        return icepool.Die({1: p.numerator, 0: p.denominator - p.numerator})

    pdmg = _p(attack.to_hit) * (Fraction(1) if attack.melee else _p(attack.vs_shields))
    fail = bern(1 - _p(target.save))
    success = bern(_p(target.morale))
    f, s = target.figures, target.shields
    damage = attack.dice @ bern(pdmg)

    def casualties(d: int):
        forced = d if attack.strike else max(d - s, 0)
        return (forced @ fail).map(lambda x: min(x, f)) if forced else 0

    cas = damage.map(casualties)

    def breaks(c: int):
        if c == 0 or c >= f:
            return 0
        return ((f - c) @ success).map(lambda k: int(k == 0))

    brk = cas.map(breaks)
    return [float(cas.probability(k)) for k in range(f + 1)], float(brk.probability(1))


def timed(fn, repeat: int, clock=time.perf_counter) -> tuple[list[float], object]:
    """Seconds of each of ``repeat`` runs (by ``clock``: wall time, or
    ``time.process_time`` for this process's CPU, which other loads on a shared machine
    do not inflate), and the last result."""
    times = []
    result = None
    for _ in range(repeat):
        t0 = clock()
        result = fn()
        times.append(clock() - t0)
    return times, result


def figures(times: list[float]) -> tuple[float, float]:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return statistics.median(ordered) * 1e3, p95 * 1e3


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200, help="runs of the DP per case")
    parser.add_argument("--icepool-repeat", type=int, default=5)
    parser.add_argument("--no-icepool", action="store_true")
    args = parser.parse_args(argv)
    print(f"Python {sys.version.split()[0]}; DP: {args.repeat} runs, "
          f"icepool: {args.icepool_repeat} runs (median / p95, ms)")
    for name, attack, target in CASES:
        dp_times, odds = timed(lambda a=attack, t=target: attack_odds(
            a, t, morale_option=PER_ATTACK), args.repeat)
        both_times, _ = timed(lambda a=attack, t=target: attack_odds(
            a, t, leader_near=None, morale_option="per-casualty"), args.repeat)
        med, p95 = figures(dp_times)
        bmed, bp95 = figures(both_times)
        print(f"\n{name}")
        print(f"  DP                          median {med:8.3f}   p95 {p95:8.3f}")
        print(f"  DP, leader unknown (x2 DP)  median {bmed:8.3f}   p95 {bp95:8.3f}")
        if args.no_icepool:
            continue
        try:
            import icepool
        except ImportError:
            print("  icepool not installed")
            continue
        ice_times, (ice_cas, ice_break) = timed(
            lambda a=attack, t=target: icepool_odds(a, t), args.icepool_repeat)
        imed, ip95 = figures(ice_times)
        diff = max(max(abs(x - y) for x, y in zip(odds.casualties, ice_cas, strict=True)),
                   abs(odds.p_break - ice_break))
        print(f"  icepool {icepool.__version__:20s} median {imed:8.3f}   p95 {ip95:8.3f}")
        print(f"  speed-up (median) {imed / med:8.0f}x   max |DP - icepool| = {diff:.2e}")
    print("\nDeathzap Classic (median / p95, ms)")
    for name, call in CLASSIC_CASES:
        med, p95 = figures(timed(call, args.repeat)[0])
        print(f"  {name:72s} {med:7.3f} {p95:7.3f}")
    print("\nDeathzap Plasmashok (median / p95, ms; cold, then warm; then the cold CPU "
          "median)")
    for name, call in PLASMASHOK_CASES:
        cmed, cp95 = figures(timed(_cold(call), args.repeat // 4 or 1)[0])
        med, p95 = figures(timed(call, args.repeat // 4 or 1)[0])
        cpu, _ = figures(timed(_cold(call), args.repeat // 4 or 1, time.process_time)[0])
        print(f"  {name:72s} {cmed:7.3f} {cp95:7.3f}   {med:7.3f} {p95:7.3f}   {cpu:7.3f}")
    print("\nDouble Tap (median / p95, ms)")
    for name, call in DOUBLE_TAP_CASES:
        med, p95 = figures(timed(call, args.repeat // 4 or 1)[0])
        print(f"  {name:72s} {med:7.3f} {p95:7.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

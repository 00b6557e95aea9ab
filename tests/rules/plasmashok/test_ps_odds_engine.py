"""Deathzap Plasmashok odds against the real engine: seeded Monte Carlo runs of
``combat.shoot`` (PS §5) and ``combat.special`` (PS §4), every die rolled by the
state's RNG, every question answered with its default; the wounds the engine puts
on the target follow the exact odds of the facts it publishes."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from fixtures_common import roll_out

from deathzap_tui.rules.dice import Rng
from deathzap_tui.rules.plasmashok import tables
from deathzap_tui.rules.plasmashok.model import Force, Model, Unit
from deathzap_tui.rules.plasmashok.odds import odds_from_facts, shooting_odds
from deathzap_tui.rules.plasmashok.oddsmath import Group
from deathzap_tui.rules.plasmashok.state import State, new_state
from deathzap_tui.rules.steps import Resolution


def unit(name: str, type_: str, n: int, *weapons: str, special: int = 0) -> Unit:
    return Unit(name, type_, "regular", 5, tuple(Model(name, weapons) for _ in range(n)),
                None, special=special)


def battle(red: list[Unit], black: list[Unit], step: str) -> State:
    s = new_state(Force("Red", dict(tables.WEAPONS), tuple(red)),
                  Force("Black", dict(tables.WEAPONS), tuple(black)), {}, seed=3)
    s.stage, s.turn, s.step, s.bracket = "battle", 1, step, "regular"  # test poke
    return s


def runs(state: State, make: Callable[[Any], Any], trials: int, seed: int,
         ) -> tuple[Counter, dict[str, Any]]:
    """The wounds of ``trials`` seeded runs, and the attack's facts at its first dice
    request (what the odds panel reads as declared)."""
    wounds: Counter = Counter()
    first: dict[str, Any] = {}
    for i in range(trials):
        state.rng = Rng.from_seed(seed + i)  # test poke: a fresh stream per trial
        res = Resolution(state, make)
        declared = roll_out(res)
        first = first or declared
        wounds[res.ctx.facts["attack"]["wounds"]] += 1
    return wounds, first


def check(counts: Counter, trials: int, dist: tuple[float, ...]) -> None:
    """Every count's frequency within 5 standard errors of its chance, and the mean
    within 5 standard errors of the expected wounds."""
    for k, p in enumerate(dist):
        err = 5 * math.sqrt(max(p * (1 - p), 1e-4) / trials)
        assert abs(counts[k] / trials - p) <= err, (k, counts[k] / trials, p)
    mean = sum(k * p for k, p in enumerate(dist))
    sd = math.sqrt(sum((k - mean) ** 2 * p for k, p in enumerate(dist)))
    seen = sum(k * c for k, c in counts.items()) / trials
    assert abs(seen - mean) <= 5 * sd / math.sqrt(trials), (seen, mean)


@pytest.mark.slow
def test_ps_monte_carlo_of_the_engine_shooting_agrees_ps_s5() -> None:
    """3 Advanced Repeaters (6 dice, strength 2) and a Heavy Weapon (1 die, strength
    6, damage 3) at 8 infantry in the open at 12" (defence 2 + 2 for range, size 8,
    save 5+): two groups sharing one defence and one size roll (app reading 6)."""
    from deathzap_tui.rules.plasmashok.combat import shoot

    state = battle([unit("Gunners", "infantry", 3, "advanced-repeater")],
                   [unit("Pickets", "infantry", 8, "basic-rifle")], "shooting")
    gunners = state.unit("red.0")
    gunners.figures[0].weapons = ("advanced-repeater", "heavy-weapon")  # test poke

    trials = 2500
    counts, fact = runs(state, lambda ctx: shoot(ctx, "red.0"), trials, 500)
    assert [(g["dice"], g["strength"], g["damage"]) for g in fact["groups"]] == [
        (6, 2, 1), (1, 6, 3)]
    assert (fact["defence"], fact["size"], fact["save"]) == (4, 8, 5)
    odds = odds_from_facts({**fact, "stage": "attack", "attack_faces": []})
    assert odds == shooting_odds([Group(6, 2, 1, "Advanced Repeater"),
                                  Group(1, 6, 3, "Heavy Weapon")], 4, 8, 5, 8)
    check(counts, trials, odds.wounds)


@pytest.mark.slow
def test_ps_monte_carlo_of_the_engine_special_combat_agrees_ps_s4() -> None:
    """Special combat 3 against a defender of value 1 (3 dice): no saves, each
    unmatched attack die a wound (app reading 5)."""
    from deathzap_tui.rules.plasmashok.combat import special

    state = battle([unit("Seers", "infantry", 2, "basic-rifle", special=3)],
                   [unit("Wards", "infantry", 5, "basic-rifle", special=1)], "special")
    trials = 2500
    counts, fact = runs(state, lambda ctx: special(ctx, "red.0"), trials, 9000)
    assert (fact["dice"], fact["defence"]) == (3, 3)
    odds = odds_from_facts({**fact, "stage": "attack"})
    check(counts, trials, odds.wounds)

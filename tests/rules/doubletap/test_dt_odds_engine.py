"""Double Tap odds against the real engine: seeded Monte Carlo runs of
``actions.perform`` (DT §4-§7), every die rolled by the state's RNG, the questions
answered by key (a reaction, a distance) or with their default; the engine's kills,
hits and morale failures follow the exact odds of the facts it publishes."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from typing import Any

import pytest
from fixtures_common import roll_out

from deathzap_tui.rules.dice import Rng
from deathzap_tui.rules.doubletap.actions import perform
from deathzap_tui.rules.doubletap.model import Force, Unit
from deathzap_tui.rules.doubletap.odds import Attack, attack_odds, odds_from_facts
from deathzap_tui.rules.doubletap.state import State, new_state
from deathzap_tui.rules.steps import Dice, DiceRequest, Resolution

TRIALS = 3000


def battle(red: Unit, black: Unit, seed: int) -> State:
    s = new_state(Force("Red", (red,)), Force("Black", (black,)), {}, seed=seed)
    s.stage, s.round, s.player = "battle", 1, "red"  # test poke: straight to play
    for unit in s.all_units():
        unit.placed = True
    return s


def runs(red: Unit, black: Unit, action: str, answers: Mapping[str, Any], seed: int,
         poke=None) -> tuple[Counter, Counter, Counter, dict[str, Any]]:
    """``TRIALS`` seeded runs of red's action at black: the kills, the hits and the
    morale failures on black (stunned, or the narration of falling back), and the
    attack's facts at its first dice request (what the panel reads as declared)."""
    kills: Counter = Counter()
    hits: Counter = Counter()
    broke: Counter = Counter()
    first: dict[str, Any] = {}
    for i in range(TRIALS):
        state = battle(red, black, seed + i)
        state.rng = Rng.from_seed(seed + i)  # test poke: a fresh stream per trial
        if poke:
            poke(state)
        res = Resolution(state, lambda ctx: perform(ctx, "red.0", action))
        declared = roll_out(res, answers)
        first = first or declared
        fact = next(f for f in res.ctx.facts["attacks"] if f["target"] == "black.0")
        kills[bool(fact["killed"])] += 1
        hits[fact["hits"]] += 1
        broke[any(f" {black.name} fails its morale" in n.text for n in res.ctx.notes)] += 1
    return kills, hits, broke, first


def close(seen: int, p: float, label: str) -> None:
    """Within 5 standard errors of ``p``."""
    err = 5 * math.sqrt(max(p * (1 - p), 1e-4) / TRIALS)
    assert abs(seen / TRIALS - p) <= err, (label, seen / TRIALS, p)


def check(odds, kills: Counter, hits: Counter, broke: Counter) -> None:
    close(kills[True], odds.casualties[1], "killed")
    close(broke[True], odds.p_break, "morale")
    for k, p in enumerate(odds.hits):
        close(hits[k], p, f"{k} hits")


@pytest.mark.slow
def test_dt_monte_carlo_shooting_dodged_tough_regeneration_agrees_dt_s4_s6_s7() -> None:
    """A Fire Ammo SMG (4 attacks, -1 at 10-18") at 12" at a Tough, Regenerating unit
    with a wound marker already, which dodges (2 tests): blocks at -2 (5+)."""
    red = Unit("Gunner", ("smg", "knife"), ("fire-ammo",))
    black = Unit("Brute", ("knife",), ("tough", "regeneration"))
    answers = {"distance.black.0": 12, "react.black": "yes", "reactor.black.1": "black.0",
               "reaction.black.0": "dodge"}

    def wounded(state: State) -> None:
        state.unit("black.0").wounds = 1  # test poke: one wound marker already

    kills, hits, broke, fact = runs(red, black, "hold", answers, 100, wounded)
    want = Attack(attacks=4, hit=-1, block=-2, cancel_dice=2, tough=1, regeneration=True)
    assert odds_from_facts(fact) == attack_odds(want)
    check(attack_odds(want), kills, hits, broke)


@pytest.mark.slow
def test_dt_monte_carlo_melee_answered_in_kind_agrees_dt_s4_s5_s6() -> None:
    """A Sword and a Knife (6 attacks) charge an Armored unit (blocks 3+) that strikes
    back in melee (1 test cancelling); failing morale after melee hits stuns it."""
    red = Unit("Blade", ("sword", "knife"))
    black = Unit("Guard", ("knife",), ("armored",))
    answers = {"react.black": "yes", "reactor.black.1": "black.0", "reaction.black.0": "melee"}
    kills, hits, broke, fact = runs(red, black, "charge", answers, 7000)
    want = Attack(kind="melee", attacks=6, block=1, cancel_dice=1)
    assert odds_from_facts(fact) == attack_odds(want)
    check(attack_odds(want), kills, hits, broke)


@pytest.mark.slow
def test_dt_monte_carlo_frag_grenade_agrees_app_reading_12() -> None:
    """A frag grenade thrown at a unit: 2 tests to fly; with any success the unit
    (under the blast, the default answer) takes one automatic hit."""
    red = Unit("Bomber", ("knife",), ("grenade",))
    black = Unit("Picket", ("knife",))
    kills, hits, broke, fact = runs(red, black, "hold", {"weapon": "grenade"}, 20000)
    want = Attack(kind="grenade", attacks=2)
    assert odds_from_facts(fact) == attack_odds(want)
    check(attack_odds(want), kills, hits, broke)


def test_dt_a_regenerated_tough_unit_attacked_again_gets_odds_dt_s7() -> None:
    """A Tough, Regenerating unit takes 4 failed blocks (4 wound markers, killed at the
    3rd) and survives on its Regeneration die: it keeps its markers (DT §7). Shot at
    again, its facts carry ``tough`` 4 and the panel still has odds: any failed block
    kills it, as with 2 markers."""
    red = Unit("Gunner", ("smg", "knife"))
    black = Unit("Brute", ("knife",), ("tough", "regeneration"))

    def dice(step: DiceRequest) -> Dice:  # every hit, every block failed, 6 to regenerate
        return Dice(faces=(1 if step.key.startswith("block.") else 6,) * step.count)

    res = Resolution(battle(red, black, 1), lambda ctx: perform(ctx, "red.0", "hold"))
    roll_out(res, {}, dice)
    state = res.ctx.state
    assert state.unit("black.0").alive and state.unit("black.0").wounds == 4
    again = roll_out(Resolution(state, lambda ctx: perform(ctx, "red.0", "hold")))
    assert again["tough"] == 4
    odds = odds_from_facts(again)
    want = Attack(attacks=4, hit=-1, tough=2, regeneration=True)  # SMG -1 at 12"
    assert odds == attack_odds(want)
    blocks_hold = sum(p * 0.5 ** h for h, p in enumerate(odds.hits))
    assert odds.casualties[1] == pytest.approx((1 - blocks_hold) * 2 / 3)

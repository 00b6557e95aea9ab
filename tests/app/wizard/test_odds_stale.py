"""Issue 11: the odds panel never shows a stale attack. An attack queued on a target
shows the target as the earlier attacks left it; a target gone shows no odds; Command
Hand's aimed re-rolls and Explosive damage update the attack's odds as they are rolled.
Checked on the engines' resolutions through ``oddsview.entries_for`` (what the panel
shows), no Pilot needed: no key is involved."""

from __future__ import annotations

from typing import Any

import pytest
from ch_fixtures import ready_game as ch_game
from dz3_fixtures import battle

from deathzap_tui.headless.oddsview import entries_for
from deathzap_tui.rules.commandhand import RULESET as CH
from deathzap_tui.rules.commandhand import combat as ch_combat
from deathzap_tui.rules.commandhand.odds import Attack, Target, attack_odds, odds_from_facts
from deathzap_tui.rules.deathzap3 import RULESET as DZ3
from deathzap_tui.rules.steps import Dice, DiceRequest, Resolution


def dz3_split_fire(morale_successes: int) -> Resolution:
    """Red Alpha splits its fire: 3 small arms and the destroyer at the Lancers
    (black.0, 6 figures, 2 shields), 3 small arms at the Pickets (black.1). The small
    arms at the Lancers go first: every die hits, every save fails, then the morale
    test gets ``morale_successes``. Paused at the roll to hit the Pickets."""
    game = battle()
    res = game.begin({"type": "activate", "unit": "red.0", "action": "advance"}).resolution
    answers = {"shoot.target": "split", "shoot.split.small-arms": "divide",
               "shoot.split.small-arms.black.0": 3, "shoot.split.destroyer": "black.0",
               "shoot.order.1": "0"}
    for _ in range(40):
        step = res.step
        assert step is not None
        if step.key == "shoot.2.hit":
            return res
        if step.key in answers:
            res.answer(answers[step.key])
        elif isinstance(step, DiceRequest):
            res.answer(Dice(successes={"saves": 0, "1": morale_successes}.get(
                step.key.rsplit(".", 1)[-1], step.count)))
        else:
            res.answer(step.default)
    raise AssertionError("never reached the second attack")


def test_a_queued_attack_shows_the_target_after_the_earlier_one() -> None:
    res = dz3_split_fire(morale_successes=1)
    lancers = res.ctx.state.unit("black.0")
    assert lancers.in_play and lancers.figures_left < 6
    current, queued = entries_for(res, DZ3)
    assert current.target == "black.1" and current.current
    assert queued.target == "black.0" and not queued.current
    assert (queued.odds.figures, queued.odds.shields) == (lancers.figures_left,
                                                          lancers.shields)


def test_a_target_gone_shows_no_odds() -> None:
    res = dz3_split_fire(morale_successes=0)  # the Lancers fail morale and flee
    assert not res.ctx.state.unit("black.0").in_play
    assert [e.target for e in entries_for(res, DZ3)] == ["black.1"]


def ch_fire(weapon: str, dice: int, *, aimed: bool, explosive: bool) -> Resolution:
    """Black's first unit fires ``dice`` shots to damage on 4+ at red's first unit
    (CH §4), the attack alone, as the engine resolves it."""
    game = ch_game()

    def make(ctx: Any) -> Any:
        state = ctx.state
        shooter, target = state.units["black"][0], state.units["red"][0]
        fact = ch_combat.new_fact("shooting", target, weapon=weapon, dice=dice,
                                  to_damage=4, aimed=aimed, explosive=explosive)
        ctx.facts["attacks"] = [fact]
        ctx.facts["attack"] = fact
        yield from ch_combat._fire(ctx, shooter, target, weapon, 1, fact, "k", "test")
        fact["stage"] = "done"

    return Resolution(game.state, make)


def only_entry(res: Resolution) -> Any:
    [entry] = entries_for(res, CH)
    return entry


def test_aimed_rerolls_update_the_odds_ch_s3_5() -> None:
    res = ch_fire("Rifle", 4, aimed=True, explosive=False)
    fact = res.ctx.facts["attack"]
    target = Target(fact["shields"], fact["figures"])
    res.answer("1 1 5 2")  # one success, two 1s to re-roll
    assert res.step.key == "k.reroll"
    assert (fact["stage"], fact["successes"], fact["rerolls"]) == ("reroll", 1, 2)
    # 1 known success plus 2 dice at 4+ (no further re-roll)
    expected = attack_odds([Attack(4, 4), Attack(2, 4)], target, successes=1)
    assert only_entry(res).odds == expected == odds_from_facts(fact)
    assert only_entry(res).odds.hits_mean == pytest.approx(1 + 2 * 0.5)


def test_explosive_damage_updates_the_odds_ch_s4() -> None:
    res = ch_fire("Lobber", 2, aimed=False, explosive=True)
    fact = res.ctx.facts["attack"]
    target = Target(fact["shields"], fact["figures"])
    res.answer("5 6")
    assert res.step.key == "k.explosive" and fact["stage"] == "damage"
    # 7 points: the 3 shields go, then 4 of the 5 figures one by one (not all 5: a
    # unit wiped out is not asked which figure, issue 26)
    res.answer("6 1")
    assert fact["stage"] == "casualties" and fact["damage"] == 7
    assert res.step is not None and ".kill." in res.step.key  # the owner picks
    odds = only_entry(res).odds
    assert odds == attack_odds(Attack(2, 4, explosive=True), target, successes=2, damage=7)
    assert odds.damage_mean == 7 and odds == odds_from_facts(fact)

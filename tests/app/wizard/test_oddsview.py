"""Issue 4, the wizard's odds panel: what it shows, from real DZ3 resolutions paused
at their steps (the pure function in ``headless/oddsview.py`` and the panel's text)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from dz3_fixtures import battle

from deathzap_tui import oddstext as ot
from deathzap_tui.app.wizard.odds import panel_text
from deathzap_tui.headless.oddsview import entries_for, odds_entries, signature
from deathzap_tui.rules.deathzap3 import RULESET, tables
from deathzap_tui.rules.deathzap3.odds import (
    Attack,
    Target,
    attack_odds,
    morale_test_odds,
)
from deathzap_tui.rules.steps import Dice, DiceRequest, Resolution

NAMES = {"black.0": "Lancers", "black.1": "Pickets", "black.2": "Walker"}
SHOOT = {"type": "activate", "unit": "red.0", "action": "advance"}
"""Red Alpha: 5 regular troopers and a leader with small arms, a gunner with a
destroyer (dz3_fixtures.small_forces)."""


def walk(res: Resolution, answers: dict[str, Any], until: str) -> Resolution:
    """Answer steps (by key, else the default) until the step keyed ``until``."""
    for _ in range(60):
        step = res.step
        assert step is not None, f"finished before {until!r}"
        if step.key == until:
            return res
        if step.key in answers:
            res.answer(answers[step.key])
        elif isinstance(step, DiceRequest):
            res.answer(Dice(successes=step.count // 2))
        else:
            res.answer(step.default)
    raise AssertionError(f"never reached {until!r}")


def paused(answers: dict[str, Any], until: str, walker: bool = False) -> Resolution:
    game = battle(walker=walker)
    return walk(game.begin(SHOOT).resolution, answers, until)


def declared(fact: dict[str, Any], **known: Any) -> Any:
    """The odds computed directly from the rules' odds module (leader unknown)."""
    skill = {v: k for k, v in tables.SAVE.items()}[fact["save"]]
    target = Target(fact["shields"], fact["figures"], fact["save"], tables.MORALE[skill],
                    vehicle=fact["vehicle"])
    attack = Attack(fact["dice"], fact["to_hit"], fact["vs_shields"] or None, fact["strike"])
    return attack_odds(attack, target, leader_near=None, **known)


SINGLE = {"shoot.target": "black.1", "shoot.order.1": "0", "shoot.cover.black.1": "open"}


def test_before_the_first_die_the_odds_are_those_of_the_attack_as_declared():
    res = paused(SINGLE, "shoot.1.hit")
    facts = res.ctx.facts
    [entry] = entries_for(res, RULESET, NAMES)
    assert entry.current and entry.target == "black.1" and entry.label == "Pickets"
    assert entry.stage == "hit" and entry.what == "Small Arms (shooting)"
    assert entry.queued == 1  # the destroyer's attack on Pickets comes next
    assert entry.odds == RULESET.attack_odds(res.ctx.state, facts["attack"])
    assert entry.odds == declared(facts["attack"])
    # the numbers are all there, leader unknown: both break chances
    odds = entry.odds
    assert odds.hits_mean > 0 and odds.damage_mean > 0
    assert odds.p_break is not None and odds.p_break_with_leader is not None
    assert odds.p_break_with_leader < odds.p_break
    assert len(odds.casualties) == facts["attack"]["figures"] + 1


def test_after_the_hits_are_known_the_odds_update():
    res = paused(SINGLE, "shoot.1.hit")
    before = entries_for(res, RULESET, NAMES)
    res.answer(Dice(successes=2))
    after = entries_for(res, RULESET, NAMES)
    assert res.step.key == "shoot.1.shields" and after[0].stage == "shields"
    fact = res.ctx.facts["attack"]
    assert after[0].odds == declared(fact, hits=2)
    assert after[0].odds.hits_mean == 2.0 != before[0].odds.hits_mean
    assert signature(after) != signature(before)
    assert "given the dice so far" in panel_text(after, full=True).plain
    assert "as declared" in panel_text(before, full=True).plain
    res.back()  # the wizard's Esc: the odds go back with the resolution
    assert entries_for(res, RULESET, NAMES)[0].odds == before[0].odds


def test_no_hits_leaves_nothing_certain_on_show():
    res = paused(SINGLE, "shoot.1.hit")
    res.answer(Dice(successes=0))  # first attack done; the destroyer's is next
    entries = entries_for(res, RULESET, NAMES)
    assert [e.what for e in entries] == ["Destroyer (1 heavy, strike) (shooting)"]
    assert entries[0].queued == 0 and entries[0].current


def test_split_fire_gives_one_entry_per_target():
    answers = {"shoot.target": "split", "shoot.split.small-arms": "black.0",
               "shoot.split.destroyer": "black.1"}
    res = paused(answers, "shoot.1.hit")
    entries = entries_for(res, RULESET, NAMES)
    assert [e.target for e in entries] == ["black.0", "black.1"]
    assert [e.current for e in entries] == [True, False]
    attacks = res.ctx.facts["attacks"]
    for entry, fact in zip(entries, attacks, strict=True):
        assert entry.odds == RULESET.attack_odds(res.ctx.state, fact)
    text = panel_text(entries, full=False).plain
    assert "Lancers" in text and "Pickets" in text and "next" in text


def test_a_vehicle_target_shows_the_damage_table_outcomes():
    res = paused({"shoot.target": "black.2", "shoot.order.1": "0"}, "shoot.1.hit",
                 walker=True)
    [entry] = entries_for(res, RULESET, NAMES)
    vehicle = entry.odds.vehicle
    assert set(vehicle) >= {"destroyed", "killed", "explodes", "immobilised",
                            "gun-crippled", "weapon-crippled", "no-effect"}
    assert entry.odds == declared(res.ctx.facts["attack"])
    text = panel_text([entry], full=True).plain
    for label in ("destroyed", "immobilised", "gun crippled", "no effect"):
        assert label in text
    assert "≥1 casualty" not in text


def test_a_morale_test_on_its_own():
    facts = {"attack": {"kind": "morale", "target": "black.1", "figures": 3, "save": 6,
                        "stage": "morale"}}
    [entry] = odds_entries(RULESET, battle().state, facts, NAMES)
    assert entry.what == "morale test" and entry.current
    want = morale_test_odds(3, tables.MORALE["basic"], None)
    assert entry.odds == want
    text = panel_text([entry], full=False).plain
    assert f"breaks {ot.short_pct(want.p_break)}" in text and "(leader " in text


def test_nothing_to_show():
    res = paused(SINGLE, "shoot.target")
    assert entries_for(res, RULESET, NAMES) == []  # no attack declared yet
    state = res.ctx.state
    assert odds_entries(RULESET, state, {}, NAMES) == []
    assert odds_entries(None, None, {"attack": {"kind": "morale"}}) == []
    done = {"attacks": [{"kind": "shooting", "target": "black.1", "stage": "done"}]}
    assert odds_entries(RULESET, state, done) == []
    bad = {"attack": {"kind": "laser", "target": "black.1", "stage": "hit"}}
    assert odds_entries(RULESET, state, bad) == []  # unreadable facts: nothing, no crash


def test_names_are_cleaned_of_control_characters():
    facts = {"attack": {"kind": "morale", "target": "black.1", "figures": 2, "save": 6}}
    [entry] = odds_entries(RULESET, battle().state, facts, {"black.1": "Evil\x1b]52;c;x\x07 Squad"})
    assert "\x1b" not in entry.label and "\x07" not in entry.label


@pytest.mark.parametrize("n,rows", [(5, 11), (30, 11), (30, 4)])
def test_count_rows_keep_the_sum_and_fit(n, rows):
    dist = [1 / (n + 1)] * (n + 1)
    out = ot.count_rows(dist, max_rows=rows)
    assert len(out) <= max(rows, 4)
    assert sum(p for _, p in out) == pytest.approx(1.0)
    assert out[0][0] == "0" and out[-1][0].endswith(str(n))


def test_odds_are_fast_enough_to_compute_inline():
    """oddsview.BENCHMARK: the panel computes in the key handler, no worker."""
    answers = {"shoot.target": "split", "shoot.split.small-arms": "black.0",
               "shoot.split.destroyer": "black.1"}
    res = paused(answers, "shoot.1.hit")
    start = time.perf_counter()
    for _ in range(20):
        entries_for(res, RULESET, NAMES)
    assert (time.perf_counter() - start) / 20 < 0.020


def test_an_edition_without_morale_shows_no_break_odds():
    """Command Hand (CH §4): same Odds shape, ``p_break`` None: no morale line."""
    from deathzap_tui.rules.commandhand import RULESET as CH

    fact = {"target": "black.1", "kind": "shooting", "weapon": "Carbine", "dice": 6,
            "to_damage": 4, "aimed": False, "explosive": False, "shields": 3,
            "figures": 5, "stage": "declared", "successes": 0, "damage": 0}
    [entry] = odds_entries(CH, None, {"attacks": [fact]}, NAMES)
    assert entry.odds.p_break is None and not entry.current
    for full in (False, True):
        text = panel_text([entry], full=full, side=full).plain
        assert "breaks" not in text and "≥1 casualty" in text and "Carbine" in text

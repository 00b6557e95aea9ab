"""Melee (DZ3 §7, DZ3-R8)."""

from __future__ import annotations

import pytest
from dz3_fixtures import act, battle, notes

from deathzap_tui.rules.deathzap3 import tables
from deathzap_tui.rules.steps import DiceRequest, Refused

CHARGE = {"type": "activate", "unit": "red.0", "action": "charge"}


def test_melee_dice_hits_strip_shields_directly_then_saves_dz3_s7() -> None:
    g = battle()
    steps = act(g, CHARGE, {"melee.target": "black.1", "melee.hit": "=6",
                            "melee.saves": "16", "melee.morale.1": "=1"})
    hit = next(s for s in steps if s.key == "melee.hit")
    assert hit.count == 7 * 1  # figures x MA
    assert hit.target == tables.MELEE_TO_HIT[("regular", "basic")] == 3
    assert not any("shields" in s.key for s in steps)  # no roll against shields
    save = next(s for s in steps if s.key == "melee.saves")
    assert save.count == 2 and save.side == "black"
    p = g.state.unit("black.1")
    assert p.shields == 0 and p.figures_left == 3
    assert "black.1" in g.state.unit("red.0").engaged


def test_melee_is_one_sided_dz3_r8() -> None:
    g = battle()
    steps = act(g, CHARGE, {"melee.target": "black.0", "melee.hit": "1111111"})
    dice = [s for s in steps if isinstance(s, DiceRequest)]
    assert [s.side for s in dice] == ["red"]
    assert g.state.unit("red.0").figures_left == 7
    assert any("0 hits" in n for n in notes(g))


def test_elite_defender_is_harder_to_hit_dz3_s7() -> None:
    g = battle()
    steps = act(g, CHARGE, {"melee.target": "black.0", "melee.hit": "1111111"})
    assert steps[-1].target == tables.MELEE_TO_HIT[("regular", "elite")] == 5


def test_engaged_unit_attacks_in_contact() -> None:
    g = battle()
    act(g, CHARGE, {"melee.target": "black.1", "melee.hit": "1111111"})
    g.play({"type": "activate", "unit": "red.1", "action": "cover-ground"}, ["1"])
    g.play({"type": "activate", "unit": "red.2", "action": "cover-ground"}, ["1"])
    g.play({"type": "draw", "card": "2D"})
    steps = act(g, CHARGE, {"melee.target": "black.1", "melee.hit": "1111111"})
    assert steps[0].choices[0].value == "black.1"
    assert "in contact" in steps[0].choices[0].label


def test_unit_in_melee_attacks_only_units_in_contact_dz3_s3() -> None:
    """DZ3 §3: charging another enemy would mean leaving melee, and a unit leaving
    melee may not move into contact that activation: only the units in contact are
    offered, and another target is refused."""
    g = battle()
    act(g, CHARGE, {"melee.target": "black.1", "melee.hit": "1111111"})
    g.play({"type": "activate", "unit": "red.1", "action": "cover-ground"}, ["1"])
    g.play({"type": "activate", "unit": "red.2", "action": "cover-ground"}, ["1"])
    g.play({"type": "draw", "card": "2D"})
    res = g.begin(CHARGE).resolution
    step = res.step
    assert [c.value for c in step.choices] == ["black.1"]
    assert "leaving melee" in step.prompt and "DZ3 §3" in step.prompt
    with pytest.raises(Refused):
        res.answer("black.0")
    assert res.step is step  # still asking, nothing changed

"""Vehicles (DZ3 §9; DZ3-R9, R10, R13)."""

from __future__ import annotations

import pytest
from dz3_fixtures import act, battle, draw, notes

from deathzap_tui.rules.deathzap3 import RULESET
from deathzap_tui.rules.steps import Refused

ALPHA = {"type": "activate", "unit": "red.0", "action": "advance"}


def destroyer_at_walker(g, hit="6", shields="6", saves="1", **more):  # type: ignore[no-untyped-def]
    answers = {"shoot.target": "black.2", "shoot.profile.destroyer.black.2": "0",
               "shoot.order.1": "1", "shoot.1.hit": hit, "shoot.1.shields": shields,
               "shoot.1.saves": saves, **more}
    return act(g, ALPHA, answers)


def test_failed_save_rolls_damage_not_a_casualty_dz3_s9_r13() -> None:
    g = battle(walker=True)
    steps = destroyer_at_walker(g, **{"shoot.1.damage.1": "2", "shoot.2.hit": "111111"})
    w = g.state.unit("black.2")
    assert w.immobilised and w.figures_left == 1 and w.in_play
    dmg = next(s for s in steps if s.key == "shoot.1.damage.1")
    assert dmg.target is None and dmg.side == "black"
    assert not any("morale" in s.key for s in steps)  # DZ3-R13


def test_one_damage_roll_per_failed_save_and_effects_stack_dz3_r9_r10() -> None:
    g = battle(walker=True)
    # Small Arms first: 6 hits, 6 damage vs medium shields (5+) -> 3 shields, 3 saves
    steps = act(g, ALPHA, {
        "shoot.target": "black.2", "shoot.profile.destroyer.black.2": "1",
        "shoot.order.1": "0", "shoot.1.hit": "666666", "shoot.1.shields": "666666",
        "shoot.1.saves": "111", "shoot.1.damage.1": "2", "shoot.1.damage.2": "2",
        "shoot.1.damage.3": "3", "shoot.2.hit": "11"})
    assert sum(1 for s in steps if ".damage." in s.key) == 3
    w = g.state.unit("black.2")
    assert w.immobilised and w.gun_crippled and not w.weapon_crippled
    assert any("no change, DZ3-R10" in n for n in notes(g))


def test_killed_vehicle_is_destroyed_for_3_vp_dz3_s12() -> None:
    g = battle(walker=True)
    destroyer_at_walker(g, **{"shoot.1.damage.1": "5"})
    assert g.state.unit("black.2").destroyed
    assert g.state.vp["red"] == 3


def test_explosion_damages_named_units_which_test_morale_dz3_s9() -> None:
    g = battle(walker=True)
    steps = destroyer_at_walker(g, **{
        "shoot.1.damage.1": "6", "shoot.1.x1.near.1": "black.1", "shoot.1.x1.near.2": "done",
        "shoot.1.x1.blast.1": "5", "shoot.1.x1.blast.1.saves": "1",
        "shoot.1.x1.blast.1.morale.1": "=0"})
    assert not any(s.key == "shoot.2.hit" for s in steps)  # no target left for group 2
    assert g.state.unit("black.2").destroyed
    assert g.state.unit("black.1").fled
    assert g.state.vp["red"] == 6


def test_immobilised_vehicle_cannot_cover_ground_but_can_shoot_dz3_s9() -> None:
    g = battle(walker=True)
    destroyer_at_walker(g, **{"shoot.1.damage.1": "2", "shoot.2.hit": "111111"})
    draw_cards = ["JOKER2"]
    for c in draw_cards:
        g.play({"type": "activate", "unit": "red.1", "action": "cover-ground"}, ["1"])
        g.play({"type": "activate", "unit": "red.2", "action": "cover-ground"}, ["1"])
        draw(g, c)
    draw(g, "5C")
    with pytest.raises(Refused, match="immobilised"):
        g.begin({"type": "activate", "unit": "black.2", "action": "cover-ground"})
    with pytest.raises(Refused, match="immobilised"):
        g.begin({"type": "activate", "unit": "black.2", "action": "charge"})
    act(g, {"type": "activate", "unit": "black.2", "action": "advance"},
        {"shoot.target": "hold"})
    assert any("shoots without moving" in n for n in notes(g))


def test_crippled_vehicle_hits_only_on_6_dz3_r7() -> None:
    g = battle(walker=True)
    destroyer_at_walker(g, **{"shoot.1.damage.1": "4", "shoot.2.hit": "111111"})
    assert g.state.unit("black.2").weapon_crippled
    g.play({"type": "activate", "unit": "red.1", "action": "cover-ground"}, ["1"])
    g.play({"type": "activate", "unit": "red.2", "action": "cover-ground"}, ["1"])
    draw(g, "5C")
    steps = act(g, {"type": "activate", "unit": "black.2", "action": "charge"},
                {"melee.target": "red.0", "melee.hit": "66"})
    assert steps[-1].target == 6 or any(s.target == 6 for s in steps if s.key == "melee.hit")


def test_immobilised_vehicle_charges_only_a_unit_in_contact_dz3_s9() -> None:
    """DZ3 §9 (app ruling): an immobilised vehicle can't move, so it may Charge only a
    unit it is already in contact with. Out of contact, Charge is neither offered nor
    accepted; in contact, only the units in contact are offered."""
    g = battle(walker=True)
    destroyer_at_walker(g, **{"shoot.1.damage.1": "2", "shoot.2.hit": "111111"})
    assert g.state.unit("black.2").immobilised
    act(g, {"type": "activate", "unit": "red.1", "action": "charge"},
        {"melee.target": "black.2", "melee.hit": "11111"})
    g.play({"type": "activate", "unit": "red.2", "action": "cover-ground"}, ["1"])
    draw(g, "5C")
    legal = {(o.intent["unit"], o.intent["action"]) for o in RULESET.intents(g.state)}
    assert ("black.2", "charge") in legal
    res = g.begin({"type": "activate", "unit": "black.2", "action": "charge"}).resolution
    assert [c.value for c in res.step.choices] == ["red.1"]
    assert "immobilised" in res.step.prompt and "DZ3 §9" in res.step.prompt
    with pytest.raises(Refused):
        res.answer("red.0")


def test_immobilised_vehicle_out_of_contact_is_not_offered_a_charge_dz3_s9() -> None:
    g = battle(walker=True)
    destroyer_at_walker(g, **{"shoot.1.damage.1": "2", "shoot.2.hit": "111111"})
    g.play({"type": "activate", "unit": "red.1", "action": "cover-ground"}, ["1"])
    g.play({"type": "activate", "unit": "red.2", "action": "cover-ground"}, ["1"])
    draw(g, "5C")
    legal = {(o.intent["unit"], o.intent["action"]) for o in RULESET.intents(g.state)}
    assert ("black.2", "advance") in legal and ("black.2", "charge") not in legal
    with pytest.raises(Refused, match=r"immobilised and can't move into contact \(DZ3 §9\)"):
        g.begin({"type": "activate", "unit": "black.2", "action": "charge"})

"""Double Tap melee (DT §3, §4, §5; app readings 8 and 11): the charge into base
contact, all melee weapons' attacks summed, no shooting modifiers, the defender's
reactions, stunning, and who may charge."""

from __future__ import annotations

from dt_combat_fixtures import engage, play, stages, state_of, unit

from deathzap_tui.rules.doubletap.actions import action_refusal
from deathzap_tui.rules.doubletap.state import State
from deathzap_tui.rules.steps import ROLL, Question


def brawl(*weapons: str, rules: tuple[str, ...] = (), poison: str = "",
          target_rules: tuple[str, ...] = ()) -> State:
    """Red Brawler (red.0) against Black Target (black.0) and Black Other (black.1)."""
    return state_of([unit("Brawler", *(weapons or ("knife",)), rules=rules, poison=poison)],
                    [unit("Target", "pistol", rules=target_rules), unit("Other")])


def test_dt_s4_a_charge_moves_into_contact_and_sums_all_melee_weapons() -> None:
    """App reading 11: Knife 2 + Sword 4 = 6 attacks, a Pistol does not count."""
    s = brawl("knife", "sword", "pistol")
    run = play(s, "red.0", "charge", {"target": "black.0", "hit.1": "1 1 1 1 1 1"})
    step = run.step("target")
    assert isinstance(step, Question) and [c.value for c in step.choices] == ["black.0",
                                                                               "black.1"]
    assert run.step("hit.1").count == 6
    assert "Knife + Sword, 6 attacks" in run.step("hit.1").why
    assert 'charges up to 4" into base contact with Black Target (DT §3)' in run.text
    assert run.state.unit("red.0").engaged == ["black.0"]
    assert run.state.unit("black.0").engaged == ["red.0"]
    assert not any(k.startswith(("distance", "cover", "down", "engineer")) for k in run.asked)
    fact = run.ctx.facts["attacks"][0]
    assert (fact["kind"], fact["target"], fact["attacks"]) == ("melee", "black.0", 6)


def test_dt_s7_fast_charges_6_inches() -> None:
    s = state_of([unit("Runner", rules=("fast",))], [unit("Target")])
    assert 'charges up to 6"' in play(s, "red.0", "charge", {}, ROLL).text


def test_dt_s4_a_unit_in_contact_fights_only_the_units_it_touches() -> None:
    s = brawl()
    engage(s, "red.0", "black.1")
    run = play(s, "red.0", "charge", {}, ROLL)
    assert "target" not in run.asked
    assert "fights Black Other, which it already touches" in run.text
    assert run.ctx.facts["attacks"][0]["target"] == "black.1"


def test_dt_s4_no_charge_without_an_enemy_it_may_attack() -> None:
    s = state_of([unit("Brawler")], [unit("Hidden", rules=("camouflage",))])
    assert "no enemy it may charge" in action_refusal(s, "red.0", "charge")
    s.unit("black.0").camo = False
    assert action_refusal(s, "red.0", "charge") == ""


def test_dt_s5_failed_morale_after_melee_stuns() -> None:
    run = play(brawl(), "red.0", "charge", {"target": "black.0", "hit.1": "6 1",
                                            "block.black.0": "5", "morale.black.0": "2"})
    target = run.state.unit("black.0")
    assert target.alive and target.stunned
    assert "fails its morale after melee: it is stunned (DT §5)" in run.text


def test_dt_s5_a_stunned_unit_may_only_recover() -> None:
    s = brawl()
    s.unit("red.0").stunned = True
    for action in ("hold", "advance", "rush", "charge", "hack"):
        assert "must be spent recovering (DT §5)" in action_refusal(s, "red.0", action)
    assert action_refusal(s, "red.0", "recover") == ""
    s.unit("red.0").stunned = False
    assert "not stunned" in action_refusal(s, "red.0", "recover")


def test_dt_s7_shooting_ammo_does_not_count_in_melee_hacks_do() -> None:
    s = brawl(rules=("fire-ammo", "piercing-ammo"), target_rules=("armored",))
    s.unit("red.0").hacked = True
    run = play(s, "red.0", "charge", {"target": "black.0", "hit.1": "6 6",
                                      "block.black.0": "3 3", "morale.black.0": "6"})
    assert run.step("hit.1").target == 5  # hacked: -1 to its next attack
    assert run.step("block.black.0").target == 3  # Armored +1, no ammo in melee
    assert not run.state.unit("red.0").hacked


def test_dt_s7_melee_poison_gear() -> None:
    run = play(brawl(rules=("poison-gear",), poison="melee"), "red.0", "charge",
               {"target": "black.0", "hit.1": "6 1", "block.black.0": "6",
                "morale.black.0": "6"})
    assert run.state.unit("black.0").poisoned


def test_dt_r11_the_charged_unit_reacts_only_by_dodging_or_melee() -> None:
    """App reading 11, DT §4: the defender may dodge or attack in melee; the other
    enemy, not in contact, may move, dodge or shoot."""
    s = state_of([unit("Brawler")], [unit("Target", "pistol"), unit("Other", "pistol")])
    run = play(s, "red.0", "charge", {
        "target": "black.0", "react.black": "yes", "reactor.black.1": "black.0",
        "reaction.black.0": "dodge", "reactor.black.2": "black.1", "reaction.black.1": "move"},
        ROLL)
    target, other = run.step("reaction.black.0"), run.step("reaction.black.1")
    assert [c.value for c in target.choices] == ["dodge", "melee"]
    assert [c.value for c in other.choices] == ["move", "dodge", "shoot"]


def test_dt_s6_melee_reaction_cancels_melee_successes() -> None:
    run = play(brawl(), "red.0", "charge", {
        "target": "black.0", "react.black": "yes", "reactor.black.1": "black.0",
        "reaction.black.0": "melee",
        "hit.1": "6 6", "cancel.black.0": "5", "block.black.0": "6", "morale.black.0": "6"})
    fact = run.ctx.facts["attacks"][0]
    assert fact["cancel"] == {"kind": "melee", "dice": 1, "modifier": 0}
    assert (fact["successes"], fact["cancelled"], fact["hits"]) == (2, 1, 1)
    assert len(run.ctx.facts["attacks"]) == 1  # nothing left over to hit the charger


def test_dt_facts_stages_of_a_charge_with_a_dodge() -> None:
    seen = stages(brawl(), "red.0", "charge", {
        "target": "black.0", "react.black": "yes", "reactor.black.1": "black.0",
        "reaction.black.0": "dodge",
        "hit.1": "6 6", "cancel.black.0": "6 1", "block.black.0": "6",
        "morale.black.0": "6"})
    assert seen == [("hit.1", "black.0", "hit"), ("cancel.black.0", "black.0", "cancel"),
                    ("block.black.0", "black.0", "block"),
                    ("morale.black.0", "black.0", "done")]

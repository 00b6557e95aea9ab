"""Deathzap Plasmashok shooting (PS §5, PS-R2, app readings 6 and 10): who may shoot
and be shot (the contact rule and its size exemption), blocking defence dice, strength
and size dice, damage, shield saves, Arc and Radius weapons, a custom weapon's range,
split fire, the odds facts stage by stage, and generated dice."""

from __future__ import annotations

from typing import Any

import pytest
from ps_combat_fixtures import SPIKE, drive, engage, faces, roll_all, state_of, unit

from deathzap_tui.rules.plasmashok import tables
from deathzap_tui.rules.plasmashok.combat import shoot, shoot_refusal
from deathzap_tui.rules.plasmashok.model import Model
from deathzap_tui.rules.plasmashok.state import State
from deathzap_tui.rules.steps import ROLL, Dice, DiceRequest, Maker, Question, Refused, Resolution


def shooter(name: str = "red.0") -> Maker:
    return lambda ctx: shoot(ctx, name)


def squads(weapon: str = "basic-rifle", n: int = 4, target_type: str = "infantry",
           target_n: int = 5, **kw: Any) -> State:
    """Red Squad (red.0): ``n`` models with ``weapon``, against Black Targets
    (black.0, ``target_type``) and Black Others (black.1, 5 infantry)."""
    return state_of([unit("Squad", "infantry", n, weapon)],
                    [unit("Targets", target_type, target_n), unit("Others")], **kw)


NEAR = {"distance.black.0": 5}
"""Under 6": no range dice (PS §5 step 2)."""


# --- who may shoot, at whom (PS §5) -----------------------------------------------------


def test_ps_s5_refusals_no_unit_not_in_play_no_weapons_already_acted() -> None:
    s = state_of([unit("Squad", "infantry", 3, "basic-rifle"), unit("Hounds", "beasts", 3),
                  unit("Gone", "infantry", 2, "basic-rifle")], [unit("Targets")])
    for f in s.unit("red.2").figures:
        f.alive = False
    assert "no unit" in shoot_refusal(s, "red.9")
    assert "no weapons" in shoot_refusal(s, "red.1")
    assert "no longer in play" in shoot_refusal(s, "red.2")
    assert shoot_refusal(s, "red.0") == ""
    run = roll_all(s, shooter())
    assert run.state.unit("red.0").acted
    assert "already attacked" in shoot_refusal(run.state, "red.0")


def test_ps_s5_a_unit_in_contact_cannot_shoot_unless_double_the_size() -> None:
    """PS §5: base contact stops shooting, unless the shooter's size is at least double
    that of every unit it touches."""
    s = state_of([unit("Squad", "infantry", 4, "basic-rifle")],
                 [unit("Brawlers", "infantry", 3), unit("Targets")])
    engage(s, "red.0", "black.0")
    assert "base contact" in shoot_refusal(s, "red.0")
    s.unit("black.0").figures[0].alive = False  # size 4 against 2: double
    assert shoot_refusal(s, "red.0") == ""


def test_ps_s5_a_unit_in_contact_cannot_be_shot_unless_double_the_size() -> None:
    s = state_of([unit("Squad", "infantry", 4, "basic-rifle"), unit("Brawlers", "infantry", 3)],
                 [unit("Mob", "infantry", 5), unit("Big Mob", "infantry", 6)])
    engage(s, "red.1", "black.0")  # Mob (5) against Brawlers (3): not double
    engage(s, "red.1", "black.1")  # Big Mob (6) against Brawlers (3): double
    res = Resolution(s, shooter())
    assert isinstance(res.step, Question)
    assert [c.value for c in res.step.choices] == ["black.1"]
    with pytest.raises(Refused):
        res.answer("black.0")
    s.unit("black.1").figures[0].alive = False
    assert "no enemy unit may be shot" in shoot_refusal(s, "red.0")


# --- the pipeline (PS §5 steps 1-5) -----------------------------------------------------


def test_ps_s5_step2_a_defence_die_blocks_every_attack_die_of_its_face() -> None:
    run = drive(squads(), shooter(), {**NEAR, "attack.1.1": "3 3 5 1", "defence.1": "3 6",
                                      "strength.1.1": "2 2 4 6", "size.1": "2 6 1 1 1",
                                      "saves.1": "1 5 6"})
    assert run.step("defence.1").count == 2  # infantry defence 2, open, under 6"
    assert run.step("strength.1.1").count == 2 * 2  # 5 and 1 unblocked x strength 2
    assert "the 3 blocks 2, the 6 blocks none; 2 unblocked (PS §5 step 2)" in run.text


def test_ps_s5_steps3_4_strength_dice_matching_a_size_die_deal_damage() -> None:
    run = drive(squads("heavy-weapon", 2), shooter(),
                {**NEAR, "attack.1.1": "4 5", "defence.1": "1 1",
                 "strength.1.1": faces(2, 2, 6, 3, 3, 1, 5, 5, 5, 5, 5, 5),
                 "size.1": "2 6 1 1 1", "saves.1": faces(*[6] * 12)})
    assert run.step("strength.1.1").count == 2 * 6
    fact = run.ctx.facts["attack"]
    assert fact["damage"] == 4 * 3  # 2 2 6 1 match, x damage 3
    assert run.step("saves.1").count == 12
    assert "2 2 6 1 match (4 hits x damage 3 = 12)" in run.text
    assert run.state.unit("black.0").pending == 0


def test_ps_s5_step5_one_save_per_damage_at_the_improved_save() -> None:
    """PS §5 step 5, §9: Advanced Shields improve infantry's 5+ to 4+."""
    s = state_of([unit("Squad", "infantry", 3, "basic-rifle")],
                 [unit("Shielded", "infantry", 5, shields=1)])
    run = drive(s, shooter(), {**NEAR, "attack.1.1": "1 2 3", "defence.1": "6 6",
                               "strength.1.1": "1 1 1 1 1 1", "size.1": "1 2 2 2 2",
                               "saves.1": "1 2 3 4 5 6"})
    req = run.step("saves.1")
    assert (req.count, req.target, req.side) == (6, 4, "black")
    assert "4+ with Advanced Shields" in req.why
    assert run.ctx.facts["attack"]["wounds"] == 3
    assert run.state.unit("black.0").pending == 3
    assert run.state.unit("black.0").figures_left == 5  # removed at the bracket's end


def test_ps_s5_step5_a_save_of_7_is_no_save_every_damage_is_a_wound() -> None:
    """App reading 10: tables.NO_SAVE asks no dice."""
    s = squads()
    s.unit("black.0").save = tables.NO_SAVE
    run = drive(s, shooter(), {**NEAR, "attack.1.1": "1 1 1 1", "defence.1": "6 6",
                               "strength.1.1": "3 " * 8, "size.1": "3 1 1 1 1"})
    assert "saves.1" not in run.asked
    assert run.state.unit("black.0").pending == 8
    assert "no shield save" in run.text


def test_ps_s5_a_roll_of_no_dice_is_skipped() -> None:
    """Every attack die blocked: no strength, size or save dice are asked."""
    run = drive(squads(), shooter(), {**NEAR, "attack.1.1": "2 2 3 3", "defence.1": "2 3"})
    assert run.asked[-1] == "defence.1"
    fact = run.ctx.facts["attack"]
    assert fact["strength_faces"] == [[]] and fact["size_faces"] == []
    assert (fact["damage"], fact["wounds"], fact["stage"]) == (0, 0, "done")
    assert "no dice to roll" in run.text


@pytest.mark.parametrize(("cover", "distance", "dice"),
                         [("open", 0, 2), ("soft", 5, 3), ("hard", 6, 5), ("soft", 13, 5),
                          ("open", 120, 22)])
def test_ps_s5_step2_defence_dice_type_cover_and_full_6_inches(cover: str, distance: int,
                                                               dice: int) -> None:
    run = drive(squads(), shooter(), {"cover.black.0": cover, "distance.black.0": distance},
                dice=ROLL)
    req = run.step("defence.1")
    assert (req.count, req.side, req.target) == (dice, "black", None)
    assert req.why.startswith("Infantry defence 2")
    if distance >= 6:
        assert f"for {distance}\"" in req.why


def test_ps_s5_step2_defence_why_names_cover_and_range() -> None:
    run = drive(squads(), shooter(), {"cover.black.0": "soft", "distance.black.0": 7},
                dice=ROLL)
    assert run.step("defence.1").why == ("Infantry defence 2 + 1 soft cover + 1 for 7\" "
                                         "(1 full 6\" step)")


@pytest.mark.parametrize("target_type", tables.MODEL_TYPES)
def test_ps_s5_defence_size_and_save_follow_the_type_table(target_type: str) -> None:
    stats = tables.TYPES[target_type]
    n = stats.models[0]
    run = drive(squads(target_type=target_type, target_n=n), shooter(), NEAR, dice=ROLL)
    fact = run.ctx.facts["attacks"][0]
    assert (fact["defence"], fact["size"], fact["save"], fact["wounds_per_model"]) == (
        stats.defence, stats.size * n, stats.save, stats.wounds)


# --- weapons ------------------------------------------------------------------------------


def test_ps_s5_fixed_shots_times_weapons_a_model_listing_one_twice_carries_two() -> None:
    s = state_of([unit("Squad", "infantry", 2, "basic-repeater",
                       extra=(Model("Gunner", ("basic-repeater", "basic-repeater")),))],
                 [unit("Targets")])
    run = drive(s, shooter(), NEAR, dice=ROLL)
    assert run.step("target.basic-repeater").prompt.endswith("Basic Repeater x4: at which "
                                                             "target?")
    assert run.step("attack.1.1").count == 4 * 2


def test_ps_s5_arc_weapon_dice_equal_the_target_size() -> None:
    s = squads("arc-weapon", 2, "light-vehicles", 3)
    run = drive(s, shooter(), NEAR, dice=ROLL)
    assert run.step("attack.1.1").count == 2 * 9  # 3 light vehicles, size 3 each
    assert run.ctx.facts["attacks"][0]["groups"] == [
        {"weapon": "Arc Weapon", "dice": 18, "strength": 2, "damage": 1}]


def test_ps_s5_radius_models_in_blast_and_another_unit_under_it() -> None:
    """PS §5 "against each unit", app reading 6: per unit under the blast, its models
    within 3" x weapons; the extra unit is its own target (its cover and its own
    distance asked)."""
    s = squads("radius-weapon", 1)
    run = drive(s, shooter(), {"distance.black.0": 7, "radius.radius-weapon.black.0": 3,
                               "blast.radius-weapon.1": "black.1", "cover.black.1": "hard",
                               "distance.black.1": 13, "radius.radius-weapon.black.1": 2},
                dice=ROLL)
    q = run.step("radius.radius-weapon.black.0")
    assert (q.minimum, q.maximum) == (1, 5)
    assert "blast.radius-weapon.2" not in run.asked  # no other unit left to name
    assert run.step("attack.1.1").count == 3 and run.step("attack.2.1").count == 2
    assert run.step("defence.1").count == 3  # 2 + 1 for 7"
    assert run.step("defence.2").count == 6  # 2 + 2 hard cover + 2 for 13"
    assert [a["target"] for a in run.ctx.facts["attacks"]] == ["black.0", "black.1"]


def test_ps_s5_radius_blast_models_beyond_the_unit_are_refused() -> None:
    res = Resolution(squads("radius-weapon", 1, target_n=3), shooter())
    for answer in ("black.0", "open", 3):
        res.answer(answer)
    for bad in (0, 4):
        with pytest.raises(Refused):
            res.answer(bad)


@pytest.mark.parametrize(("distance", "fires"), [(6, True), (7, False)])
def test_ps_r2_a_custom_weapon_does_not_fire_beyond_its_range(distance: int,
                                                              fires: bool) -> None:
    s = squads(SPIKE.id, 3)
    run = drive(s, shooter(), {"distance.black.0": distance}, dice=ROLL)
    assert ("attack.1.1" in run.asked) is fires
    if not fires:
        assert "beyond the Spike's 6\"" in run.text and "nothing fires" in run.text
        assert run.ctx.facts.get("attacks") is None


# --- fire split between targets (app reading 6) ------------------------------------------


def mixed() -> State:
    return state_of([unit("Squad", "infantry", 3, "basic-rifle",
                          extra=(Model("Gunner", ("heavy-repeater",)),))],
                    [unit("Targets"), unit("Others")])


def test_ps_s5_groups_at_one_target_share_one_defence_and_one_size_roll() -> None:
    run = drive(mixed(), shooter(), {**NEAR, "attack.1.1": "1 2 3", "attack.1.2": "3 4 4 5 6 6",
                                     "defence.1": "3 4", "strength.1.1": "5 5 5 5",
                                     "strength.1.2": "1 2 3 4 5 6", "size.1": "5 6 6 6 6",
                                     "saves.1": "1 1 1 1 1 1"})
    assert run.step("target.heavy-repeater").default == "black.0"  # the previous group's
    assert [k for k in run.asked if not k.startswith(("target", "cover", "distance"))] == [
        "attack.1.1", "attack.1.2", "defence.1", "strength.1.1", "strength.1.2", "size.1",
        "saves.1"]
    assert ("the 3 blocks 1 Basic Rifle die and 1 Heavy Repeater die, the 4 blocks 2 Heavy "
            "Repeater dice; unblocked: Basic Rifle 2, Heavy Repeater 3") in run.text
    assert run.ctx.facts["attack"]["damage"] == 4 + 2  # four 5s, then the 5 and the 6
    assert run.state.unit("black.0").pending == 6


def test_ps_s5_fire_may_be_split_each_target_its_own_rolls() -> None:
    run = drive(mixed(), shooter(), {**NEAR, "target.heavy-repeater": "black.1",
                                     "distance.black.1": 13}, dice=ROLL)
    assert run.step("attack.1.1").count == 3 and run.step("attack.2.1").count == 6
    assert run.step("defence.2").count == 4
    assert [a["target"] for a in run.ctx.facts["attacks"]] == ["black.0", "black.1"]


def test_ps_s5_every_weapon_fires_there_is_no_holding_fire() -> None:
    """PS §5 "every weapon in the unit fires": each group must name a target."""
    res = Resolution(mixed(), shooter())
    assert isinstance(res.step, Question) and res.step.key == "target.basic-rifle"
    assert [c.value for c in res.step.choices] == ["black.0", "black.1"]
    with pytest.raises(Refused):
        res.answer("hold")


def blasters() -> State:
    """Red Squad (red.0: a Radius Weapon and a Heavy Repeater) and Red Pals (red.1)
    against Black Targets (black.0) and Black Others (black.1)."""
    return state_of([unit("Squad", "infantry", 1, "radius-weapon",
                          extra=(Model("Gunner", ("heavy-repeater",)),)), unit("Pals")],
                    [unit("Targets"), unit("Others")])


def test_ps_s5_a_blast_may_catch_a_friendly_unit_with_its_own_distance() -> None:
    """PS §5 Radius "against each unit": any unit in play but the shooter may be under
    the blast, friendly ones too; each is asked its own cover and distance, and the
    friendly unit's owner rolls its defence."""
    run = drive(blasters(), shooter(), {
        "distance.black.0": 4, "blast.radius-weapon.1": "red.1", "cover.red.1": "soft",
        "distance.red.1": 6, "radius.radius-weapon.red.1": 2}, dice=ROLL)
    blast = run.step("blast.radius-weapon.1")
    assert [c.value for c in blast.choices] == ["red.1", "black.1", "no"]
    assert run.step("defence.2").count == 2 + 1 + 1 and run.step("defence.2").side == "red"
    assert run.step("attack.2.1").count == 2
    assert [a["target"] for a in run.ctx.facts["attacks"]] == ["black.0", "red.1"]


def test_ps_s5_a_later_group_at_a_unit_under_a_blast_shares_its_distance() -> None:
    """App reading 6: the cover and distance of a target are asked once, whichever
    group (or blast) names it first, and shared when it is named again."""
    run = drive(blasters(), shooter(), {
        "distance.black.0": 4, "blast.radius-weapon.1": "black.1", "distance.black.1": 13,
        "target.heavy-repeater": "black.1"}, dice=ROLL)
    assert run.asked.count("distance.black.1") == 1
    assert run.step("defence.2").count == 2 + 2  # 13": two full 6"
    assert [g["weapon"] for g in run.ctx.facts["attacks"][1]["groups"]] == [
        "Radius Weapon", "Heavy Repeater"]


# --- facts for the odds panel --------------------------------------------------------------


def test_ps_s5_facts_stage_is_set_before_each_request_and_filled_after_each_roll() -> None:
    res = Resolution(mixed(), shooter())
    seen: list[tuple[str, str]] = []
    answers = {"attack.1.1": "1 2 3", "attack.1.2": "1 2 3 4 5 6", "defence.1": "6 5",
               "strength.1.1": "1 2 3 4 5 6", "strength.1.2": "1 2 3 4 5 6 1 2",
               "size.1": "1 1 1 1 1", "saves.1": "6 6 1"}
    while not res.done:
        step = res.step
        if isinstance(step, DiceRequest):
            seen.append((step.key, res.ctx.facts["attack"]["stage"]))
            res.answer(answers[step.key])
        else:
            res.answer(step.default if step.key != "distance.black.0" else 5)
    assert seen == [("attack.1.1", "declared"), ("attack.1.2", "attack"),
                    ("defence.1", "defence"), ("strength.1.1", "strength"),
                    ("strength.1.2", "strength"), ("size.1", "size"), ("saves.1", "saves")]
    fact = res.ctx.facts["attack"]
    assert res.ctx.facts["attacks"] == [fact]
    assert fact == {
        "kind": "shooting", "target": "black.0",
        "groups": [{"weapon": "Basic Rifle", "dice": 3, "strength": 2, "damage": 1},
                   {"weapon": "Heavy Repeater", "dice": 6, "strength": 2, "damage": 1}],
        "defence": 2, "size": 5, "save": 5, "models": 5, "wounds_per_model": 1,
        "wounded": 0, "pending": 0, "stage": "done",
        "attack_faces": [[1, 2, 3], [1, 2, 3, 4, 5, 6]], "defence_faces": [6, 5],
        "strength_faces": [[1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6, 1, 2]],
        "size_faces": [1, 1, 1, 1, 1], "damage": 3, "wounds": 1}


def test_ps_s5_facts_partial_after_the_defence_roll() -> None:
    res = Resolution(squads(), shooter())
    for answer in ("black.0", "open", 5, "1 2 3 4", "4 4"):
        res.answer(answer)
    fact = res.ctx.facts["attack"]
    assert fact["stage"] == "strength"
    assert (fact["attack_faces"], fact["defence_faces"]) == ([[1, 2, 3, 4]], [4, 4])
    assert "strength_faces" in fact and "size_faces" not in fact


def test_ps_s5_facts_pending_counts_wounds_of_earlier_attacks() -> None:
    s = squads()
    s.unit("black.0").pending = 2
    run = drive(s, shooter(), NEAR, dice=ROLL)
    assert run.ctx.facts["attacks"][0]["pending"] >= 2


# --- generated dice -------------------------------------------------------------------------


def test_ps_s5_generated_dice_replay_deterministically_from_the_seed() -> None:
    a = roll_all(squads("heavy-repeater", 4, seed=11), shooter())
    b = roll_all(squads("heavy-repeater", 4, seed=11), shooter())
    assert a.state == b.state and a.text == b.text
    assert a.ctx.facts["attacks"] == b.ctx.facts["attacks"]
    rolled = [ans for ans in a.res.answers if isinstance(ans, Dice)]
    assert all(d.generated and d.faces for d in rolled)
    again = Resolution(squads("heavy-repeater", 4, seed=11), shooter())
    again.replay(a.res.answers)
    assert again.done and again.ctx.state == a.state

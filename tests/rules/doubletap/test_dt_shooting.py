"""Double Tap shooting (DT §3, §4, §5, §7, DT-R2; app readings 8-10): who may act,
range bands and the maximum range, cover, height, Engineer, Spotter, hacks and flash
on the hit tests, split attacks, blocks and their modifiers, Tough, Regeneration,
death, morale, poison, camouflage, the odds facts stage by stage, and generated
dice."""

from __future__ import annotations

import pytest
from dt_combat_fixtures import engage, hits, play, stages, state_of, unit

from deathzap_tui.rules.doubletap.actions import action_refusal
from deathzap_tui.rules.doubletap.state import State
from deathzap_tui.rules.steps import ROLL, Question, Refused


def duel(weapon: str = "rifle", rules: tuple[str, ...] = (),
         target_rules: tuple[str, ...] = (), poison: str = "") -> State:
    """Red Gunner (red.0) with ``weapon`` and a Knife against Black Target (black.0)."""
    return state_of([unit("Gunner", weapon, "knife", rules=rules, poison=poison)],
                    [unit("Target", rules=target_rules)])


def hit_target(run: object, n: int = 1) -> int | None:
    return run.step(f"hit.{n}").target  # type: ignore[attr-defined]


# --- who may act (DT §3, §5) --------------------------------------------------------------


def test_dt_s3_refusals_unknown_action_no_unit_not_in_play() -> None:
    s = state_of([unit("Gunner", "rifle"), unit("Gone"), unit("Waiting")], [unit("Target")])
    s.unit("red.1").figures[0].alive = False
    s.unit("red.2").placed, s.unit("red.2").reserve = False, True
    assert "unknown action" in action_refusal(s, "red.0", "fly")
    assert "no unit" in action_refusal(s, "red.9", "hold")
    assert "not in play" in action_refusal(s, "red.1", "hold")
    assert "not in play" in action_refusal(s, "red.2", "advance")
    for action in ("hold", "advance", "rush", "charge"):
        assert action_refusal(s, "red.0", action) == ""


def test_dt_s3_every_refusal_names_the_unit_and_not_your_unit_dt_s7() -> None:
    """Each refusal of an existing unit starts with its name; a unit of the side not
    playing is refused when the player is given (DT §3)."""
    s = state_of([unit("Gunner", "rifle", rules=("camouflage",)), unit("Gone")],
                 [unit("Target")])
    s.unit("red.1").figures[0].alive = False
    s.unit("red.0").camo = True
    reasons = [action_refusal(s, "red.0", a) for a in ("fly", "recover", "cloak", "hack",
                                                         "spot", "detect")]
    reasons += [action_refusal(s, "red.1", "hold")]
    assert all(r.startswith(("Red Gunner", "Red Gone")) for r in reasons), reasons
    assert reasons[3] == "Red Gunner is not a Hacker (DT §7)"
    assert reasons[5] == "Red Gunner has no camouflaged enemy in play to detect (DT §7)"
    assert action_refusal(s, "black.0", "hold", "red") == (
        "Black Target is Black's unit: it is Red's turn (DT §3)")
    assert action_refusal(s, "black.0", "hold", "black") == ""
    s = state_of([unit("Spy", rules=("spotter", "hacker"))],
                 [unit("A", rules=("camouflage",))])
    for action in ("hack", "spot"):
        assert action_refusal(s, "red.0", action) == (
            f"Red Spy has no enemy to {action}: camouflaged units cannot be seen (DT §7)")


def test_dt_s3_in_base_contact_only_a_dodge_leaves_it_hold_stays_allowed() -> None:
    s = duel()
    engage(s, "red.0", "black.0")
    assert "only by dodging (DT §3)" in action_refusal(s, "red.0", "advance")
    assert "only by dodging (DT §3)" in action_refusal(s, "red.0", "rush")
    assert action_refusal(s, "red.0", "hold") == ""
    run = play(s, "red.0", "hold")
    assert "weapon" not in run.asked  # DT §4: units in melee cannot shoot
    assert "in base contact: it cannot shoot (DT §4)" in run.text


def test_dt_s3_hold_and_advance_need_no_ranged_weapon() -> None:
    s = state_of([unit("Brawler", "sword")], [unit("Target")])
    assert action_refusal(s, "red.0", "hold") == ""
    run = play(s, "red.0", "advance")
    assert run.asked == ["react.black"]  # no weapon question, only the reactions
    assert 'advances up to 4"' in run.text


def test_dt_s7_fast_moves_further_and_rush_cannot_shoot() -> None:
    s = state_of([unit("Runner", "rifle", rules=("fast",))], [unit("Target")])
    assert 'advances up to 6"' in play(s, "red.0", "advance", {"weapon": "none"}).text
    run = play(s, "red.0", "rush")
    assert 'rushes up to 12"; it cannot shoot' in run.text
    assert "weapon" not in run.asked


# --- to hit (DT §4, DT-R2, app reading 10) ---------------------------------------------------


@pytest.mark.parametrize(("weapon", "distance", "target"), [
    ("shotgun", 5, 3), ("shotgun", 9, 3), ("shotgun", 10, 5), ("shotgun", 18, 5),
    ("smg", 9, 4), ("smg", 12, 5), ("carbine", 9, 4), ("carbine", 15, 3), ("carbine", 27, 4),
    ("rifle", 18, 4), ("rifle", 19, 3), ("rifle", 30, 4), ("lmg", 3, 5), ("lmg", 25, 3),
    ("sniper-rifle", 0, 5), ("sniper-rifle", 36, 3), ("pistol", 18, 4)])
def test_dt_r2_range_bands(weapon: str, distance: int, target: int) -> None:
    """DT-R2: best +1, worst -1 in the listed bands, nothing outside them."""
    run = play(duel(weapon), "red.0", "hold", {"distance.black.0": distance}, ROLL)
    assert hit_target(run) == target


def test_dt_r2_no_shot_beyond_the_maximum_range() -> None:
    with pytest.raises(Refused, match="at most 18"):
        play(duel("pistol"), "red.0", "hold", {"distance.black.0": 19}, ROLL)
    run = play(duel("pistol"), "red.0", "hold", {"distance.black.0": 18}, ROLL)
    step = run.step("distance.black.0")
    assert isinstance(step, Question) and step.maximum == 18
    assert "maximum range is 18\"" in step.prompt


def test_dt_s4_cover_and_shooting_down() -> None:
    run = play(duel(), "red.0", "hold", {"cover.black.0": "yes"}, ROLL)
    assert hit_target(run) == 5
    assert "-1 in cover" in run.step("hit.1").why
    run = play(duel(), "red.0", "hold", {"down.black.0": "yes"}, ROLL)
    assert hit_target(run) == 3
    run = play(duel(), "red.0", "hold", {"cover.black.0": "yes", "down.black.0": "yes"}, ROLL)
    assert hit_target(run) == 4


def test_dt_s7_engineer_asked_only_with_a_friendly_engineer_in_play() -> None:
    """App reading 10: +1 with a friendly Engineer within 4" (the Engineer does not
    count for itself)."""
    assert "engineer.red.0" not in play(duel(rules=("engineer",)), "red.0", "hold", {},
                                        ROLL).asked
    s = state_of([unit("Gunner", "rifle"), unit("Tech", rules=("engineer",))],
                 [unit("Target")])
    run = play(s, "red.0", "hold", {"engineer.red.0": "yes"}, ROLL)
    assert hit_target(run) == 3
    assert "Red Tech" in run.step("engineer.red.0").prompt
    assert hit_target(play(s, "red.0", "hold", {"engineer.red.0": "no"}, ROLL)) == 4


def test_dt_s7_spotted_gives_plus_1_to_the_first_shooter_and_is_used_up() -> None:
    s = duel()
    s.unit("black.0").spotted_by = "red"
    run = play(s, "red.0", "hold", {}, ROLL)
    assert hit_target(run) == 3
    assert run.state.unit("black.0").spotted_by == ""
    s.unit("black.0").spotted_by = "black"  # the other side's mark does not help
    assert hit_target(play(s, "red.0", "hold", {}, ROLL)) == 4


def test_dt_s7_a_hacked_shooter_is_at_minus_1_once_and_flashed_at_minus_2() -> None:
    s = duel()
    s.unit("red.0").hacked = True
    run = play(s, "red.0", "hold", {}, ROLL)
    assert hit_target(run) == 5
    assert not run.state.unit("red.0").hacked
    s.unit("red.0").hacked = False
    s.unit("red.0").flashed_until = "black"
    assert hit_target(play(s, "red.0", "hold", {}, ROLL)) == 6


def test_dt_r1_a_shot_at_7_plus_and_at_8_plus() -> None:
    """DT §1, DT-R1: Sniper Rifle at 5" (-1), in cover (-1), flashed (-2): 8+, still a
    6 then a 4+ (seed double-tap-2.1.txt, Modifiers: "If you need to roll a 7+ or
    higher to succeed, then a roll of 6+ followed by 4+ is a success."); without the
    flash but hacked: 7+, the sixes rolled again."""
    s = duel("sniper-rifle")
    s.unit("red.0").flashed_until = "black"
    run = play(s, "red.0", "hold", {"distance.black.0": 5, "cover.black.0": "yes",
                                    "hit.1": "6 6", "hit.1.second": "4 1",
                                    "block.black.0": "1"})
    assert (hit_target(run), run.step("hit.1.second").target) == (6, 4)
    assert "needing 8+, each 6 must be followed by a 4+ (DT §1, DT-R1)" in run.text
    assert "cannot succeed" not in run.text
    assert run.ctx.facts["attack"]["hits"] == 1
    assert run.state.unit("black.0").figures[0].alive is False
    s.unit("red.0").flashed_until = ""
    s.unit("red.0").hacked = True
    run = play(s, "red.0", "hold", {"distance.black.0": 5, "cover.black.0": "yes",
                                    "hit.1": "6 2", "hit.1.second": "5", "block.black.0": "6",
                                    "morale.black.0": "6"})
    assert (hit_target(run), run.step("hit.1.second").target) == (6, 4)
    assert run.ctx.facts["attack"]["hits"] == 1


# --- targets and split attacks (DT §4, §7) ----------------------------------------------------


def test_dt_s4_attacks_split_among_targets_until_all_are_given() -> None:
    s = state_of([unit("Gunner", "smg")], [unit("A"), unit("B"), unit("C")])
    run = play(s, "red.0", "hold", {"split.black.0": 1, "split.black.1": 0,
                                    "distance.black.2": 12}, ROLL)
    assert [k for k in run.asked if k.startswith(("split", "distance"))] == [
        "split.black.0", "split.black.1", "distance.black.0", "distance.black.2"]
    attacks = run.ctx.facts["attacks"]
    assert [(a["target"], a["attacks"]) for a in attacks] == [("black.0", 1), ("black.2", 3)]
    assert (run.step("hit.1").count, run.step("hit.2").count) == (1, 3)
    assert "1 attack at Black A, 3 attacks at Black C (DT §4)" in run.text


def test_dt_s4_all_attacks_at_the_first_target_ask_no_more() -> None:
    s = state_of([unit("Gunner", "smg")], [unit("A"), unit("B")])
    run = play(s, "red.0", "hold", {}, ROLL)
    assert [k for k in run.asked if k.startswith("split")] == ["split.black.0"]
    assert [a["target"] for a in run.ctx.facts["attacks"]] == ["black.0"]


def test_dt_s7_camouflaged_enemies_cannot_be_shot() -> None:
    s = state_of([unit("Gunner", "rifle")],
                 [unit("Hidden", rules=("camouflage",)), unit("Seen")])
    run = play(s, "red.0", "hold", {}, ROLL)
    assert "split.black.0" not in run.asked
    assert [a["target"] for a in run.ctx.facts["attacks"]] == ["black.1"]
    s.unit("black.1").figures[0].alive = False
    run = play(s, "red.0", "hold", {}, ROLL)
    assert "no enemy it may attack" in run.text and not run.ctx.facts


def test_dt_s7_sixth_sense_removes_the_camo_of_an_enemy_within_8() -> None:
    s = state_of([unit("Gunner", "rifle", rules=("sixth-sense",))],
                 [unit("Hidden", rules=("camouflage",))])
    run = play(s, "red.0", "hold", {"sense.black.0": "no"}, ROLL)
    assert "no enemy it may attack" in run.text
    run = play(s, "red.0", "hold", {"sense.black.0": "yes"}, ROLL)
    assert not run.state.unit("black.0").camo
    assert run.ctx.facts["attacks"][0]["target"] == "black.0"


def test_dt_s7_attacking_loses_the_camo_marker() -> None:
    s = duel(rules=("camouflage",))
    assert s.unit("red.0").camo
    run = play(s, "red.0", "hold", {}, ROLL)
    assert not run.state.unit("red.0").camo
    assert "loses its camo marker" in run.text
    run = play(s, "red.0", "hold", {"weapon": "none"})
    assert run.state.unit("red.0").camo


# --- blocks (DT §4, app reading 8) -----------------------------------------------------------


def shot(s: State, faces: str, blocks: str = "", morale: str = "", **more: str) -> object:
    answers = {"hit.1": faces, **more}
    if blocks:
        answers["block.black.0"] = blocks
    if morale:
        answers["morale.black.0"] = morale
    return play(s, "red.0", "hold", answers)


def test_dt_s4_one_block_per_hit_any_failure_kills() -> None:
    run = shot(duel(), "5 6", "4 3")
    fact = run.ctx.facts["attack"]
    assert (run.step("block.black.0").count, run.step("block.black.0").target) == (2, 4)
    assert fact | {"cancel": None} == {
        "kind": "shooting", "target": "black.0", "weapon": "Rifle", "attacks": 2, "hit": 0,
        "block": 0, "morale": 0, "cancel": None, "tough": -1, "regeneration": False,
        "stage": "done", "successes": 2, "cancelled": 0, "hits": 2, "failed_blocks": 1,
        "killed": True}
    assert fact["cancel"]["kind"] == ""
    assert not run.state.unit("black.0").alive
    assert "Black Target is killed" in run.text
    assert not any(k.startswith("morale") for k in run.asked)


def test_dt_s4_a_killed_unit_leaves_base_contact() -> None:
    s = state_of([unit("Gunner", "rifle"), unit("Brawler")], [unit("Target")])
    engage(s, "red.1", "black.0")
    run = shot(s, "6 6", "1 1")
    assert run.state.unit("red.1").engaged == [] and run.state.unit("black.0").engaged == []


@pytest.mark.parametrize(("rules", "weapon_rules", "target"), [
    (("armored",), (), 3), ((), ("fire-ammo",), 6), ((), ("piercing-ammo",), 5),
    (("armored",), ("fire-ammo", "piercing-ammo"), 6)])
def test_dt_s7_block_modifiers(rules: tuple[str, ...], weapon_rules: tuple[str, ...],
                               target: int) -> None:
    run = shot(duel(rules=weapon_rules, target_rules=rules), "6 1", "6", "6")
    assert run.step("block.black.0").target == target
    assert run.ctx.facts["attack"]["block"] == 4 - target


def test_dt_s7_doctor_asked_only_with_a_friendly_doctor_in_play() -> None:
    assert "doctor.black.0" not in shot(duel(target_rules=("doctor",)), "1 1").asked
    s = state_of([unit("Gunner", "rifle")], [unit("Target"), unit("Medic", rules=("doctor",))])
    run = play(s, "red.0", "hold", {"split.black.0": 2, "doctor.black.0": "yes", "hit.1": "6 1",
                                    "block.black.0": "3", "morale.black.0": "6"})
    assert run.step("block.black.0").target == 3
    assert run.step("doctor.black.0").side == "black"
    assert run.state.unit("black.0").alive


def test_dt_s7_a_hacked_or_flashed_target_blocks_worse_the_hack_used_up() -> None:
    s = duel()
    s.unit("black.0").hacked = True
    run = shot(s, "6 1", "5", "6")
    assert run.step("block.black.0").target == 5
    assert not run.state.unit("black.0").hacked
    s.unit("black.0").hacked = False
    s.unit("black.0").flashed_until = "red"
    run = shot(s, "6 1", "6", "6")
    assert run.step("block.black.0").target == 6
    assert run.step("morale.black.0").target == 6  # DT §7: all its quality tests


# --- Tough and Regeneration (DT §7) -----------------------------------------------------------


def test_dt_s7_tough_takes_wound_markers_and_dies_at_the_third() -> None:
    s = duel("smg", target_rules=("tough",))
    run = shot(s, "6 6 1 1", "1 2", "6", **{"distance.black.0": "5"})
    assert run.state.unit("black.0").wounds == 2 and run.state.unit("black.0").alive
    assert "it now has 2 wound markers" in run.text
    assert run.ctx.facts["attack"]["tough"] == 0
    s.unit("black.0").wounds = 2
    run = shot(s, "6 1 1 1", "1", **{"distance.black.0": "5"})
    assert run.ctx.facts["attack"]["tough"] == 2
    assert not run.state.unit("black.0").alive
    assert "is killed (DT §7 Tough)" in run.text


def test_dt_s7_regeneration_survives_on_5_plus() -> None:
    s = duel(target_rules=("regeneration",))
    run = shot(s, "6 1", "1", "6", **{"regen.black.0": "5"})
    step = run.step("regen.black.0")
    assert (step.count, step.target) == (1, 5)
    assert run.state.unit("black.0").alive
    assert run.ctx.facts["attack"]["killed"] is False
    run = shot(s, "6 1", "1", **{"regen.black.0": "4"})
    assert not run.state.unit("black.0").alive
    assert "it is not enough" in run.text


def test_dt_s7_tough_and_regeneration_keep_the_wound_markers() -> None:
    s = duel(target_rules=("tough", "regeneration"))
    s.unit("black.0").wounds = 2
    run = shot(s, "6 1", "1", "6", **{"regen.black.0": "6"})
    assert run.state.unit("black.0").alive and run.state.unit("black.0").wounds == 3


# --- morale and poison (DT §5, §7, app readings 8 and 9) --------------------------------------


def test_dt_s5_failed_morale_after_shooting_falls_back_2_inches() -> None:
    run = shot(duel(), "6 1", "6", "3")
    target = run.state.unit("black.0")
    assert target.alive and not target.stunned
    assert 'fails its morale: it moves 2" out of sight' in run.text
    run = shot(duel(), "6 1", "6", "4")
    assert "holds its nerve" in run.text


def test_dt_s5_no_morale_without_hits() -> None:
    run = shot(duel(), "1 1")
    assert not any(k.startswith(("block", "morale")) for k in run.asked)
    assert "Black Target takes no hit." in run.text


def test_dt_s7_poison_gear_poisons_a_survivor_of_its_kind_of_hits() -> None:
    run = shot(duel(rules=("poison-gear",), poison="shooting"), "6 1", "6", "6")
    assert run.state.unit("black.0").poisoned
    assert "poisoned by Red Gunner's Poison Gear" in run.text
    run = shot(duel(rules=("poison-gear",), poison="melee"), "6 1", "6", "6")
    assert not run.state.unit("black.0").poisoned


# --- facts and generated dice -------------------------------------------------------------------


def test_dt_facts_stage_is_set_before_each_request() -> None:
    s = duel(target_rules=("regeneration",))
    seen = stages(s, "red.0", "hold", {"hit.1": "6 6", "block.black.0": "1 6",
                                       "regen.black.0": "6", "morale.black.0": "6"})
    assert seen == [("hit.1", "black.0", "hit"), ("block.black.0", "black.0", "block"),
                    ("regen.black.0", "black.0", "regeneration"),
                    ("morale.black.0", "black.0", "done")]


def test_dt_facts_count_of_successes_drives_the_attack() -> None:
    run = shot(duel(), hits(2), hits(2), hits(1))  # type: ignore[arg-type]
    assert run.ctx.facts["attack"]["hits"] == 2 and run.state.unit("black.0").alive


def test_dt_generated_dice_are_deterministic_by_seed() -> None:
    s = state_of([unit("Gunner", "smg", rules=("grenade",))],
                 [unit("A", rules=("tough", "regeneration")), unit("B")], seed=11)
    first = play(s, "red.0", "hold", {}, ROLL)
    again = play(s, "red.0", "hold", {}, ROLL)
    assert first.text == again.text and first.state == again.state
    assert first.res.answers == again.res.answers

"""Double Tap reactions (DT §6, DT-R3; app readings 6 and 7): the side's yes/no then
one choice at a time of the units that may react, each unit at most once, who may
react and how, dodging, cancelling, left-over successes hitting the acting unit,
reactions killing it while it finishes its action, Move after the attacks, and
camouflage at -2 (DT §7)."""

from __future__ import annotations

import pytest
from dt_combat_fixtures import act, engage, play, stages, state_of, unit

from deathzap_tui.rules.doubletap.state import State
from deathzap_tui.rules.steps import ROLL, Question, Refused, Resolution

QUIET = {"hit.1": "1 1"}
"""The acting Gunner's Rifle misses."""


def field(*black: str) -> State:
    """Red Gunner (red.0, Rifle) against Black units named ``black``, each with a
    Pistol (and a Knife)."""
    return state_of([unit("Gunner", "rifle")], [unit(n, "pistol") for n in black])


def choices(run: object, key: str) -> list[str]:
    step = run.step(key)  # type: ignore[attr-defined]
    assert isinstance(step, Question)
    return [c.value for c in step.choices]


# --- asking (app reading 6, DT-R3) -----------------------------------------------------------


def test_dt_s6_the_side_is_asked_first_then_one_choice_of_the_units_that_may_react() -> None:
    """App reading 6: after yes, one question offers every unit that may react (or
    none); only the unit chosen is asked how it reacts, then the units left (DT-R3:
    never the same unit twice)."""
    run = play(field("A", "B"), "red.0", "rush", {
        "react.black": "yes", "reactor.black.1": "black.1", "reaction.black.1": "dodge"})
    assert run.asked == ["react.black", "reactor.black.1", "reaction.black.1",
                         "reactor.black.2"]
    react = run.step("react.black")
    assert isinstance(react, Question)
    assert (react.side, react.default) == ("black", "no")
    assert react.prompt == "Does Black react to Red Gunner's Rush?"
    pick = run.step("reactor.black.1")
    assert (pick.side, pick.default) == ("black", "none")
    assert "can see it" in pick.prompt and "DT-R3" in pick.rule
    assert [c.label for c in pick.choices] == ["None after all", "Black A", "Black B"]
    assert choices(run, "reactor.black.1") == ["none", "black.0", "black.1"]
    assert choices(run, "reactor.black.2") == ["none", "black.0"]
    how = run.step("reaction.black.1")
    assert how.side == "black" and "Black B: react to" in how.prompt
    assert choices(run, "reaction.black.1") == ["move", "dodge", "shoot"]
    assert "Black reacts: Black B dodges (DT §6)." in run.text


def test_dt_s6_yes_then_no_unit_is_no_reaction_after_all() -> None:
    run = play(field("A", "B"), "red.0", "rush", {"react.black": "yes"})
    assert run.asked == ["react.black", "reactor.black.1"]
    assert "Black does not react after all (DT §6)." in run.text


def test_dt_s6_no_means_no_unit_question() -> None:
    run = play(field("A", "B"), "red.0", "rush", {"react.black": "no"})
    assert run.asked == ["react.black"]


def test_dt_r3_each_unit_reacts_at_most_once_per_action() -> None:
    """DT-R3: one question per unit even when the action attacks several units."""
    s = state_of([unit("Gunner", "smg")], [unit("A", "pistol"), unit("B", "pistol")])
    run = play(s, "red.0", "hold", {"split.black.0": 2, "react.black": "yes",
                                    "reactor.black.1": "black.0", "reactor.black.2": "black.1",
                                    "reaction.black.0": "dodge", "reaction.black.1": "dodge"},
               ROLL)
    keys = [k for k in run.asked if k.startswith("reaction.")]
    assert keys == ["reaction.black.0", "reaction.black.1"]
    assert sum(1 for k in run.asked if k.startswith("cancel.black.0")) == 1


def test_dt_s6_the_questions_come_after_the_declarations_before_any_die() -> None:
    run = play(field("A"), "red.0", "hold", {"react.black": "yes", "reactor.black.1": "black.0",
                                             "reaction.black.0": "move", **QUIET})
    assert run.asked.index("cover.black.0") < run.asked.index("react.black")
    assert run.asked.index("reaction.black.0") < run.asked.index("hit.1")
    assert run.ctx.facts["attacks"][0]["target"] == "black.0"


def test_dt_s5_stunned_units_are_not_offered_and_none_left_asks_nothing() -> None:
    s = field("A", "B")
    s.unit("black.0").stunned = True
    run = play(s, "red.0", "rush", {"react.black": "yes"})
    assert run.asked == ["react.black", "reactor.black.1"]
    assert choices(run, "reactor.black.1") == ["none", "black.1"]
    s.unit("black.1").stunned = True
    assert play(s, "red.0", "rush").asked == []


def test_dt_s6_units_in_contact_react_only_to_the_unit_they_touch_dodge_or_melee() -> None:
    s = state_of([unit("Gunner", "rifle"), unit("Brawler")],
                 [unit("Touching", "pistol"), unit("Busy", "pistol")])
    engage(s, "red.0", "black.0")
    engage(s, "red.1", "black.1")
    run = play(s, "red.0", "hold", {"react.black": "yes", "reactor.black.1": "black.0",
                                    "reaction.black.0": "dodge"})
    assert choices(run, "reactor.black.1") == ["none", "black.0"]
    assert [k for k in run.asked if k.startswith("reaction")] == ["reaction.black.0"]
    assert choices(run, "reaction.black.0") == ["dodge", "melee"]


def test_dt_s7_a_camouflaged_actor_that_does_not_attack_cannot_be_attacked() -> None:
    """It cannot be shot at, but it may be detected (DT §7 "when acting/reacting")."""
    s = state_of([unit("Sneak", rules=("camouflage",))], [unit("A", "pistol")])
    run = play(s, "red.0", "rush", {"react.black": "yes", "reactor.black.1": "black.0",
                                    "reaction.black.0": "move"})
    assert choices(run, "reaction.black.0") == ["move", "dodge", "detect"]


def test_dt_s7_detect_as_a_reaction_removes_the_actors_marker_before_its_action() -> None:
    s = state_of([unit("Sneak", rules=("camouflage",))], [unit("A", "pistol"), unit("B")])
    s.unit("black.0").flashed_until = "red"
    run = play(s, "red.0", "rush", {"react.black": "yes", "reactor.black.1": "black.0",
                                    "reactor.black.2": "black.1", "reaction.black.0": "detect",
                                    "reaction.black.1": "detect",
                                    "detect.red.0.black.0": "6"})
    step = run.step("detect.red.0.black.0")
    assert (step.count, step.target, step.side) == (1, 6, "black")  # flashed -2
    assert not run.state.unit("red.0").camo
    assert "detect.red.0.black.1" not in run.asked  # nothing left to detect
    assert "has no camo marker left to detect" in run.text
    assert "Red Sneak is detected: it loses its camo marker (DT §7)." in run.text


def test_dt_s7_a_failed_detect_reaction_leaves_the_marker() -> None:
    s = state_of([unit("Sneak", rules=("camouflage",))], [unit("A")])
    run = play(s, "red.0", "rush", {"react.black": "yes", "reactor.black.1": "black.0",
                                    "reaction.black.0": "detect",
                                    "detect.red.0.black.0": "3"})
    assert run.state.unit("red.0").camo and "stays hidden" in run.text


def test_dt_s7_units_in_contact_are_not_offered_detect() -> None:
    s = state_of([unit("Sneak", rules=("camouflage",))], [unit("A")])
    engage(s, "red.0", "black.0")
    run = play(s, "red.0", "hold", {"react.black": "yes", "reactor.black.1": "black.0",
                                    "reaction.black.0": "dodge"})
    assert choices(run, "reaction.black.0") == ["dodge"]


def test_dt_s7_sixth_sense_strips_a_camouflaged_actor_when_reactions_are_gathered() -> None:
    """DT §7 Sixth Sense works for the reacting side too: the actor loses its marker
    and may then be shot at."""
    s = state_of([unit("Sneak", rules=("camouflage",))],
                 [unit("A", "pistol"), unit("Seer", rules=("sixth-sense",))])
    move = {"reactor.black.1": "black.0", "reaction.black.0": "move"}
    run = play(s, "red.0", "rush", {"sense.red.0": "yes", "react.black": "yes", **move})
    sense = run.step("sense.red.0")
    assert sense.side == "black" and "Black Seer" in sense.prompt
    assert run.asked.index("sense.red.0") < run.asked.index("react.black")
    assert not run.state.unit("red.0").camo
    assert "shoot" in choices(run, "reaction.black.0")
    kept = play(s, "red.0", "rush", {"sense.red.0": "no", "react.black": "yes", **move})
    assert kept.state.unit("red.0").camo
    assert "shoot" not in choices(kept, "reaction.black.0")


# --- dodging (DT §6, app reading 7) ----------------------------------------------------------


def test_dt_s6_a_dodge_cancelling_every_success_moves_2_out_of_contact() -> None:
    s = state_of([unit("Brawler", "sword")], [unit("Target")])
    run = play(s, "red.0", "charge", {"react.black": "yes", "reactor.black.1": "black.0",
                                      "reaction.black.0": "dodge",
                                      "hit.1": "6 5 1 1", "cancel.black.0": "4 6"})
    step = run.step("cancel.black.0")
    assert (step.count, step.target, step.side) == (2, 4, "black")
    fact = run.ctx.facts["attack"]
    assert fact["cancel"] == {"kind": "dodge", "dice": 2, "modifier": 0}
    assert (fact["successes"], fact["cancelled"], fact["hits"]) == (2, 2, 0)
    assert run.state.unit("black.0").engaged == [] == run.state.unit("red.0").engaged
    assert 'dodges 2" (no enemy success left), out of any base contact' in run.text


def test_dt_s6_a_dodge_leaving_successes_takes_the_hits_and_stays() -> None:
    s = state_of([unit("Brawler", "sword")], [unit("Target")])
    run = play(s, "red.0", "charge", {"react.black": "yes", "reactor.black.1": "black.0",
                                      "reaction.black.0": "dodge",
                                      "hit.1": "6 5 5 1", "cancel.black.0": "4 1",
                                      "block.black.0": "6 6", "morale.black.0": "6"})
    assert run.ctx.facts["attack"]["hits"] == 2
    assert run.state.unit("black.0").engaged == ["red.0"]
    assert "takes the hits and does not move" in run.text


def test_dt_s6_a_dodge_against_no_success_rolls_nothing() -> None:
    run = play(field("A"), "red.0", "hold", {"react.black": "yes", "reactor.black.1": "black.0",
                                             "reaction.black.0": "dodge", **QUIET})
    assert "cancel.black.0" not in run.asked
    assert "nothing to cancel" in run.text


def test_dt_s6_a_unit_dodging_without_being_attacked_moves_after_the_attacks() -> None:
    s = state_of([unit("Gunner", "rifle"), unit("Brawler")], [unit("A"), unit("B")])
    engage(s, "red.1", "black.1")
    engage(s, "red.0", "black.1")
    run = play(s, "red.0", "hold", {"react.black": "yes", "reactor.black.1": "black.1",
                                    "reaction.black.1": "dodge"})
    assert "weapon" not in run.asked
    assert run.state.unit("black.1").engaged == []
    assert run.state.unit("red.1").engaged == []
    assert 'dodges 2" (not attacked)' in run.text


# --- shoot and melee reactions (DT §6, app reading 7) ------------------------------------------


def test_dt_s6_a_shot_back_cancels_and_its_leftover_hits_the_actor() -> None:
    run = play(field("A"), "red.0", "hold", {
        "react.black": "yes", "reactor.black.1": "black.0", "reaction.black.0": "shoot",
        "reaction.black.0.distance": 10,
        "hit.1": "1 1", "cancel.black.0": "5", "block.red.0.black.0": "2"})
    first, leftover = run.ctx.facts["attacks"]
    assert first["cancel"] == {"kind": "shoot", "dice": 1, "modifier": 0}
    assert (first["successes"], first["cancelled"], first["hits"]) == (0, 0, 0)
    assert (leftover["kind"], leftover["target"], leftover["hits"]) == ("shooting", "red.0", 1)
    assert not run.state.unit("red.0").alive
    assert "left over hits Red Gunner" in run.text


def test_dt_s6_a_shot_back_cancelling_everything_leaves_nothing_over() -> None:
    run = play(field("A"), "red.0", "hold", {
        "react.black": "yes", "reactor.black.1": "black.0", "reaction.black.0": "shoot",
        "hit.1": "6 1",
        "cancel.black.0": "4"})
    assert len(run.ctx.facts["attacks"]) == 1
    assert run.ctx.facts["attack"]["hits"] == 0


def test_dt_s6_a_shot_at_the_actor_by_a_unit_it_did_not_attack() -> None:
    s = state_of([unit("Gunner", "rifle")], [unit("Target"), unit("Sniper", "sniper-rifle",
                                                                   "pistol")])
    run = play(s, "red.0", "hold", {
        "split.black.0": 2, "react.black": "yes", "reactor.black.1": "black.1",
        "reaction.black.1": "shoot",
        "reaction.black.1.weapon": "sniper-rifle", "reaction.black.1.distance": 25,
        "reaction.black.1.cover": "yes", **QUIET, "hit.2": "3"})
    assert choices(run, "reaction.black.1.weapon") == ["sniper-rifle", "pistol"]
    fact = run.ctx.facts["attacks"][1]
    assert (fact["kind"], fact["target"], fact["attacks"], fact["hit"]) == (
        "shooting", "red.0", 1, 0)  # best +1 at 19-36", cover -1
    assert run.step("hit.2").target == 4 and run.step("hit.2").side == "black"
    assert run.ctx.facts["attacks"][0]["cancel"]["kind"] == ""


def test_dt_r2_a_shot_back_beyond_range_is_refused() -> None:
    with pytest.raises(Refused, match="at most 18"):
        play(field("A"), "red.0", "rush", {"react.black": "yes", "reactor.black.1": "black.0",
                                           "reaction.black.0": "shoot",
                                           "reaction.black.0.distance": 19})


def test_dt_s6_a_melee_reaction_by_a_touching_unit_hits_the_actor() -> None:
    s = state_of([unit("Hacker", rules=("hacker",))], [unit("Guard"), unit("Far")])
    engage(s, "red.0", "black.0")
    run = play(s, "red.0", "hack", {"target": "black.1", "react.black": "yes",
                                    "reactor.black.1": "black.0",
                                    "reaction.black.0": "melee", "hack.black.1": "2",
                                    "hit.1": "5", "block.red.0.black.0": "6",
                                    "morale.red.0.reactions": "1"})
    fact = run.ctx.facts["attacks"][0]
    assert (fact["kind"], fact["target"], fact["hits"]) == ("melee", "red.0", 1)
    assert run.state.unit("red.0").stunned  # DT §5: failed morale after melee


def test_dt_s6_a_reaction_killing_the_actor_does_not_stop_its_action() -> None:
    s = state_of([unit("Gunner", "rifle")], [unit("Target"), unit("Sniper", "pistol")])
    run = play(s, "red.0", "hold", {
        "split.black.0": 2, "react.black": "yes", "reactor.black.1": "black.1",
        "reaction.black.1": "shoot",
        "hit.1": "6 6", "block.black.0": "1 1", "hit.2": "6", "block.red.0.black.1": "1"})
    assert not run.state.unit("red.0").alive
    assert not run.state.unit("black.0").alive
    assert "killed by a reaction, but it has finished its action" in run.text


def test_dt_s6_two_reactions_hitting_the_actor_keep_distinct_keys() -> None:
    s = state_of([unit("Runner")], [unit("A", "pistol"), unit("B", "pistol")])
    run = play(s, "red.0", "rush", {
        "react.black": "yes", "reactor.black.1": "black.0", "reactor.black.2": "black.1",
        "reaction.black.0": "shoot", "reaction.black.1": "shoot",
        "hit.1": "6", "hit.2": "6", "block.red.0.black.0": "6",
        "block.red.0.black.1": "1"})
    assert not run.state.unit("red.0").alive
    assert [f["target"] for f in run.ctx.facts["attacks"]] == ["red.0", "red.0"]
    assert "morale.red.0.reactions" not in run.asked  # killed: no morale (DT §5)


def test_dt_s5_the_actor_blocks_every_reactions_hits_then_tests_morale_once() -> None:
    """DT §5: one morale test for all the reactions' hits, after all the blocks;
    any melee hit among them stuns on a failure."""
    s = state_of([unit("Runner")], [unit("A", "pistol"), unit("B", "pistol")])
    run = play(s, "red.0", "rush", {
        "react.black": "yes", "reactor.black.1": "black.0", "reactor.black.2": "black.1",
        "reaction.black.0": "shoot", "reaction.black.1": "shoot",
        "hit.1": "6", "hit.2": "6", "block.red.0.black.0": "6",
        "block.red.0.black.1": "5", "morale.red.0.reactions": "1"})
    blocks = [k for k in run.asked if k.startswith(("block.", "morale."))]
    assert blocks == ["block.red.0.black.0", "block.red.0.black.1", "morale.red.0.reactions"]
    assert run.text.count("Red Runner: morale") == 1
    assert not run.state.unit("red.0").stunned  # shooting hits: it moves away
    assert "fails its morale: it moves 2\"" in run.text


def test_dt_s5_one_melee_hit_among_the_reactions_stuns_on_a_failed_morale() -> None:
    s = state_of([unit("Hacker", rules=("hacker",))],
                 [unit("Guard"), unit("Far", "pistol"), unit("Mark")])
    engage(s, "red.0", "black.0")
    run = play(s, "red.0", "hack", {
        "target": "black.2", "react.black": "yes", "reactor.black.1": "black.0",
        "reactor.black.2": "black.1", "reaction.black.0": "melee",
        "reaction.black.1": "shoot", "hack.black.2": "2", "hit.1": "5", "hit.2": "6",
        "block.red.0.black.0": "6", "block.red.0.black.1": "6",
        "morale.red.0.reactions": "2"})
    assert run.state.unit("red.0").stunned


def test_dt_s6_a_move_reaction_comes_after_the_attacks() -> None:
    s = state_of([unit("Gunner", "rifle")], [unit("A"), unit("Runner", rules=("fast",))])
    run = play(s, "red.0", "hold", {"split.black.0": 2, "react.black": "yes",
                                    "reactor.black.1": "black.1",
                                    "reaction.black.1": "move", **QUIET})
    lines = run.text.splitlines()
    assert lines[-1] == 'Black Runner moves up to 6" (Move reaction, DT §6).'


def test_dt_s6_a_dead_unit_that_meant_to_move_does_not() -> None:
    run = play(field("A"), "red.0", "hold", {
        "react.black": "yes", "reactor.black.1": "black.0", "reaction.black.0": "move",
        "hit.1": "6 1",
        "block.black.0": "1"})
    assert "Move reaction" not in run.text


# --- camouflage (DT §7) ----------------------------------------------------------------------


def test_dt_s7_reactions_to_a_camouflaged_attack_are_at_minus_2() -> None:
    s = state_of([unit("Sneak", "rifle", rules=("camouflage",))],
                 [unit("A", "pistol"), unit("B", "pistol")])
    run = play(s, "red.0", "hold", {
        "split.black.0": 2, "react.black": "yes", "reactor.black.1": "black.0",
        "reactor.black.2": "black.1", "reaction.black.0": "dodge",
        "reaction.black.1": "shoot", "hit.1": "6 6", "cancel.black.0": "6 5",
        "block.black.0": "6", "morale.black.0": "6", "hit.2": "1"})
    assert run.step("cancel.black.0").target == 6
    assert run.ctx.facts["attacks"][0]["cancel"]["modifier"] == -2
    assert run.step("hit.2").target == 6
    assert "reacting to a camouflaged attacker" in run.step("hit.2").why


def test_dt_s7_a_hacked_reactor_uses_its_hack_on_its_attack() -> None:
    s = field("A")
    s.unit("black.0").hacked = True
    run = play(s, "red.0", "rush", {"react.black": "yes", "reactor.black.1": "black.0",
                                    "reaction.black.0": "shoot",
                                    "hit.1": "1"})
    assert run.step("hit.1").target == 5
    assert not run.state.unit("black.0").hacked


def test_dt_s7_the_block_fact_drops_the_hack_its_own_reaction_used() -> None:
    """DT §7 Hacker: the target's shot back uses its hack, so its blocks are rolled
    without it; the fact says so already at "hit" (for the odds panel)."""

    def block_at_hit(reaction: str) -> int:
        s = field("A")
        s.unit("black.0").hacked = True
        res = Resolution(s, act("red.0", "hold"))
        answers = {"react.black": "yes", "reactor.black.1": "black.0", "reaction.black.0": reaction}
        while res.step is not None and res.step.key != "hit.1":
            step = res.step
            res.answer(answers.get(step.key, getattr(step, "default", None)))
        return res.ctx.facts["attack"]["block"]

    assert block_at_hit("shoot") == 0  # its shot back used the hack
    assert block_at_hit("dodge") == -1  # a dodge keeps it for the blocks


def test_dt_facts_stages_of_a_shot_back_and_its_leftover() -> None:
    seen = stages(field("A"), "red.0", "hold", {
        "react.black": "yes", "reactor.black.1": "black.0", "reaction.black.0": "shoot",
        "hit.1": "1 1",
        "cancel.black.0": "5", "block.red.0.black.0": "6", "morale.red.0.reactions": "6"})
    assert seen == [("hit.1", "black.0", "hit"), ("cancel.black.0", "black.0", "cancel"),
                    ("block.red.0.black.0", "red.0", "block"),
                    ("morale.red.0.reactions", "red.0", "done")]


def test_dt_generated_reactions_are_deterministic() -> None:
    s = state_of([unit("Gunner", "smg")], [unit("A", "pistol"), unit("B", "pistol")])
    answers = {"react.black": "yes", "reactor.black.1": "black.0", "reactor.black.2": "black.1",
               "reaction.black.0": "shoot", "reaction.black.1": "dodge"}
    first, again = (play(s, "red.0", "hold", answers, ROLL) for _ in range(2))
    assert first.text == again.text and first.state == again.state

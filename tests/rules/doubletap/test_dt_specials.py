"""Double Tap grenades and special actions (DT §5, §6, §7; app readings 12 and 13):
flash, frag and smoke, once per game, landing short, dodging a grenade; hack, spot,
detect, cloak and recover, each with its refusals."""

from __future__ import annotations

from dt_combat_fixtures import engage, play, stages, state_of, unit

from deathzap_tui.rules.doubletap.actions import action_refusal
from deathzap_tui.rules.doubletap.state import State
from deathzap_tui.rules.steps import ROLL, Question


def grenadier(*black: str, rules: tuple[str, ...] = ()) -> State:
    """Red Thrower (red.0, Pistol and a Grenade) against Black units named ``black``."""
    return state_of([unit("Thrower", "pistol", rules=("grenade", *rules))],
                    [unit(n, "pistol") for n in black])


def throw(kind: str, **answers: object) -> dict[str, object]:
    return {"weapon": "grenade", "grenade": kind, **answers}


# --- grenades (DT §7, app reading 12) ----------------------------------------------------------


def test_dt_s7_the_grenade_is_a_weapon_choice_once_per_game() -> None:
    s = grenadier("A")
    run = play(s, "red.0", "hold", throw("smoke", throw="1 1"))
    weapon = run.step("weapon")
    assert isinstance(weapon, Question)
    assert [c.value for c in weapon.choices] == ["pistol", "grenade", "none"]
    assert run.state.unit("red.0").grenade_used
    again = play(run.state, "red.0", "hold", {"weapon": "none"})
    assert [c.value for c in again.step("weapon").choices] == ["pistol", "none"]


def test_dt_s7_a_grenade_with_no_success_lands_short() -> None:
    run = play(grenadier("A"), "red.0", "hold", throw("frag", throw="3 1"))
    assert not any(k.startswith("blast") for k in run.asked)
    assert "lands short: no effect" in run.text
    fact = run.ctx.facts["attack"]
    assert (fact["kind"], fact["successes"], fact["hits"], fact["stage"]) == (
        "grenade", 0, 0, "done")


def test_dt_s7_frag_hits_every_unit_named_within_3_inches() -> None:
    s = state_of([unit("Thrower", rules=("grenade",)), unit("Friend")],
                 [unit("A"), unit("B", rules=("armored",)), unit("C")])
    run = play(s, "red.0", "hold", throw(
        "frag", target="black.0", throw="6 2", **{"blast.1": "black.0", "blast.2": "black.1",
                                                  "blast.3": "red.1", "blast.4": "none",
                                                  "block.black.0": "1",
                                                  "block.black.1": "3",
                                                  "morale.black.1": "2",
                                                  "block.red.1": "5",
                                                  "morale.red.1": "5"}))
    blast = run.step("blast.1")
    assert isinstance(blast, Question) and blast.default == "black.0"
    assert [c.value for c in blast.choices] == ["red.0", "red.1", "black.0", "black.1",
                                                "black.2", "none"]
    assert 'flies up to 6"' in run.text
    assert run.step("block.black.1").target == 3  # Armored
    assert not run.state.unit("black.0").alive
    assert run.state.unit("black.1").alive and not run.state.unit("black.1").stunned
    assert 'moves 2" out of sight' in run.text  # morale after a grenade: fall back
    facts = run.ctx.facts["attacks"]
    assert [(f["target"], f["hits"], f["successes"]) for f in facts] == [
        ("black.0", 1, 1), ("black.1", 1, 1), ("red.1", 1, 1)]
    assert all(f["kind"] == "grenade" and f["cancel"]["kind"] == "" for f in facts)


def test_dt_s7_frag_missing_the_aimed_unit() -> None:
    run = play(grenadier("A", "B"), "red.0", "hold", throw(
        "frag", target="black.0", throw="6 6", **{"blast.1": "black.1", "blast.2": "none",
                                                  "block.black.1": "6",
                                                  "morale.black.1": "6"}))
    aimed = run.ctx.facts["attacks"][0]
    assert (aimed["target"], aimed["hits"], aimed["stage"]) == ("black.0", 0, "done")
    assert 'flies up to 12"' in run.text


def test_dt_s7_flash_flashes_the_units_until_the_end_of_the_throwers_turn() -> None:
    run = play(grenadier("A", "B"), "red.0", "hold", throw(
        "flash", target="black.0", throw="5 1", **{"blast.2": "red.0", "blast.3": "none"}))
    assert not run.ctx.facts  # a flash attacks no one: no odds
    assert run.state.unit("black.0").flashed_until == "red"
    assert run.state.unit("red.0").flashed_until == "red"
    assert run.state.unit("black.1").flashed_until == ""
    assert "until the end of Red's turn" in run.text


def test_dt_s7_smoke_is_narrated() -> None:
    run = play(grenadier("A"), "red.0", "hold", throw("smoke", throw="5 1"))
    assert "no line of sight within 3\"" in run.text
    assert "start of Red's next turn" in run.text


def test_dt_s7_a_throw_takes_the_shooting_modifiers_at_the_aimed_unit() -> None:
    """DT §7: a grenade "works like a weapon": cover, height, a friendly Engineer and
    the side's spot (used up) count for the throw, as for a shot; no range band."""
    s = state_of([unit("Thrower", "pistol", rules=("grenade",)),
                  unit("Tech", rules=("engineer",))], [unit("A", "pistol")])
    s.unit("black.0").spotted_by = "red"
    run = play(s, "red.0", "hold", throw("frag", throw="1 1", **{
        "cover.black.0": "yes", "down.black.0": "yes", "engineer.red.0": "yes"}))
    assert run.asked[:6] == ["weapon", "grenade", "cover.black.0", "down.black.0",
                             "engineer.red.0", "react.black"]
    step = run.step("throw")
    assert step.target == 2  # -1 cover, +1 down, +1 Engineer, +1 spotted
    assert "spotted (used up)" in step.why and "in cover" in step.why
    assert run.state.unit("black.0").spotted_by == ""
    assert not any(k.startswith("distance") for k in run.asked)


def test_dt_s7_the_first_blast_question_names_no_other_unit() -> None:
    run = play(grenadier("A", "B"), "red.0", "hold", throw(
        "smoke", target="black.0", throw="6 1", **{"blast.1": "black.0", "blast.2": "none"}))
    assert run.step("blast.1").prompt == ("The smoke grenade has landed: which unit is "
                                          "within 3\" of it? One at a time.")
    assert run.step("blast.2").prompt.startswith("The smoke grenade has landed: which "
                                                 "other unit is within 3\"")


def test_dt_s6_a_dodge_does_not_cancel_a_grenade_it_moves_2_per_success() -> None:
    s = grenadier("A")
    engage(s, "red.0", "black.0")
    run = play(s, "red.0", "hold", {"react.black": "yes", "reactor.black.1": "black.0",
                                    "reaction.black.0": "dodge"})
    assert "weapon" not in run.asked  # in contact: no throw
    s = grenadier("A")
    run = play(s, "red.0", "hold", throw(
        "frag", throw="6 6", **{"react.black": "yes", "reactor.black.1": "black.0",
                                "reaction.black.0": "dodge",
                                "cancel.black.0": "5 6", "blast.1": "black.0",
                                "block.black.0": "1"}))
    assert 'dodges up to 4"' in run.text
    fact = run.ctx.facts["attack"]
    assert (fact["successes"], fact["cancelled"], fact["hits"]) == (2, 0, 1)
    assert not run.state.unit("black.0").alive


def test_dt_facts_stages_of_a_frag_grenade() -> None:
    seen = stages(grenadier("A"), "red.0", "hold", throw(
        "frag", throw="6 1", **{"react.black": "yes", "reactor.black.1": "black.0",
                                "reaction.black.0": "dodge",
                                "cancel.black.0": "1 1", "blast.1": "black.0",
                                "block.black.0": "6", "morale.black.0": "6"}))
    assert seen == [("throw", "black.0", "hit"), ("cancel.black.0", "black.0", "cancel"),
                    ("block.black.0", "black.0", "block"),
                    ("morale.black.0", "black.0", "done")]


def test_dt_s7_a_camouflaged_thrower_loses_its_marker() -> None:
    run = play(grenadier("A", rules=("camouflage",)), "red.0", "hold",
               throw("smoke", throw="1 1", **{"react.black": "yes", "reactor.black.1": "black.0",
                                               "reaction.black.0": "dodge"}))
    assert not run.state.unit("red.0").camo
    assert 'dodges 2" (not attacked)' in run.text


def test_dt_s7_a_flashed_thrower_throws_worse() -> None:
    s = grenadier("A")
    s.unit("red.0").flashed_until = "black"
    run = play(s, "red.0", "hold", throw("smoke", throw="1 1"))
    assert run.step("throw").target == 6


# --- hack (DT §7, app reading 13) ----------------------------------------------------------------


def test_dt_s7_hack_on_4_plus_does_not_stack_and_is_used_up() -> None:
    s = state_of([unit("Hacker", rules=("hacker",))], [unit("A", "pistol")])
    assert "not a Hacker" in action_refusal(
        state_of([unit("Plain")], [unit("A")]), "red.0", "hack")
    assert action_refusal(s, "red.0", "hack") == ""
    run = play(s, "red.0", "hack", {"hack.black.0": "3"})
    step = run.step("hack.black.0")
    assert (step.count, step.target) == (1, 4)
    assert not run.state.unit("black.0").hacked
    run = play(s, "red.0", "hack", {"hack.black.0": "4"})
    assert run.state.unit("black.0").hacked
    again = play(run.state, "red.0", "hack", {"hack.black.0": "6"})
    assert "does not stack" in again.text
    shot = play(again.state, "black.0", "hold", {"hit.1": "1 1"})
    assert shot.step("hit.1").target == 5
    assert not shot.state.unit("black.0").hacked


def test_dt_s7_hack_asks_the_target_among_several() -> None:
    s = state_of([unit("Hacker", rules=("hacker",))], [unit("A"), unit("B")])
    run = play(s, "red.0", "hack", {"target": "black.1", "hack.black.1": "5"})
    assert "within 8\"" in run.step("target").prompt
    assert run.state.unit("black.1").hacked and not run.state.unit("black.0").hacked


# --- spot (DT §7, app reading 13) ----------------------------------------------------------------


def test_dt_s7_spot_marks_an_enemy_for_the_next_friendly_shooter() -> None:
    s = state_of([unit("Spotter", rules=("spotter",)), unit("Gunner", "rifle")], [unit("A")])
    assert "not a Spotter" in action_refusal(s, "red.1", "spot")
    run = play(s, "red.0", "spot")
    assert run.state.unit("black.0").spotted_by == "red"
    shot = play(run.state, "red.1", "hold", {"hit.1": "1 1"})
    assert shot.step("hit.1").target == 3
    assert shot.state.unit("black.0").spotted_by == ""


def test_dt_s7_spot_and_hack_need_an_enemy_without_camo() -> None:
    s = state_of([unit("Spotter", rules=("spotter", "hacker"))],
                 [unit("A", rules=("camouflage",))])
    assert "cannot be seen" in action_refusal(s, "red.0", "spot")
    assert "cannot be seen" in action_refusal(s, "red.0", "hack")


# --- detect and cloak (DT §7 Camouflage) ---------------------------------------------------------


def test_dt_s7_detect_is_a_quality_test_against_a_camouflaged_enemy() -> None:
    s = state_of([unit("Seeker")], [unit("A"), unit("Hidden", rules=("camouflage",))])
    run = play(s, "red.0", "detect", {"detect.black.1": "3"})
    assert "target" not in run.asked
    assert run.state.unit("black.1").camo and "stays hidden" in run.text
    run = play(s, "red.0", "detect", {"detect.black.1": "4"})
    assert not run.state.unit("black.1").camo
    s.unit("black.1").camo = False
    assert "no camouflaged enemy" in action_refusal(s, "red.0", "detect")


def test_dt_s7_cloak_puts_the_marker_back_without_reactions() -> None:
    s = state_of([unit("Sneak", rules=("camouflage",)), unit("Plain")], [unit("A", "pistol")])
    assert "already has its camo marker" in action_refusal(s, "red.0", "cloak")
    assert "has no Camouflage" in action_refusal(s, "red.1", "cloak")
    s.unit("red.0").camo = False
    assert action_refusal(s, "red.0", "cloak") == ""
    run = play(s, "red.0", "cloak")
    assert run.asked == []
    assert run.state.unit("red.0").camo


# --- recover (DT §5) -------------------------------------------------------------------------


def test_dt_s5_recover_clears_the_stun_the_enemy_may_react() -> None:
    s = state_of([unit("Dazed")], [unit("A", "pistol")])
    s.unit("red.0").stunned = True
    run = play(s, "red.0", "recover", {"react.black": "yes", "reactor.black.1": "black.0",
                                       "reaction.black.0": "shoot",
                                       "hit.1": "6", "block.red.0.black.0": "6",
                                       "morale.red.0.reactions": "1"})
    assert "recovers: it is no longer stunned" in run.text
    assert not run.state.unit("red.0").stunned  # shooting hits do not stun (DT §5)
    assert run.text.index("recovers") < run.text.index("Black A: shooting")


def test_dt_generated_grenades_are_deterministic() -> None:
    s = grenadier("A", "B")
    first, again = (play(s, "red.0", "hold", throw("frag"), ROLL) for _ in range(2))
    assert first.text == again.text and first.state == again.state

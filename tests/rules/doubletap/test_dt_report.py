"""Double Tap in the end-of-game report: the harm each way a unit is wounded or killed
records, once, credited to the unit that did it (DT §4 blocks, DT §6 reactions, DT §7
Tough, Regeneration, Frag grenades, Poison Gear), how each kind of roll is judged for
dice luck (DT §1, DT-R1, DT §7; the DT §2 markers roll is not), and the scripted
golden game's tallies against its final state."""

from __future__ import annotations

import pytest
from cl_combat_fixtures import drive
from dt_combat_fixtures import Run, engage, keep, play, state_of, unit
from dt_fixtures import force, new_game, ready_game
from dt_fixtures import unit as force_unit
from fixtures_common import act
from golden_games import play_once
from test_dt_golden import script

from deathzap_tui.rules.doubletap.state import State
from deathzap_tui.rules.doubletap.turn import poison_check
from deathzap_tui.rules.luck import judge
from deathzap_tui.rules.report import build_report
from deathzap_tui.rules.steps import SUCCESSES, Dice, DiceRequest, Harm


def duel(*target_rules: str, weapon: str = "rifle") -> State:
    """Red Gunner (red.0, ``weapon`` and a Knife) against Black Target (black.0)."""
    return state_of([unit("Gunner", weapon, "knife")],
                    [unit("Target", rules=target_rules)])


def poisoned(rules: tuple[str, ...] = (), by: str = "red.0") -> State:
    """Black Target (black.0, ``rules``) poisoned by ``by`` ("" unknown), its turn."""
    s = state_of([unit("Cutter", "knife", rules=("poison-gear",), poison="melee")],
                 [unit("Target", rules=rules)], player="black")
    target = s.unit("black.0")
    target.poisoned, target.poisoned_by = True, by
    return s


def cure(state: State, die: str, **more: str) -> Run:
    """Black Target's test against its poison (DT §7, app reading 9)."""
    return drive(state, keep(lambda ctx: poison_check(ctx, ctx.state.unit("black.0"))),
                 {"poison.black.0": die, **more})


# --- harm: shooting and melee (DT §4) ----------------------------------------------------


def test_dt_s4_a_failed_block_kills_and_credits_the_shooter() -> None:
    run = play(duel(), "red.0", "hold", {"hit.1": "6 1", "block.black.0": "1"})
    assert run.ctx.harms == [Harm("black.0", "red.0", damage=1, kills=1)]


def test_dt_s4_every_failed_block_is_damage_one_kill_for_the_model() -> None:
    run = play(duel(), "red.0", "hold", {"hit.1": "6 5", "block.black.0": "2 1"})
    assert run.ctx.harms == [Harm("black.0", "red.0", damage=2, kills=1)]


def test_dt_s4_blocked_hits_and_misses_record_no_harm() -> None:
    run = play(duel(), "red.0", "hold", {"hit.1": "6 5", "block.black.0": "4 6",
                                         "morale.black.0": "6"})
    assert run.state.unit("black.0").alive and run.ctx.harms == []
    assert play(duel(), "red.0", "hold", {"hit.1": "1 2"}).ctx.harms == []


def test_dt_s4_a_melee_kill_credits_the_charger() -> None:
    s = state_of([unit("Brawler", "sword")], [unit("Target")])
    run = play(s, "red.0", "charge", {"hit.1": "6 1 1 1", "block.black.0": "3"})
    assert not run.state.unit("black.0").alive
    assert run.ctx.harms == [Harm("black.0", "red.0", damage=1, kills=1)]


# --- harm: Tough and Regeneration (DT §7) ------------------------------------------------


def test_dt_s7_tough_wound_markers_are_damage_the_third_a_kill() -> None:
    run = play(duel("tough"), "red.0", "hold", {"hit.1": "6 1", "block.black.0": "1",
                                                "morale.black.0": "6"})
    assert run.state.unit("black.0").wounds == 1
    assert run.ctx.harms == [Harm("black.0", "red.0", damage=1, kills=0)]
    run = play(run.state, "red.0", "hold", {"hit.1": "6 6", "block.black.0": "1 2"})
    assert not run.state.unit("black.0").alive
    assert run.ctx.harms == [Harm("black.0", "red.0", damage=2, kills=1)]


@pytest.mark.parametrize(("regen", "kills"), [("5", 0), ("4", 1)])
def test_dt_s7_regeneration_on_5_plus_undoes_the_kill_not_the_damage(regen: str,
                                                                        kills: int) -> None:
    answers = {"hit.1": "6 1", "block.black.0": "1", "regen.black.0": regen}
    if not kills:
        answers["morale.black.0"] = "6"
    run = play(duel("regeneration"), "red.0", "hold", answers)
    assert run.state.unit("black.0").alive == (not kills)
    assert run.ctx.harms == [Harm("black.0", "red.0", damage=1, kills=kills)]


# --- harm: reactions (DT §6, app reading 7) ------------------------------------------------


def test_dt_s6_a_shot_backs_leftover_success_is_the_reactors_kill() -> None:
    s = state_of([unit("Gunner", "rifle")], [unit("A", "pistol")])
    run = play(s, "red.0", "hold", {
        "react.black": "yes", "reactor.black.1": "black.0", "reaction.black.0": "shoot",
        "reaction.black.0.distance": 10,
        "hit.1": "1 1", "cancel.black.0": "5", "block.red.0.black.0": "2"})
    assert run.ctx.harms == [Harm("red.0", "black.0", damage=1, kills=1)]


def test_dt_s6_action_and_reaction_kill_each_other_each_credited() -> None:
    s = state_of([unit("Gunner", "rifle")], [unit("Target"), unit("Sniper", "pistol")])
    run = play(s, "red.0", "hold", {
        "split.black.0": 2, "react.black": "yes", "reactor.black.1": "black.1",
        "reaction.black.1": "shoot",
        "hit.1": "6 6", "block.black.0": "1 1", "hit.2": "6", "block.red.0.black.1": "1"})
    assert run.ctx.harms == [Harm("black.0", "red.0", damage=2, kills=1),
                             Harm("red.0", "black.1", damage=1, kills=1)]


def test_dt_s6_a_melee_reaction_wounding_the_actor_credits_the_reactor() -> None:
    s = state_of([unit("Hacker", rules=("hacker", "tough"))], [unit("Guard"), unit("Far")])
    engage(s, "red.0", "black.0")
    run = play(s, "red.0", "hack", {"target": "black.1", "react.black": "yes",
                                    "reactor.black.1": "black.0",
                                    "reaction.black.0": "melee", "hack.black.1": "2",
                                    "hit.1": "5", "block.red.0.black.0": "1",
                                    "morale.red.0.reactions": "6"})
    assert run.ctx.harms == [Harm("red.0", "black.0", damage=1, kills=0)]


def test_dt_s6_a_dodge_cancelling_every_success_leaves_no_harm() -> None:
    run = play(duel(), "red.0", "hold", {"react.black": "yes", "reactor.black.1": "black.0",
                                         "reaction.black.0": "dodge",
                                         "hit.1": "6 1", "cancel.black.0": "5 1"})
    assert run.ctx.harms == []


# --- harm: grenades (DT §7, app reading 12) ------------------------------------------------


def test_dt_s7_frag_harm_is_the_throwers_friends_included() -> None:
    s = state_of([unit("Thrower", rules=("grenade",)), unit("Friend")],
                 [unit("A"), unit("B")])
    run = play(s, "red.0", "hold", {
        "weapon": "grenade", "grenade": "frag", "target": "black.0", "throw": "6 2",
        "blast.1": "black.0", "blast.2": "black.1", "blast.3": "red.1", "blast.4": "none",
        "block.black.0": "1", "block.black.1": "5", "morale.black.1": "5",
        "block.red.1": "2"})
    assert run.ctx.harms == [Harm("black.0", "red.0", damage=1, kills=1),
                             Harm("red.1", "red.0", damage=1, kills=1)]


# --- harm: poison (DT §7, app reading 9) ---------------------------------------------------


def test_dt_s7_a_poison_gear_hit_remembers_its_first_poisoner() -> None:
    s = state_of([unit("Cutter", "knife", rules=("poison-gear",), poison="melee"),
                  unit("Biter", "knife", rules=("poison-gear",), poison="melee")],
                 [unit("Target")])
    answers = {"hit.1": "6 1", "block.black.0": "6", "morale.black.0": "6"}
    run = play(s, "red.0", "charge", answers)
    assert run.state.unit("black.0").poisoned_by == "red.0" and run.ctx.harms == []
    run = play(run.state, "red.1", "charge", answers)
    assert run.state.unit("black.0").poisoned_by == "red.0"  # DT §7: it does not stack


@pytest.mark.parametrize(("by", "credited"), [("red.0", "red.0"), ("", None)])
def test_dt_s7_a_poison_death_is_the_poisoners_kill_if_known(by: str,
                                                             credited: str | None) -> None:
    run = cure(poisoned(by=by), "2")
    assert not run.state.unit("black.0").alive
    assert run.ctx.harms == [Harm("black.0", credited, damage=1, kills=1)]
    assert run.state.unit("black.0").poisoned_by == ""


def test_dt_s7_a_cured_poison_records_nothing_and_forgets_the_poisoner() -> None:
    run = cure(poisoned(), "3")
    target = run.state.unit("black.0")
    assert run.ctx.harms == [] and not target.poisoned and target.poisoned_by == ""


def test_dt_s7_regeneration_against_poison_keeps_the_poisoner_no_kill() -> None:
    run = cure(poisoned(("regeneration",)), "1", **{"regen.black.0": "6"})
    target = run.state.unit("black.0")
    assert target.alive and target.poisoned_by == "red.0"
    assert run.ctx.harms == [Harm("black.0", "red.0", damage=1, kills=0)]


def test_dt_s7_a_poison_death_in_a_game_is_the_poisoners_kill_in_the_report() -> None:
    """A Cutter's poisoned knife (DT §7) leaves Ash alive; Ash dies of it when it next
    acts (app reading 9), the game's only kill, credited to the Cutter."""
    g = ready_game(force("Reds", force_unit("Cutter", ("knife",), ("poison-gear",),
                                            "melee")),
                   force("Blacks", force_unit("Ash")))
    act(g, {"type": "act", "unit": "red.0", "action": "charge"},
        {"hit.1": "6 1", "block.black.0": "6", "morale.black.0": "6"})
    act(g, {"type": "act", "unit": "black.0", "action": "hold"}, {"poison.black.0": "2"})
    report = build_report(g)
    assert report.over
    tallies = {u.id: (u.kills, u.damage_dealt, u.damage_taken, u.figures_lost, u.gone)
               for u in report.units}
    assert tallies == {"red.0": (1, 1, 0, 0, False), "black.0": (0, 0, 1, 1, True)}


# --- dice luck (DT §1, DT-R1, DT §7) ---------------------------------------------------------


def judged(step: DiceRequest, faces: str, side: str, p: float) -> None:
    """``step`` judged on ``faces``: more successes better for ``side``, exactly ``p``."""
    roll = judge(step, Dice(faces=tuple(int(f) for f in faces.split())), 1)
    assert roll is not None
    assert (roll.measure, roll.more, roll.side) == (SUCCESSES, True, side)
    assert roll.p_at_least == pytest.approx(p)


def test_dt_s4_hit_block_and_morale_tests_are_judged_for_their_roller() -> None:
    """Rifle at 12": 2 hit tests at 4+ both succeeding is 1/4; one block at 4+ is
    1/2 (Black's); a morale success 1/2 (Black's)."""
    run = play(duel(), "red.0", "hold", {"hit.1": "6 5", "block.black.0": "6 1"})
    judged(run.step("hit.1"), "6 5", "red", 1 / 4)
    judged(run.step("block.black.0"), "6 1", "black", 3 / 4)
    run = play(duel(), "red.0", "hold", {"hit.1": "6 1", "block.black.0": "5",
                                         "morale.black.0": "4"})
    judged(run.step("block.black.0"), "5", "black", 1 / 2)
    judged(run.step("morale.black.0"), "4", "black", 1 / 2)


def test_dt_r1_a_7_plus_tests_first_and_second_dice_are_both_judged() -> None:
    """Flashed (-2) at a target in cover (-1): 7+, a 6 then a 4+ (DT-R1): two sixes
    on 2 dice is 1/36; one 4+ of the 2 second dice is 3/4."""
    s = duel()
    s.unit("red.0").flashed_until = "black"
    run = play(s, "red.0", "hold", {"cover.black.0": "yes", "hit.1": "6 6",
                                    "hit.1.second": "5 2", "block.black.0": "1"})
    judged(run.step("hit.1"), "6 6", "red", 1 / 36)
    judged(run.step("hit.1.second"), "5 2", "red", 3 / 4)


def test_dt_s6_dodge_and_shot_back_cancel_tests_are_the_reactors() -> None:
    run = play(duel(), "red.0", "hold", {"react.black": "yes", "reactor.black.1": "black.0",
                                         "reaction.black.0": "dodge",
                                         "hit.1": "6 1", "cancel.black.0": "5 1"})
    judged(run.step("cancel.black.0"), "5 1", "black", 3 / 4)


def test_dt_s7_regeneration_poison_and_hack_dice_are_judged_for_their_roller() -> None:
    """Regeneration 5+ is 1/3, a poison cure 3+ 2/3, a hack 4+ 1/2 (DT §7)."""
    run = play(duel("regeneration"), "red.0", "hold", {
        "hit.1": "6 1", "block.black.0": "1", "regen.black.0": "5", "morale.black.0": "6"})
    judged(run.step("regen.black.0"), "5", "black", 1 / 3)
    judged(cure(poisoned(), "3").step("poison.black.0"), "3", "black", 2 / 3)
    s = state_of([unit("Hacker", rules=("hacker",))], [unit("A", "pistol")])
    judged(play(s, "red.0", "hack", {"hack.black.0": "4"}).step("hack.black.0"), "4",
           "red", 1 / 2)


def test_dt_s7_detect_and_grenade_throws_are_judged_for_their_roller() -> None:
    s = state_of([unit("Seeker")], [unit("Hidden", rules=("camouflage",))])
    run = play(s, "red.0", "detect", {"detect.black.0": "6"})
    judged(run.step("detect.black.0"), "6", "red", 1 / 2)
    s = state_of([unit("Thrower", rules=("grenade",))], [unit("A")])
    run = play(s, "red.0", "hold", {"weapon": "grenade", "grenade": "smoke", "throw": "1 1"})
    judged(run.step("throw"), "1 1", "red", 1.0)


def test_dt_s2_the_markers_roll_is_not_judged() -> None:
    """The D3 markers die places markers for both sides (DT §2, app reading 3)."""
    g = new_game(force("Reds", force_unit("Vey")), force("Blacks", force_unit("Ash")))
    act(g, {"type": "rolloff"}, {"rolloff.1.red": "6", "rolloff.1.black": "1"})
    act(g, {"type": "deploy"})
    step = g.begin({"type": "markers"}).resolution.step
    assert isinstance(step, DiceRequest) and step.key == "markers"
    assert judge(step, Dice(faces=(6,)), 1) is None


# --- the golden game ---------------------------------------------------------------------


def test_dt_golden_game_report_matches_its_final_state() -> None:
    """Every model that died was recorded lost once (DT has no morale losses), each
    side's kills are the other side's losses to enemy units, and both sides rolled
    judged dice."""
    game = play_once(script).played.game
    report = build_report(game)
    state = game.state
    tallies = {u.id: u for u in report.units}
    assert {i: t.figures_lost for i, t in tallies.items()} == {
        u.id: int(not u.alive) for u in state.all_units()}
    assert any(t.figures_lost for t in tallies.values())
    harms = [h for _, res in game.replay(game.events()) for h in res.ctx.harms]
    for side, other in (("red", "black"), ("black", "red")):
        kills = sum(t.kills for t in tallies.values() if t.side == side)
        lost = sum(h.kills for h in harms if h.by is not None and h.to.startswith(f"{other}."))
        assert kills == lost > 0
        assert report.luck[side].rolls > 0

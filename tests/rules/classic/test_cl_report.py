"""Deathzap Classic in the end-of-game report: the harm each resolution records
(shooting damage when the saves fail and kills when the casualties come off, CL §5,
CL-R2; melee hits pooled per figure type and credited by share, CL §6) and how each
kind of roll is judged for dice luck (CL §3-§7), then the golden game's tallies."""

from __future__ import annotations

from typing import Any

import pytest
from cl_combat_fixtures import Run, drive, engage, state_of, unit
from cl_fixtures import act, face, force, impetus, new_game, setup
from cl_fixtures import unit as game_unit
from golden_games import play_once
from test_cl_golden import script
from test_cl_morale import morale_state

from deathzap_tui.rules.classic.combat import end_of_shooting, fight, shoot
from deathzap_tui.rules.classic.morale import morale_phase
from deathzap_tui.rules.classic.state import State
from deathzap_tui.rules.luck import RollLuck, judge
from deathzap_tui.rules.report import build_report
from deathzap_tui.rules.steps import (
    ROLL,
    SUCCESSES,
    TOTAL,
    Dice,
    DiceRequest,
    Harm,
    Maker,
    Resolution,
)


def shooter(name: str) -> Maker:
    return lambda ctx: shoot(ctx, name)


def fighting(name: str = "red.0") -> Maker:
    return lambda ctx: fight(ctx, name)


def faces(*values: int) -> str:
    return " ".join(str(v) for v in values)


def luck(step: Any, *dice: int) -> RollLuck | None:
    """The luck of ``step`` (a real step of the engine) rolled as ``dice``."""
    assert isinstance(step, DiceRequest)
    return judge(step, Dice(faces=dice), 1)


# --- harm: shooting (CL §5, CL-R2, CL-R3) ------------------------------------------


def two_shooters_at_one() -> tuple[Run, Run]:
    """Red Alpha (4 Basic) then Red Bravo (3 Basic) fire at Black Xray (6 infantry,
    save 4+ against Basic) in the open: 2, then 3 failed saves."""
    s = state_of([unit("Alpha", n=4), unit("Bravo", n=3)], [unit("Xray", n=6)])
    alpha = drive(s, shooter("red.0"), {"fire.1.hit": faces(6, 6, 6, 6),
                                        "fire.1.save": faces(1, 1, 6, 6)})
    bravo = drive(alpha.state, shooter("red.1"), {"fire.1.hit": faces(6, 6, 6),
                                                  "fire.1.save": faces(1, 1, 1)})
    return alpha, bravo


def test_shooting_damage_is_credited_to_the_shooter_when_the_saves_fail_cl_s5() -> None:
    alpha, bravo = two_shooters_at_one()
    assert alpha.ctx.harms == [Harm("black.0", "red.0", damage=2)]
    assert bravo.ctx.harms == [Harm("black.0", "red.1", damage=3)]
    assert bravo.state.unit("black.0").pending_by == ["red.0"] * 2 + ["red.1"] * 3


def test_pending_casualties_are_kills_for_the_units_that_shot_them_cl_r2() -> None:
    _, bravo = two_shooters_at_one()
    end = drive(bravo.state, end_of_shooting, dice=ROLL)
    assert end.ctx.harms == [Harm("black.0", "red.0", kills=2),
                             Harm("black.0", "red.1", kills=3)]
    assert end.state.unit("black.0").pending_by == []
    assert end.state.unit("black.0").figures_left == 1


def test_failed_saves_beyond_the_figures_are_damage_but_not_kills_cl_r2() -> None:
    """Heavy against infantry has no save (CL-R3): 5 hits on 2 figures are 5 points of
    damage, 2 casualties; a second unit firing at it wastes its shots, no harm."""
    s = state_of([unit("Guns", "infantry", 5, "heavy"), unit("Second", n=3)],
                 [unit("Pair", n=2)])
    guns = drive(s, shooter("red.0"), {"fire.1.hit": faces(6, 6, 6, 6, 6)})
    assert guns.ctx.harms == [Harm("black.0", "red.0", damage=5)]
    wasted = drive(guns.state, shooter("red.1"))
    assert wasted.ctx.harms == []
    end = drive(wasted.state, end_of_shooting)
    assert end.ctx.harms == [Harm("black.0", "red.0", kills=2)]


def test_hits_a_target_is_safe_from_do_no_harm_cl_r3() -> None:
    s = state_of([unit("Squad", n=4)], [unit("Tank", "vehicles", 1)])
    run = drive(s, shooter("red.0"), {"fire.1.hit": faces(6, 6, 6, 6)})
    assert "safe" in run.text and run.ctx.harms == []


def test_a_pending_casualty_with_no_recorded_shooter_is_nobodys_cl_r2() -> None:
    s = state_of([unit("Squad", n=3)], [unit("Xray", n=4)])
    s.unit("black.0").pending = 1  # a state built by hand: no pending_by
    end = drive(s, end_of_shooting, dice=ROLL)
    assert end.ctx.harms == [Harm("black.0", None, kills=1)]


# --- harm: melee (CL §6) -----------------------------------------------------------


def test_one_on_one_melee_each_unit_kills_the_other_cl_s6() -> None:
    """Red 4 infantry roll 24 pips / 6 = 4 hits, Black 6 infantry roll 6 pips = 1 hit;
    infantry save 6+ (CL §2): Black fails 3, Red fails 1."""
    s = state_of([unit("Red Band", n=4)], [unit("Black Band", n=6)], step="melee")
    engage(s, "red.0", "black.0")
    run = drive(s, fighting(), {"melee.red.1": faces(6, 6, 6, 6),
                                "melee.black.1": faces(1, 1, 1, 1, 1, 1),
                                "save.black.infantry": faces(1, 1, 1, 6),
                                "save.red.infantry": faces(1)}, dice=ROLL)
    assert run.ctx.harms == [Harm("red.0", "black.0", damage=1, kills=1),
                             Harm("black.0", "red.0", damage=3, kills=3)]


def pooled_melee(red: list[Any], red_dice: dict[str, str], hits: int) -> Run:
    """Red's ``red`` units all in melee with Black Xray (5 infantry), which rolls only
    ones (5 pips: no hit) and fails all ``hits`` saves (CL §6)."""
    s = state_of(red, [unit("Xray", n=5)], step="melee")
    for i in range(len(red)):
        engage(s, f"red.{i}", "black.0")
    return drive(s, fighting(), {**red_dice, "melee.black.1": faces(*[1] * 5),
                                 "save.black.infantry": faces(*[1] * hits)}, dice=ROLL)


def test_a_type_groups_hits_are_shared_by_its_units_figures_cl_s6() -> None:
    """Alpha (4) and Bravo (2) infantry total their pips together (CL §6): 31 / 6 = 5
    hits, shared 4 : 2 (10/3 and 5/3), dealt Alpha, Bravo, Alpha, Alpha, Bravo."""
    run = pooled_melee([unit("Alpha", n=4), unit("Bravo", n=2)],
                       {"melee.red.1": faces(6, 6, 6, 6, 6, 1)}, 5)
    assert run.step("melee.red.1").count == 6  # one pool for both units
    assert run.ctx.harms == [Harm("black.0", "red.0", damage=3, kills=3),
                             Harm("black.0", "red.1", damage=2, kills=2)]


def test_hits_are_credited_to_the_group_that_scored_them_cl_s6_s2() -> None:
    """Bravo is panicked: its figures roll in a group of their own (CL §2), which
    scores nothing; every kill is Alpha's though Bravo has figures in the melee."""
    red = [unit("Alpha", n=4), unit("Bravo", n=2)]
    s = state_of(red, [unit("Xray", n=5)], step="melee")
    s.unit("red.1").panicked = True
    for uid in ("red.0", "red.1"):
        engage(s, uid, "black.0")
    run = drive(s, fighting(), {"melee.red.1": faces(6, 6, 6, 6), "melee.red.2": faces(1, 1),
                                "melee.black.1": faces(*[1] * 5),
                                "save.black.infantry": faces(1, 1, 1, 1)}, dice=ROLL)
    assert "Panicked figures" in run.step("melee.red.2").purpose
    assert run.ctx.harms == [Harm("black.0", "red.0", damage=4, kills=4)]


def test_melee_failed_saves_beyond_the_figures_are_damage_not_kills_cl_s6() -> None:
    s = state_of([unit("Alpha", n=6)], [unit("Pair", n=2)], step="melee")
    engage(s, "red.0", "black.0")
    run = drive(s, fighting(), {"melee.red.1": faces(*[6] * 6), "melee.black.1": faces(1, 1),
                                "save.black.infantry": faces(*[1] * 6)})
    assert "wiped out" in run.text
    assert run.ctx.harms == [Harm("black.0", "red.0", damage=6, kills=2)]


def test_casualties_the_owner_places_are_harm_to_the_unit_chosen_cl_s6() -> None:
    """Two Black infantry units share Red's 3 hits (the owner picks the unit of each
    casualty, CL §6): the harm follows the figures removed."""
    s = state_of([unit("Alpha", n=3)], [unit("Xray", n=3), unit("Yankee", n=2)],
                 step="melee")
    engage(s, "red.0", "black.0")
    engage(s, "red.0", "black.1")
    run = drive(s, fighting(), {"melee.red.1": faces(6, 6, 6),
                                "melee.black.1": faces(*[1] * 5),
                                "save.black.infantry": faces(1, 1, 1),
                                "casualty.black.infantry.1.unit": "black.1",
                                "casualty.black.infantry.2.unit": "black.0",
                                "casualty.black.infantry.3.unit": "black.1"}, dice=ROLL)
    assert run.ctx.harms == [Harm("black.1", "red.0", damage=2, kills=2),
                             Harm("black.0", "red.0", damage=1, kills=1)]


def test_merges_and_morale_are_not_harm_cl_s4_s7() -> None:
    res = Resolution(morale_state(), morale_phase)
    while not res.done:
        res.answer(face(1))
    assert res.ctx.harms == []
    g = merging_game()
    act(g, {"type": "merge", "unit": "red.1", "into": "red.0"},
        {"merge.panicked": face(6), "merge.steady": face(1)})
    assert sum(u.figures_lost for u in build_report(g).units) == 0


# --- dice luck (CL §3-§7) ----------------------------------------------------------


def merging_game() -> Any:
    """Red Alpha (5 infantry) and Lone (1 infantry, always panicked) in the movement
    phase of turn 1, Red moving."""
    red = force("Reds", game_unit("Alpha", 5, general=True), game_unit("Lone", 1))
    black = force("Blacks", game_unit("Xray", 5, general=True))
    g = setup(new_game(red, black, options={"game": "basic"}))
    impetus(g)
    return g


def test_impetus_higher_total_is_better_cl_s3() -> None:
    g = setup(new_game(options={"game": "basic"}))
    seen = act(g, {"type": "next"}, {"impetus.1.red": face(5), "impetus.1.black": face(2),
                                      "order": "movement,shooting,melee"})
    red = luck(seen[0], 5)
    assert red is not None and (red.side, red.measure, red.more) == ("red", TOTAL, True)
    assert red.p_at_least == pytest.approx(2 / 6)  # a 5 or a 6
    assert luck(seen[1], 2).side == "black"


def test_shooting_to_hit_and_saves_count_successes_cl_s5() -> None:
    s = state_of([unit("Squad", n=3)], [unit("Xray", n=6)])
    run = drive(s, shooter("red.0"), {"fire.1.hit": faces(6, 5, 4),
                                      "fire.1.save": faces(4, 4, 4)})
    hit = luck(run.step("fire.1.hit"), 6, 5, 4)
    assert hit is not None and (hit.side, hit.measure, hit.more) == ("red", SUCCESSES, True)
    assert hit.p_at_least == pytest.approx(1 / 8)  # 3 dice at 4+ all succeeding
    save = luck(run.step("fire.1.save"), 4, 4, 4)
    assert save is not None and (save.side, save.measure, save.more) == ("black", SUCCESSES,
                                                                         True)


def test_suppression_left_die_high_and_killed_die_low_are_good_cl_s5() -> None:
    s = state_of([unit("Squad", n=3)], [unit("Xray", n=4)])
    s.unit("black.0").pending = 1
    run = drive(s, end_of_shooting, {"suppression.black.0.left": "2",
                                     "suppression.black.0.killed": "2"})
    left = luck(run.step("suppression.black.0.left"), 2)
    killed = luck(run.step("suppression.black.0.killed"), 2)
    assert left is not None and killed is not None
    assert (left.side, left.measure, left.more) == ("black", TOTAL, True)
    assert (killed.side, killed.measure, killed.more) == ("black", TOTAL, False)
    assert left.p_at_least == pytest.approx(5 / 6)  # 2 or more
    assert killed.p_at_least == pytest.approx(2 / 6)  # 2 or less


def test_melee_dice_and_the_end_roll_higher_totals_are_better_cl_s6_r4() -> None:
    s = state_of([unit("Red Band", n=2)], [unit("Black Band", n=5)], step="melee")
    engage(s, "red.0", "black.0")
    run = drive(s, fighting(), {"melee.red.1": faces(6, 5), "melee.black.1": faces(*[1] * 5),
                                "save.black.infantry": faces(6), "end.1.red": "4",
                                "end.1.black": "1"})
    melee = luck(run.step("melee.red.1"), 6, 5)
    assert melee is not None and (melee.side, melee.measure, melee.more) == ("red", TOTAL,
                                                                             True)
    assert melee.p_at_least == pytest.approx(3 / 36)  # 11 or 12 on two dice
    end = luck(run.step("end.1.black"), 1)
    assert end is not None and (end.side, end.measure, end.more) == ("black", TOTAL, True)
    assert end.p_at_least == pytest.approx(1.0)


def test_rally_dice_are_good_for_the_side_when_the_unit_ends_steady_cl_s4() -> None:
    seen = act(merging_game(), {"type": "merge", "unit": "red.1", "into": "red.0"},
               {"merge.panicked": face(1), "merge.steady": face(6)})
    panicked, steady = (luck(step, f) for step, f in zip(seen, (1, 6), strict=True))
    assert panicked is not None and steady is not None
    assert (panicked.side, panicked.measure, panicked.more) == ("red", TOTAL, False)
    assert (steady.side, steady.measure, steady.more) == ("red", TOTAL, True)
    assert panicked.p_at_least == steady.p_at_least == pytest.approx(1 / 6)


def test_morale_test_is_a_4_plus_success_a_lone_figures_distance_is_not_judged_cl_s7() -> None:
    res = Resolution(morale_state(), morale_phase)
    steps: dict[str, DiceRequest] = {}
    while not res.done:
        assert isinstance(res.step, DiceRequest)
        steps[res.step.key] = res.step
        res.answer(face(4))
    test = luck(steps["morale.red.0"], 4)
    assert test is not None and (test.side, test.measure, test.more) == ("red", SUCCESSES, True)
    assert test.p_at_least == pytest.approx(1 / 2)  # exactly the chance to recover (4+)
    assert luck(steps["morale.red.0"], 6).p_at_least == pytest.approx(1 / 2)  # no better
    assert luck(steps["morale.red.0"], 3).p_at_least == pytest.approx(1)  # a fail is a fail
    assert luck(steps["morale.red.2"], 4) is None  # Lone: a fall-back distance only


def test_objective_tables_are_not_judged_cl_s8() -> None:
    g = setup(new_game(options={"game": "advanced"}))
    seen = act(g, {"type": "next"}, {"impetus.1.red": face(5), "impetus.1.black": face(2),
                                      "objective.1": face(1), "objective.2": face(6),
                                      "order": "movement,shooting,melee"})
    objectives = [s for s in seen if s.key.startswith("objective.")]
    assert len(objectives) == 2
    assert all(s.side is None and luck(s, 6) is None for s in objectives)


# --- the golden game ---------------------------------------------------------------


def test_golden_game_tallies_agree_with_the_final_state() -> None:
    game = play_once(script).played.game
    state: State = game.state
    report = build_report(game)
    units = {u.id: u for u in report.units}
    for u in state.all_units():
        casualties = sum(1 for f in u.figures if not f.alive and not f.moved_to)
        assert units[u.id].figures_lost == casualties, u.id
        assert units[u.id].damage_taken >= casualties, u.id
    harms = [h for _, res in game.replay(game.events()) for h in res.ctx.harms]
    assert harms and all(h.by is not None for h in harms)
    for side, enemy in (("red", "black"), ("black", "red")):
        kills = sum(u.kills for u in report.units if u.side == side)
        lost = sum(h.kills for h in harms if h.to.startswith(enemy) and h.by is not None)
        assert kills == lost == state.killed[side]  # victory.casualty's count (CL §8)
        assert report.luck[side].rolls > 0
    assert sum(u.damage_dealt for u in report.units) == sum(h.damage for h in harms)

"""Deathzap Classic casualties, objectives and the end of the game (CL §8)."""

from __future__ import annotations

from typing import Any

import pytest
from cl_fixtures import (
    act,
    face,
    force,
    impetus,
    new_game,
    next_phase,
    notes,
    ready_game,
    setup,
    unit,
)

from deathzap_tui.rules.classic import RULESET
from deathzap_tui.rules.classic.state import State
from deathzap_tui.rules.classic.victory import (
    casualty,
    check_victory,
    end_by_agreement,
    end_of_turn,
)
from deathzap_tui.rules.ruleset import END
from deathzap_tui.rules.steps import Context, Dice, DiceRequest, Refused, Resolution


def battle_state(objectives: list[str], game: str = "advanced") -> State:
    """Red: Alpha (5 infantry, general Alpha 1), Tank (1 vehicle); worth 10.
    Black: Xray (5 infantry), Yankee (5 infantry, general Yankee 1), Beast (1
    monster); worth 15."""
    red = force("Reds", unit("Alpha", 5, general=True), unit("Tank", 1, "vehicles"))
    black = force("Blacks", unit("Xray", 5), unit("Yankee", 5, general=True),
                  unit("Beast", 1, "monsters"))
    s = new_game(red, black, options={"game": game}).state
    s.stage, s.turn, s.objectives = "battle", 1, list(objectives)
    s.edges = {"red": "south", "black": "north"}
    return s


def said(ctx: Context) -> list[str]:
    return [n.text for n in ctx.notes]


def test_a_casualty_counts_kills_and_narrates_cl_8() -> None:
    ctx = Context(battle_state([]))
    casualty(ctx, "black.0.4", "red")
    casualty(ctx, "black.2.0", "red")
    s = ctx.state
    assert not s.figure("black.0.4")[1].alive
    assert (s.killed["red"], s.killed_worth["red"], s.killed_big["red"]) == (2, 6, 1)
    assert s.vp == {"red": 0, "black": 0}
    assert said(ctx) == ["Black Xray loses Xray 5: 4 figures left.",
                         "Black Beast loses Beast 1.", "Black Beast is wiped out."]


def test_a_wiped_out_unit_leaves_every_melee() -> None:
    ctx = Context(battle_state([]))
    s = ctx.state
    s.unit("red.1").engaged = ["black.2"]
    s.unit("black.2").engaged = ["red.1"]
    s.unit("red.0").engaged = ["black.0"]
    s.unit("black.0").engaged = ["red.0"]
    casualty(ctx, "red.1.0", "black")
    assert s.unit("black.2").engaged == [] and s.unit("red.1").engaged == []
    assert s.unit("red.0").engaged == ["black.0"]
    assert not s.unit("red.1").in_play


def test_assassinate_scores_the_enemy_general_cl_8() -> None:
    ctx = Context(battle_state(["assassinate", "hold"]))
    casualty(ctx, "black.1.1", "red")
    assert ctx.state.vp["red"] == 0
    casualty(ctx, "black.1.0", "red")
    assert ctx.state.vp == {"red": 3, "black": 0}
    assert "Assassinate" in ctx.state.score[0].reason


def test_assassinate_needs_the_objective_cl_8() -> None:
    ctx = Context(battle_state(["extermination", "hold"]))
    casualty(ctx, "black.1.0", "red")
    assert ctx.state.vp["red"] == 0


def test_hard_hitters_scores_the_first_side_to_half_the_enemy_worth_cl_8() -> None:
    s = battle_state(["hard-hitters", "push"])
    assert s.worth == {"red": 10, "black": 15}
    ctx = Context(s)
    casualty(ctx, "red.1.0", "black")  # the tank is worth 5: half of Red's 10
    assert ctx.state.hard_hitters == "black" and ctx.state.vp["black"] == 3
    later = Context(ctx.state)
    for i in range(5):
        casualty(later, f"black.0.{i}", "red")
    casualty(later, "black.1.0", "red")
    casualty(later, "black.1.1", "red")
    s = later.state
    assert s.killed_worth["red"] == 7 and s.vp["red"] == 0
    casualty(later, "black.1.2", "red")  # 8 of 15: half, but Black was first
    assert s.vp == {"red": 0, "black": 3}


def test_hard_hitters_both_score_when_they_reach_half_together_cl_8() -> None:
    s = battle_state(["hard-hitters", "push"])
    ctx = Context(s)
    for i in range(5):
        casualty(ctx, f"black.0.{i}", "red")
    casualty(ctx, "black.1.0", "red")
    casualty(ctx, "black.1.1", "red")
    casualty(ctx, "red.1.0", "black")
    casualty(ctx, "black.1.2", "red")
    assert s.vp == {"red": 3, "black": 3}
    assert any("both score Hard Hitters" in t for t in said(ctx))


def test_extermination_one_vp_per_five_figures_or_per_big_one_cl_8() -> None:
    s = battle_state(["extermination", "hold"])
    ctx = Context(s)
    for i in range(4):
        casualty(ctx, f"black.0.{i}", "red")
    assert s.vp["red"] == 0
    casualty(ctx, "black.2.0", "red")  # the monster: 1 VP, not one of the five
    assert s.vp["red"] == 1
    casualty(ctx, "black.0.4", "red")
    assert s.vp["red"] == 2
    for i in range(4):
        casualty(ctx, f"black.1.{i}", "red")
    assert s.vp["red"] == 2
    casualty(ctx, "red.1.0", "black")
    assert s.vp["black"] == 1


def finish(state: State, make: Any, answers: dict[str, Any]) -> tuple[State, list[str]]:
    res = Resolution(state, make)
    while not res.done:
        res.answer(answers[res.step.key])
    return res.ctx.state, [n.text for n in res.ctx.notes]


def test_basic_game_a_side_whose_enemy_is_all_panicked_wins_cl_8() -> None:
    s = battle_state([], "basic")
    s.unit("black.0").panicked = s.unit("black.1").panicked = True
    s.unit("black.2").panicked = True
    after, text = finish(s, check_victory, {})
    assert after.over and after.winner == "red"
    assert text == ["Game over: Black has no unit in play that is not panicked: Red wins "
                    "(CL §8)."]


def test_basic_game_both_beaten_is_a_draw_and_otherwise_play_goes_on_cl_8() -> None:
    s = battle_state([], "basic")
    after, _ = finish(s, check_victory, {})
    assert not after.over
    for u in s.all_units():
        u.panicked = True
    after, text = finish(s, check_victory, {})
    assert after.over and after.winner == "draw"
    assert text == ["Game over: neither side has a unit in play that is not panicked: a "
                    "draw (CL §8)."]


def test_basic_game_is_not_decided_at_the_end_of_the_turn_but_at_once_cl_8() -> None:
    """CL §8 "only panicked units" is checked the moment it happens (after shooting,
    a melee, a merge), not at the end of the turn: ``end_of_turn`` is the advanced
    game's turn limit only."""
    s = battle_state([], "basic")
    for u in s.units["black"]:
        u.panicked = True
    s.turn = 6
    after, text = finish(s, end_of_turn, {})
    assert not after.over and text == []


def test_a_side_with_no_unit_in_play_loses_at_once_in_any_game_cl_8() -> None:
    s = battle_state([], "basic")
    for u in s.units["red"]:
        for f in u.figures:
            f.alive = False
    after, text = finish(s, check_victory, {})
    assert after.over and after.winner == "black"
    assert text == ["Game over: Red has no unit left in play: Black wins (CL §8)."]


def test_the_advanced_game_ends_when_a_side_has_no_unit_left_not_when_all_panicked() -> None:
    """CL §8 (lead's ruling): the advanced game ends when a side has no unit left,
    most VP winning; only panicked units do not end it."""
    s = battle_state(["extermination", "macguffin"])
    for u in s.units["black"]:
        u.panicked = True
    after, _ = finish(s, check_victory, {})
    assert not after.over
    for u in s.units["black"]:
        for f in u.figures:
            f.alive = False
    s.vp = {"red": 0, "black": 2}
    after, text = finish(s, check_victory, {})
    assert after.over and after.winner == "black"
    assert text == ["Game over: Black has no unit left in play. Final score Red 0 VP, "
                    "Black 2 VP: Black wins (CL §8)."]


def test_suppression_that_panics_the_last_steady_unit_wins_at_the_end_of_shooting_cl_5_cl_8(
        ) -> None:
    g = setup(new_game(force("Reds", unit("Alpha", 5)), force("Blacks", unit("Xray", 5)),
                       options={"game": "basic"}))
    impetus(g, red=6, black=1, order="shooting,movement,melee")
    act(g, {"type": "shoot", "unit": "red.0"},
        {"fire.1.hit": Dice(faces=(6, 6, 1, 1, 1)), "fire.1.save": Dice(faces=(1, 1))})
    act(g, {"type": "shoot", "unit": "black.0"},
        {"fire.1.hit": Dice(faces=(1,) * 5)})
    next_phase(g, {"suppression.black.0.left": face(1),
                   "suppression.black.0.killed": face(6)})
    assert g.state.over and g.state.winner == "red" and g.state.step == ""
    assert notes(g)[-2:] == [
        "Black Xray suppression: 1 x 3 left = 3 against 6 x 2 killed = 12: the unit is "
        "panicked (CL §5).",
        "Game over: Black has no unit in play that is not panicked: Red wins (CL §8)."]


def test_losing_a_melee_with_the_last_steady_unit_loses_the_basic_game_at_once_cl_6_cl_8(
        ) -> None:
    g = setup(new_game(force("Reds", unit("Alpha", 5), unit("Bravo", 5)),
                       force("Blacks", unit("Xray", 5)), options={"game": "basic"}))
    impetus(g, red=6, black=1, order="movement,melee,shooting")
    act(g, {"type": "engage", "unit": "red.0", "target": "black.0"})
    next_phase(g)
    next_phase(g)
    act(g, {"type": "fight", "unit": "red.0"},
        {"melee.red.1": Dice(faces=(1,) * 5), "melee.black.1": Dice(faces=(1,) * 5),
         "end.1.red": face(6), "end.1.black": face(1)})
    assert g.state.over and g.state.winner == "red"
    assert notes(g)[-1] == ("Game over: Black has no unit in play that is not panicked: "
                            "Red wins (CL §8).")


def test_advanced_game_ends_after_the_last_turn_asking_hold_and_push_cl_8() -> None:
    s = battle_state(["hard-hitters", "hold"])
    s.turn = 5
    after, _ = finish(s, end_of_turn, {})
    assert not after.over
    s.turn = 6
    s.vp = {"red": 0, "black": 3}
    after, text = finish(s, end_of_turn, {"hold.red": 4, "hold.black": 0})
    assert after.over and after.winner == "red" and after.vp == {"red": 4, "black": 3}
    assert text == ["Red scores 4 VP for Hold: 4 table quarters (CL §8) (Red 4, Black 3).",
                    "Hold: Black holds no table quarter (CL §8).",
                    "Game over: turn 6 of 6 is over. Final score Red 4 VP, Black 3 VP: "
                    "Red wins (CL §8)."]


def test_push_asks_only_about_living_generals_cl_8() -> None:
    s = battle_state(["assassinate", "push"])
    s.turn = 6
    s.figure("black.1.0")[1].alive = False
    res = Resolution(s, end_of_turn)
    assert res.step.key == "push.red" and res.step.side == "red"
    assert "Captain" not in res.step.prompt and "north edge" in res.step.prompt
    res.answer("yes")
    assert res.done
    after = res.ctx.state
    assert after.vp == {"red": 3, "black": 0} and after.winner == "red"


def test_end_by_agreement_in_the_basic_game_counts_steady_units() -> None:
    g = ready_game(options={"game": "basic"})
    impetus(g)
    end = [o for o in RULESET.intents(g.state) if o.group == END]
    assert [o.label for o in end] == [
        "End the game by agreement (more units in play and not panicked wins)"]
    act(g, {"type": "end"})
    assert g.state.over and g.state.winner == "draw"
    assert RULESET.intents(g.state) == []


def test_end_by_agreement_in_the_advanced_game_is_by_vp() -> None:
    s = battle_state(["hard-hitters", "hold"])
    after, text = finish(s, end_by_agreement, {"hold.red": 2, "hold.black": 0})
    assert after.winner == "red"
    assert "most VP wins" in text[-1]


def test_a_draw_on_equal_vp_cl_8() -> None:
    g = ready_game()
    impetus(g, objectives=(3, 1))
    act(g, {"type": "end"}, {"hold.red": 2, "hold.black": 2})
    assert g.state.winner == "draw"
    assert notes(g)[-1] == ("Game over: the players agree to end it (most VP wins, after "
                            "scoring the end-of-game objectives). Final score Red 2 VP, "
                            "Black 2 VP: a draw (CL §8).")


def test_objective_dice_pick_from_the_two_tables_for_both_sides_cl_8_cl_r5() -> None:
    for dice, expected in (((2, 2), ["assassinate", "hold"]),
                           ((4, 3), ["hard-hitters", "push"]),
                           ((6, 5), ["extermination", "macguffin"])):
        g = ready_game()
        impetus(g, objectives=dice)
        assert g.state.objectives == expected


@pytest.mark.parametrize("game", ["basic", "advanced"])
def test_objectives_only_in_the_advanced_game(game: str) -> None:
    g = ready_game(options={"game": game})
    steps = act(g, {"type": "next"}, {"impetus.1.red": face(6), "impetus.1.black": face(1),
                                      "objective.1": face(1), "objective.2": face(1)}
                if game == "advanced" else {"impetus.1.red": face(6),
                                            "impetus.1.black": face(1)})
    keys = [s.key for s in steps]
    assert ("objective.1" in keys) == (game == "advanced")
    assert keys.index("order") == len(keys) - 1


def test_a_melee_that_wipes_out_a_side_ends_the_game_at_once_cl_6_cl_8() -> None:
    g = setup(new_game(force("Reds", unit("Alpha", 5)), force("Blacks", unit("Xray", 2)),
                       options={"game": "basic"}))
    impetus(g, red=6, black=1, order="movement,melee,shooting")
    act(g, {"type": "engage", "unit": "red.0", "target": "black.0"})
    next_phase(g)
    next_phase(g)
    action = g.begin({"type": "fight", "unit": "red.0"})
    res = action.resolution
    while not res.done:
        step = res.step
        if isinstance(step, DiceRequest):
            res.answer(Dice(faces=(6 if step.side == "red" else 1,) * step.count))
        else:
            res.answer(step.default)
    g.commit(action)
    assert g.state.over and g.state.winner == "red"
    assert notes(g)[-1] == "Game over: Black has no unit left in play: Red wins (CL §8)."
    assert RULESET.intents(g.state) == []


def test_no_end_by_agreement_while_casualties_are_pending_cl_r2() -> None:
    g = setup(new_game(force("Reds", unit("Alpha", 5)), force("Blacks", unit("Xray", 5))))
    impetus(g, red=6, black=1, order="shooting,movement,melee")
    act(g, {"type": "shoot", "unit": "red.0"},
        {"fire.1.hit": Dice(faces=(6,) * 5), "fire.1.save": Dice(faces=(1,) * 5)})
    assert not any(o.group == END for o in RULESET.intents(g.state))
    with pytest.raises(Refused, match="casualties are waiting"):
        g.begin({"type": "end"})

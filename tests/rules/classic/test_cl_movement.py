"""Deathzap Classic movement phase (CL §4): hand-over, moving into contact, rallying
by merging, and the MacGuffin (CL §8)."""

from __future__ import annotations

import pytest
from cl_fixtures import act, face, force, impetus, new_game, notes, ready_game, setup, unit

from deathzap_tui.rules.classic import RULESET
from deathzap_tui.rules.ruleset import ADVANCE, UNIT
from deathzap_tui.rules.steps import Refused


def lone_game(**kw):
    """Red: Alpha (5 infantry), Lone (1 infantry: always panicked), Dogs (3 beasts),
    Pair (2 infantry). Black: Xray (5 infantry), Hounds (4 beasts)."""
    red = force("Reds", unit("Alpha", 5, general=True), unit("Lone", 1), unit("Dogs", 3,
                "beasts", ()), unit("Pair", 2))
    black = force("Blacks", unit("Xray", 5, general=True), unit("Hounds", 4, "beasts", ()))
    return setup(new_game(red, black, **kw))


def labels(g) -> list[str]:
    return [o.label for o in RULESET.intents(g.state)]


def test_the_impetus_side_moves_first_then_hands_over_cl_4() -> None:
    g = ready_game(options={"game": "basic"})
    impetus(g, red=2, black=5)
    s = g.state
    assert (s.step, s.impetus, s.mover) == ("movement", "black", "black")
    nxt = [o for o in RULESET.intents(s) if o.group == ADVANCE]
    assert [(o.label, o.side) for o in nxt] == [("Black has finished moving", "black")]
    with pytest.raises(Refused, match="only Black can say"):
        g.begin({"type": "next"}, by="red")
    act(g, {"type": "next"}, by="black")
    assert (g.state.step, g.state.mover) == ("movement", "red")
    assert notes(g) == ["Black has finished moving: Red moves (CL §4)."]
    act(g, {"type": "next"})
    assert (g.state.step, g.state.mover) == ("shooting", "")
    assert notes(g)[0] == "Red has finished moving (CL §4)."


def test_only_the_moving_side_moves_cl_4() -> None:
    g = ready_game(options={"game": "basic"})
    impetus(g)
    with pytest.raises(Refused, match="Red is moving now, not Black"):
        g.begin({"type": "engage", "unit": "black.0", "target": "red.0"})
    with pytest.raises(Refused, match="Red's move"):
        g.begin({"type": "engage", "unit": "red.0", "target": "black.0"}, by="black")
    assert all(o.side == "red" for o in RULESET.intents(g.state) if o.group == UNIT)


def test_engaging_locks_both_units_in_melee_cl_4_cl_6() -> None:
    g = ready_game(options={"game": "basic"})
    impetus(g)
    act(g, {"type": "engage", "unit": "red.0", "target": "black.0"}, {"also.1": "black.2"})
    s = g.state
    assert s.unit("red.0").engaged == ["black.0", "black.2"]
    assert s.unit("black.0").engaged == ["red.0"]
    assert s.unit("black.2").engaged == ["red.0"]
    assert "Red Alpha moves into contact with Black Xray and Black Hounds" in notes(g)[0]
    with pytest.raises(Refused, match="in melee and cannot move"):
        g.begin({"type": "engage", "unit": "red.0", "target": "black.1"})
    assert not any("Red Alpha:" in label for label in labels(g))


def test_engage_refusals_say_why_cl_4() -> None:
    g = lone_game(options={"game": "basic"})
    impetus(g)
    for intent, why in (
        ({"unit": "red.1", "target": "black.0"}, "panicked and may not move towards"),
        ({"unit": "red.0", "target": "red.3"}, "friendly unit"),
        ({"unit": "red.0", "target": "black.9"}, "no unit"),
        ({"unit": "red.9", "target": "black.0"}, "no unit"),
    ):
        with pytest.raises(Refused, match=why):
            g.begin({"type": "engage", **intent})
    assert not any(label.startswith("Red Lone: move into contact") for label in labels(g))


def test_units_move_only_in_the_movement_phase_cl_3() -> None:
    g = ready_game(options={"game": "basic"})
    impetus(g, order="shooting,movement,melee")
    assert g.state.step == "shooting"
    with pytest.raises(Refused, match="only in the movement phase"):
        g.begin({"type": "engage", "unit": "red.0", "target": "black.0"})


def test_merge_panicked_product_higher_leaves_the_unit_panicked_cl_4() -> None:
    g = lone_game(options={"game": "basic"})
    impetus(g)
    act(g, {"type": "merge", "unit": "red.1", "into": "red.0"},
        {"merge.panicked": face(6), "merge.steady": face(1)})
    s = g.state
    lone, alpha = s.unit("red.1"), s.unit("red.0")
    assert lone.merged_into == "red.0" and not lone.in_play
    assert alpha.figures_left == 6 and alpha.is_panicked
    assert alpha.figures[5].id == "red.0.5" and alpha.figures[5].name == "Lone 1"
    assert s.unit("red.1").figures[0].moved_to == "red.0.5"
    text = notes(g)
    assert text == ["Red Lone moves to join Red Alpha: rallying by merging (CL §4).",
                    "Red Lone rolls 6 x 1 = 6.", "Red Alpha rolls 1 x 5 = 5.",
                    "Red Alpha is now 6 figures: the panicked product is higher, the whole "
                    "unit is panicked (CL §4)."]


def test_merge_otherwise_nobody_is_panicked_ties_included_cl_4() -> None:
    g = lone_game(options={"game": "basic"})
    impetus(g)
    act(g, {"type": "merge", "unit": "red.0", "into": "red.1"},
        {"merge.panicked": face(5), "merge.steady": face(1)})  # 5 x 1 = 1 x 5: a tie
    s = g.state
    merged = s.unit("red.1")
    assert s.unit("red.0").merged_into == "red.1"
    assert merged.figures_left == 6 and not merged.is_panicked
    general = [f for f in merged.figures if f.general]
    assert [f.id for f in general] == ["red.1.1"] and general[0].alive


def test_merge_needs_same_type_a_panicked_unit_to_join_and_no_melee_cl_4() -> None:
    g = lone_game(options={"game": "basic"})
    impetus(g)
    for intent, why in (
        ({"unit": "red.2", "into": "red.1"}, "not of the same type"),
        ({"unit": "red.3", "into": "red.0"}, "neither Red Pair nor Red Alpha is panicked"),
        ({"unit": "red.0", "into": "red.0"}, "another friendly unit"),
        ({"unit": "red.0", "into": "black.0"}, "another friendly unit"),
    ):
        with pytest.raises(Refused, match=why):
            g.begin({"type": "merge", **intent})
    offered = {(o.intent["unit"], o.intent["into"]) for o in RULESET.intents(g.state)
               if o.intent["type"] == "merge"}
    assert offered == {("red.0", "red.1"), ("red.1", "red.0"), ("red.3", "red.1"),
                       ("red.1", "red.3")}
    act(g, {"type": "engage", "unit": "red.0", "target": "black.0"})
    with pytest.raises(Refused, match="in melee"):
        g.begin({"type": "merge", "unit": "red.1", "into": "red.0"})


def test_macguffin_scores_once_and_only_when_rolled_cl_8() -> None:
    g = ready_game()
    impetus(g, objectives=(1, 5))
    assert g.state.objectives == ["assassinate", "macguffin"]
    act(g, {"type": "macguffin", "unit": "red.1"})
    assert g.state.vp == {"red": 3, "black": 0}
    assert g.state.macguffin == "red"
    with pytest.raises(Refused, match="already carried"):
        g.begin({"type": "macguffin", "unit": "red.0"})
    assert not any("MacGuffin" in label for label in labels(g))


def test_macguffin_is_refused_without_the_objective_cl_8() -> None:
    g = ready_game()
    impetus(g, objectives=(1, 1))
    with pytest.raises(Refused, match="not one of this game's objectives"):
        g.begin({"type": "macguffin", "unit": "red.1"})


def test_a_panicked_unit_does_not_move_to_join_a_steady_one_cl_4() -> None:
    """CL §4: the NON-panicked unit moves into the panicked one; the intent's
    ``unit`` is the mover."""
    g = lone_game(options={"game": "basic"})
    g.state.unit("red.3").panicked = True  # Pair: panicked, not a lone figure
    impetus(g)
    with pytest.raises(Refused, match="Red Pair is panicked: to rally, a steady unit"):
        g.begin({"type": "merge", "unit": "red.3", "into": "red.0"})
    offered = {(o.intent["unit"], o.intent["into"]) for o in RULESET.intents(g.state)
               if o.intent["type"] == "merge"}
    assert ("red.0", "red.3") in offered and ("red.3", "red.0") not in offered
    assert ("red.3", "red.1") not in offered and ("red.1", "red.3") in offered
    act(g, {"type": "merge", "unit": "red.0", "into": "red.3"},
        {"merge.panicked": face(1), "merge.steady": face(1)})
    assert not g.state.unit("red.3").is_panicked and g.state.unit("red.3").figures_left == 7


def test_a_lone_figure_joins_a_panicked_unit_without_a_roll_and_it_stays_panicked() -> None:
    """App ruling (CL §4, §7): a lone figure may join a panicked unit of its type; no
    roll, the unit stays panicked, keeping the turn its panic began, and is no longer
    alone so it tests normally in a later morale phase."""
    g = lone_game(options={"game": "basic"})
    pair = g.state.unit("red.3")
    pair.panicked, pair.panicked_turn = True, 0
    impetus(g)
    action = g.begin({"type": "merge", "unit": "red.1", "into": "red.3"})
    assert action.resolution.done  # no roll
    pair = action.resolution.ctx.state.unit("red.3")
    assert pair.figures_left == 3 and pair.panicked and not pair.alone
    assert pair.panicked_turn == 0
    assert action.resolution.ctx.notes[-1].text == (
        "Red Pair is now 3 figures: a lone figure joining a panicked unit rolls nothing: "
        "the unit stays panicked (app ruling, CL §4, §7).")


def test_a_lone_figure_joining_a_steady_unit_rolls_as_the_panicked_side_cl_4() -> None:
    g = lone_game(options={"game": "basic"})
    impetus(g)
    seen = act(g, {"type": "merge", "unit": "red.1", "into": "red.3"},
               {"merge.panicked": face(6), "merge.steady": face(2)})
    assert [s.purpose for s in seen] == ["Rally: die for Red Lone (1 panicked figure)",
                                         "Rally: die for Red Pair (2 steady figures)"]
    pair = g.state.unit("red.3")
    assert pair.figures_left == 3 and pair.is_panicked  # 6 x 1 > 2 x 2


def test_a_merge_that_panics_the_last_steady_unit_wins_the_basic_game_cl_4_cl_8() -> None:
    red = force("Reds", unit("Alpha", 2, general=True), unit("Lone", 1))
    black = force("Blacks", unit("Xray", 5, general=True))
    g = setup(new_game(red, black, options={"game": "basic"}))
    impetus(g)
    act(g, {"type": "merge", "unit": "red.1", "into": "red.0"},
        {"merge.panicked": face(6), "merge.steady": face(1)})
    assert g.state.over and g.state.winner == "black"
    assert notes(g)[-1] == ("Game over: Red has no unit in play that is not panicked: "
                            "Black wins (CL §8).")

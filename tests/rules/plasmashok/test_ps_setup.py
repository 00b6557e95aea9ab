"""Deathzap Plasmashok set-up: the roll-off for base lines (PS §1), shared with
Classic (``rules/setup.base_line_rolloff``)."""

from __future__ import annotations

import pytest
from ps_fixtures import act, force, new_game, notes, unit

from deathzap_tui.rules.plasmashok import RULESET
from deathzap_tui.rules.ruleset import ADVANCE, SETUP
from deathzap_tui.rules.steps import Question, Refused


def game():
    return new_game(force("Reds", unit("Alpha")), force("Blacks", unit("Xray")))


def test_ps_rolloff_tie_rolls_again_and_the_winner_picks_its_edge_ps_s1() -> None:
    g = game()
    g.play({"type": "rolloff"}, ["3", "3", "2", "5", "north"])
    s = g.state
    assert s.first == "black" and s.edges == {"black": "north", "red": "south"}
    assert s.stage == "battle" and s.turn == 0 and s.step == ""
    assert notes(g) == [
        "Roll-off: Red rolled 3, Black rolled 3.",
        "A tie: roll again.",
        "Roll-off: Red rolled 2, Black rolled 5.",
        "Black's base line is the north edge, Red's the south edge. Black deploys first, "
        "then Red; every model starts within 6\" of its own edge (PS §1).",
        "Set-up done: roll off for movement to begin turn 1 (PS §3)."]


def test_ps_the_edge_question_goes_to_the_winner_ps_s1() -> None:
    g = game()
    seen = act(g, {"type": "rolloff"}, {"rolloff.1.red": "6", "rolloff.1.black": "1",
                                        "edge": "north"})
    assert [s.key for s in seen] == ["rolloff.1.red", "rolloff.1.black", "edge"]
    assert [s.side for s in seen] == ["red", "black", "red"]
    edge = seen[-1]
    assert isinstance(edge, Question) and edge.rule == "PS §1"
    assert [c.value for c in edge.choices] == ["north", "south"] and edge.default == "south"
    assert g.state.edges == {"red": "north", "black": "south"} and g.state.first == "red"


def test_ps_setup_comes_first_and_once_ps_s1() -> None:
    g = game()
    assert [(o.intent, o.group) for o in RULESET.intents(g.state)] == [
        ({"type": "rolloff"}, SETUP)]
    for intent in ({"type": "next"}, {"type": "shoot", "unit": "red.0"}, {"type": "end"}):
        with pytest.raises(Refused, match="finish the set-up first: roll off for base lines"):
            g.begin(intent)
    g.play({"type": "rolloff"}, ["6", "1", "south"])
    with pytest.raises(Refused, match="the roll-off is done"):
        g.begin({"type": "rolloff"})
    offered = RULESET.intents(g.state)
    assert (offered[0].intent, offered[0].group, offered[0].label) == (
        {"type": "next"}, ADVANCE, "Roll off for movement")


def test_ps_a_side_without_units_loses_as_the_battle_begins_ps_s8() -> None:
    """Force files need a unit; a side built without one is beaten at once (PS §8)."""
    g = new_game(force("Reds", unit("Alpha")), force("Empty"))
    g.play({"type": "rolloff"}, ["6", "1", "south"])
    assert g.state.over and g.state.winner == "red"
    assert notes(g)[-1] == "Game over: Black has no unit left: Red wins (PS §8)."


def test_ps_unknown_intents_are_refused_ps_s1() -> None:
    with pytest.raises(Refused, match="unknown intent 'draw'"):
        game().begin({"type": "draw"})

"""Deathzap Classic set-up: the roll-off for base lines and naming the generals
(CL §1)."""

from __future__ import annotations

import pytest
from cl_fixtures import act, brood, force, irregulars, new_game, notes, unit

from deathzap_tui.rules.classic import RULESET
from deathzap_tui.rules.ruleset import SETUP
from deathzap_tui.rules.steps import Question, Refused


def test_rolloff_tie_rolls_again_and_the_winner_picks_its_edge_cl_1() -> None:
    g = new_game()
    g.play({"type": "rolloff"}, ["3", "3", "2", "5", "north"])
    s = g.state
    assert s.first == "black"
    assert s.edges == {"black": "north", "red": "south"}
    assert s.stage == "general"
    text = " ".join(notes(g))
    assert "A tie: roll again." in text
    assert "Black deploys first" in text and 'within 6"' in text


def test_the_edge_question_goes_to_the_winner_and_the_loser_gets_the_other_edge_cl_1() -> None:
    g = new_game()
    seen = act(g, {"type": "rolloff"}, {"rolloff.1.red": "6", "rolloff.1.black": "1",
                                        "edge": "south"})
    edge = seen[-1]
    assert isinstance(edge, Question) and edge.side == "red" and edge.rule == "CL §1"
    assert {c.value for c in edge.choices} == {"north", "south"}
    assert g.state.edges == {"red": "south", "black": "north"}


def test_generals_default_to_the_figure_marked_in_the_file_cl_1() -> None:
    g = new_game(irregulars(), brood())
    g.play({"type": "rolloff"}, ["6", "1", "south"])
    seen = act(g, {"type": "generals"})
    assert [q.side for q in seen] == ["red", "black"]
    red_q = seen[0]
    assert red_q.choices[0].label == "Command Squad: Captain Vass"
    assert len(red_q.choices) == sum(len(u.figures) for u in irregulars().units)
    generals = {f.name for u in g.state.all_units() for f in u.figures if f.general}
    assert generals == {"Captain Vass", "Brood Lord"}
    assert g.state.stage == "battle"


def test_without_a_marked_general_the_default_is_the_first_figure_cl_1() -> None:
    red = force("Plain", unit("Alpha", 3), unit("Bravo", 3))
    black = force("Other", unit("Xray", 3), unit("Yankee", 3, general=True))
    g = new_game(red, black)
    g.play({"type": "rolloff"}, ["6", "1", "south"])
    seen = act(g, {"type": "generals"})
    assert seen[0].default == "red.0.0"
    assert seen[1].default == "black.1.0"


def test_naming_another_figure_moves_the_general_cl_1() -> None:
    g = new_game(irregulars(), brood())
    g.play({"type": "rolloff"}, ["6", "1", "south"])
    act(g, {"type": "generals"}, {"general.red": "red.1.0"})
    red = [f.id for u in g.state.units["red"] for f in u.figures if f.general]
    assert red == ["red.1.0"]
    assert "Red's general is Sergeant of First Rifles (CL §1)." in notes(g)


def test_setup_intents_come_in_order_and_the_battle_waits_cl_1() -> None:
    g = new_game()
    assert [(o.intent, o.group) for o in RULESET.intents(g.state)] == [
        ({"type": "rolloff"}, SETUP)]
    for intent, why in (({"type": "generals"}, "roll off"), ({"type": "next"}, "set-up")):
        with pytest.raises(Refused, match=why):
            g.begin(intent)
    g.play({"type": "rolloff"}, ["6", "1", "south"])
    assert [o.intent for o in RULESET.intents(g.state)] == [{"type": "generals"}]
    with pytest.raises(Refused, match="roll-off is done"):
        g.begin({"type": "rolloff"})
    with pytest.raises(Refused, match="name the generals"):
        g.begin({"type": "next"})
    act(g, {"type": "generals"})
    with pytest.raises(Refused, match="already named"):
        g.begin({"type": "generals"})
    assert RULESET.intents(g.state)[0].intent == {"type": "next"}


def test_a_side_with_no_figure_skips_the_general_and_loses_at_once_cl_1_cl_8() -> None:
    """Force files need a unit with a figure (``test_cl_force``'s structure errors);
    a side built without one gets no generals question, and with no unit in play
    the game is decided as the battle begins (CL §8)."""
    g = new_game(force("Plain", unit("Alpha", 3)), force("Empty"), {"game": "basic"})
    g.play({"type": "rolloff"}, ["6", "1", "south"])
    seen = act(g, {"type": "generals"})
    assert [q.key for q in seen] == ["general.red"]
    assert notes(g)[-2:] == ["Black has no figure to name as its general (CL §1).",
                             "Game over: Black has no unit left in play: Red wins (CL §8)."]
    assert g.state.over and RULESET.intents(g.state) == []


def test_only_lone_figures_lose_the_basic_game_as_the_battle_begins_cl_4_cl_8() -> None:
    """CL §4, §8: a lone Infantry figure is always panicked, so a basic-game side of
    lone figures has no unit that is not panicked from the start."""
    g = new_game(force("Plain", unit("Alpha", 3)), force("Lonely", unit("Lone", 1)),
                 {"game": "basic"})
    g.play({"type": "rolloff"}, ["6", "1", "south"])
    act(g, {"type": "generals"})
    assert g.state.over and g.state.winner == "red"
    assert notes(g)[-1] == ("Game over: Black has no unit in play that is not panicked: "
                            "Red wins (CL §8).")

"""Set-up (DZ3 §1): roll-off, entry edges, objectives, set-up order."""

from __future__ import annotations

import pytest
from dz3_fixtures import act, new_game, ready_game

from deathzap_tui.rules.deathzap3.setup import default_distances
from deathzap_tui.rules.steps import Dice, Refused


def test_rolloff_winner_picks_edge_other_gets_opposite_dz3_s1() -> None:
    g = new_game()
    g.play({"type": "rolloff"}, ["2", "5", "north"])
    assert g.state.rolloff_winner == "black"
    assert g.state.edges == {"black": "north", "red": "south"}
    assert g.state.phase == "objectives"


def test_rolloff_tie_rolls_again_dz3_s1() -> None:
    g = new_game()
    steps = act(g, {"type": "rolloff"}, {"rolloff.1.red": "4", "rolloff.1.black": "4",
                                         "rolloff.2.red": "3", "rolloff.2.black": "1",
                                         "edge": "south"})
    assert [s.side for s in steps[:4]] == ["red", "black", "red", "black"]
    assert steps[-1].side == "red"
    assert g.state.edges == {"red": "south", "black": "north"}


def test_rolloff_needs_faces_not_a_count() -> None:
    g = new_game()
    action = g.begin({"type": "rolloff"})
    with pytest.raises(Refused):
        action.resolution.answer(Dice(successes=1))
    with pytest.raises(Refused):
        action.resolution.answer("7")


def test_set_up_order_is_enforced_dz3_s1() -> None:
    g = new_game()
    for intent in ({"type": "objectives"}, {"type": "draw"},
                   {"type": "activate", "unit": "red.0", "action": "advance"}):
        with pytest.raises(Refused):
            g.begin(intent)
    g.play({"type": "rolloff"}, ["6", "1", "south"])
    with pytest.raises(Refused):
        g.begin({"type": "rolloff"})
    with pytest.raises(Refused):
        g.begin({"type": "draw"})
    g.play({"type": "objectives"}, [30, 15, 6, 12, 18, 24])
    with pytest.raises(Refused):
        g.begin({"type": "objectives"})
    assert g.state.phase == "battle"


def test_objectives_distances_from_each_edge_dz3_s12() -> None:
    g = ready_game()
    s = g.state
    assert [o.red_distance for o in s.objectives] == [15, 6, 12, 18, 24]
    assert [s.distance_from("black", o) for o in s.objectives] == [15, 24, 18, 12, 6]


def test_objective_defaults_and_bounds() -> None:
    assert default_distances(30) == [15, 6, 12, 18, 24]
    g = new_game()
    g.play({"type": "rolloff"}, ["6", "1", "south"])
    steps = act(g, {"type": "objectives"})  # all defaults (the UI's --quick)
    assert steps[0].default == 30
    assert [o.red_distance for o in g.state.objectives] == [15, 6, 12, 18, 24]
    g2 = new_game()
    g2.play({"type": "rolloff"}, ["6", "1", "south"])
    with pytest.raises(Refused):
        g2.play({"type": "objectives"}, [30, 31, 6, 12, 18, 24])

"""Deathzap Plasmashok winning (PS §8, app reading 3): wiped out mid-turn, points lost
after the last turn, a draw, and ending by agreement."""

from __future__ import annotations

import pytest
from ps_fixtures import act, face, faces, force, next_phase, notes, ready_game, start_turn, unit
from ps_fixtures import through_movement as moved

from deathzap_tui.rules.plasmashok import RULESET
from deathzap_tui.rules.ruleset import END
from deathzap_tui.rules.steps import Refused

KILL = {"special.attack": faces(6), "special.defence": faces(1, 1)}
"""One special-combat wound on a unit with no special combat (PS §4)."""


def duel(red_training: str = "elite", black_units: int = 1, options=None):
    """Red Seer and Black Lone (one model each, special 1), in special combat."""
    black = [unit("Lone", 1, weapons=(), special=1),
             *(unit(f"Spare {i}", 1, weapons=()) for i in range(1, black_units))]
    g = ready_game(force("Reds", unit("Seer", 1, training=red_training, weapons=(),
                                      special=1)), force("Blacks", *black), options=options)
    start_turn(g)
    moved(g)
    return g


def play_out(g) -> None:
    """Press ``next`` until the game ends, every die a 6."""
    while not g.state.over:
        if g.state.step:
            next_phase(g, dice=face(6))
        else:
            start_turn(g)


def test_ps_a_side_wiped_out_in_a_bracket_loses_at_once_ps_s8() -> None:
    g = duel()
    act(g, {"type": "special", "unit": "red.0"}, {"special.attack": faces(6),
                                                   "special.defence": faces(1, 1, 1)})
    next_phase(g)
    s = g.state
    assert s.over and s.winner == "red"
    assert (s.step, s.bracket, s.turn) == ("", "", 1)
    assert s.end_reason == "Black has no unit left"
    assert notes(g)[-1] == "Game over: Black has no unit left: Red wins (PS §8)."
    assert RULESET.intents(s) == []
    with pytest.raises(Refused, match="the game is over"):
        g.begin({"type": "next"})


def test_ps_both_sides_wiped_out_in_one_bracket_is_a_draw_ps_s8() -> None:
    g = duel(red_training="regular")
    act(g, {"type": "special", "unit": "red.0"}, {"special.attack": faces(6),
                                                   "special.defence": faces(1, 1, 1)})
    act(g, {"type": "special", "unit": "black.0"}, {"special.attack": faces(6),
                                                     "special.defence": faces(1, 1, 1)})
    next_phase(g)
    assert g.state.over and g.state.winner == "draw"
    assert notes(g)[-1] == "Game over: neither side has a unit left: a draw (PS §8)."


def test_ps_after_turn_4_the_side_that_lost_more_points_loses_ps_s8() -> None:
    g = duel(black_units=2)
    act(g, {"type": "special", "unit": "red.0"}, {"special.target": "black.1", **KILL})
    play_out(g)
    s = g.state
    assert (s.turn, s.winner, s.lost) == (4, "red", {"red": 0, "black": 5})
    assert s.end_reason == "turn 4 of 4 is over; Red lost 0 points of models, Black 5"
    assert notes(g)[-2:] == ["End of turn 4.", "Game over: turn 4 of 4 is over; Red lost 0 "
                             "points of models, Black 5: Red wins (PS §8)."]


def test_ps_equal_losses_after_the_last_turn_draw_ps_s8() -> None:
    g = duel(options={"turns": 2})
    play_out(g)
    assert (g.state.turn, g.state.winner) == (2, "draw")
    assert notes(g)[-1] == ("Game over: turn 2 of 2 is over; Red lost 0 points of models, "
                            "Black 0: a draw (PS §8).")


def test_ps_ending_by_agreement_waits_for_pending_wounds_ps_s3_ps_s8() -> None:
    g = duel(black_units=2)
    end = [o for o in RULESET.intents(g.state) if o.group == END]
    assert [o.label for o in end] == ["End the game by agreement (the side that has lost "
                                      "more points of models loses, equal losses draw)"]
    act(g, {"type": "special", "unit": "red.0"}, {"special.target": "black.1", **KILL})
    assert not [o for o in RULESET.intents(g.state) if o.group == END]
    with pytest.raises(Refused, match=r"end the bracket first: wounds are waiting to come "
                       r"off \(PS §3\)"):
        g.begin({"type": "end"})
    next_phase(g)
    act(g, {"type": "end"})
    assert g.state.over and g.state.winner == "red"
    assert notes(g) == ["Game over: the players agree to end it (the side that has lost more "
                        "points of models loses, equal losses draw); Red lost 0 points of "
                        "models, Black 5: Red wins (PS §8)."]

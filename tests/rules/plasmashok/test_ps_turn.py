"""Deathzap Plasmashok turn structure (PS §3): the movement roll-off, the five phases,
training brackets with casualties between them, compulsory melee and extra rounds
(PS §6, app reading 8), and the ``next`` labels."""

from __future__ import annotations

import pytest
from ps_fixtures import (
    act,
    advance_labels,
    face,
    faces,
    force,
    next_phase,
    notes,
    ready_game,
    start_turn,
    through_movement,
    unit,
    unit_intents,
)

from deathzap_tui.rules.plasmashok import RULESET
from deathzap_tui.rules.ruleset import UNIT
from deathzap_tui.rules.steps import Refused

MISS = {"melee.attack.1": faces(3), "melee.defence": faces(3, 3)}
"""One melee attack die blocked by the defence (PS §6, §5 step 2)."""


def idle_game():
    """Nobody can shoot, use special combat or fight: every bracket phase is empty."""
    return ready_game(force("Reds", unit("Alpha", weapons=())),
                      force("Blacks", unit("Xray", weapons=())))


def bracket_game():
    """Red: Seer (elite, special 1), Grunts (regular, no special). Black: Lone (regular,
    one model, special 1), Rooks (recruit, special 1). Nobody shoots (no weapons)."""
    red = force("Reds", unit("Seer", 1, training="elite", weapons=(), special=1),
                unit("Grunts", 3, weapons=()))
    black = force("Blacks", unit("Lone", 1, weapons=(), special=1),
                  unit("Rooks", 2, training="recruit", weapons=(), special=1))
    return ready_game(red, black)


def melee_game():
    """Two melees of one-model regular units: Red Alpha v Black Xray, Red Bravo v
    Black Yankee."""
    red = force("Reds", unit("Alpha", 1, weapons=()), unit("Bravo", 1, weapons=()))
    black = force("Blacks", unit("Xray", 1, weapons=()), unit("Yankee", 1, weapons=()))
    g = ready_game(red, black)
    start_turn(g)
    act(g, {"type": "engage", "unit": "red.0", "target": "black.0"})
    act(g, {"type": "engage", "unit": "red.1", "target": "black.1"})
    through_movement(g)
    return g


def test_ps_movement_rolloff_ties_roll_again_and_the_winner_moves_first_ps_s3() -> None:
    """App reading 4: the higher roll moves first, ties roll again."""
    g = idle_game()
    seen = act(g, {"type": "next"}, {"rolloff.1.red": face(4), "rolloff.1.black": face(4),
                                     "rolloff.2.red": face(2), "rolloff.2.black": face(5)})
    assert [s.side for s in seen] == ["red", "black", "red", "black"]
    assert {s.rule for s in seen} == {"PS §3"}
    s = g.state
    assert (s.turn, s.step, s.move_first, s.mover) == (1, "movement", "black", "black")
    assert notes(g) == [
        "Turn 1: roll off to see who moves first (PS §3).",
        "Roll-off: Red rolled 4, Black rolled 4.", "A tie: roll again.",
        "Roll-off: Red rolled 2, Black rolled 5.",
        "Turn 1, movement phase: Black moves first, then Red; units in base contact cannot "
        "move (PS §3)."]


def test_ps_only_the_side_moving_ends_its_movement_ps_s3() -> None:
    g = idle_game()
    start_turn(g, red=2, black=6)
    assert advance_labels(g) == ["Black has finished moving"]
    assert RULESET.intents(g.state)[0].side == "black"
    with pytest.raises(Refused, match="Black is moving: only Black can say it has finished"):
        g.begin({"type": "next"}, by="red")
    next_phase(g, by="black")
    assert (g.state.step, g.state.mover) == ("movement", "red")
    assert notes(g) == ["Black has finished moving: Red moves (PS §3)."]
    with pytest.raises(Refused, match="Red is moving"):
        g.begin({"type": "next"}, by="black")
    next_phase(g, by="red")
    assert g.state.step == "morale" and g.state.mover == ""


def test_ps_a_turn_runs_through_every_phase_skipping_empty_ones_ps_s3() -> None:
    g = idle_game()
    start_turn(g)
    through_movement(g)
    assert notes(g) == [
        "Black has finished moving (PS §3).",
        "Turn 1, special combat phase: no unit can use special combat; skipped (PS §3, §4).",
        "Turn 1, shooting phase: no unit can shoot; skipped (PS §3, §5).",
        "Turn 1, melee phase: no unit can fight; skipped (PS §3, §6).",
        "Turn 1, morale phase: no unit lost models this turn (PS §7)."]
    assert (g.state.step, g.state.bracket) == ("morale", "")
    assert advance_labels(g) == ["Morale phase: test, then end the turn"]
    next_phase(g)
    assert (g.state.turn, g.state.step) == (1, "")
    assert notes(g) == ["End of turn 1."]
    assert advance_labels(g) == ["Roll off for movement"]
    start_turn(g)
    assert (g.state.turn, g.state.step) == (2, "movement")


def test_ps_brackets_act_elite_regular_recruit_with_casualties_between_ps_s3() -> None:
    """PS §3: a unit killed in the elite bracket does not act in the regular one."""
    g = bracket_game()
    start_turn(g)
    through_movement(g)
    s = g.state
    assert (s.step, s.bracket) == ("special", "elite")
    assert notes(g)[-2:] == [
        "Turn 1, special combat phase: elite, then regular, then recruit units act, "
        "casualties coming off after each bracket (PS §3, §4).",
        "Special combat, elite bracket: Red Seer can use special combat (PS §3, §4)."]
    assert unit_intents(g) == [("special", "red.0")]
    assert advance_labels(g) == ["End the elite bracket of special combat: remove casualties"]
    with pytest.raises(Refused, match="Black Lone is a regular unit: the elite bracket is "
                       r"acting now \(PS §3\)"):
        g.begin({"type": "special", "unit": "black.0"})
    with pytest.raises(Refused, match="Red Seer is Red's unit"):
        g.begin({"type": "special", "unit": "red.0"}, by="black")
    with pytest.raises(Refused, match=r"units shoot only in the shooting phase \(PS §5\)"):
        g.begin({"type": "shoot", "unit": "red.0"})
    act(g, {"type": "special", "unit": "red.0"},
        {"special.target": "black.0", "special.attack": faces(6),
         "special.defence": faces(1, 1, 1)})
    assert g.state.unit("black.0").pending == 1 and g.state.unit("black.0").in_play
    assert unit_intents(g) == []
    next_phase(g)
    s = g.state
    assert not s.unit("black.0").in_play and s.lost["black"] == 5
    assert (s.step, s.bracket) == ("special", "recruit")
    assert notes(g)[-2:] == [
        "Special combat, regular bracket: no unit can use special combat (PS §3).",
        "Special combat, recruit bracket: Black Rooks can use special combat (PS §3, §4)."]
    assert [(o.label, o.side, o.group) for o in RULESET.intents(s) if o.group == UNIT] == [
        ("Black Rooks: special combat", "black", UNIT)]


def test_ps_both_sides_act_in_one_bracket_ps_s3() -> None:
    red = force("Reds", unit("Alpha", special=1, weapons=()))
    black = force("Blacks", unit("Xray", special=2, weapons=()))
    g = ready_game(red, black)
    start_turn(g)
    through_movement(g)
    assert g.state.bracket == "regular"
    assert unit_intents(g) == [("special", "red.0"), ("special", "black.0")]
    act(g, {"type": "special", "unit": "black.0"},
        {"special.attack": faces(6, 6), "special.defence": faces(1, 1, 1)})
    with pytest.raises(Refused, match="Black Xray has already attacked"):
        g.begin({"type": "special", "unit": "black.0"})
    assert unit_intents(g) == [("special", "red.0")]


def test_ps_melee_is_compulsory_before_the_bracket_ends_ps_s6() -> None:
    g = melee_game()
    s = g.state
    assert (s.step, s.bracket, s.melee_round) == ("melee", "regular", 1)
    assert advance_labels(g) == []
    with pytest.raises(Refused, match=r"Red Alpha must fight first: every unit in base "
                       r"contact attacks in its bracket \(PS §6\)"):
        g.begin({"type": "next"})
    for uid in ("red.0", "red.1", "black.0"):
        act(g, {"type": "fight", "unit": uid}, MISS)
    with pytest.raises(Refused, match="Black Yankee must fight first"):
        g.begin({"type": "next"})
    act(g, {"type": "fight", "unit": "black.1"}, MISS)
    assert advance_labels(g) == ["End the regular bracket of melee: remove casualties"]


def test_ps_a_unit_without_a_melee_profile_does_not_hold_up_the_melee_ps_r1() -> None:
    red = force("Reds", unit("Alpha", 1, weapons=()))
    black = force("Blacks", unit("Mob", 1, weapons=(), melee=None))
    g = ready_game(red, black)
    start_turn(g)
    act(g, {"type": "engage", "unit": "red.0", "target": "black.0"})
    through_movement(g)
    with pytest.raises(Refused, match=r"no melee\.attacks, melee\.strength, melee\.damage"):
        g.begin({"type": "fight", "unit": "black.0"})
    act(g, {"type": "fight", "unit": "red.0"}, MISS)
    next_phase(g, {"end.1.red": face(6), "end.1.black": face(1)})
    assert g.state.step == "morale" and not g.state.unit("red.0").engaged


def test_ps_a_melee_tied_twice_fights_another_round_at_once_ps_s6() -> None:
    """App reading 8: equal products and equal models left: that melee's units fight
    again (brackets restart); the other melee ends with a retreat."""
    g = melee_game()
    for uid in ("red.0", "red.1", "black.0", "black.1"):
        act(g, {"type": "fight", "unit": uid}, MISS)
    g.play({"type": "next"}, [face(4), face(4), face(6), face(1)])
    s = g.state
    assert (s.step, s.bracket, s.melee_round) == ("melee", "regular", 2)
    assert s.again == ["red.0", "black.0"]
    assert not s.unit("red.1").engaged and not s.unit("black.1").engaged
    assert notes(g)[-3:] == [
        "Red Alpha and Black Xray fight round 2 at once (PS §6).",
        "Turn 1, melee round 2: elite, then regular, then recruit units act, casualties "
        "coming off after each bracket (PS §3, §6).",
        "Melee, regular bracket: Red Alpha and Black Xray can fight (PS §3, §6)."]
    assert unit_intents(g) == [("fight", "red.0"), ("fight", "black.0")]
    with pytest.raises(Refused, match="Red Bravo is not in base contact"):
        g.begin({"type": "fight", "unit": "red.1"})
    for uid in ("red.0", "black.0"):
        act(g, {"type": "fight", "unit": uid}, MISS)
    g.play({"type": "next"}, [face(2), face(5)])
    s = g.state
    assert (s.step, s.melee_round, s.again) == ("morale", 0, [])
    assert "Red Alpha retreats a full move (9\") (PS §6)." in notes(g)


def test_ps_an_extra_round_concerns_only_that_melees_units_ps_s6() -> None:
    """App reading 8 (``state.again``): in an extra round only the tied melee's units
    are considered; the elite units of the melee that ended are not narrated as
    unable to fight, nor offered."""
    red = force("Reds", unit("Alpha", 1, weapons=()),
                unit("Bravo", 1, weapons=(), training="elite"))
    black = force("Blacks", unit("Xray", 1, weapons=()),
                  unit("Yankee", 1, weapons=(), training="elite"))
    g = ready_game(red, black)
    start_turn(g)
    act(g, {"type": "engage", "unit": "red.0", "target": "black.0"})
    act(g, {"type": "engage", "unit": "red.1", "target": "black.1"})
    through_movement(g)
    for uid in ("red.1", "black.1"):
        act(g, {"type": "fight", "unit": uid}, MISS)
    next_phase(g)
    for uid in ("red.0", "black.0"):
        act(g, {"type": "fight", "unit": uid}, MISS)
    seen = len(notes(g))
    g.play({"type": "next"}, [face(4), face(4), face(6), face(1)])
    s = g.state
    assert (s.bracket, s.melee_round, s.again) == ("regular", 2, ["red.0", "black.0"])
    assert not any("no unit can fight" in n for n in notes(g)[seen:])
    assert unit_intents(g) == [("fight", "red.0"), ("fight", "black.0")]


def test_ps_a_new_turn_clears_the_casualties_of_the_last_ps_s7() -> None:
    g = bracket_game()
    start_turn(g)
    through_movement(g)
    act(g, {"type": "special", "unit": "red.0"},
        {"special.target": "black.1", "special.attack": faces(6),
         "special.defence": faces(1, 1, 1)})
    next_phase(g)
    assert g.state.unit("black.1").lost_turn == 1
    act(g, {"type": "special", "unit": "black.0"},
        {"special.target": "red.1", "special.attack": faces(6), "special.defence": faces(1, 1)})
    next_phase(g)
    assert g.state.step == "special" and g.state.bracket == "recruit"
    act(g, {"type": "special", "unit": "black.1"},
        {"special.target": "red.1", "special.attack": faces(2), "special.defence": faces(2, 2)})
    next_phase(g)
    assert g.state.step == "morale"
    next_phase(g, dice=face(6))
    start_turn(g)
    assert all(u.lost_turn == 0 for u in g.state.all_units())

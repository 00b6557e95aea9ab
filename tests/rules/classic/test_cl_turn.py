"""Deathzap Classic turn structure (CL §3): impetus, the chosen order of phases,
the melee phase's gate, and the ``next`` labels."""

from __future__ import annotations

import pytest
from cl_fixtures import act, face, force, impetus, new_game, next_phase, notes, setup, unit

from deathzap_tui.rules.classic import RULESET
from deathzap_tui.rules.classic.turn import ORDERS
from deathzap_tui.rules.ruleset import ADVANCE, UNIT
from deathzap_tui.rules.steps import ROLL, Dice, Question, Refused


def basic_game(**kw):
    """Red: Alpha, Bravo (5 infantry each). Black: Xray (5 infantry), Lone (one
    infantry figure: always panicked, CL §4)."""
    red = force("Reds", unit("Alpha", 5), unit("Bravo", 5))
    black = force("Blacks", unit("Xray", 5), unit("Lone", 1))
    return setup(new_game(red, black, options={"game": "basic"}, **kw))


def advance(g) -> list[str]:
    return [o.label for o in RULESET.intents(g.state) if o.group == ADVANCE]


def test_impetus_adds_one_per_panicked_enemy_unit_and_ties_roll_again_cl_3_cl_r1() -> None:
    g = basic_game()
    assert advance(g) == ["Roll for impetus"]
    seen = act(g, {"type": "next"}, {"impetus.1.red": face(3), "impetus.1.black": face(4),
                                     "impetus.2.red": face(2), "impetus.2.black": face(5),
                                     "order": "shooting,melee,movement"})
    assert [s.side for s in seen[:4]] == ["red", "black", "red", "black"]
    s = g.state
    assert (s.turn, s.impetus, s.impetus_totals) == (1, "black", {"red": 3, "black": 5})
    assert s.order == ["shooting", "melee", "movement"] and s.step == "shooting"
    text = notes(g)
    assert text[:3] == ["Turn 1 impetus: Red rolls 3 + 1 (panicked enemy units) = 4.",
                        "Turn 1 impetus: Black rolls 4.",
                        "Equal totals: both roll again (CL-R1)."]
    assert "Black has the impetus (5 v 3) (CL §3)." in text


def test_the_winner_chooses_one_of_six_orders_cl_3() -> None:
    g = basic_game()
    seen = act(g, {"type": "next"}, {"impetus.1.red": face(6), "impetus.1.black": face(1)})
    order = seen[-1]
    assert isinstance(order, Question) and order.side == "red" and order.rule == "CL §3"
    assert [c.value for c in order.choices] == list(ORDERS) and len(ORDERS) == 6
    assert order.default == "movement,shooting,melee"
    assert g.state.step == "movement" and g.state.mover == "red"


def test_the_chosen_order_drives_the_phases_cl_3() -> None:
    g = basic_game()
    impetus(g, red=6, black=1, order="melee,movement,shooting")
    assert g.state.step == "melee"
    assert advance(g) == ["End the melee phase"]
    next_phase(g)
    assert (g.state.step, g.state.mover) == ("movement", "red")
    assert advance(g) == ["Red has finished moving"]
    next_phase(g)
    assert advance(g) == ["Black has finished moving"]
    next_phase(g)
    assert g.state.step == "shooting"
    assert advance(g) == ["End shooting: remove casualties"]
    assert notes(g)[-1].startswith("Turn 1, shooting phase: both sides shoot")


def test_melee_phase_cannot_end_while_a_melee_is_unfought_cl_6() -> None:
    g = basic_game()
    impetus(g, red=6, black=1, order="movement,melee,shooting")
    act(g, {"type": "engage", "unit": "red.1", "target": "black.0"})
    next_phase(g)
    next_phase(g)
    assert g.state.step == "melee"
    with pytest.raises(Refused, match="fight every melee first: Red Bravo and Black Xray"):
        g.begin({"type": "next"})
    assert advance(g) == []
    fights = [o for o in RULESET.intents(g.state) if o.group == UNIT]
    assert [(o.intent, o.label) for o in fights] == [
        ({"type": "fight", "unit": "red.1"}, "Fight the melee: Red Bravo and Black Xray")]
    assert "1 melee to fight (CL §6)" in notes(g)[-1]


def test_fight_is_refused_outside_the_melee_phase_and_for_units_not_in_melee_cl_6() -> None:
    g = basic_game()
    impetus(g, red=6, black=1, order="movement,melee,shooting")
    act(g, {"type": "engage", "unit": "red.1", "target": "black.0"})
    with pytest.raises(Refused, match="in the melee phase"):
        g.begin({"type": "fight", "unit": "red.1"})
    next_phase(g)
    next_phase(g)
    with pytest.raises(Refused, match="Red Alpha is not in melee"):
        g.begin({"type": "fight", "unit": "red.0"})


def test_shooting_is_offered_to_both_sides_units_not_in_melee_cl_5() -> None:
    g = basic_game()
    impetus(g, red=6, black=1, order="movement,shooting,melee")
    act(g, {"type": "engage", "unit": "red.1", "target": "black.0"})
    next_phase(g)
    next_phase(g)
    assert g.state.step == "shooting"
    shots = [(o.intent["unit"], o.side) for o in RULESET.intents(g.state) if o.group == UNIT]
    assert shots == [("red.0", "red"), ("black.1", "black")]
    with pytest.raises(Refused, match="units in melee cannot shoot"):
        g.begin({"type": "shoot", "unit": "red.1"})
    with pytest.raises(Refused, match="Red's unit"):
        g.begin({"type": "shoot", "unit": "red.0"}, by="black")


def test_a_unit_without_guns_is_not_offered_a_shot_cl_5() -> None:
    red = force("Reds", unit("Alpha", 5), unit("Dogs", 3, "beasts", ()))
    black = force("Blacks", unit("Xray", 5))
    g = setup(new_game(red, black))
    impetus(g, red=6, black=1, order="shooting,movement,melee")
    with pytest.raises(Refused, match="has no guns"):
        g.begin({"type": "shoot", "unit": "red.1"})


def test_a_whole_turn_resets_shots_and_rolls_objectives_only_once_cl_3_cl_5_cl_8() -> None:
    red = force("Reds", unit("Alpha", 5), unit("Bravo", 5))
    black = force("Blacks", unit("Xray", 5), unit("Yankee", 5))
    g = setup(new_game(red, black))
    impetus(g, red=6, black=1, order="shooting,movement,melee", objectives=(1, 1))
    assert g.state.objectives == ["assassinate", "hold"]
    act(g, {"type": "shoot", "unit": "red.0"}, dice=ROLL)
    assert g.state.unit("red.0").shot
    with pytest.raises(Refused, match="already shot this turn"):
        g.begin({"type": "shoot", "unit": "red.0"})
    phases = []
    while g.state.step:
        phases.append(g.state.step)
        next_phase(g, dice=ROLL)
    assert phases == ["shooting", "movement", "movement", "melee", "morale"]
    assert g.state.turn == 1 and g.state.unit("red.0").shot
    seen = act(g, {"type": "next"}, {"impetus.1.red": face(1), "impetus.1.black": face(6)})
    assert [s.key for s in seen] == ["impetus.1.red", "impetus.1.black", "order"]
    assert g.state.turn == 2 and g.state.objectives == ["assassinate", "hold"]
    assert not g.state.unit("red.0").shot
    assert (g.state.impetus, g.state.mover) == ("black", "black")


def test_shooting_casualties_wait_for_the_end_of_the_phase_cl_r2() -> None:
    red = force("Reds", unit("Alpha", 5))
    black = force("Blacks", unit("Xray", 2))
    g = setup(new_game(red, black, options={"game": "basic"}))
    impetus(g, red=6, black=1, order="shooting,movement,melee")
    act(g, {"type": "shoot", "unit": "red.0"},
        {"fire.1.hit": Dice(faces=(6, 6, 6, 6, 6)), "fire.1.save": Dice(faces=(1, 1, 1, 1, 1))})
    xray = g.state.unit("black.0")
    assert xray.pending == 2 and xray.figures_left == 2
    act(g, {"type": "shoot", "unit": "black.0"}, dice=ROLL)
    next_phase(g)
    assert g.state.over and g.state.winner == "red"
    assert notes(g)[-1] == "Game over: Black has no unit left in play: Red wins (CL §8)."

"""Deathzap Plasmashok board view: columns and cells, the turn clock, the score in
points of enemy models destroyed (PS §8), the prompt and the advance label."""

from __future__ import annotations

from ps_fixtures import act, faces, force, new_game, next_phase, start_turn, unit
from ps_fixtures import through_movement as moved

from deathzap_tui.rules import registry
from deathzap_tui.rules.plasmashok import RULESET
from deathzap_tui.rules.ruleset import WATCH, TurnClock


def game():
    """Red: Alpha (elite, special 1, 5 infantry with shields, 9 points each), Buggy (a
    light vehicle, 24 points). Black: Xray (regular, special 1, 5 infantry, 7 points
    each), Yankee (recruit, 3 unarmed infantry, 5 points each)."""
    red = force("Reds", unit("Alpha", training="elite", special=1, shields=1),
                unit("Buggy", 1, "light-vehicles", weapons=("heavy-repeater",), melee=None,
                     base_cost=12))
    black = force("Blacks", unit("Xray", special=1),
                  unit("Yankee", 3, training="recruit", weapons=()))
    return new_game(red, black)


def started():
    g = game()
    g.play({"type": "rolloff"}, ["6", "1", "south"])
    return g


def rows(view):
    return {r.id: r for side in view.units.values() for r in side}


def test_ps_plugin_identity_and_no_secrets_ps_s1() -> None:
    assert registry.get("plasmashok") is RULESET
    assert (RULESET.id, RULESET.title) == ("plasmashok", "Deathzap Plasmashok")
    g = started()
    start_turn(g)
    s = g.state
    assert RULESET.view(s, "red") == RULESET.view(s, "black") == RULESET.view(s, WATCH)
    assert RULESET.intents(s, "red") == RULESET.intents(s, WATCH) == RULESET.intents(s)


def test_ps_before_the_game_and_between_turns_ps_s1_s3() -> None:
    g = game()
    v = RULESET.view(g.state)
    assert v.deck is None and v.prompt == "Set-up: roll off for base lines"
    assert v.columns == ("Unit", "Type", "Trn", "Mdl", "Sz", "Sv", "W", "State")
    g.play({"type": "rolloff"}, ["6", "1", "south"])
    v = RULESET.view(g.state)
    assert v.clock == TurnClock(number=0, limit=4, phases=(
        "Movement", "Special combat", "Shooting", "Melee", "Morale"))
    assert v.prompt == "Turn 1: roll off to see who moves first"
    assert v.advance_label == "Roll off"
    assert v.score == {"red": 0, "black": 0} and v.score_label == "pts"
    assert v.score_lines == ("Red: 0/50 pts killed",
                             "Black: 0/69 pts killed")
    assert v.objectives == ("A side with no unit left loses; after turn 4 the side that has "
                            "lost more points of models loses, equal losses draw (PS §8).",)
    r = rows(v)
    assert r["red.0"].cells == ("Alpha", "Infantry", "Elt", "5/5", "5", "4+", "1", "")
    assert r["red.1"].cells == ("Buggy", "Lt Vehicle", "Reg", "1/1", "3", "4+", "6", "")
    assert r["black.1"].cells[:3] == ("Yankee", "Infantry", "Rec")
    assert not any(row.ready for row in r.values())


def test_ps_movement_clock_and_rows_ps_s3() -> None:
    g = started()
    start_turn(g, red=1, black=5)
    act(g, {"type": "engage", "unit": "black.1", "target": "red.1"})
    v = RULESET.view(g.state)
    assert (v.clock.number, v.clock.current, v.clock.active, v.clock.detail) == (
        1, "Movement", "black", "Black moves first")
    assert v.advance_label == "Done moving"
    assert v.prompt == ("Turn 1, movement: Black moves (into contact), then says it has "
                        "finished")
    r = rows(v)
    assert r["black.1"].cells[-1] == "in contact: Buggy" and not r["black.1"].ready
    assert r["black.0"].ready and not r["red.0"].ready


def test_ps_bracket_clock_rows_and_score_ps_s3_s8() -> None:
    g = started()
    start_turn(g)
    moved(g)
    v = RULESET.view(g.state)
    assert (v.clock.current, v.clock.active, v.clock.detail) == (
        "Special combat", "", "elite bracket")
    assert v.advance_label == "End bracket"
    assert v.prompt == ("Turn 1, special combat, elite bracket: units use special combat, "
                        "then end the bracket")
    assert [r.id for r in rows(v).values() if r.ready] == ["red.0"]
    act(g, {"type": "special", "unit": "red.0"},
        {"special.target": "black.0", "special.attack": faces(6),
         "special.defence": faces(1, 1, 1)})
    r = rows(RULESET.view(g.state))
    assert r["red.0"].cells[-1] == "acted" and r["black.0"].cells[-1] == "1 wound pending"
    next_phase(g)
    v = RULESET.view(g.state)
    assert v.clock.detail == "regular bracket" and v.score == {"red": 7, "black": 0}
    assert rows(v)["black.0"].cells[3] == "4/5"
    assert rows(v)["black.0"].cells[-1] == "lost 1 this turn"
    assert v.score_lines[0] == "Red: 7/50 pts killed"


def test_ps_wounds_on_a_vehicle_and_the_result_ps_s5_s8() -> None:
    g = started()
    start_turn(g)
    moved(g)
    next_phase(g)
    act(g, {"type": "special", "unit": "black.0"},
        {"special.target": "red.1", "special.attack": faces(6), "special.defence": faces(1, 1)})
    next_phase(g)
    r = rows(RULESET.view(g.state))
    assert r["red.1"].cells[6] == "5/6"
    act(g, {"type": "end"})
    v = RULESET.view(g.state)
    assert v.over and v.prompt == "Game over"
    assert v.result == ("Draw (the players agree to end it (the side that has lost more "
                        "points of models loses, equal losses draw); Red lost 0 points of "
                        "models, Black 0)")

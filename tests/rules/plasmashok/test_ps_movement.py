"""Deathzap Plasmashok movement (PS §3, app reading 4): only moving into base contact
is recorded; units in contact cannot move."""

from __future__ import annotations

import pytest
from ps_fixtures import act, force, next_phase, notes, ready_game, start_turn, unit

from deathzap_tui.rules.plasmashok import RULESET
from deathzap_tui.rules.ruleset import UNIT
from deathzap_tui.rules.steps import Refused


def game():
    red = force("Reds", unit("Alpha"), unit("Bravo"))
    black = force("Blacks", unit("Xray"), unit("Yankee"))
    return ready_game(red, black)


def engages(g) -> list[tuple[str, str, str]]:
    return [(o.intent["unit"], o.intent["target"], o.label) for o in RULESET.intents(g.state)
            if o.group == UNIT]


def test_ps_the_mover_may_move_units_into_contact_ps_s3() -> None:
    g = game()
    start_turn(g)
    offered = engages(g)
    assert len(offered) == 4 and offered[0] == (
        "red.0", "black.0", "Red Alpha: move into contact with Black Xray")
    seen = act(g, {"type": "engage", "unit": "red.0", "target": "black.0"},
               {"also.1": "black.1"})
    assert [s.key for s in seen] == ["also.1"] and seen[0].side == "red"
    s = g.state
    assert s.unit("red.0").engaged == ["black.0", "black.1"]
    assert s.unit("black.0").engaged == ["red.0"] and s.unit("black.1").engaged == ["red.0"]
    assert notes(g) == ["Red Alpha moves into base contact with Black Xray and Black Yankee: "
                        "they will fight in the melee phase (PS §3, §6)."]
    assert [u for u, _t, _l in engages(g)] == ["red.1", "red.1"]


def test_ps_a_unit_in_contact_cannot_move_ps_s3() -> None:
    g = game()
    start_turn(g)
    act(g, {"type": "engage", "unit": "red.0", "target": "black.0"})
    with pytest.raises(Refused, match=r"Red Alpha is in base contact with the enemy and "
                       r"cannot move \(PS §3\)"):
        g.begin({"type": "engage", "unit": "red.0", "target": "black.1"})
    next_phase(g)
    assert [u for u, _t, _l in engages(g)] == ["black.1", "black.1"]
    with pytest.raises(Refused, match="Black Xray is in base contact"):
        g.begin({"type": "engage", "unit": "black.0", "target": "red.1"})


def test_ps_only_the_mover_moves_and_only_at_enemies_ps_s3() -> None:
    g = game()
    with pytest.raises(Refused, match=r"units move only in the movement phase \(PS §3\)"):
        g.begin({"type": "engage", "unit": "red.0", "target": "black.0"})
    start_turn(g)
    with pytest.raises(Refused, match="Red is moving now, not Black"):
        g.begin({"type": "engage", "unit": "black.0", "target": "red.0"})
    with pytest.raises(Refused, match="it is Red's move"):
        g.begin({"type": "engage", "unit": "red.0", "target": "black.0"}, by="black")
    with pytest.raises(Refused, match="Red Bravo is a friendly unit"):
        g.begin({"type": "engage", "unit": "red.0", "target": "red.1"})
    with pytest.raises(Refused, match=r"there is no unit 'black\.9'"):
        g.begin({"type": "engage", "unit": "red.0", "target": "black.9"})
    with pytest.raises(Refused, match=r"there is no unit 'red\.x'"):
        g.begin({"type": "engage", "unit": "red.x", "target": "black.0"})

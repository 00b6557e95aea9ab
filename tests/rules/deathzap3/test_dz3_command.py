"""Leaders and command points (DZ3 §11, DZ3-R14)."""

from __future__ import annotations

import copy

import pytest
from dz3_fixtures import act, battle, draw

from deathzap_tui.rules.deathzap3 import RULESET
from deathzap_tui.rules.steps import Refused


def cmd(unit: str, leader: str = "red.0.0", action: str = "cover-ground") -> dict:
    return {"type": "activate", "unit": unit, "action": action, "command": leader}


def test_command_point_buys_one_extra_activation_per_card_dz3_s11() -> None:
    g = battle()
    act(g, cmd("red.1"), {"command.within": "yes"}, dice="3")
    assert g.state.unit("red.0").figures[0].command == 1
    assert g.state.remaining == 3 and g.state.command_used
    with pytest.raises(Refused, match="command activation"):
        g.begin(cmd("red.2"))


def test_unit_must_be_within_6_of_the_leader_dz3_s11() -> None:
    g = battle()
    with pytest.raises(Refused, match='6"'):
        act(g, cmd("red.1"), {"command.within": "no"}, dice="3")


def test_command_points_do_not_refresh_dz3_r14() -> None:
    g = battle()
    act(g, cmd("red.1"), {"command.within": "yes"}, dice="3")
    for u in ("red.0", "red.2"):
        g.play({"type": "activate", "unit": u, "action": "cover-ground"}, ["1"])
    g.play({"type": "activate", "unit": "red.1", "action": "cover-ground"}, ["1"])
    draw(g, "2D")
    act(g, cmd("red.2"), {"command.within": "yes"}, dice="3")
    assert g.state.unit("red.0").figures[0].command == 0
    g.play({"type": "activate", "unit": "red.0", "action": "cover-ground"}, ["1"])
    draw(g, "3D")
    with pytest.raises(Refused, match="no command points"):
        g.begin(cmd("red.1"))


def test_command_offered_in_intents_and_by_the_cards_side_only() -> None:
    g = battle()
    opts = [o.intent for o in RULESET.intents(g.state) if "command" in o.intent]
    assert opts and all(o["command"] == "red.0.0" for o in opts)
    with pytest.raises(Refused):
        g.begin(cmd("black.1", "black.0.0"))
    with pytest.raises(Refused, match="not a leader"):
        g.begin(cmd("red.1", "red.0.1"))


def test_dead_leader_takes_its_points_dz3_r14() -> None:
    g = battle()
    alpha = g.state.unit("red.0")
    alpha.figures[0].alive = False  # direct: the state is the test's to poke here
    with pytest.raises(Refused, match="no longer"):
        g.begin(cmd("red.1"))


def test_leaders_own_unit_needs_no_distance_question() -> None:
    g = battle()
    steps = act(g, cmd("red.0"), dice="3")
    assert not any(s.key == "command.within" for s in steps)


@pytest.mark.parametrize(("points", "words"), [(1, "1 command point is lost"),
                                               (2, "2 command points are lost")])
def test_a_leaders_command_points_lost_with_the_unit_in_good_english_dz3_r14(
        points: int, words: str) -> None:
    """Issue 26: "1 command point are lost"."""
    from deathzap_tui.rules.deathzap3.common import unit_gone
    from deathzap_tui.rules.steps import Context

    ctx = Context(copy.deepcopy(battle().state))
    unit = ctx.state.unit("red.0")
    unit.figures[0].command = points
    unit_gone(ctx, unit, "destroyed")
    assert any(words in note.text for note in ctx.notes)

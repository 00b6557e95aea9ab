"""Activation tokens: DZ3 §4, DZ3-R4 ("in play" = not destroyed, not fled)."""

from __future__ import annotations

import pytest
from dz3_fixtures import act, draw, enter, force, new_game, ready_game, setup, small_forces

from deathzap_tui.rules.steps import Refused


def test_activated_unit_gets_a_token_and_cannot_activate_again_dz3_s4() -> None:
    g = ready_game()
    enter(g, "red.0", "KH")
    assert g.state.unit("red.0").token
    with pytest.raises(Refused, match="token"):
        g.begin({"type": "activate", "unit": "red.0", "action": "advance"})


def test_off_table_units_count_as_in_play_dz3_r4() -> None:
    g = ready_game()
    enter(g, "red.0", "AH")
    enter_intent = {"type": "activate", "unit": "red.1", "action": "cover-ground"}
    g.play(enter_intent, ["2"])
    # red.2 (still off-table) has no token: no reset yet
    assert g.state.unit("red.0").token and g.state.unit("red.1").token
    g.play({"type": "activate", "unit": "red.2", "action": "cover-ground"}, ["2"])
    assert not any(u.token for u in g.state.all_units())


def test_reset_clears_both_sides_and_objectives_dz3_s4() -> None:
    g = ready_game()
    enter(g, "black.0", "2C")
    enter(g, "red.0", "JH")
    act(g, {"type": "activate", "unit": "red.1", "action": "cover-ground"}, dice="1")
    draw(g, "2D")
    act(g, {"type": "activate", "unit": "red.2", "action": "cover-ground"}, dice="1")
    # every red unit had a token -> all tokens gone, black's too
    assert not g.state.unit("black.0").token


def test_destroyed_and_fled_units_do_not_count_dz3_r4() -> None:
    red, black = small_forces()
    g = setup(new_game(red, force("Pair", black.units[0], black.units[1])))
    enter(g, "black.1", "2C")
    draw(g, "3H")
    # Alpha shoots Pickets (basic, 4 light shields, 4 figures) to pieces
    act(g, {"type": "activate", "unit": "red.0", "action": "advance"},
        {"shoot.target": "black.1", "shoot.profile.destroyer.black.1": "1",
         "shoot.order.1": "0", "shoot.1.hit": "666666", "shoot.1.shields": "666666",
         "shoot.1.saves": "11", "shoot.1.morale.1": "1 1",
         })
    assert g.state.unit("black.1").fled
    # black.0 is the only black unit in play: its activation resets the tokens
    draw(g, "4C")
    g.play({"type": "activate", "unit": "black.0", "action": "cover-ground"}, ["5"])
    assert not g.state.unit("red.0").token


def test_tokens_only_reset_when_a_whole_side_has_them() -> None:
    g = ready_game()
    enter(g, "red.0", "2H")
    enter(g, "black.0", "2C")
    assert g.state.unit("red.0").token and g.state.unit("black.0").token

"""Deathzap Plasmashok morale (PS §7, app readings 2 and 9): D6 x models left against
D6 x casualties this turn; casualties higher: D3 more models rout."""

from __future__ import annotations

from ps_fixtures import act, face, faces, force, next_phase, notes, ready_game, start_turn, unit
from ps_fixtures import through_movement as moved

from deathzap_tui.rules.plasmashok.model import Model, Unit
from deathzap_tui.rules.plasmashok.tables import Melee


def squad() -> Unit:
    """A sergeant with an advanced rifle (3 + 4 points) and four unarmed troopers
    (3 points)."""
    models = (Model("Sergeant", ("advanced-rifle",)),
              *(Model("Trooper", ()) for _ in range(4)))
    return Unit("Alpha", "infantry", "regular", 3, models, Melee(1, 1, 1))


def hit_game(red_units, wounds: int = 2):
    """Black Xray (special 2) puts ``wounds`` wounds on Red Alpha in special combat;
    the turn moves on to morale."""
    g = ready_game(force("Reds", *red_units), force("Blacks", unit("Xray", special=2,
                                                                   weapons=())))
    start_turn(g)
    moved(g)
    attack = (6, 5)[:wounds] + (1,) * (2 - wounds)
    act(g, {"type": "special", "unit": "black.0"},
        {"special.attack": faces(*attack), "special.defence": faces(1, 1)})
    while g.state.step != "morale":
        next_phase(g)
    return g


def test_ps_a_higher_casualty_product_routs_d3_more_models_ps_s7() -> None:
    g = hit_game([squad(), unit("Bravo", weapons=())])
    alpha = g.state.unit("red.0")
    assert (alpha.figures_left, alpha.lost_turn) == (3, 2)
    assert notes(g)[-1] == "Turn 1, morale phase: Red Alpha lost models this turn and test (PS §7)."
    seen = next_phase(g, {"morale.red.0.left": face(1), "morale.red.0.lost": face(2),
                          "morale.red.0.rout": face(3), "morale.red.0.pick.1": "red.0.0"})
    assert [s.key for s in seen] == ["morale.red.0.left", "morale.red.0.lost",
                                     "morale.red.0.rout", "morale.red.0.pick.1"]
    assert {s.rule for s in seen} == {"PS §7"} and {s.side for s in seen} == {"red"}
    alpha = g.state.unit("red.0")
    assert alpha.figures_left == 1 and not alpha.figures[0].alive
    assert g.state.lost["red"] == 3 + 3 + 7 + 3
    text = notes(g)
    assert text[0] == ("Red Alpha morale: 1 x 3 left = 3 against 2 x 2 lost = 4: the "
                       "casualties are higher; the D3 die shows 3, so 2 more models rout (PS §7).")
    assert text[1:] == ["Red Alpha loses 2 models (PS §7).", "End of turn 1."]


def test_ps_an_equal_product_carries_on_ps_s7() -> None:
    g = hit_game([unit("Alpha", weapons=())])
    seen = next_phase(g, {"morale.red.0.left": face(2), "morale.red.0.lost": face(3)})
    assert len(seen) == 2 and g.state.unit("red.0").figures_left == 3
    assert notes(g)[0] == ("Red Alpha morale: 2 x 3 left = 6 against 3 x 2 lost = 6: it "
                           "carries on (PS §7).")


def test_ps_wounds_that_kill_no_model_are_no_casualties_ps_s7() -> None:
    """App reading 2: a vehicle that took wounds but lives does not test."""
    g = hit_game([unit("Buggy", 1, "light-vehicles", weapons=(), melee=None)])
    assert g.state.unit("red.0").figures[0].wounds == 2
    assert notes(g)[-1] == "Turn 1, morale phase: no unit lost models this turn (PS §7)."
    assert next_phase(g) == []


def test_ps_a_rout_that_empties_the_side_ends_the_game_ps_s7_ps_s8() -> None:
    g = hit_game([unit("Alpha", 3, weapons=())])
    next_phase(g, {"morale.red.0.left": face(1), "morale.red.0.lost": face(6),
                   "morale.red.0.rout": face(6)})
    assert g.state.over and g.state.winner == "black"
    assert notes(g)[-2:] == ["Red Alpha loses 1 model (PS §7); Red Alpha is wiped out.",
                             "Game over: Red has no unit left: Black wins (PS §8)."]

"""Deathzap Classic board view: columns, statuses, the turn clock, score, objectives,
the advance label, and the plugin's identity (CL §3, §8, CL-R6)."""

from __future__ import annotations

from cl_fixtures import act, face, force, impetus, new_game, ready_game, setup, unit

from deathzap_tui.rules import registry
from deathzap_tui.rules.classic import RULESET
from deathzap_tui.rules.ruleset import ADVANCE, WATCH


def test_plugin_identity_and_no_points_cl_r6() -> None:
    assert registry.get("classic") is RULESET
    assert (RULESET.id, RULESET.title) == ("classic", "Deathzap Classic")
    red, _ = new_game().red, None
    assert RULESET.points(red) is None


def test_every_viewer_sees_the_same() -> None:
    g = ready_game()
    impetus(g)
    s = g.state
    assert RULESET.view(s, "red") == RULESET.view(s, "black") == RULESET.view(s, WATCH)
    assert RULESET.intents(s, "red") == RULESET.intents(s, WATCH) == RULESET.intents(s)


def test_before_the_first_turn() -> None:
    v = RULESET.view(ready_game().state)
    assert v.deck is None and v.columns == ("Unit", "Type", "Figs", "Guns", "Status")
    assert v.clock.number == 0 and v.clock.limit == 6 and v.clock.current == ""
    assert v.clock.phases == ("Impetus", "Movement", "Shooting", "Melee", "Morale")
    assert v.clock.detail == "advanced game, 6 turns"
    assert v.prompt == "Turn 1: roll for impetus"
    assert v.advance_label == "Impetus"
    assert v.score == {"red": 0, "black": 0} and v.score_label == "VP"
    assert "rolled after the first impetus roll" in v.objectives[0]


def test_clock_follows_the_chosen_order_and_the_mover_cl_3() -> None:
    g = ready_game()
    impetus(g, red=2, black=4, order="melee,movement,shooting", objectives=(3, 5))
    v = RULESET.view(g.state)
    assert v.clock.phases == ("Impetus", "Melee", "Movement", "Shooting", "Morale")
    assert (v.clock.number, v.clock.current, v.clock.active) == (1, "Melee", "")
    assert v.clock.detail == "Black has the impetus (4 v 2); advanced game, 6 turns"
    act(g, {"type": "next"})
    v = RULESET.view(g.state)
    assert (v.clock.current, v.clock.active) == ("Movement", "black")
    label = [o.label for o in RULESET.intents(g.state) if o.group == ADVANCE]
    assert label == ["Black has finished moving"] and v.advance_label == "Done moving"
    assert v.objectives == (
        "Hard Hitters: 3 VP to the first side to destroy half the enemy force, a vehicle "
        "or monster counting as 5 (Red has destroyed 0 of 14; Black has destroyed 0 of 15).",
        "MacGuffin: 3 VP for carrying the counter from the centre off the table (still on "
        "the table).")


def test_unit_rows_show_status_and_readiness() -> None:
    red = force("Reds", unit("Alpha", 5), unit("Lone", 1), unit("Bravo", 3))
    black = force("Blacks", unit("Xray", 5), unit("Hounds", 3, "beasts", ()))
    g = setup(new_game(red, black, options={"game": "basic"}))
    impetus(g)
    act(g, {"type": "engage", "unit": "red.0", "target": "black.0"})
    act(g, {"type": "merge", "unit": "red.2", "into": "red.1"},
        {"merge.panicked": face(6), "merge.steady": face(1)})
    v = RULESET.view(g.state)
    rows = {r.id: r for side in v.units.values() for r in side}
    assert rows["red.0"].cells == ("Alpha", "Infantry", "5/5", "5 Basic",
                                   "in melee with Xray")  # no side: short (issue 22)
    assert not rows["red.0"].ready
    assert rows["red.1"].cells[2:] == ("4/4", "4 Basic", "panicked") and rows["red.1"].ready
    assert rows["red.2"].cells[4] == "merged into Lone" and rows["red.2"].gone
    assert rows["black.1"].cells[3] == "" and not rows["black.1"].ready
    assert v.score == {"red": 1, "black": 2} and v.score_label == "units"
    assert v.score_lines[0] == "Red: 2 units in play, 1 not panicked; 0 enemy figures killed"
    assert v.clock.limit == 0 and v.clock.detail.endswith("basic game")


def test_lone_figure_status_and_over_result() -> None:
    red = force("Reds", unit("Alpha", 5), unit("Bravo", 5))
    black = force("Blacks", unit("Lone", 1), unit("Xray", 5))
    g = setup(new_game(red, black, options={"game": "basic"}))
    impetus(g)
    row = RULESET.view(g.state).units["black"][0]
    assert row.cells[4] == "panicked (alone)"
    act(g, {"type": "end"})
    v = RULESET.view(g.state)
    assert v.over and v.prompt == "Game over"
    assert v.result == ("Red wins (the players agree to end it (more units in play and "
                        "not panicked wins))")


def test_attack_odds_come_from_the_resolutions_facts_cl_5() -> None:
    g = setup(new_game(force("Reds", unit("Alpha", 5)), force("Blacks", unit("Xray", 5))))
    impetus(g, red=6, black=1, order="shooting,movement,melee")
    res = g.begin({"type": "shoot", "unit": "red.0"}).resolution
    while "attack" not in res.ctx.facts:
        res.answer(res.step.default)
    odds = RULESET.attack_odds(res.ctx.state, res.ctx.facts["attack"])
    assert odds is not None and abs(sum(odds.casualties) - 1) < 1e-9

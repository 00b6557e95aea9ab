"""Victory points and the end of the game (DZ3 §12, DZ3-R15) and the board view."""

from __future__ import annotations

from dz3_fixtures import act, battle, ready_game

from deathzap_tui.rules.deathzap3 import RULESET, tables


def test_objective_vp_rounds_up_with_minimum_one_dz3_r15() -> None:
    assert [tables.objective_vp(d) for d in (0, 1, 6, 7, 13, 21, 30)] == [1, 1, 1, 2, 3, 4, 5]


def test_winner_and_draw_by_vp_dz3_s12() -> None:
    g = ready_game(options={"end": "agreement"})
    g.play({"type": "end"})
    assert g.state.winner == "draw"
    assert RULESET.view(g.state).result.startswith("Draw")
    g = battle(options={"end": "agreement"})
    act(g, {"type": "activate", "unit": "red.0", "action": "signal"},
        {"signal.objective": "5", "signal.shoot.target": "hold"})
    g.play({"type": "end"})
    assert g.state.winner == "red" and g.state.vp == {"red": 4, "black": 0}
    view = RULESET.view(g.state)
    assert view.over and view.result.startswith("Red wins 4-0")


def test_board_view_cells_and_deck() -> None:
    g = battle()
    view = RULESET.view(g.state)
    assert view.columns == ("Unit", "Figs", "Shields", "Skill", "Token", "Where", "Status",
                            "Cmd")
    alpha = view.units["red"][0]
    assert alpha.cells == ("Alpha", "7/7", "3/3 L", "Regular", "", "entered", "", "2")
    assert view.units["red"][2].cells[5] == "off-table"
    assert view.deck.current == "A♥" and view.deck.colour == "red"
    assert view.deck.grants == "Red: 3 activations, 0 used"
    assert view.deck.recent[-1] == "A♥" and len(view.deck.recent) <= 5
    assert view.prompt == "Red to activate (3 of 3 left)"
    assert len(view.objectives) == 5
    assert view.score_lines == ("Red 0 VP", "Black 0 VP")


def test_score_lines_name_each_reason() -> None:
    g = battle()
    act(g, {"type": "activate", "unit": "red.0", "action": "signal"},
        {"signal.objective": "3", "signal.shoot.target": "hold"})
    assert RULESET.view(g.state).score_lines[0] == 'Red 2 VP: objective 3 at 12" (2)'


def test_help_sections_cover_the_rules() -> None:
    sections = RULESET.help_sections()
    assert len(sections) >= 10
    assert all(title and len(text) > 100 for title, text in sections)


def test_the_result_gives_the_winners_score_first_issue_26() -> None:
    """"Black wins 5-9" read as a loss: the winner's score comes first."""
    g = battle(options={"end": "agreement"})
    act(g, {"type": "activate", "unit": "red.0", "action": "signal"},
        {"signal.objective": "5", "signal.shoot.target": "hold"})
    g.play({"type": "end"})
    s = g.state
    s.vp, s.winner = {"red": 5, "black": 9}, "black"  # as if Black had scored more
    assert RULESET.view(s).result.startswith("Black wins 9-5 (")

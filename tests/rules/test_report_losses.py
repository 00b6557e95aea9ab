"""The report's "Lost" counts every figure out of the game, whatever removed it
(issue 22): casualties credited to an enemy unit, and a rout (PS §7), a failed
morale test that makes a unit flee (DZ3 §10), panic (CL §7), a vehicle blown up
(DZ3 §9), poison (DT §7), none of them credited to a unit."""

from __future__ import annotations

import random

import pytest
from test_report_properties import PAIRS, new_game, play_random

from deathzap_tui.rules.game import Game
from deathzap_tui.rules.report import build_report
from deathzap_tui.rules.ruleset import SIDES


def standing(game: Game, side: str) -> int:
    """The figures ``side`` still has in the fight: those alive in units the board
    does not show as gone."""
    rows = game.ruleset.view(game.state).units[side]
    return sum(game.state.unit(row.id).figures_left for row in rows if not row.gone)


def starting(game: Game, side: str) -> int:
    state = game.ruleset.new_state(game.red, game.black, game.options, game.seed,
                                   game.deal_seed)
    return sum(len(unit.figures) for unit in state.units[side])


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("ruleset", list(PAIRS))
def test_a_sides_losses_are_every_figure_it_no_longer_has(ruleset: str, seed: int) -> None:
    game = new_game(ruleset, seed)
    play_random(game, random.Random(seed), 250)
    report = build_report(game)
    for side in SIDES:
        lost = sum(u.figures_lost for u in report.units if u.side == side)
        assert lost == starting(game, side) - standing(game, side), side
    gone = [u for u in report.units if u.gone]
    for unit in gone:  # fled or destroyed: none of its figures is in the fight
        assert unit.figures_lost >= game.state.unit(unit.id).figures_left

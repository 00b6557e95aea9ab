"""The report reads only each event's score and turn (issue 21: ``Ruleset.tally``,
from each plugin's view module, instead of a whole view per event): the report is the
one the view-based reading gives, on every ruleset's golden game and on random games
(undo and redo included); and every plugin's tally is its view's score and turn."""

from __future__ import annotations

import random

import pytest
from conformance_kit import golden
from fixtures_common import play_random_action
from shipped import shipped_forces

from deathzap_tui.forcefile import load_force
from deathzap_tui.rules import registry
from deathzap_tui.rules.game import Game
from deathzap_tui.rules.report import GameReport, build_report
from deathzap_tui.rules.ruleset import END, PackageRuleset, Ruleset


def by_views(game: Game, monkeypatch: pytest.MonkeyPatch) -> GameReport:
    """The report as it was built before issue 21: a whole view after every event."""
    with monkeypatch.context() as patch:
        patch.setattr(PackageRuleset, "tally", Ruleset.tally)
        return build_report(game)


def random_game(ruleset_id: str, seed: int, actions: int) -> Game:
    red, black = (load_force(path) for path in shipped_forces(ruleset_id))
    game = Game(red.ruleset, red.force, black.force, red.ruleset.options(), seed)
    rnd = random.Random(seed)
    for _ in range(actions):
        if game.ruleset.is_over(game.state) or not play_random_action(game, rnd,
                                                                      skip=(END,)):
            break
        if game.can_undo and rnd.random() < 0.15:
            game.undo()
            if rnd.random() < 0.5:
                game.redo()
    return game


@pytest.mark.parametrize("ruleset_id", registry.ids())
def test_the_golden_games_report_is_the_one_whole_views_give(
        ruleset_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    game = golden(ruleset_id).played.game
    fast = build_report(game)
    assert fast == by_views(game, monkeypatch)
    assert fast.to_json() == by_views(game, monkeypatch).to_json()
    assert len(fast.series) > 2  # the score moved: the series is worth comparing


@pytest.mark.slow
@pytest.mark.parametrize("seed", [5, 6])
@pytest.mark.parametrize("ruleset_id", registry.ids())
def test_a_random_games_report_is_the_one_whole_views_give(
        ruleset_id: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    game = random_game(ruleset_id, seed, 150)
    assert build_report(game).to_json() == by_views(game, monkeypatch).to_json()


@pytest.mark.parametrize("ruleset_id", registry.ids())
def test_every_plugins_tally_is_its_views_score_and_turn(ruleset_id: str) -> None:
    game = random_game(ruleset_id, 9, 120)
    ruleset = game.ruleset
    start = ruleset.new_state(game.red, game.black, game.options, game.seed, game.deal_seed)
    assert ruleset.tally(start) == Ruleset.tally(ruleset, start)
    turns = set()
    for _event, res in game.replay(game.events()):  # one state, moved on event by event
        tally = ruleset.tally(res.ctx.state)
        assert tally == Ruleset.tally(ruleset, res.ctx.state)
        turns.add(tally[1])
    assert turns

"""Every registered ruleset plays to its end by random legal play with generated
dice; replaying its log gives the same state; an undo puts the dice back where they
were (issue 20)."""

from __future__ import annotations

import copy
import random

import pytest
from conformance_kit import new_game, play, play_to_end
from fixtures_common import play_random_action

from deathzap_tui.rules.game import Game
from deathzap_tui.rules.ruleset import END


@pytest.mark.parametrize("seed", [1, 2])
def test_random_legal_play_reaches_the_end(ruleset_id: str, seed: int) -> None:
    game = new_game(ruleset_id, seed)
    assert not game.ruleset.is_over(game.state)
    played = play_to_end(game, random.Random(seed))
    assert played > 0
    view = game.ruleset.view(game.state)
    assert view.over and view.result, "an ended game says how it ended"
    assert all(o.group == END for o in game.ruleset.intents(game.state)) or \
        not game.ruleset.intents(game.state), "nothing left to play once the game is over"


@pytest.mark.parametrize("seed", [3, 4])
def test_replaying_the_log_gives_the_same_state(ruleset_id: str, seed: int) -> None:
    game = new_game(ruleset_id, seed, deal_seed=seed * 7)
    rnd = random.Random(seed)
    for _ in range(40):  # undo and redo along the way: the log keeps them
        play(game, rnd, 5)
        if game.can_undo and rnd.random() < 0.5:
            game.undo()
            if rnd.random() < 0.5:
                game.redo()
    play_to_end(game, rnd)
    again = Game(game.ruleset, game.red, game.black, game.options, game.seed, game.log,
                 deal_seed=game.deal_seed)
    assert again.state == game.state
    assert again.history() == game.history()


def test_undo_restores_the_rng(ruleset_id: str) -> None:
    game = new_game(ruleset_id, 5, deal_seed=11)
    rnd = random.Random(5)
    moved = 0
    while not game.ruleset.is_over(game.state) and moved < 12:
        before = copy.deepcopy(game.state)
        if not play_random_action(game, rnd, skip=(END,)):
            break
        after = copy.deepcopy(game.state)
        if after.rng != before.rng:
            moved += 1
        game.undo()
        assert game.state.rng == before.rng, "undo puts the dice back"
        assert game.state == before
        game.redo()
        assert game.state == after, "redo plays the same dice again"
    assert moved, "no action rolled a die"

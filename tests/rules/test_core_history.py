"""The kept history (issue 11): undo and redo from checkpoints give exactly the state a
full replay of the log gives, and the narration is kept, not replayed."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from dz3_fixtures import play_random_action
from hypothesis import given, settings
from hypothesis import strategies as st

from deathzap_tui.forcefile import load_force
from deathzap_tui.rules import game as game_module
from deathzap_tui.rules.game import Game
from deathzap_tui.session import Session

FORCES = Path(__file__).resolve().parents[2] / "forces"


def _game(seed: int) -> Game:
    red = load_force(FORCES / "mortans-men.toml")
    black = load_force(FORCES / "gutter-saints.toml")
    return Game(red.ruleset, red.force, black.force, red.ruleset.options(), seed)


def _replayed(game: Game) -> Game:
    return Game(game.ruleset, game.red, game.black, game.options, game.seed, game.log)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), moves=st.lists(st.sampled_from("aaaauur"), max_size=40))
def test_undo_and_redo_from_checkpoints_equal_a_full_replay(
        seed: int, moves: list[str]) -> None:
    old = game_module.CHECKPOINT_EVERY
    game_module.CHECKPOINT_EVERY = 3  # many checkpoints, and branches past them
    try:
        game = _game(seed)
        rnd = random.Random(seed)
        for move in moves:
            if game.ruleset.is_over(game.state):
                break
            if move == "a":
                play_random_action(game, rnd)
            elif move == "u" and game.can_undo:
                game.undo()
            elif move == "r" and game.can_redo:
                game.redo()
        again = _replayed(game)
        assert game.state == again.state
        assert (game.can_undo, game.can_redo) == (again.can_undo, again.can_redo)
        assert [n.text for _e, ns in game.history() for n in ns] == \
               [n.text for _e, ns in again.history() for n in ns]
    finally:
        game_module.CHECKPOINT_EVERY = old


def test_narrative_is_kept_not_replayed(monkeypatch: pytest.MonkeyPatch) -> None:
    session = Session(_game(3), None)
    rnd = random.Random(3)
    for _ in range(10):
        play_random_action(session.game, rnd)
    before = session.narrative()
    monkeypatch.setattr(Game, "_resolve", lambda *a, **k: pytest.fail("replayed"))
    assert session.narrative() == before

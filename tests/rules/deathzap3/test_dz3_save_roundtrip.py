"""Property: any game, saved and loaded, is the same game (issue 2)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from dz3_fixtures import new_game, play_random_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deathzap_tui import saves
from deathzap_tui.forcefile import load_force

FORCES = Path(__file__).resolve().parents[3] / "forces"
RED = load_force(FORCES / "mortans-men.toml").force
BLACK = load_force(FORCES / "gutter-saints.toml").force


@pytest.mark.slow
@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31 - 1), actions=st.integers(0, 40),
       undo_rate=st.sampled_from([0.0, 0.2]),
       options=st.sampled_from([{}, {"deck": "half"}, {"morale": "per-casualty"}]))
def test_save_then_load_round_trips(tmp_path: Path, seed: int, actions: int,
                                    undo_rate: float, options: dict) -> None:
    game = new_game(RED, BLACK, seed=seed, options=options)
    play_random_game(game, random.Random(seed), max_actions=actions, undo_rate=undo_rate)
    path = tmp_path / "rt.toml"
    saves.save_game(game, path)
    loaded = saves.load_game(path)
    assert loaded.state == game.state
    assert loaded.log == game.log
    assert loaded.can_undo == game.can_undo and loaded.can_redo == game.can_redo

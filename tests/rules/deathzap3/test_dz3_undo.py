"""Undo, redo and replay of Deathzap 3 games (architecture ideas 2 and 3)."""

from __future__ import annotations

import random

from dz3_fixtures import ROLL, act, battle, new_game, play_random_game

BRAVO = {"type": "activate", "unit": "red.1", "action": "advance"}
ANSWERS = {"shoot.target": "black.1", "shoot.range.black.1": "yes", "shoot.order.1": "0"}


def test_undo_and_redo_whole_actions() -> None:
    g = battle()
    before = g.state.snapshot()
    act(g, BRAVO, ANSWERS, dice=ROLL)
    after = g.state.snapshot()
    assert after != before
    g.undo()
    assert g.state.snapshot() == before
    g.redo()
    assert g.state.snapshot() == after


def test_undo_then_redo_of_generated_dice_gives_the_same_dice() -> None:
    g = battle()
    e1 = g.log[-1]
    assert e1
    act(g, BRAVO, ANSWERS, dice=ROLL)
    faces = g.log[-1].data["answers"]
    g.undo()
    act(g, BRAVO, ANSWERS, dice=ROLL)  # playing it again rolls the same RNG
    assert g.log[-1].data["answers"] == faces
    g.undo()
    g.redo()
    assert g.state == new_game(log=g.log).state


def test_replaying_a_random_game_gives_the_same_state() -> None:
    g = play_random_game(new_game(seed=5), random.Random(5), max_actions=150, undo_rate=0.03)
    again = new_game(seed=5, log=g.log)
    assert again.state == g.state

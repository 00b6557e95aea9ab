"""A whole scripted advanced Deathzap Classic game between the two example forces:
six turns of impetus, movement (contacts, a rally by merging), simultaneous shooting,
melee and morale, the objectives rolled and scored, played with given dice, saved,
reloaded and printed by ``deathzap log``; the narrative must match
``tests/golden/cl_game.txt`` line for line.

The script is deterministic: choices come from a seeded ``random.Random`` (questions
take their defaults 80% of the time) and every die is entered as faces from a second
one (physical-dice entry, not ``ROLL``). Rebuild the golden file on purpose with
``DEATHZAP_REGOLD=1`` and read the diff.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from cl_fixtures import FORCES, play_random_game
from fixtures_common import given_dice
from golden_games import assert_golden, play_once

from deathzap_tui.cli import main
from deathzap_tui.session import Session

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "tests" / "golden" / "cl_game.txt"


def script() -> Session:
    """The golden game, played (:func:`golden_games.play_once` plays it once)."""
    session = Session.new(FORCES / "cl-red-dawn-irregulars.toml",
                          FORCES / "cl-black-maw-brood.toml", seed=2026,
                          options={"game": "advanced"}, save_path="cl-golden")
    play_random_game(session.game, random.Random(60), max_actions=2000,
                     dice=given_dice(157), defaults=0.8)
    return session


def play_scripted_game() -> Session:
    """The golden game as a session of the caller's own, saved in its saves folder."""
    return play_once(script).resumed()


def test_scripted_game_matches_the_golden_narrative(
        saves_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    golden = play_once(script)
    state = golden.played.game.state
    assert golden.played.over and state.turn == 6, "the game must be played to its last turn"
    kinds = {e.data["intent"]["type"] for e in golden.played.game.log}
    assert {"rolloff", "generals", "next", "engage", "merge", "shoot", "fight"} <= kinds
    golden.saved()
    assert main(["log", "cl-golden"]) == 0
    text = capsys.readouterr().out
    assert_golden(text, GOLDEN)


def test_saved_game_reloads_to_the_same_state(saves_dir: Path) -> None:
    golden = play_once(script)
    again = golden.resumed()
    assert again.game.state == golden.played.game.state
    assert again.narrative() == golden.played.narrative()

"""A whole scripted Deathzap 3 game between two shipped forces, played to the end
with given dice, saved, reloaded and printed by ``deathzap log``; the narrative must
match ``tests/golden/dz3_game.txt`` line for line.

The script is deterministic: choices come from a seeded ``random.Random`` and every
die is entered as faces from a second one (physical-dice entry, not ``ROLL``).
Rebuild the golden file on purpose with ``DEATHZAP_REGOLD=1`` and read the diff.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from dz3_fixtures import play_random_game
from fixtures_common import given_dice
from golden_games import assert_golden, play_once

from deathzap_tui.cli import main
from deathzap_tui.session import Session

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "tests" / "golden" / "dz3_game.txt"


def script() -> Session:
    """The golden game, played (:func:`golden_games.play_once` plays it once)."""
    session = Session.new(ROOT / "forces" / "mortans-men.toml",
                          ROOT / "forces" / "gutter-saints.toml",
                          seed=2026, options={"deck": "half"}, save_path="golden",
                          deal_seed=2026)  # the secret seed, fixed: the same deck every run
    play_random_game(session.game, random.Random(7), max_actions=2000,
                     dice=given_dice(11))
    return session


def play_scripted_game() -> Session:
    """The golden game as a session of the caller's own, saved in its saves folder."""
    return play_once(script).resumed()


def test_scripted_game_matches_the_golden_narrative(
        saves_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    golden = play_once(script)
    assert golden.played.over, "the scripted game must be played to the end"
    golden.saved()
    assert main(["log", "golden"]) == 0
    text = capsys.readouterr().out
    assert_golden(text, GOLDEN)


def test_log_reads_a_save_file_outside_the_saves_folder(
        saves_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    elsewhere = tmp_path / "sent-by-a-friend.toml"
    elsewhere.write_bytes(play_once(script).save)
    assert main(["log", str(elsewhere)]) == 0
    assert capsys.readouterr().out == GOLDEN.read_text(encoding="utf-8")


def test_saved_game_reloads_to_the_same_state(saves_dir: Path) -> None:
    golden = play_once(script)
    again = golden.resumed()
    assert again.game.state == golden.played.game.state
    assert again.narrative() == golden.played.narrative()

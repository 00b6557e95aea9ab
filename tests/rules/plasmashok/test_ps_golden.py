"""A whole scripted Deathzap Plasmashok game between the two demo forces: four turns
of movement roll-offs and contacts, special combat, shooting and melee bracket by
bracket, end-of-melee rolls, morale and the end on points lost (PS §1-§8), played
with given dice, saved, reloaded and printed by ``deathzap log``; the narrative must
match ``tests/golden/ps_game.txt`` line for line.

The script is deterministic: every unit offered acts, in the order offered, before the
game moves on; the beasts charge in turn 2 and the siege engine in turn 3; questions
take their defaults; every die is entered as faces from a seeded ``random.Random``
(physical-dice entry, not ``ROLL``). Rebuild the golden file on purpose with
``DEATHZAP_REGOLD=1`` and read the diff.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fixtures_common import given_dice
from golden_games import assert_golden, play_once
from ps_fixtures import FORCES, play_script

from deathzap_tui.cli import main
from deathzap_tui.session import Session

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "tests" / "golden" / "ps_game.txt"
MOVES = {
    (2, "black"): [("black.0", "red.1"), ("black.1", "red.0"), ("black.3", "red.3")],
    (2, "red"): [("red.2", "black.2")],
    (3, "red"): [("red.4", "black.4")],
    (3, "black"): [("black.4", "red.4")],
}
"""(turn, side) -> the contacts that side makes when it moves: Thorn Hounds on the
Line Choristers, Briar Stalkers on the Choir Wardens, Old Tusks on the Arc Skiffs, the
Novice Chorus on the Grove Tenders; then the Cantor Engine and the Rootmother meet."""


def script() -> Session:
    """The golden game, played (:func:`golden_games.play_once` plays it once)."""
    session = Session.new(FORCES / "ps-iron-choir.toml", FORCES / "ps-verdant-swarm.toml",
                          seed=2026, save_path="ps-golden")
    play_script(session.game, given_dice(4242), MOVES)
    return session


def play_scripted_game() -> Session:
    """The golden game as a session of the caller's own, saved in its saves folder."""
    return play_once(script).resumed()


def test_ps_scripted_game_matches_the_golden_narrative_ps_s3_s8(
        saves_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    golden = play_once(script)
    state = golden.played.game.state
    assert golden.played.over and state.turn == 4, "the game must be played to its last turn"
    kinds = {e.data["intent"]["type"] for e in golden.played.game.log}
    assert kinds == {"rolloff", "next", "engage", "special", "shoot", "fight"}
    golden.saved()
    assert main(["log", "ps-golden"]) == 0
    text = capsys.readouterr().out
    assert_golden(text, GOLDEN)


def test_ps_saved_game_reloads_to_the_same_state_ps_s3(saves_dir: Path) -> None:
    golden = play_once(script)
    again = golden.resumed()
    assert again.game.state == golden.played.game.state
    assert again.narrative() == golden.played.narrative()

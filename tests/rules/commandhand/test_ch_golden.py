"""A whole scripted Command Hand game between the two shipped ``ch-*`` forces,
played to the end with given dice; its narrative (every ``ctx.say`` line of every
effective event, through ``Game.replay``) must match ``tests/golden/ch_game.txt``
line for line.

The script is deterministic: choices come from a seeded ``random.Random`` (interrupts
included) and every die is entered as faces from a second one (physical-dice entry,
not ``ROLL``). Rebuild the golden file on purpose with ``DEATHZAP_REGOLD=1`` and read
the diff.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from ch_fixtures import FORCES, given_dice, narrative, play_random_game
from golden_games import assert_golden, play_once

from deathzap_tui.cli import main
from deathzap_tui.rules.commandhand import RULESET
from deathzap_tui.rules.game import Game
from deathzap_tui.session import Session

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "ch_game.txt"


DEAL_SEED = 2026
"""The game's secret deal seed, fixed so that the hands and the deck are the same
every run (a new game draws its own, ``Session.new``)."""


def script() -> Session:
    """The golden game, played (:func:`golden_games.play_once` plays it once)."""
    session = Session.new(FORCES / "ch-ironbark-rangers.toml",
                          FORCES / "ch-cinder-collective.toml", seed=2026,
                          save_path="ch-golden", deal_seed=DEAL_SEED)
    play_random_game(session.game, random.Random(7), max_actions=2000, dice=given_dice(11))
    return session


def transcript(game: Game) -> str:
    head = (f"{game.red.name} (red) vs {game.black.name} (black) — {RULESET.title}, "
            f"seed {game.seed}")
    view = RULESET.view(game.state)
    return "\n".join([head, *narrative(game), "", view.result or view.prompt,
                      *view.score_lines]) + "\n"


def test_scripted_game_matches_the_golden_narrative() -> None:
    game = play_once(script).played.game
    assert game.state.over, "the scripted game must be played to the end"
    kinds = {e.data["intent"]["type"] for e in game.log}
    assert {"interrupt", "pass", "activate", "draw"} <= kinds
    text = transcript(game)
    assert_golden(text, GOLDEN)


def test_a_command_hand_game_saves_resumes_and_logs(
        saves_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    golden = play_once(script)
    again = golden.resumed()
    assert again.game.state == golden.played.game.state
    assert main(["log", "ch-golden"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1:-4] == transcript(golden.played.game).splitlines()[1:-4]

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

import os
import random
from pathlib import Path

from ch_fixtures import cinders, given_dice, narrative, play_random_game, rangers

from deathzap_tui.rules.commandhand import RULESET
from deathzap_tui.rules.game import Game

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "ch_game.txt"


DEAL_SEED = 2026
"""The game's secret deal seed, fixed so that the hands and the deck are the same
every run (a new game draws its own, ``Session.new``)."""


def play_scripted_game() -> Game:
    game = Game(RULESET, rangers(), cinders(), RULESET.options(), 2026, deal_seed=DEAL_SEED)
    play_random_game(game, random.Random(7), max_actions=2000, dice=given_dice(11))
    return game


def transcript(game: Game) -> str:
    head = (f"{game.red.name} (red) vs {game.black.name} (black) — {RULESET.title}, "
            f"seed {game.seed}")
    view = RULESET.view(game.state)
    return "\n".join([head, *narrative(game), "", view.result or view.prompt,
                      *view.score_lines]) + "\n"


def test_scripted_game_matches_the_golden_narrative() -> None:
    game = play_scripted_game()
    assert game.state.over, "the scripted game must be played to the end"
    kinds = {e.data["intent"]["type"] for e in game.log}
    assert {"interrupt", "pass", "activate", "draw"} <= kinds
    text = transcript(game)
    if os.environ.get("DEATHZAP_REGOLD"):
        GOLDEN.write_text(text, encoding="utf-8")
    assert text == GOLDEN.read_text(encoding="utf-8")


def test_a_command_hand_game_saves_resumes_and_logs(
        tmp_path: Path, monkeypatch, capsys) -> None:
    from deathzap_tui.cli import main
    from deathzap_tui.session import Session

    monkeypatch.setenv("DEATHZAP_SAVES_DIR", str(tmp_path))
    forces = Path(__file__).resolve().parents[3] / "forces"
    session = Session.new(forces / "ch-ironbark-rangers.toml",
                          forces / "ch-cinder-collective.toml", seed=2026, save_path="ch",
                          deal_seed=DEAL_SEED)
    play_random_game(session.game, random.Random(7), max_actions=2000, dice=given_dice(11))
    session.save()
    again = Session.resume("ch")
    assert again.game.state == session.game.state
    assert main(["log", "ch"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1:-4] == transcript(session.game).splitlines()[1:-4]

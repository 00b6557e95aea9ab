"""A generic golden playthrough of every registered ruleset (issue 20): its shipped
forces, random legal choices and typed-in dice from fixed seeds, to the end, saved and
printed by ``deathzap log``; the text must match ``tests/golden/conformance/ID.txt``
line for line. Write (or rewrite, on purpose) a ruleset's file with
``DEATHZAP_REGOLD=1`` and read it before committing."""

from __future__ import annotations

from pathlib import Path

import pytest
from conformance_kit import GOLDEN, golden
from golden_games import assert_golden

from deathzap_tui.cli import main
from deathzap_tui.session import Session


def test_golden_playthrough(ruleset_id: str, saves_dir: Path,
                            capsys: pytest.CaptureFixture[str]) -> None:
    playthrough = golden(ruleset_id)
    assert playthrough.played.over
    playthrough.saved()
    assert main(["log", f"conformance-{ruleset_id}"]) == 0
    text = capsys.readouterr().out
    assert_golden(text, GOLDEN / f"{ruleset_id}.txt")
    again = Session.resume(f"conformance-{ruleset_id}")
    assert again.game.state == playthrough.played.game.state

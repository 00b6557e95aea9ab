"""A generic golden playthrough of every registered ruleset (issue 20): its shipped
forces, random legal choices and typed-in dice from fixed seeds, to the end, saved and
printed by ``deathzap log``; the text must match ``tests/golden/conformance/ID.txt``
line for line. Write (or rewrite, on purpose) a ruleset's file with
``DEATHZAP_REGOLD=1`` and read it before committing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conformance_kit import GOLDEN, golden

from deathzap_tui.cli import main
from deathzap_tui.session import Session


def test_golden_playthrough(ruleset_id: str, saves_dir: Path,
                            capsys: pytest.CaptureFixture[str]) -> None:
    playthrough = golden(ruleset_id)
    assert playthrough.played.over
    playthrough.saved()
    assert main(["log", f"conformance-{ruleset_id}"]) == 0
    text = capsys.readouterr().out
    expected = GOLDEN / f"{ruleset_id}.txt"
    if os.environ.get("DEATHZAP_REGOLD"):
        expected.write_text(text, encoding="utf-8")
    assert expected.exists(), f"no golden playthrough for {ruleset_id}: write {expected} " \
                              "with DEATHZAP_REGOLD=1 and read it"
    assert text == expected.read_text(encoding="utf-8")
    again = Session.resume(f"conformance-{ruleset_id}")
    assert again.game.state == playthrough.played.game.state

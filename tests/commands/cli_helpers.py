"""Test helpers for the ``deathzap`` commands, shared by the rulesets' command tests
(an importable module, like ``force_texts``): a run's JSON, and a refusal's one line."""

from __future__ import annotations

import json
from typing import Any

from deathzap_tui.cli import main


def run_json(capsys: Any, argv: list[str]) -> Any:
    """``deathzap *argv --json``: exit 0 and its output read back."""
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def fails(capsys: Any, argv: list[str]) -> str:
    """``deathzap *argv``: exit 2 with one line on stderr, returned."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"deathzap {argv[0]}: ") and err.count("\n") == 1
    return err

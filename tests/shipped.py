"""The shipped force files, by ruleset: the tests that run every registered ruleset
(``registry.ids()``) play its shipped pair."""

from __future__ import annotations

import tomllib
from pathlib import Path

from deathzap_tui.paths import PROJECT_ROOT


def shipped_forces(ruleset_id: str) -> tuple[Path, Path]:
    """Two shipped force files of the ruleset (every ruleset ships a pair)."""
    paths = sorted(p for p in (PROJECT_ROOT / "forces").glob("*.toml")
                   if tomllib.loads(p.read_text(encoding="utf-8")).get("ruleset") == ruleset_id)
    assert len(paths) >= 2, f"no two shipped forces for {ruleset_id}"
    return paths[0], paths[1]

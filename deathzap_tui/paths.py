"""Where forces and saves live.

In a checkout (the README's way of running) they are the repository's ``forces/``
and ``saves/``. ``DEATHZAP_SAVES_DIR`` / ``DEATHZAP_FORCES_DIR`` override them (the
tests use this); an installed copy without a checkout falls back to the user's data
directory.
"""

from __future__ import annotations

import os
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def _dir(env: str, name: str) -> Path:
    if os.environ.get(env):
        return Path(os.environ[env]).expanduser()
    if (PROJECT_ROOT / name).is_dir():
        return PROJECT_ROOT / name
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "deathzap-tui" / name


def saves_dir() -> Path:
    return _dir("DEATHZAP_SAVES_DIR", "saves")


def forces_dir() -> Path:
    return _dir("DEATHZAP_FORCES_DIR", "forces")

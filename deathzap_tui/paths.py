"""Where forces and saves live.

In a checkout (the README's way of running) they are the repository's ``forces/``
and ``saves/``. ``DEATHZAP_SAVES_DIR`` / ``DEATHZAP_FORCES_DIR`` override them (the
tests use this); an installed copy without a checkout falls back to the user's data
directory.
"""

from __future__ import annotations

import os
import secrets
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


KEY_BYTES = 32


def cache_key() -> bytes | None:
    """This user's secret key for save caches (``savecache``): created on first use
    as a 0600 file in the user's data directory, never in the saves folder (a save
    sent to a friend must not carry it). ``DEATHZAP_CACHE_KEY`` names another file
    (the tests). ``None`` when it can be neither read nor made: no caching then."""
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    path = Path(os.environ.get("DEATHZAP_CACHE_KEY") or base / "deathzap-tui" / "cache.key")
    try:
        key = path.read_bytes()
        return key if len(key) == KEY_BYTES else None
    except FileNotFoundError:
        pass
    except OSError:
        return None
    key = secrets.token_bytes(KEY_BYTES)
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # made meanwhile by another process: use that one
        return cache_key()
    except OSError:
        return None
    with os.fdopen(fd, "wb") as f:
        f.write(key)
    return key

"""Where forces and saves live.

In a checkout (the README's way of running) they are the repository's ``forces/``
and ``saves/``. ``DEATHZAP_SAVES_DIR`` / ``DEATHZAP_FORCES_DIR`` override them (the
tests use this); an installed copy without a checkout falls back to the user's data
directory.
"""

from __future__ import annotations

import os
import secrets
import tempfile
from pathlib import Path

from deathzap_tui.safefiles import open_regular

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
    """This user's secret key for save caches (``savecache``): made on first use as a
    0600 file in the user's data directory, never in the saves folder (a save sent to
    a friend must not carry it). ``DEATHZAP_CACHE_KEY`` names another file (the
    tests). ``None`` when it cannot be read or made, or when it is not this user's
    own private file (others could sign caches with it): no caching then."""
    path = _key_path()
    try:
        fd = open_regular(path, os.O_RDONLY)
    except FileNotFoundError:
        return _make_key(path)
    except OSError:  # a link, a FIFO...
        return None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if st.st_uid != os.getuid() or st.st_mode & 0o077:
            return None
        key = f.read(KEY_BYTES + 1)
    return key if len(key) == KEY_BYTES else None


def _key_path() -> Path:
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return Path(os.environ.get("DEATHZAP_CACHE_KEY") or base / "deathzap-tui" / "cache.key")


def kept_styles_path() -> Path:
    """Where the app keeps its parsed style sheets (``app/stylecache.py``): beside the
    key that signs them (so the tests' own key keeps their own)."""
    return _key_path().parent / "styles.kept"


def kept_forces_path() -> Path:
    """Where the start screen keeps what it says of force files (``forcesummary.py``),
    beside the key that signs it."""
    return _key_path().parent / "forces.kept"


def _make_key(path: Path) -> bytes | None:
    """Write a new key whole (a temporary file, then linked into place, so that no
    reader ever sees half a key); if another process made one meanwhile, use that."""
    key = secrets.token_bytes(KEY_BYTES)
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".key.")  # mode 0600
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(key)
                f.flush()
                os.fsync(f.fileno())
            os.link(tmp, path)
        finally:
            os.unlink(tmp)
    except FileExistsError:
        return cache_key()
    except OSError:
        return None
    return key

"""What the files the app keeps beside a save (its cache, a finished game's report,
its summary) are signed with and keyed on: this user's key, the code that made them
(:func:`code_identity`) and the save's files they were made from
(:func:`fingerprint`). Kept apart from :mod:`.savecache` so that listing the saves
(:mod:`.savelist`) reads a summary without importing the game's code (issue 21)."""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from deathzap_tui import __version__
from deathzap_tui.paths import cache_key
from deathzap_tui.rules import RULES_VERSION
from deathzap_tui.safefiles import read_regular


def fingerprint(snapshot: bytes, journal: bytes) -> hashlib._Hash:
    """A running hash of the save files: extend it with each journal line written."""
    digest = hashlib.sha256(len(snapshot).to_bytes(8, "big"))
    digest.update(snapshot)
    digest.update(journal)
    return digest


def code_identity() -> bytes:
    """Which code made a cache, a kept report or a summary: the rules' version
    (:data:`RULES_VERSION`, bumped with any change to what a replay gives or to the
    state's classes), the release, and the Python that pickled it. A file from other
    code is ignored rather than trusted to hold the same kind of thing; reinstalling
    the same code keeps it (issue 21)."""
    python = ".".join(map(str, sys.version_info[:2]))
    return f"rules {RULES_VERSION}, deathzap {__version__}, python {python}".encode()


def sign(path: Path, magic: bytes, payload: Callable[[], bytes]) -> None:
    """Write ``payload()`` (made only if there is a key; what it raises is the
    caller's) signed with this user's key, atomically, to ``path``; nothing without a
    key. A file that cannot be written is not written: never raises ``OSError``."""
    key = cache_key()
    if key is None:
        return
    data = payload()
    mac = hmac.new(key, data, "sha256").digest()
    tmp = ""
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as f:
            f.write(magic + mac + data)
        os.replace(tmp, path)
    except OSError:
        if tmp:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def signed(path: Path, magic: bytes, limit: int) -> bytes | None:
    """The payload :func:`sign` wrote to ``path`` (a file of at most ``limit`` bytes),
    if this user's key signed it; ``None`` if there is no such file, no key, or the
    signature is not this user's (never raises)."""
    key = cache_key()
    if key is None:
        return None
    try:
        raw = read_regular(path, limit)
    except OSError:
        return None
    head, size = len(magic), hashlib.sha256().digest_size
    if not raw.startswith(magic) or len(raw) < head + size:
        return None
    mac, payload = raw[head:head + size], raw[head + size:]
    if not hmac.compare_digest(mac, hmac.new(key, payload, "sha256").digest()):
        return None
    return payload

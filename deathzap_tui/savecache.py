"""A save's cache: the game after its events so far, so that resuming a long game
does not replay it (issue 11: resume of a 5,000-event game under 50 ms).

``NAME.toml.cache`` beside the save holds a :class:`~deathzap_tui.rules.game.Resumable`
(the state, the events in force, the notes of the last ones), the fingerprint of the
save files it was made from (the snapshot's bytes and the journal's first bytes) and
the identity of the rules code that made it. It is only a cache: missing, stale,
written by other code or unreadable, it is ignored and the log is replayed, as
"events are the truth" says. Nothing in it is needed to play on.

It is a pickle, and unpickling runs code of the file's choosing, so a cache is read
only if it carries an HMAC made with this user's key (:func:`paths.cache_key`, a 0600
file outside the saves folder): a cache sent along with a save, or written by
somebody else, is ignored. Written without fsync: a cache lost in a crash is made
again (every :data:`WRITE_EVERY` events and whenever a writer opens the save).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import hmac
import os
import pickle
import tempfile
from pathlib import Path

from deathzap_tui.paths import PROJECT_ROOT, cache_key
from deathzap_tui.rules.game import Game, Resumable
from deathzap_tui.safefiles import read_regular
from deathzap_tui.saves import MAX_SAVE_BYTES, cache_path

MAGIC = b"deathzap-cache 1\n"
WRITE_EVERY = 64
"""Events between two caches written during play (a write costs a few ms)."""


def fingerprint(snapshot: bytes, journal: bytes) -> hashlib._Hash:
    """A running hash of the save files: extend it with each journal line written."""
    digest = hashlib.sha256(len(snapshot).to_bytes(8, "big"))
    digest.update(snapshot)
    digest.update(journal)
    return digest


@functools.cache
def code_identity() -> bytes:
    """Which rules code made a cache: a cache from other code (a newer checkout, an
    edited rule) is ignored rather than trusted to hold the same kind of state."""
    digest = hashlib.sha256()
    for path in sorted((PROJECT_ROOT / "deathzap_tui").rglob("*.py")):
        st = path.stat()
        digest.update(f"{path.relative_to(PROJECT_ROOT)}:{st.st_size}:{st.st_mtime_ns}\n"
                      .encode())
    return digest.digest()


def write(save: Path, game: Game, journal_bytes: int, files: bytes) -> None:
    """Cache ``game`` as it stands, made from the save's files whose fingerprint is
    ``files`` (the journal's first ``journal_bytes`` bytes). Never raises: a cache
    that cannot be written is only a slower resume."""
    key = cache_key()
    if key is None:
        return
    tmp = ""
    try:
        payload = pickle.dumps((code_identity(), journal_bytes, files, game.resumable()),
                               protocol=pickle.HIGHEST_PROTOCOL)
        mac = hmac.new(key, payload, "sha256").digest()
        fd, tmp = tempfile.mkstemp(prefix=f".{cache_path(save).name}.", suffix=".tmp",
                                   dir=save.parent)
        with os.fdopen(fd, "wb") as f:
            f.write(MAGIC + mac + payload)
        os.replace(tmp, cache_path(save))
    except (OSError, pickle.PicklingError, RecursionError, TypeError, AttributeError):
        if tmp:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def read(save: Path, snapshot: bytes, journal: bytes) -> Resumable | None:
    """The cached game if the cache was made by this user, from these files' first
    bytes and by this code; ``None`` otherwise (never raises)."""
    key = cache_key()
    if key is None:
        return None
    try:
        raw = read_regular(cache_path(save), MAX_SAVE_BYTES)
    except OSError:
        return None
    head, size = len(MAGIC), hashlib.sha256().digest_size
    if not raw.startswith(MAGIC) or len(raw) < head + size:
        return None
    mac, payload = raw[head:head + size], raw[head + size:]
    if not hmac.compare_digest(mac, hmac.new(key, payload, "sha256").digest()):
        return None
    try:
        code, journal_bytes, files, resumable = pickle.loads(payload)  # HMAC checked
    except Exception:  # an old cache of classes that changed: ignore it
        return None
    if (code != code_identity() or not isinstance(resumable, Resumable)
            or not 0 <= journal_bytes <= len(journal)
            or fingerprint(snapshot, journal[:journal_bytes]).digest() != files):
        return None
    return resumable


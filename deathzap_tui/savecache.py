"""A save's cache: the game after its events so far, so that resuming a long game
does not replay it (issue 11: resume of a 5,000-event game under 50 ms).

``NAME.toml.cache`` beside the save holds a :class:`~deathzap_tui.rules.game.Resumable`
(the state, the events in force, the notes of the last ones), the fingerprint of the
save files it was made from (the snapshot's bytes and the journal's first bytes) and
the identity of the rules code that made it (:func:`code_identity`: the version of
the rules, :data:`deathzap_tui.rules.RULES_VERSION`, not the files installed). A resume
reads only the journal's lines after those the cache was made from: the older events
stay undecoded bytes until somebody reads them (:class:`~.rules.events.EventLog`).
It is only a cache: missing, stale, written by other code or unreadable, it is
ignored and the log is replayed, as "events are the truth" says. Nothing in it is needed to play on.

It is a pickle, and unpickling runs code of the file's choosing, so a cache is read
only if it carries an HMAC made with this user's key (:func:`paths.cache_key`, a 0600
file outside the saves folder): a cache sent along with a save, or written by
somebody else, is ignored. Written without fsync: a cache lost in a crash is made
again (every :data:`WRITE_EVERY` events and whenever a writer opens the save).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import pickle
import sys
import tempfile
from pathlib import Path

from deathzap_tui import __version__
from deathzap_tui.paths import cache_key
from deathzap_tui.rules import RULES_VERSION
from deathzap_tui.rules.game import Game, Resumable
from deathzap_tui.safefiles import read_regular
from deathzap_tui.savepaths import MAX_SAVE_BYTES, cache_path

MAGIC = b"deathzap-cache 2\n"
"""The cache's own format; a cache of another (an older deathzap's) is ignored."""
WRITE_EVERY = 64
"""Events between two caches written during play (a write costs a few ms)."""


def fingerprint(snapshot: bytes, journal: bytes) -> hashlib._Hash:
    """A running hash of the save files: extend it with each journal line written."""
    digest = hashlib.sha256(len(snapshot).to_bytes(8, "big"))
    digest.update(snapshot)
    digest.update(journal)
    return digest


def code_identity() -> bytes:
    """Which code made a cache: the rules' version (:data:`RULES_VERSION`, bumped with
    any change to what a replay gives or to the state's classes), the release, and the
    Python that pickled it. A cache from other code is ignored rather than trusted to
    hold the same kind of state; reinstalling the same code keeps it (issue 21)."""
    python = ".".join(map(str, sys.version_info[:2]))
    return f"rules {RULES_VERSION}, deathzap {__version__}, python {python}".encode()


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
    found = read_at(save, snapshot, journal)
    return None if found is None else found[0]


def read_at(save: Path, snapshot: bytes, journal: bytes) -> tuple[Resumable, int] | None:
    """:func:`read`, and how many of the journal's first bytes the cache holds (the
    events in the lines after them are the save's since the cache)."""
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
    return resumable, journal_bytes


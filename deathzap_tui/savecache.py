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
again (every :data:`WRITE_EVERY` events, and whenever a writer opens the save and the
cache does not hold the game as it stands).

A finished game's report is kept the same way, signed, in ``NAME.toml.report``
(:func:`write_report`, :func:`read_report`): ``deathzap report`` of a finished game
reads it instead of replaying the game (issue 21). It is keyed on everything the
report is made from (:func:`report_key`: the code, the game's header and its events
in force), so a report of other events, other forces or other code is never read.

How the game stands (:class:`~deathzap_tui.standing.Standing`: the ruleset's title,
whose move or the result) is kept the same way in ``NAME.toml.summary``
(:func:`write_summary`, :func:`read_summary`), JSON rather than a pickle, written by
the save's writer after every event it keeps and whenever it writes the cache or the
snapshot. It is read only when it was made from the save's files as they stand,
whole (the snapshot and every byte of the journal) and by this code: listing the
saves then says how each stands without loading its game (issue 21); a save without
a good one is loaded, as before.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import pickle
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deathzap_tui import __version__
from deathzap_tui.paths import cache_key
from deathzap_tui.rules import RULES_VERSION
from deathzap_tui.rules.events import Event
from deathzap_tui.rules.game import Game, Resumable
from deathzap_tui.safefiles import read_regular
from deathzap_tui.savepaths import MAX_SAVE_BYTES, cache_path, report_path, summary_path
from deathzap_tui.standing import Standing

if TYPE_CHECKING:
    from deathzap_tui.rules.report import GameReport

MAGIC = b"deathzap-cache 3\n"
"""The cache's own format; a cache of another (an older deathzap's) is ignored."""
REPORT_MAGIC = b"deathzap-report 1\n"
"""The stored report's own format."""
SUMMARY_MAGIC = b"deathzap-summary 1\n"
"""The summary's own format."""
MAX_SUMMARY_BYTES = 64 * 1024
"""The largest summary read (one is a few hundred bytes)."""
WRITE_EVERY = 64
"""Events between two caches written during play (a write costs a few ms)."""


def fingerprint(snapshot: bytes, journal: bytes) -> hashlib._Hash:
    """A running hash of the save files: extend it with each journal line written."""
    digest = hashlib.sha256(len(snapshot).to_bytes(8, "big"))
    digest.update(snapshot)
    digest.update(journal)
    return digest


def code_identity() -> bytes:
    """Which code made a cache or a kept report: the rules' version
    (:data:`RULES_VERSION`, bumped with any change to what a replay gives or to the
    state's classes), the release, and the Python that pickled it. A cache from other
    code is ignored rather than trusted to hold the same kind of state; reinstalling
    the same code keeps it (issue 21)."""
    python = ".".join(map(str, sys.version_info[:2]))
    return f"rules {RULES_VERSION}, deathzap {__version__}, python {python}".encode()


def write(save: Path, game: Game, journal_bytes: int, files: bytes) -> None:
    """Cache ``game`` as it stands, made from the save's files whose fingerprint is
    ``files`` (the journal's first ``journal_bytes`` bytes). Never raises: a cache
    that cannot be written is only a slower resume."""
    _seal(cache_path(save), MAGIC,
          lambda: (code_identity(), journal_bytes, files, game.resumable()))


def read(save: Path, snapshot: bytes, journal: bytes) -> Resumable | None:
    """The cached game if the cache was made by this user, from these files' first
    bytes and by this code; ``None`` otherwise (never raises)."""
    found = read_at(save, snapshot, journal)
    return None if found is None else found[0]


def read_at(save: Path, snapshot: bytes, journal: bytes,
            ) -> tuple[Resumable, int, hashlib._Hash] | None:
    """:func:`read`, how many of the journal's first bytes the cache holds (the events
    in the lines after them are the save's since the cache), and the running hash of
    the files up to there (:func:`fingerprint`: extend it with the lines after)."""
    try:
        code, journal_bytes, files, resumable = _unseal(cache_path(save), MAGIC)
    except (TypeError, ValueError):  # nothing, or not a cache's tuple
        return None
    if (code != code_identity() or not isinstance(resumable, Resumable)
            or not isinstance(journal_bytes, int) or not 0 <= journal_bytes <= len(journal)):
        return None
    digest = fingerprint(snapshot, journal[:journal_bytes])
    if digest.digest() != files:
        return None
    return resumable, journal_bytes, digest


def report_key(game: Game, events: Sequence[Event]) -> bytes:
    """What a report is made from, hashed: the code that makes it (as
    :func:`code_identity`), the game's ruleset, seeds, rules revision, options and
    forces, and its ``events`` in force (:meth:`Game.events`). A game read back from
    its save gives the same key as the game that wrote it."""
    header = {"ruleset": game.ruleset.id, "seed": game.seed, "deal_seed": game.deal_seed,
              "revision": game.revision, "options": game.options,
              "forces": [getattr(game.red, "source", None),
                         getattr(game.black, "source", None)]}
    digest = hashlib.sha256(code_identity())
    digest.update(_canonical(header))
    for event in events:
        digest.update(b"\n" + _canonical(event.to_data()))
    return digest.digest()


def write_report(save: Path, key: bytes, report: GameReport) -> None:
    """Keep ``report``, made from what ``key`` (:func:`report_key`) says, beside the
    save. Never raises: a report that cannot be kept is only made again."""
    _seal(report_path(save), REPORT_MAGIC, lambda: (key, report))


def read_report(save: Path, key: bytes) -> GameReport | None:
    """The report kept beside the save if this user's code made it from what ``key``
    says; ``None`` otherwise (never raises)."""
    from deathzap_tui.rules.report import GameReport  # lazy: luck, fractions: ~6 ms CPU

    try:
        kept, report = _unseal(report_path(save), REPORT_MAGIC)
    except (TypeError, ValueError):
        return None
    if not isinstance(report, GameReport) or not isinstance(kept, bytes) \
            or not hmac.compare_digest(kept, key):
        return None
    return report


def write_summary(save: Path, files: bytes, standing: Standing) -> None:
    """Keep ``standing`` beside the save, as made from the save's files whose
    fingerprint is ``files`` (:func:`fingerprint` of the snapshot and the whole
    journal). Never raises: a summary that cannot be kept only makes a listing load
    the game."""
    _sign(summary_path(save), SUMMARY_MAGIC, lambda: _canonical(
        {"code": code_identity().decode(), "files": files.hex(), **standing.to_data()}))


def read_summary(save: Path, snapshot: bytes, journal: bytes) -> Standing | None:
    """How the save's game stands, from its summary, if this user's code made it
    from these files (``snapshot`` and ``journal`` as they are on disk, whole);
    ``None`` otherwise (never raises)."""
    payload = _signed(summary_path(save), SUMMARY_MAGIC, MAX_SUMMARY_BYTES)
    if payload is None:
        return None
    try:
        data = json.loads(payload)
    except (ValueError, RecursionError):
        return None
    if (not isinstance(data, dict) or data.get("code") != code_identity().decode()
            or data.get("files") != fingerprint(snapshot, journal).hexdigest()):
        return None
    return Standing.from_data(data)


def _canonical(data: Any) -> bytes:
    """``data`` as the same bytes wherever it was read from (a save's JSON or TOML,
    or the game in play: tuples and lists alike, keys sorted)."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"),
                      default=str).encode()


def _seal(path: Path, magic: bytes, contents: Any) -> None:
    """Write ``contents()`` pickled, signed (:func:`_sign`). Never raises."""
    def payload() -> bytes:
        return pickle.dumps(contents(), protocol=pickle.HIGHEST_PROTOCOL)

    _sign(path, magic, payload)


def _unseal(path: Path, magic: bytes) -> Any:
    """What :func:`_seal` wrote to ``path``, if this user's key signed it; ``None``
    if there is no such file, no key, or the signature is not this user's. Unpickled
    only once the signature is checked."""
    payload = _signed(path, magic, MAX_SAVE_BYTES)
    if payload is None:
        return None
    try:
        return pickle.loads(payload)  # signed by this user's key (checked above)
    except Exception:  # an old file of classes that changed: ignore it
        return None


def _sign(path: Path, magic: bytes, payload: Callable[[], bytes]) -> None:
    """Write ``payload()`` signed with this user's key, atomically, to ``path``;
    nothing without a key. Never raises (see :func:`write`)."""
    key = cache_key()
    if key is None:
        return
    tmp = ""
    try:
        data = payload()
        mac = hmac.new(key, data, "sha256").digest()
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as f:
            f.write(magic + mac + data)
        os.replace(tmp, path)
    except (OSError, pickle.PicklingError, RecursionError, TypeError, AttributeError):
        if tmp:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def _signed(path: Path, magic: bytes, limit: int) -> bytes | None:
    """The payload :func:`_sign` wrote to ``path`` (at most ``limit`` bytes), if this
    user's key signed it; ``None`` if there is no such file, no key, or the
    signature is not this user's."""
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

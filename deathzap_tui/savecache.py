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
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import pickle
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deathzap_tui.rules.events import Event
from deathzap_tui.rules.game import Game, Resumable
from deathzap_tui.savepaths import MAX_SAVE_BYTES, cache_path, report_path
from deathzap_tui.savesign import code_identity, fingerprint, sign, signed

if TYPE_CHECKING:
    from deathzap_tui.rules.report import GameReport

MAGIC = b"deathzap-cache 3\n"
"""The cache's own format; a cache of another (an older deathzap's) is ignored."""
REPORT_MAGIC = b"deathzap-report 1\n"
"""The stored report's own format."""
WRITE_EVERY = 64
"""Events between two caches written during play (a write costs a few ms)."""


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


def _canonical(data: Any) -> bytes:
    """``data`` as the same bytes wherever it was read from (a save's JSON or TOML,
    or the game in play: tuples and lists alike, keys sorted)."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"),
                      default=str).encode()


def _seal(path: Path, magic: bytes, contents: Any) -> None:
    """Write ``contents()`` pickled and signed (:func:`~.savesign.sign`) to ``path``.
    Never raises (see :func:`write`)."""
    with contextlib.suppress(pickle.PicklingError, RecursionError, TypeError, AttributeError):
        sign(path, magic, lambda: pickle.dumps(contents(), protocol=pickle.HIGHEST_PROTOCOL))


def _unseal(path: Path, magic: bytes) -> Any:
    """What :func:`_seal` wrote to ``path``, if this user's key signed it; ``None``
    if there is no such file, no key, or the signature is not this user's. Unpickled
    only once the signature is checked."""
    payload = signed(path, magic, MAX_SAVE_BYTES)
    if payload is None:
        return None
    try:
        return pickle.loads(payload)  # signed by this user's key (checked above)
    except Exception:  # an old file of classes that changed: ignore it
        return None

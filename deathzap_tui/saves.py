"""Saving and loading games: a TOML snapshot and an append-only journal.

A save holds everything needed to rebuild the game without any other file: the
format version, ruleset, options, seed, the secret deal seed, the rules revision,
both forces (embedded, so editing a force file later cannot change a saved game) and
the event log. The deal seed tells every hidden card (hands, deck order): the save is
the referee's, not for the players' eyes. A save from before secret deals has none
and replays as it was played (its cards come from the public seed); one from before
rules revisions is of the first (:mod:`.rules.revision`). It is two files:

- ``NAME.toml``, the snapshot: all of the above with the events up to when it was
  written, replaced atomically (temp file, fsync, rename, fsync of the directory);
- ``NAME.toml.journal``, the events since: one JSON line per event, each carrying its
  index in the log, appended and fsynced as the event happens. Saving an event costs
  the same at event 10 and event 10,000 (issue 11); rewriting the whole snapshot
  every time cost O(n) per event.

Killing the process at any moment loses at most the event being written: a torn
last journal line (no newline yet) is dropped on load, never the file. Writing a new
snapshot (:func:`save_game`) folds the journal in and then empties it (removes it
when the game is over); journal lines the snapshot already holds (a crash between
the two) are skipped by their index. The snapshot of a game in progress says that it
has a journal, so a lost journal is noticed, never taken for "no events since".

Nothing here follows a link (:mod:`.safefiles`): a save, or any file beside it,
that is a symbolic link is refused by every command alike.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import fcntl
import hashlib
import json
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomli_w

from deathzap_tui import savecache
from deathzap_tui.forcefile import force_from_data
from deathzap_tui.gamestore import Conflict, StoreError
from deathzap_tui.paths import saves_dir
from deathzap_tui.rules import registry, revision
from deathzap_tui.rules.events import Event, EventLog
from deathzap_tui.rules.game import CorruptLog, Game, Resumable
from deathzap_tui.rules.problems import InvalidInput
from deathzap_tui.safefiles import fsync_dir, open_regular, read_regular, write_atomic
from deathzap_tui.savepaths import MAX_SAVE_BYTES, cache_path, journal_path

FORMAT = "deathzap-save"
VERSION = 1
JOURNAL_KEY = "journal"
"""``journal = true`` in a snapshot: the game goes on in ``NAME.toml.journal``."""
MAX_NAME = 120
"""The most characters of a save's name (without ``.toml``): well inside a file
name's 255 bytes, with room for the files beside it (``.lock``, ``.journal``...)."""
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


class SaveError(StoreError):
    """A save that cannot be read or written; the message says why and where."""


def save_path(name: str | os.PathLike[str], directory: Path | None = None) -> Path:
    """The path for a save name, refusing anything that would land outside the
    saves directory (``..``, absolute paths elsewhere, odd characters)."""
    directory = (directory or saves_dir()).resolve()
    raw = Path(name)
    candidate = raw if raw.is_absolute() else Path.cwd() / raw
    if raw.parent != Path(".") or raw.is_absolute():
        # A path was given: it must point into the saves directory. Its folder is
        # resolved, never the file: a save that is a link is refused when opened,
        # not swapped for whatever it points to.
        resolved = candidate.parent.resolve() / candidate.name
        if resolved.parent != directory:
            raise SaveError(f"{name}: saves can only be written in {directory} "
                            "(give a plain name, or set DEATHZAP_SAVES_DIR)")
        stem = resolved.name
    else:
        stem = raw.name
    if stem.endswith(".toml"):
        stem = stem[:-5]
    if len(stem) > MAX_NAME:
        raise SaveError(f"{name!s}: a save name is at most {MAX_NAME} characters "
                        f"(this one has {len(stem)})")
    if not _NAME.fullmatch(stem) or stem.endswith("."):
        raise SaveError(f"{name!s}: a save name uses letters, digits, '.', '_' and '-' "
                        "and starts with a letter or digit")
    return directory / f"{stem}.toml"


def default_save_name(red: str, black: str, when: dt.datetime | None = None) -> str:
    """``<red>-vs-<black>-<YYYYmmdd-HHMM>`` from the force names."""
    when = when or dt.datetime.now()

    def slug(text: str) -> str:
        return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:30] or "force"

    return f"{slug(red)}-vs-{slug(black)}-{when:%Y%m%d-%H%M}"


def unique_save_path(name: str, directory: Path | None = None) -> Path:
    path = save_path(name, directory)
    n = 2
    while path.exists():
        path = save_path(f"{name}-{n}", directory)
        n += 1
    return path


def game_to_data(game: Game) -> dict[str, Any]:
    for side, force in (("red", game.red), ("black", game.black)):
        if not force.source:
            raise SaveError(f"the {side} force was not read from a force file, so it "
                            "cannot be embedded in a save")
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "ruleset": game.ruleset.id,
        "seed": game.seed,
        "revision": game.revision,
        "options": dict(game.options),
        "forces": {"red": dict(game.red.source), "black": dict(game.black.source)},
        "events": [e.to_data() for e in game.log],
    }
    if game.deal_seed is not None:  # None: a game from before secret deals keeps its form
        data["deal_seed"] = game.deal_seed
    return data


def save_game(game: Game, path: Path) -> bytes:
    """Write the whole game as the snapshot, and empty the journal it now holds;
    returns the snapshot's bytes.

    A game in progress goes on in its journal, and its snapshot says so
    (``journal = true``): a snapshot whose journal is lost (deleted, or the snapshot
    copied alone) is then refused (:func:`parse_save`) rather than taken for the whole
    game and written over from an earlier event. The journal is made before the
    snapshot that names it. A finished game is one self-contained file again: its
    journal is removed."""
    data = game_to_data(game)
    journal = journal_path(path)
    in_progress = not game.ruleset.is_over(game.state)
    if in_progress:
        data[JOURNAL_KEY] = True
        os.close(open_regular(journal, os.O_WRONLY | os.O_CREAT))
    snapshot = snapshot_text(data).encode("utf-8")
    write_atomic(path, snapshot)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(cache_path(path))  # made from the old files: stale now
    if in_progress:
        fd = open_regular(journal, os.O_WRONLY | os.O_TRUNC)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    else:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(journal)
    fsync_dir(path.parent)
    return snapshot


def snapshot_text(data: Mapping[str, Any]) -> str:
    """A save's table as the snapshot's TOML, its events one JSON record a line in a
    literal string (``events = '''[ ... ]'''``): read at C speed, where TOML's
    tables of a 5,000-event game took a tenth of a second to parse (issue 21). An
    apostrophe or DEL inside the JSON (only ever in its strings) is written as its
    ``\\u`` escape, so the TOML string can neither end early nor hold a character
    TOML refuses. A snapshot whose ``events`` are TOML tables (older saves) reads the
    same (:func:`parse_snapshot`)."""
    events = data.get("events")
    if not isinstance(events, list):
        return tomli_w.dumps(data)
    records = ",\n".join(json.dumps(e, ensure_ascii=False, separators=(",", ":"))
                          for e in events)
    text = (f"[\n{records}\n]" if events else "[]").translate(_LITERAL_ESCAPES)
    plain = {k: v for k, v in data.items() if k != "events" and not isinstance(v, dict)}
    tables = {k: v for k, v in data.items() if isinstance(v, dict)}  # after every key
    return (tomli_w.dumps(plain) + f"events = '''\n{text}'''\n\n"
            + tomli_w.dumps(tables))


_LITERAL_ESCAPES = str.maketrans({"'": "\\u0027", "\x7f": "\\u007f"})
"""What :func:`snapshot_text` writes as JSON escapes inside a TOML literal string."""


def append_event(path: Path, index: int, event: Event,
                 expected_bytes: int | None = None) -> bytes:
    """Append the log's event number ``index`` (0-based) to the save's journal, durably
    (fsync) before returning; returns the bytes written.

    ``expected_bytes``: the journal's length as the caller last saw it; if another
    writer has changed it since, nothing is written and :class:`Conflict` is raised
    (checked and written under an exclusive ``flock`` of the journal). A journal the
    caller saw with events in it is never made anew: deleted meanwhile, nothing is
    written and ``FileNotFoundError`` says so (a new journal would begin with a gap,
    or, empty, pass the game off as having none)."""
    line = (json.dumps({"n": index, **event.to_data()}, ensure_ascii=False,
                       separators=(",", ":")) + "\n").encode("utf-8")
    journal = journal_path(path)
    created = not journal.exists()
    try:
        fd = open_regular(journal, os.O_WRONLY | os.O_APPEND
                          | (0 if expected_bytes else os.O_CREAT))
    except FileNotFoundError:
        raise FileNotFoundError(errno.ENOENT, f"{journal.name} was deleted while the game "
                                "was open; nothing written", str(journal)) from None
    try:
        if expected_bytes is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)  # released when fd is closed
            if os.fstat(fd).st_size != expected_bytes:
                raise Conflict(f"{journal}: another writer added events since this game "
                               "was read; reload it")
        data = line
        while data:
            data = data[os.write(fd, data):]
        os.fsync(fd)
    finally:
        os.close(fd)
    if created:
        fsync_dir(path.parent)
    return line


SETTINGS: dict[str, tuple[str, ...]] = {"dice": ("physical", "generated")}
"""The table-side settings kept with a save, and the values each may take."""


def settings_path(save: Path) -> Path:
    """The save's settings (the dice mode): ``NAME.toml.settings``, a few bytes of
    TOML beside the save, like the ``.seen`` marks. Not in the save itself: the
    snapshot is rewritten only when a game ends, and the journal holds
    numbered events every reader replays; a toggle costs one tiny atomic write and the
    save format stays as it is. A save copied without it resumes in the mode asked
    for on the command line."""
    return save.with_name(save.name + ".settings")


def read_settings(save: Path) -> dict[str, str]:
    """The save's known settings with valid values; a missing or broken file has none."""
    try:
        data = tomllib.loads(read_regular(settings_path(save), 4096).decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    return {k: v for k, allowed in SETTINGS.items() if (v := data.get(k)) in allowed}


def write_setting(save: Path, key: str, value: str) -> None:
    """Keep one setting beside the save (atomically); unchanged values cost nothing."""
    if value not in SETTINGS[key]:
        raise ValueError(f"{key}: {value!r} is not one of {', '.join(SETTINGS[key])}")
    settings = read_settings(save)
    if settings.get(key) == value:
        return
    settings[key] = value
    with contextlib.suppress(OSError):  # losing it only loses a preference
        write_atomic(settings_path(save), tomli_w.dumps(settings))


def stamp(path: Path) -> tuple[int, ...] | None:
    """Something that changes whenever the save changes (a watcher polls it), or
    ``None`` if there is no save."""
    out: list[int] = []
    for p in (path, journal_path(path)):
        try:
            st = p.stat()
        except FileNotFoundError:
            if p == path:
                return None
            continue
        out += (st.st_ino, st.st_mtime_ns, st.st_size)
    return tuple(out)


def read_save_data(path: Path) -> dict[str, Any]:
    """Parse a save (its snapshot and journal), turning every way it can be broken
    into a SaveError."""
    return parse_save(path, *read_files(path))


def read_files(path: Path) -> tuple[bytes, bytes]:
    """The save's snapshot and journal as they are on disk (no journal: empty)."""
    try:
        snapshot = read_regular(path, MAX_SAVE_BYTES)
    except FileNotFoundError:
        raise SaveError(f"{path}: no such save") from None
    except OSError as exc:
        raise SaveError(f"{path}: cannot read ({exc.strerror or exc})") from None
    journal = journal_path(path)
    try:
        return snapshot, read_regular(journal, MAX_SAVE_BYTES)
    except FileNotFoundError:
        return snapshot, b""
    except OSError as exc:
        raise SaveError(f"{journal}: cannot read ({exc.strerror or exc})") from None


def cut_torn_tail(path: Path) -> None:
    """Drop a journal's last line if a crash left it without its newline, so that
    the next event is not appended onto it. Only the writer may (it holds the lock)."""
    journal = journal_path(path)
    try:
        fd = open_regular(journal, os.O_RDWR)
    except FileNotFoundError:
        return
    try:
        size = os.fstat(fd).st_size
        if size and os.pread(fd, 1, size - 1) != b"\n":
            start = max(0, size - MAX_SAVE_BYTES)
            whole = os.pread(fd, size - start, start)
            os.ftruncate(fd, start + whole.rfind(b"\n") + 1)
            os.fsync(fd)
    finally:
        os.close(fd)


def parse_save(path: Path, snapshot: bytes, journal: bytes) -> dict[str, Any]:
    """The save's table, its events followed by the journal's."""
    data = parse_snapshot(path, snapshot, journal)
    events = data.get("events")
    if isinstance(events, list):
        data["events"] = events + parse_journal(journal_path(path), journal, len(events))
    return data


def parse_snapshot(path: Path, snapshot: bytes, journal: bytes) -> dict[str, Any]:
    """The save's table with the snapshot's events only (``journal``: the journal's
    bytes, to tell a lost journal from an empty one)."""
    try:
        text = snapshot.decode("utf-8")
    except UnicodeDecodeError:
        raise SaveError(f"{path}: not a text (UTF-8) file") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SaveError(f"{path}: not valid TOML, the file may be truncated: {exc}") from None
    except (RecursionError, ValueError) as exc:
        raise SaveError(f"{path}: unreadable ({type(exc).__name__})") from None
    events = data.get("events")
    if isinstance(events, str):  # one JSON record a line (snapshot_text)
        try:
            events = data["events"] = json.loads(events)
        except (ValueError, RecursionError) as exc:
            raise SaveError(f"{path}: events: not JSON records ({exc})") from None
    if (data.get(JOURNAL_KEY) is True and not journal
            and not os.path.lexists(journal_path(path))):
        have = len(events) if isinstance(events, list) else 0
        raise SaveError(f"{path}: {journal_path(path).name} is missing (deleted, or the "
                        "save copied without it), and this game in progress keeps its "
                        f"events after the first {have} there: put it back beside the "
                        f"save (refused rather than resumed from event {have} and "
                        "written over)")
    return data


def parse_journal(journal: Path, raw: bytes, have: int,
                  start: int = 0) -> list[dict[str, Any]]:
    """The events of ``journal`` (read as ``raw``, from its byte ``start``, a line's
    start) after the first ``have`` events of the game, as event tables.

    A last line without its newline is a record torn by a crash: dropped. Any other
    line that is not a whole record, or a gap in the numbering, is a broken save."""
    lines = raw[start:].split(b"\n")[:-1]  # after the last newline: torn, or nothing
    out: list[dict[str, Any]] = []
    before = raw.count(b"\n", 0, start) if lines else 0  # lines before ``start``
    for number, line in enumerate(lines, before + 1):
        try:
            record = json.loads(line.decode("utf-8"))
            if not isinstance(record, dict):
                raise ValueError("not a table")
            n = record.pop("n")
            if isinstance(n, bool) or not isinstance(n, int):
                raise ValueError("no event number")
        except (ValueError, KeyError, RecursionError) as exc:
            raise SaveError(f"{journal}:{number}: not a journal record ({exc})") from None
        if n < have:
            continue  # already in the snapshot (written after this line)
        if n != have + len(out):
            raise SaveError(f"{journal}:{number}: event {n} follows event "
                            f"{have + len(out) - 1}: events are missing")
        out.append(record)
    return out


def _field(data: Mapping[str, Any], key: str, kind: type, path: Path | str) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise SaveError(f"{path}: field {key!r} is missing or not a {kind.__name__}")
    return value


def game_from_data(data: Mapping[str, Any], path: Path | str,
                   cached: Resumable | None = None) -> Game:
    if data.get("format") != FORMAT:
        raise SaveError(f"{path}: not a deathzap save (no format = {FORMAT!r})")
    version = data.get("version")
    if version != VERSION:
        raise SaveError(f"{path}: save format version {version!r}; this deathzap reads "
                        f"version {VERSION}")
    try:
        ruleset = registry.get(_field(data, "ruleset", str, path))
    except registry.UnknownRuleset as exc:
        raise SaveError(f"{path}: {exc}") from None
    seed = _field(data, "seed", int, path)
    deal_seed = _field(data, "deal_seed", int, path) if "deal_seed" in data else None
    try:  # none: a game from before revisions were recorded
        rules_revision = revision.check(data.get("revision", revision.FIRST))
    except ValueError as exc:
        raise SaveError(f"{path}: {exc}") from None
    forces = _field(data, "forces", dict, path)
    raw_events = data.get("events")
    if not isinstance(raw_events, EventLog):
        raw_events = _field(data, "events", list, path)
    try:
        options = ruleset.options(_field(data, "options", dict, path))
        sides = {}
        for side in ("red", "black"):
            table = forces.get(side)
            if not isinstance(table, dict):
                raise SaveError(f"{path}: forces.{side} is missing")
            sides[side] = force_from_data(table, f"{path} [forces.{side}]").force
    except InvalidInput as exc:
        raise SaveError(f"{path}: {exc}") from None
    events = raw_events if isinstance(raw_events, EventLog) else _events(raw_events, path)
    try:
        return Game(ruleset, sides["red"], sides["black"], options, seed, events,
                    deal_seed=deal_seed, revision=rules_revision, cached=cached)
    except CorruptLog as exc:
        raise SaveError(f"{path}: the event log does not replay: {exc}") from None


def _events(raw_events: list[Any], path: Path | str) -> list[Event]:
    """A save's event tables as events; the first that is not one is a SaveError."""
    events = []
    for i, raw in enumerate(raw_events):
        try:
            if not isinstance(raw, dict):
                raise ValueError("not a table")
            events.append(Event.from_data(raw))
        except ValueError as exc:
            raise SaveError(f"{path}: events[{i}]: {exc}") from None
    return events


def read_unplayed(path: Path) -> tuple[Game, list[Event]]:
    """A save's game before its first event, and its log: to read a long game as it
    is replayed (``deathzap log`` prints its narrative as it goes, issue 21) rather
    than after replaying all of it. Raises SaveError as :func:`load_game` does."""
    data = read_save_data(path)
    events = _events(_field(data, "events", list, path), path)
    return game_from_data({**data, "events": []}, path), events


def load_game(path: Path) -> Game:
    """Load a save, from its cache where it has a good one (only the events after it
    are read and replayed, see :mod:`.savecache`), else replaying the log; never
    writes."""
    return load_save(path).game


@dataclass
class Loaded:
    """A save's game and what loading it read of the save's files: what its writer
    needs to append to them and to cache the game, without reading them again."""

    game: Game
    snapshot: bytes
    journal: bytes
    cached: int | None
    """How many events the save's cache held, if the game was resumed from it."""
    hashed: tuple[int, hashlib._Hash] | None = None
    """(n, the running hash of the files up to the journal's byte n), if known."""

    def files(self) -> hashlib._Hash:
        """The running hash of the files as read (:func:`savecache.fingerprint`)."""
        if self.hashed is None:
            return savecache.fingerprint(self.snapshot, self.journal)
        done, digest = self.hashed
        digest = digest.copy()
        digest.update(self.journal[done:])
        return digest


def load_save(path: Path) -> Loaded:
    """:func:`load_game`, and what it read of the save's files."""
    snapshot, journal = read_files(path)
    found = savecache.read_at(path, snapshot, journal)
    data = parse_snapshot(path, snapshot, journal)
    if found is not None and isinstance(data.get("events"), list):
        cached, journal_bytes, digest = found
        log = _cached_log(path, data["events"], journal, cached, journal_bytes)
        if log is not None:
            data["events"] = log
            return Loaded(game_from_data(data, path, cached), snapshot, journal,
                          cached.events, (journal_bytes, digest))
    return Loaded(game_from_data(parse_save(path, snapshot, journal), path),
                  snapshot, journal, None)


def _cached_log(path: Path, snapshot_events: list[Any], journal: bytes,
                cached: Resumable, journal_bytes: int) -> EventLog | None:
    """The log of a save whose cache ``cached`` was made from its snapshot and the
    journal's first ``journal_bytes`` bytes: the events the cache holds are left
    undecoded (:class:`_Kept`), the journal's later lines are read as
    :func:`parse_journal` reads them. ``None`` if the cache does not fit the files."""
    if not len(snapshot_events) <= cached.events <= len(snapshot_events) + journal_bytes:
        return None
    log = EventLog(decode=_Kept(snapshot_events, journal, journal_bytes, cached.events),
                   undecoded=cached.events)
    for raw in parse_journal(journal_path(path), journal, cached.events, journal_bytes):
        try:
            log.append(Event.from_data(raw))
        except ValueError as exc:
            raise SaveError(f"{path}: events[{len(log)}]: {exc}") from None
    return log


class _Kept:
    """The first ``count`` events of a save as it keeps them, made one at a time when
    read (:class:`EventLog`'s decode): the snapshot's tables, then the journal's lines
    before byte ``end``, found from the end, so that reading the last events costs the
    same however long the journal. They are the bytes a cache was made from (its
    fingerprint says so), read as whole records when it was made."""

    def __init__(self, snapshot_events: list[Any], journal: bytes, end: int,
                 count: int) -> None:
        self.snapshot_events = snapshot_events
        self.journal = journal
        self.count = count
        self.starts = [end]
        """Where the journal's lines start, last first (``starts[0]``: the end)."""

    def __call__(self, index: int) -> Event:
        if index < len(self.snapshot_events):
            return Event.from_data(self.snapshot_events[index])
        back = self.count - index  # 1: the last line
        while len(self.starts) <= back:
            end = self.starts[-1]
            self.starts.append(self.journal.rfind(b"\n", 0, end - 1) + 1)
        record = json.loads(self.journal[self.starts[back]:self.starts[back - 1]])
        record.pop("n")
        return Event.from_data(record)

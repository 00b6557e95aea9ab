"""The club store in SQL (:class:`~deathzap_tui.club.store.ClubStore`).

One implementation for every database: the queries are plain SQL that SQLite and
PostgreSQL both accept, written with ``?`` placeholders; a :class:`Dialect` says what
differs (how a write transaction begins, the placeholder, which exceptions mean a
unique key was hit). SQLite (stdlib :mod:`sqlite3`) is the embedded default: one
file, WAL (readers beside one writer), ``synchronous=FULL`` (a commit is on disk
before it returns, as a save's journal line is fsynced) for every event: one flush
per move. An action in flight (:meth:`SqlClubStore.store_in_flight`) and
bookkeeping, such as counting sessions or marking a game seen, commit without
waiting for the disk (``Dialect.lazy``); an event takes its game's action in flight
with it, in its own commit. PostgreSQL (issue 24,
:mod:`.pgstore`) serves several front-ends: its dialect also announces each change
of a game (``notify``) for the others to catch up.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from deathzap_tui.club import migrate, pgstore
from deathzap_tui.club.dialect import Dialect
from deathzap_tui.club.gamestore import ClubGameStore, event_json
from deathzap_tui.club.members import ClubError, PublicKey, check_name, name_key
from deathzap_tui.club.store import Challenge, GameInfo, Member, SavedForce
from deathzap_tui.forcefile import force_from_text
from deathzap_tui.gamestore import Conflict, StoreError
from deathzap_tui.paths import saves_dir
from deathzap_tui.rules.problems import InvalidInput
from deathzap_tui.rules.validation import show
from deathzap_tui.saves import game_to_data

if TYPE_CHECKING:
    from deathzap_tui.rules.game import Game

STORE_NAME = "club.sqlite"
BUSY_MS = 5000
"""How long a writer waits for another's transaction before giving up."""
WRITERS = 4
"""Writer threads of a store on a database server (:meth:`SqlClubStore.in_thread`),
each with a connection of its own: PostgreSQL commits several at once (group commit:
3,333 event appends/s with four writers against about 2,000 with one, session 4)."""

T = TypeVar("T")


def default_path() -> Path:
    """Where the club store is unless ``--store`` names one: beside the saves."""
    return saves_dir() / STORE_NAME


SQLITE = Dialect("sqlite", "BEGIN IMMEDIATE", "BEGIN",
                 "SELECT name FROM sqlite_master WHERE type = 'table'", "?",
                 (sqlite3.Error,), (sqlite3.IntegrityError,),
                 lazy=("PRAGMA synchronous = NORMAL", "PRAGMA synchronous = FULL"))
"""In WAL mode a commit at ``NORMAL`` is safe from the process dying, not from a
power cut, until the next ``FULL`` commit (an event's) flushes the log it is in."""


def open_store(spec: str | os.PathLike[str] | None = None, *, upgrade: bool = False,
               clock: Callable[[], float] = time.time) -> SqlClubStore:
    """The club store named by ``spec`` (``--store``: a file path or ``sqlite:PATH``,
    default :func:`default_path`; or a ``postgresql://`` URL, :mod:`.pgstore`). A
    missing file is made at the current schema; an existing store must be at it
    (``upgrade``: bring an older one up to it, as ``deathzap club migrate`` does).
    Raises :class:`ClubError` naming what is wrong."""
    text = os.fspath(spec) if spec is not None else ""
    if pgstore.is_url(text):
        store = SqlClubStore(pgstore.connect(text), pgstore.dialect(), pgstore.redact(text),
                             clock, reconnect=lambda: pgstore.connect(text))
        store.url = text
        return _prepared(store, upgrade)
    text = text.removeprefix("sqlite:")
    path = Path(text) if text else default_path()
    if os.path.islink(path):
        raise ClubError(f"{path}: is a symbolic link; give the club store's own path")
    if path.is_dir():
        raise ClubError(f"{path}: is a folder, not a club store file")
    if not path.exists():
        if text and not path.parent.is_dir():
            raise ClubError(f"{path}: no folder {path.parent} to make the club store in")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with contextlib.suppress(FileExistsError):
                os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except OSError as exc:
            raise ClubError(f"{path}: cannot make the club store ({exc.strerror or exc})") \
                from None
    try:
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False,
                               timeout=BUSY_MS / 1000)
    except sqlite3.Error as exc:
        raise ClubError(f"{path}: cannot open the club store ({exc})") from None
    try:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
        return _prepared(SqlClubStore(conn, SQLITE, str(path), clock, folder=path.parent),
                         upgrade)
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise ClubError(f"{path}: not a club store ({exc})") from None
    except BaseException:
        conn.close()
        raise


class Run:
    """The statements of one transaction (:meth:`SqlClubStore._tx`), written with
    ``?`` placeholders. ``run(sql, *params)`` returns the rows; :meth:`send` takes a
    statement whose result is not read. ``batched`` (PostgreSQL,
    :attr:`Dialect.batch`): what is sent waits, bound, to go to the server with the
    next statement that is read, or with the commit, as one string: one round trip
    for them all rather than one each (a front-end's event loop waits for each, and
    for a database server that waits for a CPU itself)."""

    def __init__(self, cursor: Any, placeholder: str, *, batched: bool) -> None:
        self.cursor = cursor
        self.placeholder = placeholder
        self.batched = batched
        self._waiting: list[str] = []

    def __call__(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        self.send(sql, *params)
        return self.flush()

    def send(self, sql: str, *params: Any) -> None:
        if self.placeholder != "?":
            sql = sql.replace("?", self.placeholder)
        if self.batched:
            self._waiting.append(self.cursor.mogrify(sql, params))
        else:
            self.cursor.execute(sql, params)

    def flush(self) -> list[tuple[Any, ...]]:
        """Send what waits; the rows of the last statement sent."""
        if self._waiting:
            statements, self._waiting = "; ".join(self._waiting), []
            self.cursor.execute(statements)
            while self.cursor.nextset():
                pass  # to the last statement's result
        return self.cursor.fetchall() if self.cursor.description else []


def _prepared(store: SqlClubStore, upgrade: bool) -> SqlClubStore:
    """``store`` at the current schema (:meth:`SqlClubStore.prepare`), closed if it
    cannot be."""
    try:
        store.prepare(upgrade=upgrade)
    except BaseException:
        store.close()
        raise
    return store


class SqlClubStore:
    """A club store on one DB-API connection (used by one thread at a time: a lock
    serialises the calls of a server's threads), and the writer threads of
    :meth:`in_thread`: on a database server each has a connection of its own; on
    SQLite there is one writer thread, on the store's connection (an in-process
    database: another connection would only wait for the same file's lock)."""

    def __init__(self, conn: Any, dialect: Dialect, label: str,
                 clock: Callable[[], float] = time.time, *,
                 reconnect: Callable[[], Any] | None = None,
                 folder: Path | None = None) -> None:
        self.conn = conn
        self.dialect = dialect
        self.label = label
        self.clock = clock
        self._reconnect = reconnect
        """A new connection to the same database (PostgreSQL): once the server has
        dropped one, and one for each writer thread."""
        self.folder = folder if folder is not None else saves_dir()
        """Where the files that go with the store are (the SSH host key): the SQLite
        file's folder; for a database, the saves folder of the front-end."""
        self.url = ""
        """The database URL, password and all (PostgreSQL): for :meth:`follow` only,
        never shown (:attr:`label` names the store)."""
        self.origin = secrets.token_hex(8)
        """Who this store is in its change notices (a front-end skips its own)."""
        self._lock = threading.RLock()
        self._writers: ThreadPoolExecutor | None = None
        self._local = threading.local()
        """A writer thread's own connection (``conn``), when it has one, and the
        :attr:`_lost` it was made after (``made``)."""
        self._writer_conns: list[Any] = []
        self._lost = 0
        """How many times a connection found the database gone: each connection made
        before the last time is made again before its next use (the server may have
        restarted: every connection to it is dead, not only the one that found out)."""
        self._made = 0
        """:attr:`_lost` when :attr:`conn` was made."""
        self.migrated = (0, 0)
        """The schema versions before and after :meth:`prepare`."""

    # --- transactions -------------------------------------------------------
    @contextlib.contextmanager
    def _tx(self, *, read: bool = False, lazy: bool = False) -> Iterator[Run]:
        """One transaction (``read``: one that only reads, so it never waits for a
        writer; ``lazy``: one whose commit does not wait for the disk,
        :attr:`Dialect.lazy`); yields a :class:`Run`. A driver error becomes a
        :class:`StoreError` naming the store; unique-key errors are left to the
        caller, which knows what they mean."""
        with self._connection() as conn:
            begin = self.dialect.begin_read if read else \
                (lazy and self.dialect.lazy_begin) or self.dialect.begin
            before, after = self.dialect.lazy if lazy else ("", "")
            batch = self.dialect.batch if begin else None
            cursor = batch(conn) if batch is not None else conn.cursor()
            try:
                run = Run(cursor, self.dialect.placeholder, batched=batch is not None)
                for statement in (before, begin):
                    if statement:
                        run.send(statement)
                yield run
                if begin:
                    run.send("COMMIT")
                run.flush()
            except BaseException as exc:
                if begin:
                    with contextlib.suppress(*self.dialect.errors):
                        cursor.execute("ROLLBACK")
                if isinstance(exc, self.dialect.unavailable):
                    self._lost += 1
                    raise StoreError(f"{self.label}: the club's store is unavailable "
                                     f"({' '.join(str(exc).split())})") from None
                if isinstance(exc, self.dialect.errors) \
                        and not isinstance(exc, self.dialect.unique):
                    raise StoreError(f"{self.label}: the club's store cannot be used "
                                     f"({exc})") from None
                raise
            finally:
                if after:
                    with contextlib.suppress(*self.dialect.errors):
                        cursor.execute(after)
                cursor.close()

    @contextlib.contextmanager
    def _connection(self) -> Iterator[Any]:
        """The calling thread's connection: a writer thread's own, made (again) when
        it has none or the server dropped it; else the store's, under its lock."""
        local = self._local
        if self._reconnect is not None and hasattr(local, "conn"):
            old = local.conn
            local.conn, local.made = self._fresh(old, local.made)
            if local.conn is not old:
                self._writer_conns.append(local.conn)
                if old is not None:
                    self._writer_conns.remove(old)
            yield local.conn
            return
        with self._lock:
            if self._reconnect is not None:
                self.conn, self._made = self._fresh(self.conn, self._made)
            yield self.conn

    def _fresh(self, conn: Any | None, made: int) -> tuple[Any, int]:
        """``conn`` and the :attr:`_lost` it was made after, or a new connection in
        its place (the old one closed) when it is none, closed, or older than the
        database's last going away."""
        if conn is not None and not conn.closed and made == self._lost:
            return conn, made
        assert self._reconnect is not None
        lost = self._lost
        new = self._reconnect()
        if conn is not None:
            with contextlib.suppress(*self.dialect.errors):
                conn.close()
        return new, lost

    def in_thread(self, call: Callable[[], T]) -> Awaitable[T]:
        """Run ``call`` (store calls) on one of the store's writer threads, so that
        the event loop awaiting it serves everything else while the database works:
        a commit waits for the disk, and for a database server's backend, which waits
        for a CPU itself on a busy machine. The caller keeps one game's calls in
        order (it awaits each before the next: :class:`.ClubGameStore`)."""
        import asyncio  # lazy: loaded by the caller's loop; `club` store commands skip it

        if self._writers is None:
            own = self._reconnect is not None
            self._writers = ThreadPoolExecutor(
                WRITERS if own else 1, "club-store",
                initializer=self._writer_thread if own else None)
        return asyncio.wrap_future(self._writers.submit(call))

    def _writer_thread(self) -> None:
        """A writer thread starts without a connection of its own (made at its first
        write: :meth:`_connection`)."""
        self._local.conn, self._local.made = None, 0

    def _now(self) -> int:
        return int(self.clock())

    def close(self) -> None:
        if self._writers is not None:
            self._writers.shutdown()
        for conn in self._writer_conns:
            with contextlib.suppress(*self.dialect.errors):
                conn.close()
        with self._lock:
            self.conn.close()

    def _announce(self, run: Run, game_id: int,
                  what: str, data: str = "") -> None:
        """Tell other front-ends that game ``game_id`` changed (``what``: "event",
        "action"), when this transaction commits; with ``data``, the change itself
        (an event's number and JSON, an action's record or ``null``), if it fits in
        a notice (:data:`.pgstore.NOTICE_BYTES`): the others then take it from the
        notice and read nothing (:meth:`~deathzap_tui.club.hosting.Club.take`)."""
        if self.dialect.notify is not None:
            payload = f"{game_id} {what} {self.origin}"
            if data and len(payload.encode()) + 1 + len(data.encode()) < pgstore.NOTICE_BYTES:
                payload += f" {data}"
            run.send(self.dialect.notify, payload)

    def tell(self, game_id: int, what: str) -> None:
        """Announce a change already committed (a notice alone: its commit does not
        wait for the disk)."""
        if self.dialect.notify is not None:
            with self._tx(lazy=True) as run:
                self._announce(run, game_id, what)

    def follow(self, changed: pgstore.Changed, resync: Callable[[], None],
               log: Callable[[str], None]) -> Coroutine[Any, Any, None] | None:
        """What other front-ends change, as :func:`.pgstore.follow` reports it (run
        it as a task); ``None`` for a store that only one front-end serves."""
        if self.dialect.notify is None:
            return None
        return pgstore.follow(self.url, self.origin, changed, resync, log)

    # --- schema -------------------------------------------------------------
    def schema_version(self) -> int:
        with self._tx() as run:
            run(migrate.VERSION_TABLE)
            rows = run("SELECT version FROM schema_version")
        return int(rows[0][0]) if rows else 0

    def prepare(self, *, upgrade: bool) -> tuple[int, int]:
        """Check the schema (see :func:`open_store`); returns the versions before
        and after."""
        with self._tx() as run:
            tables = {r[0] for r in run(self.dialect.tables)}
        if tables and "schema_version" not in tables:
            raise ClubError(f"{self.label}: a database, but not a club store (it has no "
                            "schema_version table)")
        before = self.schema_version()
        if before > migrate.LATEST or (before and not upgrade):
            error = migrate.mismatch(self.label, before)
            if error is not None:
                raise error
        for step in migrate.migrations(self.dialect.name):
            if step.version > before:
                self._apply(step)
        self.migrated = (before, self.schema_version())
        return self.migrated

    def _apply(self, step: migrate.Migration) -> None:
        """One migration and its version, in one transaction."""
        statements = [s.strip() for s in _without_comments(step.sql).split(";")]
        try:
            with self._tx() as run:
                for statement in statements:
                    if statement:
                        run(statement)
                run("DELETE FROM schema_version")
                run("INSERT INTO schema_version (version) VALUES (?)", step.version)
        except StoreError as exc:
            raise ClubError(f"migration {step.version:04d} ({step.name}) failed and was "
                            f"undone: {exc}") from None

    # --- members ------------------------------------------------------------
    def _member_id(self, run: Callable[..., list[tuple[Any, ...]]], name: str) -> int:
        rows = run("SELECT id FROM members WHERE name_key = ?", name_key(name))
        if not rows:
            raise ClubError(f"no member named {show(name)} in this club")
        return int(rows[0][0])

    def add_member(self, name: str, key: PublicKey) -> Member:
        check_name(name)
        try:
            with self._tx() as run:
                taken = run("SELECT name FROM members WHERE name_key = ?", name_key(name))
                if taken:
                    raise ClubError(f"member name {show(name)} is taken"
                                    + (f" (by {show(taken[0][0])})"
                                       if taken[0][0] != name else ""))
                self._check_key_free(run, key)
                member_id = run("INSERT INTO members (name, name_key, created_at) "
                                "VALUES (?, ?, ?) RETURNING id",
                                name, name_key(name), self._now())[0][0]
                self._insert_key(run, member_id, key)
        except self.dialect.unique:
            raise ClubError(f"member name {show(name)} or its key was taken meanwhile") \
                from None
        return self.member(name)

    def _check_key_free(self, run: Callable[..., list[tuple[Any, ...]]],
                        key: PublicKey) -> None:
        owner = run("SELECT m.name FROM member_keys k JOIN members m ON m.id = k.member_id "
                    "WHERE k.blob = ?", key.blob)
        if owner:
            raise ClubError(f"the key {key.fingerprint} is already {show(owner[0][0])}'s")

    def _insert_key(self, run: Callable[..., list[tuple[Any, ...]]], member_id: int,
                    key: PublicKey) -> None:
        run("INSERT INTO member_keys (member_id, key_type, blob, fingerprint, comment, "
            "created_at) VALUES (?, ?, ?, ?, ?, ?)", member_id, key.type, key.blob,
            key.fingerprint, key.comment, self._now())

    def remove_member(self, name: str) -> None:
        with self._tx() as run:
            run("DELETE FROM members WHERE id = ?", self._member_id(run, name))

    def members(self) -> list[Member]:
        return self._members("")

    def _members(self, where: str, *params: Any) -> list[Member]:
        """The members ``where`` picks (a condition on ``members``), with their keys."""
        with self._tx(read=True) as run:
            rows = run(f"SELECT id, name, created_at FROM members {where} ORDER BY name_key",
                       *params)
            keys = run("SELECT member_id, key_type, blob, comment FROM member_keys WHERE "
                       f"member_id IN (SELECT id FROM members {where}) ORDER BY id", *params)
        by_member: dict[int, list[PublicKey]] = {}
        for member_id, kind, blob, comment in keys:
            by_member.setdefault(member_id, []).append(PublicKey(kind, bytes(blob), comment))
        return [Member(i, name, created, tuple(by_member.get(i, ())))
                for i, name, created in rows]

    def member(self, name: str) -> Member:
        found = self._members("WHERE name_key = ?", name_key(name))
        if not found:
            raise ClubError(f"no member named {show(name)} in this club")
        return found[0]

    def member_by_key(self, blob: bytes) -> Member | None:
        found = self._members("WHERE id IN (SELECT member_id FROM member_keys WHERE blob = ?)",
                              bytes(blob))
        return found[0] if found else None

    def add_key(self, name: str, key: PublicKey) -> None:
        try:
            with self._tx() as run:
                member_id = self._member_id(run, name)
                self._check_key_free(run, key)
                self._insert_key(run, member_id, key)
        except self.dialect.unique:
            raise ClubError(f"the key {key.fingerprint} was taken meanwhile") from None

    def remove_key(self, name: str, fingerprint: str) -> None:
        with self._tx() as run:
            member_id = self._member_id(run, name)
            keys = [r[0] for r in run("SELECT fingerprint FROM member_keys "
                                      "WHERE member_id = ?", member_id)]
            if fingerprint not in keys:
                raise ClubError(f"{show(name)} has no key {show(fingerprint, 60)}")
            if len(keys) == 1:
                raise ClubError(f"{show(name)}'s last key cannot be removed (remove the "
                                "member instead)")
            run("DELETE FROM member_keys WHERE member_id = ? AND fingerprint = ?",
                member_id, fingerprint)

    # --- forces -------------------------------------------------------------
    def save_force(self, member: str, text: str) -> SavedForce:
        loaded = checked_force(text, f"{member}'s force")
        with self._tx() as run:
            member_id = self._member_id(run, member)
            run("DELETE FROM forces WHERE member_id = ? AND name = ?", member_id, loaded.name)
            run("INSERT INTO forces (member_id, name, ruleset, toml, updated_at) "
                "VALUES (?, ?, ?, ?, ?)", member_id, loaded.name, loaded.ruleset.id, text,
                self._now())
        return self.force(member, loaded.name)

    def forces(self, member: str) -> list[SavedForce]:
        with self._tx(read=True) as run:
            member_id = self._member_id(run, member)
            rows = run("SELECT m.name, f.name, f.ruleset, f.toml, f.updated_at FROM forces f "
                       "JOIN members m ON m.id = f.member_id WHERE f.member_id = ? "
                       "ORDER BY f.name", member_id)
        return [SavedForce(*row) for row in rows]

    def force(self, member: str, name: str) -> SavedForce:
        found = [f for f in self.forces(member) if f.name == name]
        if not found:
            raise ClubError(f"{show(member)} has no force named {show(name)}")
        return found[0]

    def remove_force(self, member: str, name: str) -> None:
        self.force(member, name)
        with self._tx() as run:
            run("DELETE FROM forces WHERE member_id = ? AND name = ?",
                self._member_id(run, member), name)

    def count_forces(self, member: str) -> int:
        with self._tx(read=True) as run:
            return int(run("SELECT COUNT(*) FROM forces WHERE member_id = ?",
                           self._member_id(run, member))[0][0])

    # --- challenges ---------------------------------------------------------
    _CHALLENGE = ("SELECT c.id, a.name, b.name, c.ruleset, c.force, c.options, c.public, "
                  "c.created_at FROM challenges c JOIN members a ON a.id = c.challenger_id "
                  "LEFT JOIN members b ON b.id = c.opponent_id ")

    @staticmethod
    def _challenge(row: Sequence[Any]) -> Challenge:
        cid, by, to, ruleset, force, options, public, created = row
        return Challenge(cid, by, to, ruleset, force, json.loads(options), bool(public),
                         created)

    def add_challenge(self, challenger: str, force: str, *, opponent: str | None = None,
                      options: Mapping[str, Any] | None = None,
                      public: bool = False) -> Challenge:
        loaded = checked_force(force, f"{challenger}'s force")
        try:
            chosen = loaded.ruleset.options(options)
        except InvalidInput as exc:
            raise ClubError(f"the game's options: {exc}") from None
        with self._tx() as run:
            by = self._member_id(run, challenger)
            to = self._member_id(run, opponent) if opponent is not None else None
            if to == by:
                raise ClubError("a member cannot challenge themselves")
            cid = run("INSERT INTO challenges (challenger_id, opponent_id, ruleset, options, "
                      "force, public, created_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
                      by, to, loaded.ruleset.id, json.dumps(dict(chosen)), force,
                      int(public), self._now())[0][0]
            return self._challenge(run(self._CHALLENGE + "WHERE c.id = ?", cid)[0])

    def challenges_for(self, member: str) -> list[Challenge]:
        with self._tx(read=True) as run:
            me = self._member_id(run, member)
            rows = run(self._CHALLENGE + "WHERE c.opponent_id IS NULL OR c.opponent_id = ? "
                       "OR c.challenger_id = ? ORDER BY c.created_at, c.id", me, me)
        return [self._challenge(r) for r in rows]

    def take_challenge(self, challenge_id: int) -> Challenge:
        with self._tx() as run:
            rows = run(self._CHALLENGE + "WHERE c.id = ?", challenge_id)
            if not rows:
                raise ClubError(f"challenge {challenge_id} is gone (accepted, declined "
                                "or withdrawn)")
            run("DELETE FROM challenges WHERE id = ?", challenge_id)
        return self._challenge(rows[0])

    # --- games --------------------------------------------------------------
    _GAME = ("SELECT g.id, g.ruleset, r.name, b.name, g.public, g.over, g.result, g.events, "
             "g.created_at, g.updated_at, COALESCE(s.events, 0) FROM games g "
             "LEFT JOIN members r ON r.id = g.red_id LEFT JOIN members b ON b.id = g.black_id "
             "LEFT JOIN game_seen s ON s.game_id = g.id AND s.member_id = ? ")

    @staticmethod
    def _game(row: Sequence[Any]) -> GameInfo:
        gid, ruleset, red, black, public, over, result, events, created, updated, seen = row
        return GameInfo(gid, ruleset, red, black, bool(public), bool(over), result, events,
                        created, updated, seen)

    def new_game(self, *, red: str | None, black: str | None,
                 public: bool = False) -> ClubGameStore:
        for name in (red, black):
            if name is not None:
                self.member(name)  # an unknown member is refused before any game is made
        return ClubGameStore(self, None, red=red, black=black, public=public)

    def game_store(self, game_id: int) -> ClubGameStore:
        self.game_info(game_id)
        return ClubGameStore(self, game_id)

    def game_info(self, game_id: int, member: str | None = None) -> GameInfo:
        with self._tx(read=True) as run:
            me = self._member_id(run, member) if member is not None else None
            rows = run(self._GAME + "WHERE g.id = ?", me, game_id)
        if not rows:
            raise ClubError(f"no game {game_id} in this club")
        return self._game(rows[0])

    def games_of(self, member: str) -> list[GameInfo]:
        with self._tx(read=True) as run:
            me = self._member_id(run, member)
            rows = run(self._GAME + "WHERE g.red_id = ? OR g.black_id = ? "
                       "ORDER BY g.updated_at DESC, g.id DESC", me, me, me)
        return [self._game(r) for r in rows]

    def games(self) -> list[GameInfo]:
        """Every game of the club (the host's view), the last moved first."""
        with self._tx(read=True) as run:
            rows = run(self._GAME + "ORDER BY g.updated_at DESC, g.id DESC", None)
        return [self._game(r) for r in rows]

    def public_games(self) -> list[GameInfo]:
        with self._tx(read=True) as run:
            rows = run(self._GAME + "WHERE g.public = 1 ORDER BY g.updated_at DESC, "
                       "g.id DESC", None)
        return [self._game(r) for r in rows]

    def set_public(self, game_id: int, public: bool) -> None:
        self.game_info(game_id)
        with self._tx() as run:
            run("UPDATE games SET public = ? WHERE id = ?", int(public), game_id)

    def mark_seen(self, game_id: int, member: str, events: int) -> None:
        with self._tx(lazy=True) as run:
            me = self._member_id(run, member)
            run.send("DELETE FROM game_seen WHERE game_id = ? AND member_id = ?", game_id, me)
            run.send("INSERT INTO game_seen (game_id, member_id, events, seen_at) "
                     "VALUES (?, ?, ?, ?)", game_id, me, events, self._now())

    # --- one game's rows (ClubGameStore) ------------------------------------
    def insert_game(self, game: Game, red: str | None, black: str | None,
                    public: bool) -> int:
        header = game_to_data(game)
        del header["events"]
        events = [event_json(e) for e in game.log]
        view = game.ruleset.view(game.state)
        now = self._now()
        with self._tx() as run:
            ids = [self._member_id(run, n) if n is not None else None for n in (red, black)]
            game_id = run("INSERT INTO games (ruleset, header, red_id, black_id, public, "
                          "over, result, events, created_at, updated_at) "
                          "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                          game.ruleset.id, json.dumps(header, ensure_ascii=False), *ids,
                          int(public), int(bool(view.result)), view.result or "",
                          len(events), now, now)[0][0]
            for seq, data in enumerate(events):
                run("INSERT INTO events (game_id, seq, data, created_at) VALUES (?, ?, ?, ?)",
                    game_id, seq, data, now)
        return int(game_id)

    def game_header(self, game_id: int) -> dict[str, Any]:
        with self._tx(read=True) as run:
            rows = run("SELECT header FROM games WHERE id = ?", game_id)
        if not rows:
            raise ClubError(f"no game {game_id} in this club")
        try:
            header = json.loads(rows[0][0])
        except (ValueError, RecursionError) as exc:
            raise StoreError(f"{self.label}: game {game_id}'s header is not JSON ({exc})") \
                from None
        if not isinstance(header, dict):
            raise StoreError(f"{self.label}: game {game_id}'s header is not a table")
        return header

    def append_event(self, game_id: int, seq: int, data: str) -> None:
        try:
            with self._tx() as run:
                rows = run("SELECT events FROM games WHERE id = ?", game_id)
                if not rows:
                    raise ClubError(f"no game {game_id} in this club")
                if rows[0][0] != seq:
                    raise Conflict(f"game {game_id} has {rows[0][0]} events, so event "
                                   f"number {seq} cannot come next; reload it")
                now = self._now()
                run.send("INSERT INTO events (game_id, seq, data, created_at) "
                         "VALUES (?, ?, ?, ?)", game_id, seq, data, now)
                run.send("UPDATE games SET events = ?, updated_at = ? WHERE id = ?",
                         seq + 1, now, game_id)
                run.send("DELETE FROM in_flight WHERE game_id = ?", game_id)
                self._announce(run, game_id, "event", f"{seq} {data}")
        except self.dialect.unique:
            raise Conflict(f"game {game_id}: another writer kept event number {seq} "
                           "first; reload it") from None

    def event_rows(self, game_id: int, count: int) -> list[str]:
        with self._tx(read=True) as run:
            return [r[0] for r in run("SELECT data FROM events WHERE game_id = ? AND seq >= ? "
                                      "ORDER BY seq", game_id, count)]

    def rows_since(self, game_id: int, count: int) -> tuple[list[str], str | None]:
        with self._tx(read=True) as run:
            rows = run("SELECT seq, data FROM events WHERE game_id = ? AND seq >= ? "
                       "UNION ALL SELECT -1, data FROM in_flight WHERE game_id = ? "
                       "ORDER BY 1", game_id, count, game_id)
        kept = rows[0][1] if rows and rows[0][0] == -1 else None
        return [data for seq, data in rows if seq != -1], kept

    def finish_game(self, game_id: int, over: bool, result: str) -> None:
        with self._tx() as run:
            run("UPDATE games SET over = ?, result = ? WHERE id = ?", int(over), result,
                game_id)

    def load_in_flight(self, game_id: int) -> str | None:
        with self._tx(read=True) as run:
            rows = run("SELECT data FROM in_flight WHERE game_id = ?", game_id)
        return rows[0][0] if rows else None

    def store_in_flight(self, game_id: int, data: str) -> None:
        """Keep the game's action in flight, and say so to the other front-ends, in
        one commit that does not wait for the disk (:attr:`Dialect.lazy`): safe from
        the death of any process (a front-end, this server, PostgreSQL's backends),
        not from a power cut before the next event's commit flushes it. An answer is
        not a move: what such a cut loses is where a wizard was (its action begins
        again, with the same dice: they come from the game's recorded state). Each
        of the 3-4 records per move waited 8-15 ms for the disk on the server's one
        event loop, and, on PostgreSQL, in one line with every front-end's other
        notifying commits (a notice holds the queue until its commit is flushed)."""
        with self._tx(lazy=True) as run:
            run.send("INSERT INTO in_flight (game_id, data, updated_at) VALUES (?, ?, ?) "
                     "ON CONFLICT (game_id) DO UPDATE SET data = excluded.data, "
                     "updated_at = excluded.updated_at", game_id, data, self._now())
            self._announce(run, game_id, "action", data)

    def clear_in_flight(self, game_id: int) -> None:
        with self._tx(lazy=True) as run:
            if run("DELETE FROM in_flight WHERE game_id = ? RETURNING game_id", game_id):
                self._announce(run, game_id, "action", "null")

    # --- limits -------------------------------------------------------------
    def open_session(self, fingerprint: str, server: str = "") -> int:
        with self._tx(lazy=True) as run:
            return int(run("INSERT INTO sessions (fingerprint, server, started_at) "
                           "VALUES (?, ?, ?) RETURNING id", fingerprint, server,
                           self._now())[0][0])

    def close_session(self, session_id: int) -> None:
        with self._tx(lazy=True) as run:
            run("DELETE FROM sessions WHERE id = ?", session_id)

    def clear_sessions(self, server: str = "") -> None:
        with self._tx(lazy=True) as run:
            run("DELETE FROM sessions WHERE server = ?", server)

    def count_sessions(self, fingerprint: str) -> int:
        with self._tx(read=True) as run:
            return int(run("SELECT COUNT(*) FROM sessions WHERE fingerprint = ?",
                           fingerprint)[0][0])

    KEEP_ACTIONS = 7 * 24 * 3600
    """Actions older than this are forgotten (no limit looks back further)."""

    def note_action(self, fingerprint: str, what: str) -> None:
        now = self._now()
        with self._tx(lazy=True) as run:
            run("DELETE FROM key_actions WHERE at < ?", now - self.KEEP_ACTIONS)
            run("INSERT INTO key_actions (fingerprint, what, at) VALUES (?, ?, ?)",
                fingerprint, what, now)

    def count_actions(self, fingerprint: str, what: str, seconds: int) -> int:
        with self._tx(read=True) as run:
            return int(run("SELECT COUNT(*) FROM key_actions WHERE fingerprint = ? AND "
                           "what = ? AND at > ?", fingerprint, what,
                           self._now() - seconds)[0][0])


def checked_force(text: str, source: str) -> Any:
    """The force in TOML ``text`` read and checked as ``deathzap check`` does (the
    :class:`~deathzap_tui.forcefile.LoadedForce`); a force with errors is refused
    with every error (warnings are allowed)."""
    try:
        return force_from_text(text, source)
    except InvalidInput as exc:
        errors = [p for p in exc.problems if p.is_error]
        listed = "; ".join(p.located(exc.source or source) for p in errors[:10])
        more = f" (and {len(errors) - 10} more)" if len(errors) > 10 else ""
        raise ClubError(f"the force cannot be used, `deathzap check` finds errors: "
                        f"{listed}{more}") from None


def _without_comments(sql: str) -> str:
    return "\n".join(line.split("--", 1)[0] for line in sql.splitlines())

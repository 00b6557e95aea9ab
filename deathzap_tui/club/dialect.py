"""What differs between the databases the club store runs on (a :class:`Dialect`).

Its own module so that :mod:`.sqlstore` (the one SQL implementation) and each
database's module (:mod:`.pgstore`) both build on it without importing each other
both ways.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Dialect:
    name: str
    """The migrations' driver name (``migrations/NNNN_*.NAME.sql``)."""
    begin: str
    """What opens a write transaction."""
    begin_read: str
    """What opens a transaction that only reads; "": none (each statement reads as
    of its own start, as PostgreSQL's READ COMMITTED transactions would anyway: one
    round trip less each side)."""
    tables: str
    """A query of the names of the tables in the store."""
    placeholder: str
    errors: tuple[type[Exception], ...]
    """Every error of the driver."""
    unique: tuple[type[Exception], ...]
    """A unique key or other constraint hit."""
    notify: str | None = None
    """A statement announcing a game's change to other front-ends (one parameter: the
    payload), run in the transaction that makes it; ``None``: one front-end only."""
    lazy_begin: str = ""
    """What opens a write transaction whose commit need not wait for the disk (an
    action in flight, a session counted, a game marked seen: what a power cut may
    lose, unlike an event); "": :attr:`begin`, with :attr:`lazy` around it."""
    lazy: tuple[str, str] = ("", "")
    """What to run before and after such a transaction (SQLite's safety level cannot
    change inside one)."""
    batch: Callable[[Any], Any] | None = None
    """A cursor on a connection that binds parameters itself (psycopg's
    ``ClientCursor``), so that a write transaction's statements whose results are
    not read go to the server together, as one string (:class:`.sqlstore.Run`);
    ``None``: each statement on its own (SQLite: in-process, no round trips)."""
    unavailable: tuple[type[Exception], ...] = ()
    """The database server gone (a lost connection): the store is unavailable until
    a new connection is made."""

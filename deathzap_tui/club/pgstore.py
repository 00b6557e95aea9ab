"""The club store on PostgreSQL (issue 24): several front-ends, one database.

The queries are :mod:`.sqlstore`'s (one implementation for every database); this
module adds what PostgreSQL needs besides: its :class:`.Dialect`, connecting to
the database a ``postgresql://`` URL names (psycopg 3), naming it without its password
(:func:`redact`: the URL with a password is never printed or logged), and
following what other front-ends write (:func:`follow`).

Every event appended, and every change of a game's action in flight, is announced
on the :data:`CHANNEL` channel in the same transaction (``pg_notify``: it is sent
when, and only if, the transaction commits), with the event or the record itself
when it fits. A front-end LISTENs on a connection of its own and takes the change
from the notice, in the order the changes were committed, or catches the game up
from the event table by sequence number. Notices are never all there is: one
missed while the connection was down is made good by catching up every hosted game
once it is back.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from deathzap_tui.club.dialect import Dialect
from deathzap_tui.club.members import ClubError

SCHEMES = ("postgresql:", "postgres:")
CHANNEL = "deathzap_club"
CONNECT_TIMEOUT = 5
"""Seconds to wait for the database server when connecting."""
NOTICE_BYTES = 8000
"""PostgreSQL's limit on a notice's payload (``pg_notify``): it must be shorter."""
RETRY_EVERY = 1.0
"""Seconds between attempts to reconnect the listening connection."""


def is_url(spec: str) -> bool:
    return spec.startswith(SCHEMES)


def redact(url: str) -> str:
    """``url`` without its password (in the user part or a ``password=`` parameter):
    how the store is named in every message and log line."""
    try:
        parts = urlsplit(url)
        host = parts.netloc.rpartition("@")[2]
        user = parts.username
        netloc = f"{user}@{host}" if user else host
        query = urlencode([(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
                           if k.lower() != "password"])
        return urlunsplit((parts.scheme, netloc, parts.path, query, ""))
    except ValueError:
        return "postgresql://(a connection string that cannot be read)"


def dialect() -> Dialect:
    """PostgreSQL's :class:`Dialect` (needs psycopg 3: see :func:`connect`)."""
    import psycopg  # lazy: psycopg, only for PostgreSQL stores

    return Dialect(
        "postgres", "BEGIN", "",
        "SELECT table_name FROM information_schema.tables "
        "WHERE table_schema = current_schema()",
        "%s", (psycopg.Error,), (psycopg.errors.IntegrityError,),
        notify=f"SELECT pg_notify('{CHANNEL}', ?)",
        lazy_begin="BEGIN; SET LOCAL synchronous_commit = off",
        batch=psycopg.ClientCursor,
        unavailable=(psycopg.OperationalError, psycopg.InterfaceError))


def connect(url: str) -> object:
    """A connection to the store's database (autocommit: the store opens its own
    transactions); :class:`ClubError` naming the store, never the password."""
    try:
        import psycopg  # lazy: psycopg, only for PostgreSQL stores
    except ImportError:
        raise ClubError("a club store on PostgreSQL needs psycopg 3: pip install "
                        "'psycopg[binary]'") from None
    try:
        return psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT)
    except (psycopg.Error, ValueError) as exc:
        raise ClubError(f"{redact(url)}: the club's store is unavailable "
                        f"({_reason(exc, url)})") from None


def _reason(exc: BaseException, url: str) -> str:
    """A driver's error in one line, with the password (if the driver quoted it)
    taken out."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    try:
        password = urlsplit(url).password
    except ValueError:  # a URL that cannot be read: its password cannot be told apart
        return "the connection string cannot be read"
    return text.replace(password, "***") if password else text


Changed = Callable[[int, str, str], None]
"""``(game, what, data)``: another front-end appended an event (``"event"``) or changed
the action in flight (``"action"``) of a game; ``data``: the change, if the notice
carried it (:meth:`~deathzap_tui.club.sqlstore.SqlClubStore._announce`), else ""."""


async def follow(url: str, origin: str, changed: Changed, resync: Callable[[], None],
                 log: Callable[[str], None]) -> None:
    """LISTEN for what other front-ends write, until cancelled: ``changed`` for each
    notification not sent by ``origin`` (this front-end's own store); ``resync``
    each time the listening connection is (re)made, since notifications sent while
    it was down are lost."""
    import asyncio  # lazy: loaded by the caller's loop; `club` store commands skip it

    import psycopg  # lazy: psycopg, only for PostgreSQL stores

    label = redact(url)
    down = False
    while True:
        try:
            conn = await psycopg.AsyncConnection.connect(
                url, autocommit=True, connect_timeout=CONNECT_TIMEOUT)
        except psycopg.Error as exc:
            if not down:
                log(f"{label}: the club's store is unavailable ({_reason(exc, url)}); "
                    "trying again")
                down = True
            await asyncio.sleep(RETRY_EVERY)
            continue
        try:
            async with conn:
                await conn.execute(f"LISTEN {CHANNEL}")
                if down:
                    log(f"{label}: the club's store is back")
                    down = False
                resync()
                async for note in conn.notifies():
                    game, what, sender, data = [*note.payload.split(" ", 3), "", "", ""][:4]
                    if sender != origin and game.isdigit():
                        changed(int(game), what, data)
        except psycopg.Error as exc:
            if not down:
                log(f"{label}: lost the club's store ({_reason(exc, url)}); "
                    "catching up when it is back")
                down = True
            with contextlib.suppress(Exception):
                await conn.close()
            await asyncio.sleep(RETRY_EVERY)

"""Helpers of the club tests (a module of its own, as tests/rules has: ``from conftest
import ...`` finds whichever conftest.py was imported first).

:data:`HOMES` is every implementation of :class:`deathzap_tui.gamestore.GameStore` the
store tests run against (the ``home`` fixture in conftest.py), PostgreSQL among them
(issue 24: the test run's own server, :mod:`pgserver`). Real stores, never a mocked
database.
"""

from __future__ import annotations

import base64
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from dz3_fixtures import play_random_action

from deathzap_tui.club.sqlstore import ClubGameStore, SqlClubStore, open_store
from deathzap_tui.forcefile import load_force
from deathzap_tui.gamestore import GameStore
from deathzap_tui.rules.game import Game
from deathzap_tui.savestore import SaveFileStore
from deathzap_tui.session import Session

ROOT = Path(__file__).resolve().parents[2]
FORCES = ROOT / "forces"


def key_text(n: int, comment: str = "") -> str:
    """A well-formed ssh-ed25519 public key line, different for each ``n``."""
    blob = b"\0\0\0\x0bssh-ed25519\0\0\0\x20" + n.to_bytes(32, "big")
    line = "ssh-ed25519 " + base64.b64encode(blob).decode("ascii")
    return f"{line} {comment}" if comment else line


def run_sql(store: SqlClubStore, sql: str, *params: object) -> None:
    """Change a club store behind its back (to damage it, to fake a race), in SQL
    with ``?`` placeholders on either database."""
    with store._tx() as run:
        run(sql, *params)


def new_game(seed: int = 11) -> Game:
    red = load_force(FORCES / "mortans-men.toml")
    black = load_force(FORCES / "gutter-saints.toml")
    return Game(red.ruleset, red.force, black.force, red.ruleset.options({}), seed,
                deal_seed=7)


def with_two_members(spec: str | Path) -> SqlClubStore:
    """The club store ``spec`` (made if new) with two members: alice and bob, keys 1
    and 2."""
    from deathzap_tui.club.members import PublicKey

    club = open_store(spec)
    club.add_member("alice", PublicKey.parse(key_text(1)))
    club.add_member("bob", PublicKey.parse(key_text(2)))
    return club


def club_session(club: SqlClubStore) -> tuple[Session, ClubGameStore]:
    """A new game between alice and bob (:func:`with_two_members`) in ``club``: its
    session and its store."""
    store = club.new_game(red="alice", black="bob")
    game = new_game()
    store.create(game)
    return Session(game, None, store=store), store


def play(session: Session, actions: int, seed: int = 11) -> None:
    rnd = random.Random(seed)
    for _ in range(actions):
        play_random_action(session.game, rnd)


@dataclass
class Home:
    """One kind of home for games: ``new()`` a store for a new game, ``again(store)``
    a second writer on the same game (its own connection or file handles)."""

    kind: str
    new: Callable[[], GameStore]
    again: Callable[[GameStore], GameStore]


Database = Callable[[], str]
"""A new empty PostgreSQL store's URL, on the test run's own server (``pg`` in
conftest.py)."""


def _files(tmp_path: Path, database: Database) -> Home:
    count = iter(range(1000))
    return Home("files", lambda: SaveFileStore(tmp_path / f"game-{next(count)}.toml"),
                lambda store: SaveFileStore(store.path))  # type: ignore[attr-defined]


def _club(kind: str, spec: str) -> Home:
    """Games between alice and bob in the club store ``spec``; each second writer on
    its own connection."""
    first = with_two_members(spec)
    return Home(kind, lambda: first.new_game(red="alice", black="bob"),
                lambda store: open_store(spec).game_store(store.game_id))  # type: ignore[attr-defined]


HOMES: dict[str, Callable[[Path, Database], Home]] = {
    "files": _files,
    "sqlite": lambda tmp_path, _database: _club("sqlite", str(tmp_path / "club.sqlite")),
    "postgres": lambda _tmp_path, database: _club("postgres", database()),
}
"""Every implementation of GameStore the store tests run against."""

CLUB_STORES: dict[str, Callable[[Path, Database], str]] = {
    "sqlite": lambda tmp_path, _database: f"sqlite:{tmp_path / 'club.sqlite'}",
    "postgres": lambda _tmp_path, database: database(),
}
"""Every club store (a ``--store`` value): the club store tests run against each."""

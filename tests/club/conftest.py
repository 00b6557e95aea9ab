"""Fixtures of the club tests (helpers: club_fixtures.py): real stores in tmp_path and
on the test run's own PostgreSQL server (pgserver.py), never a mocked database."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from club_fixtures import CLUB_STORES, HOMES, Home, key_text
from pgserver import PgServer, PgUnavailable

from deathzap_tui.club.sqlstore import SqlClubStore, open_store


@pytest.fixture(scope="session")
def pg() -> Iterator[PgServer]:
    """A PostgreSQL server for this test run (one per xdist worker), stopped at its
    end. One that cannot be started fails the tests that need it, saying why."""
    server = PgServer()
    try:
        server.start()
    except (PgUnavailable, OSError, PermissionError) as exc:
        server.stop()
        pytest.fail(f"the tests' PostgreSQL server could not be started: {exc}",
                    pytrace=False)
    yield server
    server.stop()


def _database(request: pytest.FixtureRequest) -> str:
    server: PgServer = request.getfixturevalue("pg")
    return server.database()


@pytest.fixture(params=sorted(CLUB_STORES))
def club_spec(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty club store's ``--store``, one of each kind."""
    return CLUB_STORES[request.param](tmp_path, lambda: _database(request))


@pytest.fixture
def club(club_spec: str) -> Iterator[SqlClubStore]:
    """A club store (of each kind) with two members, alice and bob."""
    from deathzap_tui.club.members import PublicKey

    store = open_store(club_spec)
    store.add_member("alice", PublicKey.parse(key_text(1, "alice@home")))
    store.add_member("bob", PublicKey.parse(key_text(2)))
    yield store
    store.close()


@pytest.fixture(params=sorted(HOMES))
def home(request: pytest.FixtureRequest, tmp_path: Path,
         monkeypatch: pytest.MonkeyPatch) -> Home:
    monkeypatch.setenv("DEATHZAP_SAVES_DIR", str(tmp_path))
    return HOMES[request.param](tmp_path, lambda: _database(request))


@pytest.fixture
def toy_ruleset(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy ruleset (tests/net/toynet.py) is known to the test using this only (never
    to other test modules sharing a worker process)."""
    from server_helpers import toynet

    from deathzap_tui.rules import registry

    monkeypatch.setitem(sys.modules, "toynet", toynet)
    monkeypatch.setitem(registry._PLUGINS, toynet.ID, "toynet")

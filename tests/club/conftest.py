"""Fixtures of the club tests (helpers: club_fixtures.py): real stores in tmp_path,
never a mocked database."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from club_fixtures import HOMES, Home, key_text

from deathzap_tui.club.sqlstore import SqlClubStore, open_store


@pytest.fixture
def club(tmp_path: Path) -> Iterator[SqlClubStore]:
    """A club store file with two members, alice and bob."""
    from deathzap_tui.club.members import PublicKey

    store = open_store(tmp_path / "club.sqlite")
    store.add_member("alice", PublicKey.parse(key_text(1, "alice@home")))
    store.add_member("bob", PublicKey.parse(key_text(2)))
    yield store
    store.close()


@pytest.fixture(params=sorted(HOMES))
def home(request: pytest.FixtureRequest, tmp_path: Path,
         monkeypatch: pytest.MonkeyPatch) -> Home:
    monkeypatch.setenv("DEATHZAP_SAVES_DIR", str(tmp_path))
    return HOMES[request.param](tmp_path)

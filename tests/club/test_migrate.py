"""The club store's schema versions: made from nothing, upgraded by `club migrate`,
and a store of another version refused with both versions named."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from club_fixtures import run_sql

from deathzap_tui.club import migrate
from deathzap_tui.club.members import ClubError
from deathzap_tui.club.migrate import Migration, VersionMismatch
from deathzap_tui.club.sqlstore import open_store


def _tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master "
                                           "WHERE type = 'table'")}


@pytest.mark.parametrize("driver", ["sqlite", "postgres"])
def test_every_migration_has_each_drivers_sql_numbered_from_one(driver: str) -> None:
    steps = migrate.migrations(driver)
    assert [m.version for m in steps] == list(range(1, migrate.LATEST + 1))


@pytest.mark.parametrize("empty_file", [False, True])
def test_a_store_is_made_from_nothing_at_the_latest_version(tmp_path: Path,
                                                            empty_file: bool) -> None:
    path = tmp_path / "club.sqlite"
    if empty_file:
        path.write_bytes(b"")
    store = open_store(path, upgrade=True)
    assert store.migrated == (0, migrate.LATEST) == (0, store.schema_version())
    store.close()
    assert {"schema_version", "members", "member_keys", "forces", "challenges", "games",
            "events", "game_seen", "in_flight", "sessions", "key_actions"} <= _tables(path)
    if not empty_file:  # made here: members' keys and games are the host's only
        assert path.stat().st_mode & 0o077 == 0
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    again = open_store(path, upgrade=True)
    assert again.migrated == (migrate.LATEST, migrate.LATEST)


def _store_tables(spec: str) -> set[str]:
    store = open_store(spec, upgrade=True)
    with store._tx(read=True) as run:
        found = {r[0] for r in run(store.dialect.tables)}
    store.close()
    return found


def test_a_store_newer_than_the_code_is_refused_naming_both(club_spec: str) -> None:
    store = open_store(club_spec)
    run_sql(store, "UPDATE schema_version SET version = ?", migrate.LATEST + 4)
    store.close()
    for upgrade in (False, True):
        with pytest.raises(VersionMismatch) as caught:
            open_store(club_spec, upgrade=upgrade)
        assert f"schema version {migrate.LATEST + 4}, newer than this deathzap's " \
               f"{migrate.LATEST}" in str(caught.value)


def _one_more(monkeypatch: pytest.MonkeyPatch, name: str, sql: str) -> None:
    """This deathzap now knows one migration more (``sql`` for every driver)."""
    known, version = migrate.migrations, migrate.LATEST + 1
    monkeypatch.setattr(migrate, "migrations", lambda driver: [
        *known(driver), Migration(version, name, sql)])
    monkeypatch.setattr(migrate, "LATEST", version)


def test_an_older_store_is_refused_until_migrated(club_spec: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    open_store(club_spec).close()
    _one_more(monkeypatch, "add_notes", "CREATE TABLE notes (text TEXT);")
    with pytest.raises(VersionMismatch, match=f"at schema version {migrate.LATEST - 1} and "
                       f"this deathzap uses version {migrate.LATEST}: upgrade it with "
                       "`deathzap club migrate`"):
        open_store(club_spec)
    store = open_store(club_spec, upgrade=True)
    assert store.migrated == (migrate.LATEST - 1, migrate.LATEST)
    store.close()
    assert "notes" in _store_tables(club_spec)


def test_a_failing_migration_changes_nothing(club_spec: str,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    open_store(club_spec).close()
    _one_more(monkeypatch, "half", "CREATE TABLE half (x INTEGER); "
              "CREATE TABLE members (x INTEGER);")
    with pytest.raises(ClubError, match=f"migration {migrate.LATEST:04d} \\(half\\) failed "
                       "and was undone: .*members.* already exists"):
        open_store(club_spec, upgrade=True)
    monkeypatch.undo()
    store = open_store(club_spec)
    assert store.schema_version() == migrate.LATEST
    with store._tx(read=True) as run:
        assert "half" not in {r[0] for r in run(store.dialect.tables)}
    store.close()


def test_files_that_are_not_club_stores_are_refused(tmp_path: Path) -> None:
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not a database at all, just some bytes" * 100)
    with pytest.raises(ClubError, match="not a club store"):
        open_store(junk)
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE recipes (name TEXT)")
    with pytest.raises(ClubError, match="not a club store"):
        open_store(other)
    with pytest.raises(ClubError, match="is a folder"):
        open_store(tmp_path)
    with pytest.raises(ClubError, match="no folder"):
        open_store(tmp_path / "nowhere" / "club.sqlite")
    (tmp_path / "link.sqlite").symlink_to(other)
    with pytest.raises(ClubError, match="symbolic link"):
        open_store(tmp_path / "link.sqlite")

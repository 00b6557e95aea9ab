"""The club store's schema versions: made from nothing, upgraded by `club migrate`,
and a store of another version refused with both versions named."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

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


def test_a_store_newer_than_the_code_is_refused_naming_both(tmp_path: Path) -> None:
    path = tmp_path / "club.sqlite"
    open_store(path).close()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE schema_version SET version = ?", (migrate.LATEST + 4,))
    for upgrade in (False, True):
        with pytest.raises(VersionMismatch) as caught:
            open_store(path, upgrade=upgrade)
        assert f"schema version {migrate.LATEST + 4}, newer than this deathzap's " \
               f"{migrate.LATEST}" in str(caught.value)


def test_an_older_store_is_refused_until_migrated(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "club.sqlite"
    open_store(path).close()
    newer = [*migrate.migrations("sqlite"),
             Migration(migrate.LATEST + 1, "add_notes", "CREATE TABLE notes (text TEXT);")]
    monkeypatch.setattr(migrate, "migrations", lambda driver: newer)
    monkeypatch.setattr(migrate, "LATEST", migrate.LATEST + 1)
    with pytest.raises(VersionMismatch, match=f"at schema version {migrate.LATEST - 1} and "
                       f"this deathzap uses version {migrate.LATEST}: upgrade it with "
                       "`deathzap club migrate`"):
        open_store(path)
    store = open_store(path, upgrade=True)
    assert store.migrated == (migrate.LATEST - 1, migrate.LATEST)
    store.close()
    assert "notes" in _tables(path)


def test_a_failing_migration_changes_nothing(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "club.sqlite"
    open_store(path).close()
    broken = [*migrate.migrations("sqlite"),
              Migration(migrate.LATEST + 1, "half", "CREATE TABLE half (x INTEGER); "
                        "CREATE TABLE members (x INTEGER);")]
    monkeypatch.setattr(migrate, "migrations", lambda driver: broken)
    monkeypatch.setattr(migrate, "LATEST", migrate.LATEST + 1)
    with pytest.raises(ClubError, match=f"migration {migrate.LATEST:04d} \\(half\\) failed "
                       "and was undone: .*table members already exists"):
        open_store(path, upgrade=True)
    assert "half" not in _tables(path)
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT version FROM schema_version").fetchone()[0] == \
            migrate.LATEST - 1


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

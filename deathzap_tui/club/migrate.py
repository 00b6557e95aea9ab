"""The club store's schema, versioned: numbered migrations with SQL per driver.

``migrations/NNNN_what.DRIVER.sql`` (``DRIVER``: ``sqlite``, ``postgres``) takes a
store from version NNNN-1 to NNNN; every number has the SQL of every driver (the
tests run each on a real SQLite file and a real PostgreSQL 15 server). The version
a store is at is the one row of its ``schema_version`` table. A store is used only
at the version this code knows (:data:`LATEST`): an older one is upgraded by
``deathzap club migrate``; a newer one (written by a later deathzap) is
refused, naming both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

from deathzap_tui.club.members import ClubError

_FILE = re.compile(r"(\d{4})_([a-z0-9_]+)\.([a-z]+)\.sql")
VERSION_TABLE = "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"
"""Made before any migration runs, in SQL every driver accepts."""


class VersionMismatch(ClubError):
    """A store at another schema version than this code's."""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def migrations(driver: str) -> list[Migration]:
    """Every migration of ``driver``, in order; a gap in the numbering, or a number
    without this driver's SQL, is a broken install (an error naming it)."""
    found: dict[int, Migration] = {}
    numbers: set[int] = set()
    for entry in resources.files("deathzap_tui.club").joinpath("migrations").iterdir():
        match = _FILE.fullmatch(entry.name)
        if match is None:
            continue
        number = int(match[1])
        numbers.add(number)
        if match[3] == driver:
            found[number] = Migration(number, match[2], entry.read_text(encoding="utf-8"))
    for number in range(1, max(numbers, default=0) + 1):
        if number not in found:
            raise ClubError(f"club store migration {number:04d} has no {driver} SQL "
                            "(a broken install)")
    return [found[n] for n in sorted(found)]


LATEST = max((m.version for m in migrations("sqlite")), default=0)
"""The schema version this code reads and writes."""


def mismatch(label: str, version: int) -> VersionMismatch | None:
    """The error for a store at ``version``, or ``None`` if it is this code's."""
    if version > LATEST:
        return VersionMismatch(
            f"{label}: the club store is at schema version {version}, newer than this "
            f"deathzap's {LATEST}; use the deathzap that wrote it, or a newer one")
    if version < LATEST:
        return VersionMismatch(
            f"{label}: the club store is at schema version {version} and this deathzap "
            f"uses version {LATEST}: upgrade it with `deathzap club migrate`")
    return None

"""``deathzap club copy``: move a club from one store to another (issue 24), e.g. from
its SQLite file to PostgreSQL when it outgrows one machine.

Everything a club keeps goes, with the same ids: members and their keys, forces,
challenges, games with every event, how far each member has looked, the action in
flight of each game and the per-key action counters. (Open sessions do not: they
belong to the server that holds them.) The source is read in one transaction and the
target written in one, so a copy is whole or not made at all. A target that already
holds a club is refused unless ``replace`` says to empty it first.
"""

from __future__ import annotations

from dataclasses import dataclass

from deathzap_tui.club.members import ClubError
from deathzap_tui.club.sqlstore import SqlClubStore

COPIED: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("members", ("id", "name", "name_key", "created_at")),
    ("member_keys", ("id", "member_id", "key_type", "blob", "fingerprint", "comment",
                     "created_at")),
    ("forces", ("id", "member_id", "name", "ruleset", "toml", "updated_at")),
    ("challenges", ("id", "challenger_id", "opponent_id", "ruleset", "options", "force",
                    "public", "created_at")),
    ("games", ("id", "ruleset", "header", "red_id", "black_id", "public", "over", "result",
               "events", "created_at", "updated_at")),
    ("events", ("game_id", "seq", "data", "created_at")),
    ("game_seen", ("game_id", "member_id", "events", "seen_at")),
    ("in_flight", ("game_id", "data", "updated_at")),
    ("key_actions", ("fingerprint", "what", "at")),
)
"""The tables copied, each before those that refer to it, with their columns."""
NOT_COPIED = frozenset({"schema_version", "sessions"})
IDENTITY = ("members", "member_keys", "forces", "challenges", "games")
"""Tables whose ``id`` the database numbers: the next number follows the copied ones."""


@dataclass(frozen=True)
class Copied:
    rows: dict[str, int]
    """Rows copied, by table."""

    def summary(self) -> str:
        r = self.rows
        return (f"{r['members']} members ({r['member_keys']} keys), {r['forces']} forces, "
                f"{r['challenges']} challenges, {r['games']} games ({r['events']} events, "
                f"{r['in_flight']} actions in flight)")


def copy_club(source: SqlClubStore, target: SqlClubStore, *, replace: bool = False) -> Copied:
    """Copy the club in ``source`` into ``target`` (both at this deathzap's schema)."""
    if source.label == target.label:
        raise ClubError(f"{source.label}: copying a club onto itself")
    with source._tx(read=True) as run:
        data = {table: run(f"SELECT {', '.join(cols)} FROM {table}")
                for table, cols in COPIED}
    with target._tx() as run:
        held = [table for table in ("members", "games", "challenges")
                if run(f"SELECT COUNT(*) FROM {table}")[0][0]]
        if held and not replace:
            raise ClubError(f"{target.label}: already holds a club (its {', '.join(held)}); "
                            "copy into an empty store, or give --replace to empty it first")
        for table, _cols in reversed(COPIED):
            run(f"DELETE FROM {table}")
        run("DELETE FROM sessions")
        for table, cols in COPIED:
            marks = ", ".join("?" for _ in cols)
            for row in data[table]:
                run(f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({marks})",
                    *(bytes(v) if isinstance(v, memoryview) else v for v in row))
        if target.dialect.name == "postgres":
            for table in IDENTITY:
                run(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"COALESCE(MAX(id), 0) + 1, false) FROM {table}")
    return Copied({table: len(rows) for table, rows in data.items()})

"""The club store on PostgreSQL (issue 24), on the test run's own server: a password
never shown, `club copy` from SQLite, the store's change notices."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest
from club_fixtures import FORCES, club_session, key_text, new_game, play, with_two_members
from pgserver import PgServer, free_port
from test_club_cli import deathzap, ok, refused

from deathzap_tui.club import copy as club_copy
from deathzap_tui.club.members import ClubError, PublicKey
from deathzap_tui.club.pgstore import redact
from deathzap_tui.club.sqlstore import SqlClubStore, open_store
from deathzap_tui.gamestore import StoreError
from deathzap_tui.inflight import InFlight
from deathzap_tui.session import Session

FORCE = (FORCES / "mortans-men.toml").read_text(encoding="utf-8")
SECRET = "s3cr3t-Pa55"


@pytest.mark.parametrize(("url", "shown"), [
    (f"postgresql://club:{SECRET}@db.example:5432/club",
     "postgresql://club@db.example:5432/club"),
    (f"postgres://club:{SECRET}@db/club?sslmode=require",
     "postgres://club@db/club?sslmode=require"),
    (f"postgresql://db/club?password={SECRET}&sslmode=require",
     "postgresql://db/club?sslmode=require"),
    ("postgresql://club@db/club", "postgresql://club@db/club"),
])
def test_a_store_is_named_without_its_password(url: str, shown: str) -> None:
    assert redact(url) == shown


@pytest.mark.parametrize("url", [
    f"postgresql://club:{SECRET}@127.0.0.1:abc/club",
    f"postgresql://club:{SECRET}@[::1/club",
    f"postgresql://club:{SECRET}@127.0.0.1:1/club?sslmode=bogus",
    f"postgresql://127.0.0.1:1/club?password={SECRET}",
])
def test_a_bad_or_unreachable_store_url_is_refused_without_its_password(url: str) -> None:
    with pytest.raises(ClubError, match="the club's store is unavailable") as caught:
        open_store(url)
    assert SECRET not in str(caught.value)


def _with_password(url: str) -> str:
    return url.replace("postgresql://postgres@", f"postgresql://postgres:{SECRET}@")


@pytest.mark.slow
def test_a_password_in_the_connection_string_is_never_printed(tmp_path: Path,
                                                              pg: PgServer) -> None:
    url = _with_password(pg.database(own=True))
    outputs = [ok(tmp_path, "club", "migrate", "--store", url),
               ok(tmp_path, "club", "add", "alice", "--key", key_text(1), "--store", url),
               ok(tmp_path, "club", "members", "--store", url)]
    assert "alice" in outputs[-1] or "alice" in outputs[-2]
    assert "created at schema version" in outputs[0]
    assert redact(url) in outputs[0]
    gone = f"postgresql://postgres:{SECRET}@127.0.0.1:{free_port()}/nothing"
    line = refused(tmp_path, "club", "members", "--store", gone)
    assert "the club's store is unavailable" in line
    for text in [*outputs, line]:
        assert SECRET not in text


def test_a_store_of_another_schema_version_is_refused_on_postgres(pg: PgServer) -> None:
    """(test_migrate runs every version test on both stores; this one by the CLI.)"""
    url = pg.database()
    store = open_store(url)
    with store._tx() as run:
        run("UPDATE schema_version SET version = 99")
    store.close()
    done = deathzap(Path("/tmp"), "club", "members", "--store", url)
    assert done.returncode == 1
    assert "schema version 99, newer than this deathzap's 1" in done.stderr


# --- club copy ------------------------------------------------------------------------
def _a_club(path: Path) -> SqlClubStore:
    """A club with something in every table that is copied."""
    club = open_store(path)
    club.add_member("alice", PublicKey.parse(key_text(1, "alice@home")))
    club.add_member("bob", PublicKey.parse(key_text(2)))
    club.add_key("bob", PublicKey.parse(key_text(3, "bob@work")))
    club.save_force("alice", FORCE)
    club.add_challenge("alice", FORCE, opponent="bob")
    club.note_action("member:alice", "new-game")
    store = club.new_game(red="alice", black="bob", public=True)
    game = new_game()
    store.create(game)
    session = Session(game, None, store=store)
    play(session, 7)
    session.keep_action(session.begin(session.intents()[0].intent, "red"))
    club.mark_seen(store.game_id or 0, "bob", 3)
    return club


def _contents(club: SqlClubStore) -> dict[str, object]:
    game = club.games()[0].id
    return {
        "members": club.members(), "forces": club.forces("alice"),
        "challenges": club.challenges_for("bob"), "games": club.games_of("bob"),
        "events": [e.to_data() for e in club.game_store(game).load().log],
        "in_flight": club.game_store(game).in_flight.load(),
        "actions": club.count_actions("member:alice", "new-game", 10**9),
    }


@pytest.mark.slow
def test_club_copy_moves_a_whole_club_from_sqlite_to_postgres(tmp_path: Path,
                                                              pg: PgServer) -> None:
    source = _a_club(tmp_path / "club.sqlite")
    want = _contents(source)
    assert isinstance(want["in_flight"], InFlight)
    url = pg.database(own=True)
    out = ok(tmp_path, "club", "copy", "--from", f"sqlite:{tmp_path / 'club.sqlite'}",
             "--to", url)
    assert "2 members (3 keys), 1 forces, 1 challenges, 1 games (7 events, 1 actions " \
           "in flight)" in out
    target = open_store(url)
    assert _contents(target) == want
    target.add_member("carol", PublicKey.parse(key_text(4)))  # ids go on after the copy
    assert target.new_game(red="alice", black="carol").club is target
    line = refused(tmp_path, "club", "copy", "--from", str(tmp_path / "club.sqlite"),
                   "--to", url)
    assert "already holds a club (its members, games, challenges)" in line
    assert "--replace" in line
    ok(tmp_path, "club", "copy", "--from", str(tmp_path / "club.sqlite"), "--to", url,
       "--replace")
    assert [m.name for m in target.members()] == ["alice", "bob"]
    target.close()


def test_club_copy_goes_back_from_postgres_to_sqlite(tmp_path: Path, pg: PgServer) -> None:
    source = _a_club(tmp_path / "club.sqlite")
    url = pg.database()
    club_copy.copy_club(source, open_store(url))
    back = open_store(tmp_path / "back.sqlite")
    club_copy.copy_club(open_store(url), back)
    assert _contents(back) == _contents(source)
    with pytest.raises(ClubError, match="onto itself"):
        club_copy.copy_club(back, back)


def test_club_copy_names_every_column_of_the_schema(tmp_path: Path) -> None:
    """A migration that adds a table or a column must tell `club copy` about it."""
    open_store(tmp_path / "club.sqlite").close()
    with sqlite3.connect(tmp_path / "club.sqlite") as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master "
                                             "WHERE type = 'table'")}
        columns = {t: tuple(r[1] for r in conn.execute(f"PRAGMA table_info({t})"))
                   for t in tables}
    assert tables - club_copy.NOT_COPIED == {t for t, _c in club_copy.COPIED}
    for table, cols in club_copy.COPIED:
        assert set(cols) == set(columns[table]), table


# --- change notices -------------------------------------------------------------------
def test_another_front_end_hears_each_event_and_action_in_flight(pg: PgServer) -> None:
    """Two stores on one database (two front-ends): what one writes, the other hears
    of (LISTEN/NOTIFY), and never of its own writes."""
    url = pg.database(own=True)
    one = with_two_members(url)
    two = open_store(url)
    heard: list[tuple[str, int, str]] = []

    async def scenario() -> None:
        resynced = asyncio.Event()
        tasks = [asyncio.ensure_future(store.follow(
            lambda game, what, _data, who=who: heard.append((who, game, what)),
            resynced.set, print)) for who, store in (("one", one), ("two", two))]
        await asyncio.wait_for(resynced.wait(), 10)
        await asyncio.sleep(0.2)
        store = one.new_game(red="alice", black="bob")
        game = new_game()
        store.create(game)
        session = Session(game, None, store=store)
        play(session, 2)
        session.keep_action(session.begin(session.intents()[0].intent, "red"))
        for _ in range(50):
            if len(heard) >= 3:
                break
            await asyncio.sleep(0.05)
        for task in tasks:
            task.cancel()

    asyncio.run(scenario())
    game_id = one.games()[0].id
    assert heard[:3] == [("two", game_id, "event"), ("two", game_id, "event"),
                         ("two", game_id, "action")]
    assert not [h for h in heard if h[0] == "one"]
    sqlite_store = open_store(Path(pg.root) / "x.sqlite")
    assert sqlite_store.follow(print, print, print) is None


@pytest.mark.slow
def test_a_store_whose_server_went_away_says_so_and_works_again_when_it_is_back(
        pg: PgServer) -> None:
    """Nothing acknowledged is lost: what was kept before the server stopped is there
    when it is back, and the same connection object is made again."""
    url = pg.database()
    club = with_two_members(url)
    session, store = club_session(club)
    play(session, 3)
    pg.pause()
    try:
        with pytest.raises(StoreError, match="the club's store is unavailable") as caught:
            play(session, 1, seed=4)
        assert "Traceback" not in str(caught.value)
        with pytest.raises(StoreError, match="the club's store is unavailable"):
            club.members()
    finally:
        pg.resume()
    assert len(club.game_store(store.game_id or 0).load().log) == 3
    resumed = Session.open(club.game_store(store.game_id or 0))
    play(resumed, 1, seed=4)
    assert len(club.game_store(store.game_id or 0).load().log) == 4

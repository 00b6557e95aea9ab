"""The club store's own records (members, keys, forces, challenges, games, counters)
on a real SQLite file and a real PostgreSQL database (the ``club`` fixture)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from club_fixtures import FORCES, club_session, key_text, new_game, play, run_sql, with_two_members
from dz3_fixtures import random_answer

from deathzap_tui.club.gamestore import event_json
from deathzap_tui.club.members import ClubError, PublicKey, check_name
from deathzap_tui.club.sqlstore import SqlClubStore, open_store
from deathzap_tui.gamestore import Conflict
from deathzap_tui.session import Session

FORCE = (FORCES / "mortans-men.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", ["al", "Zoë", "Red Baron", "x" * 24, "刀鍛冶", "al-ice"])
def test_good_member_names(name: str) -> None:
    assert check_name(name) == name


@pytest.mark.parametrize(("name", "why"), [
    ("a", "1 characters"), ("x" * 25, "25 characters"), (" alice", "space"),
    ("alice ", "space"), ("al\x1b[2Jice", "U+001B"), ("al\u202eice", "U+202E"),
    ("al\u200bice", "U+200B"), ("al\nice", "U+000A"), ("al\u0085ice", "U+0085"),
    ("--help", "start with '-'"), ("-alice", "start with '-'"),
])
def test_bad_member_names_are_refused_saying_why(name: str, why: str) -> None:
    with pytest.raises(ClubError, match=why.replace("+", r"\+")):
        check_name(name)


@pytest.mark.parametrize(("text", "why"), [
    ("", "not an SSH public key"), ("ssh-dss AAAAB3", "not an SSH public key"),
    ("ssh-ed25519", "not an SSH public key"), ("ssh-ed25519 !!!", "not base64"),
    ("ssh-ed25519 " + key_text(1).split()[1][:20], "not a ssh-ed25519 key"),
    ("ssh-rsa " + key_text(1).split()[1], "not a ssh-rsa key"),
    (key_text(1, "me\x1b[31m"), "non-printable"),
])
def test_bad_key_text_is_refused(text: str, why: str) -> None:
    with pytest.raises(ClubError, match=why):
        PublicKey.parse(text)


def test_a_key_line_reads_back_with_the_openssh_fingerprint() -> None:
    key = PublicKey.parse(key_text(9, "carol@laptop"))
    assert key.text == key_text(9, "carol@laptop") and key.comment == "carol@laptop"
    assert key.fingerprint.startswith("SHA256:") and "=" not in key.fingerprint


def test_members_have_unique_names_and_keys(club: SqlClubStore) -> None:
    with pytest.raises(ClubError, match="taken"):
        club.add_member("ALICE", PublicKey.parse(key_text(3)))
    with pytest.raises(ClubError, match="taken"):
        club.add_member("ａｌｉｃｅ", PublicKey.parse(key_text(3)))  # full-width
    with pytest.raises(ClubError, match="already \"alice\"'s"):
        club.add_member("carol", PublicKey.parse(key_text(1)))
    assert [m.name for m in club.members()] == ["alice", "bob"]


def test_a_member_has_several_keys_and_is_found_by_any(club: SqlClubStore) -> None:
    second = PublicKey.parse(key_text(5, "alice@work"))
    club.add_key("alice", second)
    first = PublicKey.parse(key_text(1))
    for key in (first, second):
        found = club.member_by_key(key.blob)
        assert found is not None and found.name == "alice"
    assert club.member_by_key(PublicKey.parse(key_text(6)).blob) is None
    club.remove_key("alice", first.fingerprint)
    assert club.member_by_key(first.blob) is None
    with pytest.raises(ClubError, match="last key"):
        club.remove_key("alice", second.fingerprint)
    with pytest.raises(ClubError, match="already \"alice\"'s"):
        club.add_key("bob", second)


def test_unknown_members_are_named(club: SqlClubStore) -> None:
    for call in (lambda: club.member("carol"), lambda: club.remove_member("carol"),
                 lambda: club.forces("carol"), lambda: club.games_of("carol"),
                 lambda: club.new_game(red="alice", black="carol")):
        with pytest.raises(ClubError, match='no member named "carol"'):
            call()


def test_forces_are_checked_and_kept_by_their_own_name(club: SqlClubStore) -> None:
    saved = club.save_force("alice", FORCE)
    assert (saved.name, saved.ruleset) == ("Mortan's Men", "deathzap3")
    club.save_force("alice", FORCE)  # saved again: replaced, not doubled
    assert club.count_forces("alice") == 1 and club.count_forces("bob") == 0
    assert club.force("alice", "Mortan's Men").text == FORCE
    broken = FORCE.replace('name = "Mortan\'s Men"', 'name = ""', 1)
    with pytest.raises(ClubError, match="`deathzap check` finds errors"):
        club.save_force("alice", broken)
    with pytest.raises(ClubError, match="not valid TOML"):
        club.save_force("alice", "units = [")
    club.remove_force("alice", "Mortan's Men")
    assert club.forces("alice") == []


def test_challenges_open_and_addressed(club: SqlClubStore) -> None:
    from deathzap_tui.club.members import PublicKey

    club.add_member("carol", PublicKey.parse(key_text(3)))
    open_one = club.add_challenge("alice", FORCE)
    to_bob = club.add_challenge("alice", FORCE, opponent="bob", public=True)
    assert open_one.opponent is None and open_one.ruleset == "deathzap3"
    assert to_bob.opponent == "bob" and to_bob.public
    assert [c.id for c in club.challenges_for("bob")] == [open_one.id, to_bob.id]
    assert [c.id for c in club.challenges_for("carol")] == [open_one.id]
    assert [c.id for c in club.challenges_for("alice")] == [open_one.id, to_bob.id]
    with pytest.raises(ClubError, match="themselves"):
        club.add_challenge("alice", FORCE, opponent="alice")
    with pytest.raises(ClubError, match="options"):
        club.add_challenge("alice", FORCE, options={"no-such-option": 1})
    assert club.take_challenge(open_one.id) == open_one
    with pytest.raises(ClubError, match="is gone"):
        club.take_challenge(open_one.id)


def test_games_list_players_unread_and_what_each_has_seen(club: SqlClubStore) -> None:
    store = club.new_game(red="alice", black="bob")
    game = new_game()
    store.create(game)
    session = Session(game, None, store=store)
    play(session, 4)
    assert store.game_id is not None
    info = club.games_of("alice")[0]
    assert (info.red, info.black, info.events, info.over) == ("alice", "bob", 4, False)
    assert info.unread
    club.mark_seen(store.game_id, "alice", 4)
    assert not club.games_of("alice")[0].unread
    assert club.games_of("bob")[0].unread
    play(session, 1, seed=2)
    assert club.games_of("alice")[0].unread
    assert club.public_games() == []
    club.set_public(store.game_id, True)
    assert [g.id for g in club.public_games()] == [store.game_id]


def test_a_removed_member_leaves_their_games(club: SqlClubStore) -> None:
    store = club.new_game(red="alice", black="bob")
    store.create(new_game())
    club.add_challenge("bob", FORCE)
    club.remove_member("bob")
    assert store.game_id is not None
    assert club.game_info(store.game_id).black is None
    assert club.challenges_for("alice") == []
    assert club.game_store(store.game_id).load().log == []


def test_the_unique_event_number_decides_when_the_count_is_stale(
        club: SqlClubStore) -> None:
    """Two writers that both read the count before either wrote: the database's
    UNIQUE(game, seq) refuses the second insert."""
    store = club.new_game(red="alice", black="bob")
    game = new_game()
    store.create(game)
    play(Session(game, None, store=store), 2)
    assert store.game_id is not None
    run_sql(club, "UPDATE games SET events = events - 1 WHERE id = ?", store.game_id)
    with pytest.raises(Conflict, match="another writer kept event number 1 first"):
        store.append(1, game.log[1])


def test_an_event_kept_takes_the_action_in_flight_with_it(club: SqlClubStore) -> None:
    """The record of an action in flight goes in the transaction that keeps the next
    event (which leaves it behind), not in a second write after it (issue 23)."""
    store = club.new_game(red="alice", black="bob")
    game = new_game()
    store.create(game)
    session = Session(game, None, store=store)
    play(session, 1)
    action = session.begin(session.intents()[0].intent, "red")
    session.keep_action(action)
    assert store.game_id is not None and club.load_in_flight(store.game_id) is not None
    rnd = random.Random(2)
    while not action.resolution.done:
        action.resolution.answer(random_answer(action.resolution.step, rnd))
    game.listeners.clear()  # the event kept by the store alone, no session after it
    event = game.commit(action)
    store.append(1, event)
    assert club.load_in_flight(store.game_id) is None
    assert club.event_rows(store.game_id, 1) == [event_json(event)]


def test_per_key_counters(club_spec: str) -> None:
    now = [1000.0]
    store = open_store(club_spec, clock=lambda: now[0])
    one = store.open_session("SHA256:a", "front-1")
    store.open_session("SHA256:a", "front-2")
    store.open_session("SHA256:b", "front-1")
    assert store.count_sessions("SHA256:a") == 2
    store.close_session(one)
    assert store.count_sessions("SHA256:a") == 1
    store.clear_sessions("front-1")  # that server started again
    assert store.count_sessions("SHA256:a") == 1 and store.count_sessions("SHA256:b") == 0
    store.note_action("SHA256:a", "new-game")
    now[0] += 1800
    store.note_action("SHA256:a", "new-game")
    assert store.count_actions("SHA256:a", "new-game", 3600) == 2
    now[0] += 1800
    assert store.count_actions("SHA256:a", "new-game", 3600) == 1
    assert store.count_actions("SHA256:b", "new-game", 3600) == 0


def test_a_store_that_cannot_be_written_says_so(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process holding the store's write lock past the wait: a StoreError
    naming the store (what the server shows), not a driver's exception."""
    import sqlite3

    from deathzap_tui.club import sqlstore
    from deathzap_tui.gamestore import StoreError

    monkeypatch.setattr(sqlstore, "BUSY_MS", 50)
    path = tmp_path / "club.sqlite"
    club = with_two_members(path)
    session, store = club_session(club)
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreError, match=f"{path}: the club's store cannot be used "
                           r"\(database is locked\)") as caught:
            play(session, 1)
        assert not isinstance(caught.value, Conflict)
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert len(club.game_store(store.game_id or 0).load().log) == 0


@pytest.mark.parametrize(("table", "column", "value", "why"), [
    ("games", "header", "{not json", "header is not JSON"),
    ("games", "header", '{"format": "deathzap-save", "version": 1}', "field 'ruleset'"),
    ("events", "data", "[1, 2", "event 1 is not JSON"),
    ("events", "data", '{"kind": "no-such-kind"}', "does not replay"),
])
def test_a_damaged_game_is_refused_saying_what(club: SqlClubStore, table: str, column: str,
                                               value: str, why: str) -> None:
    from deathzap_tui.gamestore import StoreError

    store = club.new_game(red="alice", black="bob")
    game = new_game()
    store.create(game)
    play(Session(game, None, store=store), 3)
    where = "game_id = ? AND seq = 1" if table == "events" else "id = ?"
    run_sql(club, f"UPDATE {table} SET {column} = ? WHERE {where}", value, store.game_id)
    with pytest.raises(StoreError, match=why):
        club.game_store(store.game_id or 0).load()


def test_the_events_and_the_action_in_flight_are_read_in_one_go(club: SqlClubStore) -> None:
    """A front-end catching up reads the events it lacks and the action in flight
    as of one moment; the record read is the one the session then resumes, without
    reading the store again (issue 24)."""
    store = club.new_game(red="alice", black="bob")
    game = new_game()
    store.create(game)
    session = Session(game, None, store=store)
    play(session, 2)
    events, kept = store.since(1)
    assert [e.to_data() for e in events] == [game.log[1].to_data()] and kept is None
    session.keep_action(session.begin(session.intents()[0].intent, "red"))
    events, kept = store.since(1)
    assert [e.to_data() for e in events] == [game.log[1].to_data()]
    assert kept is not None and kept == club.load_in_flight(store.game_id or 0)
    assert store.since(2) == ([], kept)
    run_sql(club, "DELETE FROM in_flight")  # gone from the store since it was read
    with store.in_flight.read_with(kept):
        again = Session(game, None, store=store).kept_action()
    assert again[0] is not None and again[1] == ""
    assert store.in_flight.load() is None


def test_the_events_kept_count_a_write_once_made_not_when_asked(club: SqlClubStore) -> None:
    """``ClubGameStore.kept``, what a player may be marked as having seen (issue 24):
    the events written here once their writes are made (not while they wait, from
    ``defer`` to ``settle``) and those read from the store."""
    session, store = club_session(club)
    play(session, 2)
    made = len(session.game.log)
    assert store.kept == made
    store.defer()
    play(session, 1, seed=12)  # applied to the game; its write waits
    assert len(session.game.log) > made and store.kept == made
    asyncio.run(store.settle())
    assert store.kept == len(session.game.log) == club.game_info(store.game_id or 0).events
    other = club.game_store(store.game_id or 0)
    other.load()
    assert other.kept == store.kept
    before = other.kept
    play(session, 1, seed=13)
    events, _record = other.since(before)
    assert events and other.kept == before + len(events) == len(session.game.log)


def test_bookkeeping_commits_without_waiting_for_the_disk_and_events_still_do(
        club: SqlClubStore) -> None:
    """Counting a session, marking a game seen or keeping an action in flight does
    not wait for the disk; every other write (an event) does, before and after
    (issue 23: one flush per move on the server's loop)."""
    def durability() -> object:
        return club.conn.execute("SHOW synchronous_commit" if club.dialect.name == "postgres"
                                 else "PRAGMA synchronous").fetchone()[0]

    full = durability()
    assert full in ("on", 2)  # SQLite's FULL
    seen: list[object] = []
    with club._tx(lazy=True) as run:
        run("DELETE FROM sessions WHERE server = ?", "nowhere")
        seen.append(durability())
    assert seen == ["off" if full == "on" else 1] and durability() == full  # 1: NORMAL
    club.close_session(club.open_session("SHA256:x", "here"))
    store = club.new_game(red="alice", black="bob")
    store.create(new_game())
    club.store_in_flight(store.game_id or 0, "{}")
    assert durability() == full

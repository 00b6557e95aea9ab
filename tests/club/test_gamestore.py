"""One game's persistence through :class:`deathzap_tui.gamestore.GameStore`, run
against every home (the save files and the club's SQLite store: ``home`` in
conftest.py): what a session writes is what the next one reads, two writers racing
on one game are decided by the event number, the action in flight survives."""

from __future__ import annotations

import random

import pytest
from club_fixtures import Home, new_game, play
from dz3_fixtures import random_answer

from deathzap_tui.gamestore import Conflict, StoreError
from deathzap_tui.session import Session


def _session(home: Home, actions: int = 6) -> Session:
    store = home.new()
    game = new_game()
    store.create(game)
    session = Session(game, None, store=store)
    play(session, actions)
    return session


def test_a_game_played_loads_back_event_for_event(home: Home) -> None:
    session = _session(home, 8)
    assert session.store is not None
    again = Session.open(home.again(session.store))
    assert [e.to_data() for e in again.game.log] == [e.to_data() for e in session.game.log]
    assert again.game.state == session.game.state
    assert again.narrative() == session.narrative()


def test_undo_and_redo_are_kept_as_events(home: Home) -> None:
    session = _session(home, 5)
    session.undo()
    session.undo()
    session.redo()
    assert session.store is not None
    again = Session.open(home.again(session.store))
    assert again.game.state == session.game.state
    assert again.can_redo == session.can_redo


def test_events_after_gives_what_a_reader_lacks(home: Home) -> None:
    session = _session(home, 6)
    assert session.store is not None
    log = [e.to_data() for e in session.game.log]
    for count in (0, 3, len(log)):
        assert [e.to_data() for e in session.store.events_after(count)] == log[count:]


def test_the_second_of_two_racing_writers_gets_a_conflict_and_nothing_forks(
        home: Home) -> None:
    first = _session(home, 4)
    assert first.store is not None
    second = Session.open(home.again(first.store))
    second.keep_cache()  # the second writer has read the game as it stands
    play(first, 1, seed=5)
    with pytest.raises(Conflict, match="reload"):
        play(second, 1, seed=6)
    again = Session.open(home.again(first.store))
    assert [e.to_data() for e in again.game.log] == [e.to_data() for e in first.game.log]
    play(again, 1, seed=7)  # the loser reloads and plays on
    assert len(Session.open(home.again(first.store)).game.log) == len(first.game.log) + 1


def test_an_event_number_already_taken_or_skipped_is_a_conflict(home: Home) -> None:
    session = _session(home, 3)
    store = session.store
    assert store is not None
    event, n = session.game.log[-1], len(session.game.log)
    for seq in (0, n - 1, n + 1):
        with pytest.raises(Conflict):
            home.again(store).append(seq, event)
    assert len(home.again(store).load().log) == n


def test_a_game_cannot_be_created_twice_in_one_home(home: Home) -> None:
    session = _session(home, 1)
    assert session.store is not None
    with pytest.raises(StoreError):
        session.store.create(new_game())


def test_rewrite_keeps_the_whole_game(home: Home) -> None:
    session = _session(home, 5)
    session.save()
    play(session, 2, seed=3)
    assert session.store is not None
    assert Session.open(home.again(session.store)).game.state == session.game.state


def test_the_action_in_flight_is_kept_and_cleared(home: Home) -> None:
    session = _session(home, 3)
    assert session.store is not None
    assert session.store.in_flight.load() is None
    rnd = random.Random(3)
    action = session.begin(session.intents()[0].intent)
    if not action.resolution.done:
        action.resolution.answer(random_answer(action.resolution.step, rnd))
    session.keep_action(action)
    later = Session.open(home.again(session.store))
    kept, message = later.kept_action()
    assert message == "" and kept is not None
    assert kept.intent == action.intent
    assert kept.resolution.answers == action.resolution.answers
    later.keep_action(None)
    assert home.again(session.store).in_flight.load() is None

"""The action in flight is kept beside the save (issue 26): quitting, a crash or a
dropped link mid-action resumes it at the same step, with the same dice; a record
the game has moved past is dropped with a message, never a crash."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from inflight_fixtures import answer_plan, new_game, play_to_action

from deathzap_tui.headless.describe import auto_answer
from deathzap_tui.inflight import FileStore, InFlight, InFlightError
from deathzap_tui.rules import registry
from deathzap_tui.rules.steps import Dice
from deathzap_tui.session import Session


@pytest.mark.parametrize("setup", [True, False], ids=["set-up", "game"])
@pytest.mark.parametrize("ruleset_id", registry.ids())
def test_an_action_in_flight_comes_back_at_the_same_step(
        ruleset_id: str, setup: bool, saves_dir: Path) -> None:
    session = new_game(ruleset_id, "g")
    plan = play_to_action(session, 3, setup=setup)
    action = answer_plan(session, plan)
    res = action.resolution
    step, answers, notes = res.step, list(res.answers), [n.text for n in res.ctx.notes]
    events = len(session.game.log)
    assert any(isinstance(a, Dice) and a.generated for a in answers)
    del session, action, res  # quit (or killed): nothing is kept but the files

    again = Session.resume("g")
    kept, message = again.kept_action()
    assert message == "" and kept is not None
    assert kept.intent == plan.option.intent
    assert kept.resolution.step == step
    assert kept.resolution.answers == answers  # the generated dice are the same dice
    assert kept.resolution.asked == plan.steps
    assert [n.text for n in kept.resolution.ctx.notes] == notes

    kept.resolution.answer(auto_answer(kept.resolution.step))
    again.commit(kept)
    assert len(again.game.log) == events + 1
    assert again.in_flight is not None and again.in_flight.load() is None
    assert Session.resume("g").kept_action() == (None, "")


@pytest.fixture
def in_flight(saves_dir: Path) -> tuple[Session, InFlight]:
    """A Deathzap 3 game with an action kept mid-way, and its record."""
    session = new_game("deathzap3", "g")
    answer_plan(session, play_to_action(session, 3, setup=False))
    assert session.in_flight is not None
    record = session.in_flight.load()
    assert record is not None
    return session, record


def test_cancelling_forgets_the_action(in_flight: tuple[Session, InFlight]) -> None:
    session, _record = in_flight
    session.keep_action(None)
    assert Session.resume("g").kept_action() == (None, "")


def test_any_event_forgets_the_action(in_flight: tuple[Session, InFlight]) -> None:
    session, _record = in_flight
    session.undo()  # the game moved on under it
    assert Session.resume("g").kept_action() == (None, "")


def test_a_record_the_game_moved_past_is_dropped_with_a_message(
        in_flight: tuple[Session, InFlight]) -> None:
    session, record = in_flight
    session.undo()
    assert session.in_flight is not None
    session.in_flight.store(record)  # as if killed between the event and forgetting it
    again = Session.resume("g")
    kept, message = again.kept_action()
    assert kept is None
    assert "was dropped: the game has moved on since" in message
    assert record.intent["type"] in message
    assert again.kept_action() == (None, "")  # dropped: said once


def test_a_record_that_no_longer_replays_is_dropped_with_a_message(
        in_flight: tuple[Session, InFlight]) -> None:
    session, record = in_flight
    assert session.in_flight is not None
    session.in_flight.store(InFlight(record.intent, record.by, ("nonsense", *record.answers),
                                     record.events, record.last))
    kept, message = Session.resume("g").kept_action()
    assert kept is None and "was dropped: it no longer replays" in message


def test_an_unreadable_record_is_dropped_with_a_message(
        in_flight: tuple[Session, InFlight], saves_dir: Path) -> None:
    path = saves_dir / "g.toml.inflight"
    path.write_text("{not json")
    kept, message = Session.resume("g").kept_action()
    assert kept is None and "cannot be read" in message and "not JSON" in message
    assert not path.exists()


def test_the_record_is_never_read_or_written_through_a_link(
        in_flight: tuple[Session, InFlight], saves_dir: Path, tmp_path: Path) -> None:
    session, _record = in_flight
    path = saves_dir / "g.toml.inflight"
    target = tmp_path / "elsewhere"
    target.write_text("theirs")
    path.unlink()
    path.symlink_to(target)
    kept, message = Session.resume("g").kept_action()
    assert kept is None and "cannot be read" in message
    assert not path.exists() and target.read_text() == "theirs"  # the link, not its target
    path.symlink_to(target)
    action = session.begin(session.intents()[0].intent)
    session.keep_action(action)
    assert not path.is_symlink() and target.read_text() == "theirs"
    assert not [p for p in saves_dir.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize(("data", "words"), [
    ([], "not an in-flight record"),
    ({"format": "deathzap-inflight", "version": 9}, "record version 9"),
    ({"format": "deathzap-inflight", "version": 1, "intent": {}, "by": "",
      "answers": [], "events": True, "last": ""}, "'events' is missing or not a int"),
    ({"format": "deathzap-inflight", "version": 1, "intent": {}, "by": "",
      "answers": [1.5], "events": 0, "last": ""}, "answers[0]: not an answer"),
])
def test_a_bad_record_says_what_is_wrong(data: object, words: str, tmp_path: Path) -> None:
    save = tmp_path / "g.toml"
    FileStore(save).path.write_text(json.dumps(data))
    with pytest.raises(InFlightError) as exc:
        FileStore(save).load()
    assert words in str(exc.value) and str(FileStore(save).path) in str(exc.value)


def test_a_record_round_trips(tmp_path: Path) -> None:
    record = InFlight({"type": "shoot", "unit": "red.0"}, "red",
                      ("open", {"faces": [1, 6], "generated": True}, {"successes": 2}),
                      4, "abc")
    store = FileStore(tmp_path / "g.toml")
    store.store(record)
    assert store.load() == record
    assert os.stat(store.path).st_mode & 0o077 == 0  # private, like the save's journal
    store.clear()
    store.clear()
    assert store.load() is None


def test_a_new_game_never_takes_the_action_of_an_older_save_of_its_name(
        saves_dir: Path) -> None:
    old = new_game("deathzap3", "g")
    option = old.intents()[0]
    old.keep_action(old.begin(option.intent))  # a set-up step begun, at no event yet
    for path in saves_dir.glob("g.toml*"):
        if not path.name.endswith(".inflight"):
            path.unlink()  # the save deleted by hand, its record left behind
    new_game("deathzap3", "g")
    assert Session.resume("g").kept_action() == (None, "")

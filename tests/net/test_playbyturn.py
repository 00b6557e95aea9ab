"""Play by turn: locks for writers, read-only watchers, "since you last looked"."""

from __future__ import annotations

import pytest
from dz3play import dz3_session

from deathzap_tui.headless.describe import auto_answer
from deathzap_tui.net import lastseen, playbyturn
from deathzap_tui.net.lock import SaveLocked
from deathzap_tui.rules.steps import Refused


def activate_once(session) -> None:
    for _ in range(5):
        opts = [o for o in session.intents() if o.intent["type"] in ("draw", "activate")
                and "command" not in o.intent]
        acts = [o for o in opts if o.intent["type"] == "activate"]
        action = session.begin((acts or opts)[0].intent, (acts or opts)[0].side or "")
        while action.resolution.step is not None:
            action.resolution.answer(auto_answer(action.resolution.step))
        session.commit(action)
        if acts:
            return


def test_resume_as_a_side_shows_what_happened_since_and_whose_turn(saves_dir) -> None:
    dz3_session("pbt")  # created and saved
    red, lock, message = playbyturn.open_for("pbt", "red")
    assert message == ""
    first = playbyturn.summary(red, "red")
    assert first[0] == "The game so far:" and first[-1].startswith("Now: ")
    playbyturn.finish(red, "red", lock)
    marked = lastseen.read(red.path)["red"]
    # Black's evening: they play; red has not seen it.
    black, lock, _ = playbyturn.open_for("pbt", "black")
    activate_once(black)
    playbyturn.finish(black, "black", lock)
    red, lock, _ = playbyturn.open_for("pbt", "red")
    lines = playbyturn.summary(red, "red")
    new = len(red.game.log) - marked
    assert lines[0] == f"Since red last looked ({new} new event{'s' if new != 1 else ''}):"
    assert any("Card drawn" in line for line in lines[1:-1])
    assert lines[-1] == "Now: " + playbyturn.whose_turn(red)
    playbyturn.finish(red, "red", lock)
    red, lock, _ = playbyturn.open_for("pbt", "red")
    assert playbyturn.summary(red, "red")[0] == "Nothing has happened since red last looked."
    playbyturn.finish(red, "red", lock)


def test_a_second_writer_is_told_who_holds_the_save_and_may_watch(saves_dir) -> None:
    dz3_session("busy2")
    red, lock, _ = playbyturn.open_for("busy2", "red")
    try:
        with pytest.raises(SaveLocked, match="red in deathzap resume"):
            playbyturn.open_for("busy2", "black")
        watcher, none, message = playbyturn.open_for("busy2", "black", read_only_ok=True)
        assert none is None and "red in deathzap resume" in message and "read only" in message
        assert watcher.intents() == [] and not watcher.can_undo
        with pytest.raises(Refused, match="read only"):
            watcher.begin({"type": "draw"})
        with pytest.raises(Refused, match="read only"):
            watcher.undo()
    finally:
        playbyturn.finish(red, "red", lock)
    again, lock, _ = playbyturn.open_for("busy2", "black")  # free once red has quit
    playbyturn.finish(again, "black", lock)

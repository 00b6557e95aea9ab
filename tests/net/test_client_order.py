"""The client applies what the referee says in the order it was said.

A reply to this player's answer carries the action as it stood then; the other
player may answer the next step before this player's thread wakes up to read the
reply. The newer state must win (the race behind a joined-app test that hung about
one run in four).
"""

from __future__ import annotations

from typing import Any

from deathzap_tui.net.client import RemoteSession
from deathzap_tui.net.wire import Waiting, step_to_data
from deathzap_tui.rules.steps import Question


def pending(step: Any, answers: int) -> dict[str, Any]:
    return {"aid": 7, "by": "red", "intent": {"type": "activate", "unit": "red.0"},
            "label": "Activate", "step": step_to_data(step), "answers": [1] * answers,
            "asked": [step_to_data(step)] * answers, "answerers": ["red"] * answers,
            "notes": [], "yours": True}


def reply(session: RemoteSession, rid: int, p: dict[str, Any] | None) -> None:
    """The net thread receiving an ``ok`` for request ``rid``."""
    session._waiters[rid] = session._loop.create_future()
    session._received({"t": "ok", "id": rid, "pending": p})


TARGET = Question("shoot.target", "Which target?", minimum=1, maximum=3)
COVER = Waiting("black", "What cover is the target in?", "shoot.cover")
ORDER = Question("shoot.order", "Which attack is resolved next?", minimum=1, maximum=2)


def test_a_reply_read_late_does_not_undo_a_newer_message() -> None:
    session = RemoteSession("/nonexistent/referee.sock", "red")
    try:
        reply(session, 1, pending(TARGET, 0))
        action = session.pending_action()
        assert action is not None and action.resolution.step == TARGET

        def answer_call(t: str, **fields: Any) -> dict[str, Any]:
            # Red's answer is acknowledged (now waiting for black's cover) and then,
            # before red's thread reads that reply, black answers and the next step is
            # red's again.
            reply(session, 2, pending(COVER, 1))
            reply(session, 3, pending(ORDER, 2))
            return {"t": "ok", "id": 2, "pending": pending(COVER, 1)}

        session._call = answer_call  # type: ignore[method-assign]
        action.resolution.answer(2)
        assert session.pending_action() is action
        assert action.resolution.step == ORDER
        assert len(action.resolution.answers) == 2
    finally:
        session._loop.close()


def test_begin_returns_a_dropped_action_as_discarded() -> None:
    session = RemoteSession("/nonexistent/referee.sock", "red")
    try:
        def begin_call(t: str, **fields: Any) -> dict[str, Any]:
            reply(session, 1, pending(TARGET, 0))
            reply(session, 2, None)  # the referee dropped it before red read the reply
            return {"t": "ok", "id": 1, "pending": pending(TARGET, 0)}

        session._call = begin_call  # type: ignore[method-assign]
        action = session.begin({"type": "activate", "unit": "red.0"})
        assert action.discarded and session.pending_action() is None
    finally:
        session._loop.close()


def test_a_terminal_follows_the_narrative_by_its_changes_only() -> None:
    """Each update keeps some lines and adds others; a reader behind by any number of
    updates gets exactly what changed since it last looked (issue 11: a long game
    costs a joined terminal no more per move)."""
    session = RemoteSession("/nonexistent/referee.sock", "red")
    try:
        shown: list[str] = []
        seen = -1
        updates = [(0, ["a", "b"]), (2, ["c"]), (1, ["x", "y"]), (3, []), (3, ["z"])]
        for i, (keep, add) in enumerate(updates):
            with session._lock:
                session._apply_narrative(keep, add)
            if i % 2:  # the terminal looks now and then, not after every update
                seen, kept, added = session.narrative_since(seen)
                shown[kept:] = added
                assert shown == session.narrative()
        seen, kept, added = session.narrative_since(seen)
        shown[kept:] = added
        assert shown == session.narrative() == ["a", "x", "y", "z"]
        assert session.narrative_since(seen) == (seen, 4, [])
    finally:
        session._loop.close()

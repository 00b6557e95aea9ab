"""A game: a ruleset, two forces, options, a seed and the event log.

The current state is never stored, only derived: ``new_state`` then every effective
event replayed. That makes saving (write the log), undo (append an undo event and
replay), redo and multi-terminal play (ship events) fall out of one mechanism.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from deathzap_tui.rules.events import REDO, RESOLVE, UNDO, Event, effective, redoable
from deathzap_tui.rules.ruleset import Ruleset
from deathzap_tui.rules.steps import (
    Answer,
    Refused,
    Resolution,
    answer_from_data,
    answer_to_data,
)


class CorruptLog(ValueError):
    """The log does not replay: an event is malformed or no longer legal."""


@dataclass
class Action:
    """A resolution begun for an intent, not yet committed to the log."""

    intent: Mapping[str, Any]
    by: str
    resolution: Resolution

    def event(self) -> Event:
        if not self.resolution.done:
            raise Refused("the resolution is not finished")
        answers = [answer_to_data(a) for a in self.resolution.answers]
        return Event(RESOLVE, {"intent": dict(self.intent), "answers": answers}, self.by)


class Game:
    def __init__(self, ruleset: Ruleset, red: Any, black: Any, options: Mapping[str, Any],
                 seed: int, log: Iterable[Event] = ()) -> None:
        self.ruleset = ruleset
        self.red = red
        self.black = black
        self.options = dict(options)
        self.seed = seed
        self.log: list[Event] = []
        self.listeners: list[Callable[[Game, Event], None]] = []
        self._state = ruleset.new_state(red, black, self.options, seed)
        for i, event in enumerate(log):
            try:
                self._record(event, fresh=True)
            except (Refused, ValueError, KeyError, TypeError) as exc:
                raise CorruptLog(f"event {i + 1} ({event.kind}): {exc}") from exc

    # --- reading --------------------------------------------------------------
    @property
    def state(self) -> Any:
        return self._state

    @property
    def can_undo(self) -> bool:
        return bool(effective(self.log))

    @property
    def can_redo(self) -> bool:
        return bool(redoable(self.log))

    def replay(self, events: Sequence[Event]) -> Iterable[tuple[Event, Resolution]]:
        """Re-run events from the start, yielding each with its finished resolution
        (whose ``ctx.notes`` narrate it). The resolutions share one state, which
        moves on as the replay goes: read their notes, not their states."""
        state = self.ruleset.new_state(self.red, self.black, self.options, self.seed)
        for event in events:
            yield event, self._resolve(state, event, borrow=True)

    # --- changing -------------------------------------------------------------
    def begin(self, intent: Mapping[str, Any], by: str = "") -> Action:
        """Start resolving an intent; raises ``Refused`` if it is not legal now."""
        make = self.ruleset.resolution(self._state, intent, by)
        return Action(dict(intent), by, Resolution(self._state, make))

    def commit(self, action: Action) -> Event:
        event = action.event()
        self._state = action.resolution.ctx.state
        self._append(event)
        return event

    def play(self, intent: Mapping[str, Any], answers: Sequence[Answer] = (),
             by: str = "") -> Event:
        """Resolve an intent with all its answers at once (scripts and tests)."""
        action = self.begin(intent, by)
        action.resolution.replay(answers)
        if not action.resolution.done:
            step = action.resolution.step
            raise Refused(f"more answers needed: next is {step.key!r}")  # type: ignore[union-attr]
        return self.commit(action)

    def undo(self, by: str = "") -> Event:
        if not self.can_undo:
            raise Refused("nothing to undo")
        return self.apply(Event(UNDO, {}, by))

    def redo(self, by: str = "") -> Event:
        if not self.can_redo:
            raise Refused("nothing to redo")
        return self.apply(Event(REDO, {}, by))

    def apply(self, event: Event) -> Event:
        """Apply an event from outside (a referee, a log); raises if illegal."""
        self._record(event)
        for listener in self.listeners:
            listener(self, event)
        return event

    # --- internals ------------------------------------------------------------
    def _append(self, event: Event) -> None:
        self.log.append(event)
        for listener in self.listeners:
            listener(self, event)

    def _record(self, event: Event, *, fresh: bool = False) -> None:
        """Apply one event. ``fresh``: the current state is ours alone (a replay
        from the start), so it may be changed in place; otherwise a failing event
        must leave it untouched."""
        if event.kind in (UNDO, REDO):
            self.log.append(event)
            state = self.ruleset.new_state(self.red, self.black, self.options, self.seed)
            for e in effective(self.log):
                self._resolve(state, e, borrow=True)
            self._state = state
        else:
            self._state = self._resolve(self._state, event, borrow=fresh).ctx.state
            self.log.append(event)

    def _resolve(self, state: Any, event: Event, *, borrow: bool = False) -> Resolution:
        if event.kind != RESOLVE:
            raise Refused(f"unknown event kind {event.kind!r}")
        intent = event.data.get("intent")
        raw_answers = event.data.get("answers", [])
        if not isinstance(intent, Mapping) or not isinstance(raw_answers, list):
            raise Refused("a resolve event needs an intent table and an answers list")
        res = Resolution(state, self.ruleset.resolution(state, intent, event.by), borrow=borrow)
        res.replay([answer_from_data(a) for a in raw_answers])
        if not res.done:
            raise Refused("the recorded answers stop before the resolution ends")
        return res

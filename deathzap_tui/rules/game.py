"""A game: a ruleset, two forces, options, its seeds and the event log.

The current state is never stored, only derived: ``new_state`` then every effective
event replayed. That makes saving (write the log), undo (append an undo event and
replay), redo and multi-terminal play (ship events) fall out of one mechanism.

Cost does not grow with the log (issue 11): the effective events and their narration
are kept as the log grows instead of being folded and replayed again, and a copy of
the state every :data:`CHECKPOINT_EVERY` effective events means an undo replays at
most that many events, however long the game.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from deathzap_tui.rules.events import REDO, RESOLVE, UNDO, Event, fold
from deathzap_tui.rules.ruleset import Ruleset
from deathzap_tui.rules.steps import (
    Answer,
    Note,
    Refused,
    Resolution,
    answer_from_data,
    answer_to_data,
)

CHECKPOINT_EVERY = 32
"""Effective events between two kept copies of the state: an undo replays at most
this many (a state copy costs about as much as replaying one or two events)."""


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
                 seed: int, log: Iterable[Event] = (), *, deal_seed: int | None = None) -> None:
        """``seed`` is public (the dice); ``deal_seed`` is secret (hidden cards; see
        :meth:`Ruleset.new_state`, ``None`` for a game from before secret deals)."""
        self.ruleset = ruleset
        self.red = red
        self.black = black
        self.options = dict(options)
        self.seed = seed
        self.deal_seed = deal_seed
        self.log: list[Event] = []
        self.listeners: list[Callable[[Game, Event], None]] = []
        self._state = ruleset.new_state(red, black, self.options, seed, deal_seed)
        self._done: list[tuple[Event, list[Note]]] = []
        """The effective events (undo/redo folded away) with their narration."""
        self._undone: list[tuple[Event, list[Note]]] = []
        """Undone events a redo brings back, next last."""
        self._checkpoints: dict[int, Any] = {0: copy.deepcopy(self._state)}
        """Number of effective events -> a private copy of the state after them."""
        self._load(list(log))

    def _load(self, log: list[Event]) -> None:
        """Take ``log`` as this game's past: only the events in force are replayed,
        once, on a state nobody else holds, with checkpoints only near the end (where
        an undo may need them); undone events are checked when they are redone."""
        done, undone = fold(enumerate(log), kind=lambda entry: entry[1].kind)
        floor = len(done) - 2 * CHECKPOINT_EVERY
        for i, event in done:
            try:
                res = self._resolve(self._state, event, borrow=True)
            except (Refused, ValueError, KeyError, TypeError) as exc:
                raise CorruptLog(f"event {i + 1} ({event.kind}): {exc}") from exc
            self._done.append((event, res.ctx.notes))
            if len(self._done) >= floor:
                self._checkpoint()
        self._undone = [(event, []) for _i, event in undone]
        self.log = log

    # --- reading --------------------------------------------------------------
    @property
    def state(self) -> Any:
        return self._state

    @property
    def can_undo(self) -> bool:
        return bool(self._done)

    @property
    def can_redo(self) -> bool:
        return bool(self._undone)

    def history(self) -> list[tuple[Event, list[Note]]]:
        """The effective events, oldest first, each with the notes that narrate it
        (kept as the game went: no replay)."""
        return list(self._done)

    def replay(self, events: Sequence[Event]) -> Iterable[tuple[Event, Resolution]]:
        """Re-run events from the start, yielding each with its finished resolution
        (whose ``ctx.notes`` narrate it). The resolutions share one state, which
        moves on as the replay goes: read their notes, not their states."""
        state = self.ruleset.new_state(self.red, self.black, self.options, self.seed,
                                       self.deal_seed)
        for event in events:
            yield event, self._resolve(state, event, borrow=True)

    # --- changing -------------------------------------------------------------
    def begin(self, intent: Mapping[str, Any], by: str = "") -> Action:
        """Start resolving an intent; raises ``Refused`` if it is not legal now."""
        make = self.ruleset.resolution(self._state, intent, by)
        return Action(dict(intent), by, Resolution(self._state, make))

    def commit(self, action: Action) -> Event:
        event = action.event()
        self._advance(event, action.resolution.ctx.notes, action.resolution.ctx.state)
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

    def _record(self, event: Event) -> None:
        """Apply one event; one that fails leaves the game untouched."""
        if event.kind == UNDO:
            if self._done:
                self._undone.append(self._done.pop())
                self._state = self._rebuild(len(self._done))
        elif event.kind == REDO:
            if self._undone:
                redone, _notes = self._undone[-1]
                res = self._resolve(self._state, redone)
                self._undone.pop()
                self._done.append((redone, res.ctx.notes))
                self._state = res.ctx.state
                self._checkpoint()
        else:
            res = self._resolve(self._state, event)
            self._advance(event, res.ctx.notes, res.ctx.state)
        self.log.append(event)

    def _advance(self, event: Event, notes: list[Note], state: Any) -> None:
        """A new event takes effect: the undone ones can no longer be redone, and the
        checkpoints past this point belonged to them."""
        if self._undone:
            self._undone.clear()
            here = len(self._done)
            self._checkpoints = {k: v for k, v in self._checkpoints.items() if k <= here}
        self._done.append((event, notes))
        self._state = state
        self._checkpoint()

    def _checkpoint(self) -> None:
        n = len(self._done)
        if n % CHECKPOINT_EVERY == 0 and n not in self._checkpoints:
            self._checkpoints[n] = copy.deepcopy(self._state)

    def _rebuild(self, n: int) -> Any:
        """The state after the first ``n`` effective events: a copy of the nearest
        checkpoint at or before ``n``, and the events after it replayed."""
        start = max(k for k in self._checkpoints if k <= n)
        state = copy.deepcopy(self._checkpoints[start])
        for event, _notes in self._done[start:n]:
            self._resolve(state, event, borrow=True)
        return state

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

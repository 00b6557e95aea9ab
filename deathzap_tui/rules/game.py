"""A game: a ruleset, two forces, options, its seeds and the event log.

The current state is never stored, only derived: ``new_state`` then every effective
event replayed. That makes saving (write the log), undo (append an undo event and
replay), redo and multi-terminal play (ship events) fall out of one mechanism.

Cost does not grow with the log (issue 11): the effective events and their narration
are kept as the log grows instead of being folded and replayed again, and a copy of
the state every :data:`CHECKPOINT_EVERY` effective events means an undo replays at
most that many events, however long the game. A game can also start from a
:class:`Resumable` (a save's cache of the game after its first events), replaying only
the events after it; the narration of the older events is then replayed the first
time somebody asks for it, and its older events are read from the log (an
:class:`~.events.EventLog`, which decodes them) only when somebody needs them: until
then each is only its log index.
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from deathzap_tui.rules.events import (
    REDO,
    RESOLVE,
    SPENT,
    UNDO,
    Event,
    EventLog,
    fold,
    redo_span,
    undo_span,
)
from deathzap_tui.rules.narration import faces_text, side_name
from deathzap_tui.rules.revision import CURRENT as CURRENT_REVISION
from deathzap_tui.rules.ruleset import Ruleset
from deathzap_tui.rules.steps import (
    Answer,
    Context,
    Dice,
    Maker,
    Note,
    Refused,
    Resolution,
    answer_from_data,
    answer_to_data,
    at_once,
)

CHECKPOINT_EVERY = 32
"""Effective events between two kept copies of the state: an undo replays at most
this many (a copy of a state costs as much as replaying a few dozen events)."""
NARRATED_TAIL = 256
"""A cached game keeps the notes of at least its last this-many events in force (more
than the battle screen's log shows), so that a resume replays nothing to show it."""


class CorruptLog(ValueError):
    """The log does not replay: an event is malformed or no longer legal."""


@dataclass
class Entry:
    """An event in force (or undone, waiting for a redo) and where it is in the log."""

    at: int
    """Its index in :attr:`Game.log`."""
    event: Event
    notes: list[Note] | None
    """What narrated it; ``None`` until replayed, for a game resumed from a cache."""


Kept = Entry | int
"""An entry of :attr:`Game._done` or :attr:`Game._undone`, or, for a game resumed from
a cache, the log index of one not made yet (:meth:`Game._entry` makes it when needed)."""


class Packed:
    """A copy of a state kept pickled: a save's cache keeps its checkpoint so, and it
    is unpickled only when an undo or older narration starts from it (a resume that
    does neither never reads it). Each :meth:`unpack` is a new private copy."""

    __slots__ = ("data",)

    def __init__(self, state: Any) -> None:
        self.data = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)

    def unpack(self) -> Any:
        """A new copy of the state (the bytes are the game's own, or came in a cache
        signed with this user's key: see :mod:`deathzap_tui.savecache`)."""
        return pickle.loads(self.data)


@dataclass
class Resumable:
    """The game after its first ``events`` log events, as a save's cache keeps it, so
    that resuming need not replay them (see :meth:`Game.resumable`)."""

    events: int
    state: Any
    done: list[int]
    """Log indices of the events in force, oldest first."""
    undone: list[int]
    """Log indices of the undone events a redo brings back, next last."""
    tail: list[list[Note]]
    """The notes of the last ``len(tail)`` events in force (the log's visible end)."""
    checkpoint: tuple[int, Any]
    """(events in force, the state after them as a :class:`Packed`): the last
    checkpoint, where an undo after resuming starts."""


@dataclass
class Action:
    """A resolution begun for an intent, not yet committed to the log."""

    intent: Mapping[str, Any]
    by: str
    resolution: Resolution

    def event(self) -> Event:
        if not self.resolution.done:
            raise Refused("the resolution is not finished")
        return Event(RESOLVE, self._data(), self.by)

    def spent(self) -> Event | None:
        """The event cancelling this action leaves in the log: what it showed stays
        shown, as at a table (the caller applies it, :meth:`Game.cancel`).

        - Nothing shown yet: ``None``, nothing to record.
        - A card turned: the action itself (a turned card is not put back, and
          drawing it is the whole of a draw); :class:`Refused` if it is not finished.
        - Dice rolled from the game's RNG: a :data:`~.events.SPENT` event with the
          answers so far, whose replay moves the RNG on past those dice and changes
          nothing else, so the next roll of any action does not get them again.
        """
        res = self.resolution
        if not res.shown:
            return None
        if res.ctx.turned:
            return self.event()
        return Event(SPENT, self._data(), self.by)

    def _data(self) -> dict[str, Any]:
        answers = [answer_to_data(a) for a in self.resolution.answers]
        return {"intent": dict(self.intent), "answers": answers}


class Game:
    def __init__(self, ruleset: Ruleset[Any, Any], red: Any, black: Any, options: Mapping[str, Any],
                 seed: int, log: Iterable[Event] = (), *, deal_seed: int | None = None,
                 revision: int = CURRENT_REVISION, cached: Resumable | None = None) -> None:
        """``seed`` is public (the dice); ``deal_seed`` is secret (hidden cards; see
        :meth:`Ruleset.new_state`, ``None`` for a game from before secret deals).
        ``revision``: the rules revision the game plays by (:mod:`.revision`; a new
        game's is the current one). ``cached``: the game after the log's first events
        (a save's cache)."""
        self.ruleset = ruleset
        self.red = red
        self.black = black
        self.options = dict(options)
        self.seed = seed
        self.deal_seed = deal_seed
        self.revision = revision
        self.log = EventLog()
        self.listeners: list[Callable[[Game, Event], None]] = []
        self._state = self.start_state()
        self._done: list[Kept] = []
        """The effective events (undo/redo folded away) with their narration."""
        self._undone: list[Kept] = []
        """Undone events a redo brings back, next last."""
        self._checkpoints: dict[int, Any] = {0: copy.deepcopy(self._state)}
        """Number of effective events -> a private copy of the state after them (or a
        :class:`Packed` one, from a cache): read through :meth:`_copy_at`."""
        self._told: dict[int, list[Note]] = {}
        """Log index -> notes, of the events in force kept as log indices whose notes a
        cache gave (taken when :meth:`_entry` makes their entry)."""
        self._load(EventLog(log), cached)

    def _load(self, log: EventLog, cached: Resumable | None) -> None:
        """Take ``log`` as this game's past: only the events in force are replayed,
        once, on a state nobody else holds, with checkpoints only near the end (where
        an undo may need them); undone events are checked when they are redone. With
        ``cached`` (the game after ``log``'s first events) only the later events are
        replayed."""
        if cached is not None and cached.events <= len(log):
            self._resume(log, cached)
            return
        done, undone = fold(enumerate(log), kind=lambda entry: entry[1].kind)
        floor = len(done) - NARRATED_TAIL - CHECKPOINT_EVERY
        for i, event in done:
            try:
                res = self._resolve(self._state, event, borrow=True)
            except (Refused, ValueError, KeyError, TypeError) as exc:
                raise CorruptLog(f"event {i + 1} ({event.kind}): {exc}") from exc
            self._done.append(Entry(i, event, res.ctx.notes))
            if len(self._done) >= floor:
                self._checkpoint()
        self._undone = [Entry(i, event, []) for i, event in undone]
        self.log = log

    def _resume(self, log: EventLog, cached: Resumable) -> None:
        """Start from ``cached``: the events in force stay log indices (none is read
        from the log), the notes of the last ones waiting in :attr:`_told`."""
        self._done = list(cached.done)
        self._told = dict(zip(cached.done[len(cached.done) - len(cached.tail):], cached.tail,
                              strict=True))
        self._undone = list(cached.undone)
        self._checkpoints[cached.checkpoint[0]] = cached.checkpoint[1]
        self._state = cached.state
        self.log = log.head(cached.events)
        for i, event in enumerate(log[cached.events:], cached.events):
            try:
                self._record(event)
            except (Refused, ValueError, KeyError, TypeError) as exc:
                raise CorruptLog(f"event {i + 1} ({event.kind}): {exc}") from exc

    def resumable(self, tail: int = NARRATED_TAIL) -> Resumable:
        """The game now, as a save's cache keeps it: the state, the events in force
        and undone by log index, the notes of the last ``tail`` events in force and the
        last checkpoint before the last event in force, packed (so that an undo after
        resuming replays little, and a resume that does not undo does not unpickle it).
        It shares the game's objects: serialise it before the game moves on."""
        last = max(k for k in self._checkpoints if k < len(self._done) or k == 0)
        kept = self._checkpoints[last]
        return Resumable(len(self.log), self._state,
                         _indices(self._done), _indices(self._undone),
                         self.told(tail),
                         (last, kept if isinstance(kept, Packed) else Packed(kept)))

    def start_state(self) -> Any:
        """A fresh state of this game before any event (the ruleset's, playing by the
        game's rules revision)."""
        state = self.ruleset.new_state(self.red, self.black, self.options, self.seed,
                                       self.deal_seed)
        state.revision = self.revision
        return state

    # --- reading --------------------------------------------------------------
    @property
    def state(self) -> Any:
        return self._state

    @property
    def in_force(self) -> int:
        """How many events are in force (the length of :meth:`history`)."""
        return len(self._done)

    @property
    def can_undo(self) -> bool:
        """Whether an action is in force (chances spent before the first action are
        never taken back)."""
        return bool(undo_span(self._done, self._kind))

    @property
    def can_redo(self) -> bool:
        return bool(self._undone)

    def events(self) -> list[Event]:
        """The effective events (undo and redo folded away), oldest first, without
        their narration (cheap: nothing is replayed)."""
        return [self._event(e) for e in self._done]

    def history(self, last: int | None = None) -> list[tuple[Event, list[Note]]]:
        """The effective events, oldest first (only the ``last`` ones if given), each
        with the notes that narrate it (kept as the game went: no replay, except once
        for the older events of a game resumed from a cache)."""
        start = 0 if last is None else max(0, len(self._done) - last)
        self._narrate(start, len(self._done))
        return [(e.event, e.notes) for e in self._entries(self._done, start)]  # type: ignore[misc]

    def told(self, last: int | None = None) -> list[list[Note]]:
        """The notes of :meth:`history`, without its events (a resumed game's events in
        force are then not read from the log)."""
        start = 0 if last is None else max(0, len(self._done) - last)
        notes = self._known(start)
        if None in notes:  # a resumed game's older events: narrated once, then kept
            self._narrate(start, len(self._done))
            notes = self._known(start)
        return notes  # type: ignore[return-value]

    def _known(self, start: int) -> list[list[Note] | None]:
        """The notes of the events in force from ``start`` on (``None`` where not known
        yet), in one pass: a resume shows the last 200 events' at once."""
        told = self._told
        return [told.get(e) if isinstance(e, int) else e.notes for e in self._done[start:]]

    def _narrate(self, first: int, stop: int) -> None:
        """Make sure the events in force ``first``..``stop - 1`` have their notes:
        those not known yet (a resumed game's older events) are replayed, once, from
        the nearest checkpoint before them."""
        missing = [i for i in range(first, stop) if self._untold(self._done[i])]
        if not missing:
            return
        start = max(k for k in self._checkpoints if k <= missing[0])
        state = self._copy_at(start)
        for entry in self._entries(self._done, start, missing[-1] + 1):
            res = self._resolve(state, entry.event, borrow=True)
            if entry.notes is None:
                entry.notes = res.ctx.notes

    def replay(self, events: Sequence[Event], numbers: Sequence[int] | None = None,
               ) -> Iterable[tuple[Event, Resolution]]:
        """Re-run events from the start, yielding each with its finished resolution
        (whose ``ctx.notes`` narrate it). The resolutions share one state, which
        moves on as the replay goes: read their notes, not their states. An event
        that does not replay raises :class:`CorruptLog` naming it by its index in
        the log it came from (``numbers``, one per event; else its place in
        ``events``), as loading a save names it."""
        state = self.start_state()
        for k, event in enumerate(events):
            try:
                res = self._resolve(state, event, borrow=True)
            except (Refused, ValueError, KeyError, TypeError) as exc:
                number = numbers[k] if numbers is not None else k
                raise CorruptLog(f"event {number + 1} ({event.kind}): {exc}") from exc
            yield event, res

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

    def cancel(self, action: Action) -> Event | None:
        """Give up ``action`` (begun, not committed): the chance it showed stays
        spent (:meth:`Action.spent`). Returns the event that records it, or ``None``
        when it showed nothing and the game is unchanged."""
        event = action.spent()
        return None if event is None else self.apply(event)

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
            n = undo_span(self._done, self._kind)
            if n:
                self._undone += reversed(self._done[-n:])
                del self._done[-n:]
                self._state = self._rebuild(len(self._done))
        elif event.kind == REDO:
            n = redo_span(self._undone, self._kind)
            if n:
                # All replayed before any is taken: one that fails changes nothing.
                group = self._entries(self._undone, len(self._undone) - n)[::-1]
                state = self._state
                redone = []
                for entry in group:
                    res = self._resolve(state, entry.event, borrow=state is not self._state)
                    redone.append((entry, res.ctx.notes, res.ctx.state))
                    state = res.ctx.state
                del self._undone[-n:]
                for entry, notes, after in redone:
                    self._done.append(Entry(entry.at, entry.event, notes))
                    self._state = after
                    self._checkpoint()
        else:
            res = self._resolve(self._state, event)
            self._advance(event, res.ctx.notes, res.ctx.state)
        self.log.append(event)

    def _advance(self, event: Event, notes: list[Note], state: Any) -> None:
        """A new event takes effect (it will be the log's next one): the undone ones
        can no longer be redone, and the checkpoints past this point belonged to
        them."""
        if self._undone:
            self._undone.clear()
            here = len(self._done)
            self._checkpoints = {k: v for k, v in self._checkpoints.items() if k <= here}
        self._done.append(Entry(len(self.log), event, notes))
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
        state = self._copy_at(start)
        for pos, entry in enumerate(self._entries(self._done, start, n), start + 1):
            self._resolve(state, entry.event, borrow=True)
            if pos % CHECKPOINT_EVERY == 0 and pos < n:  # the next undo starts nearer
                self._checkpoints.setdefault(pos, copy.deepcopy(state))
        return state

    def _copy_at(self, k: int) -> Any:
        """A private copy of the state kept at checkpoint ``k``."""
        kept = self._checkpoints[k]
        return kept.unpack() if isinstance(kept, Packed) else copy.deepcopy(kept)

    def _entry(self, kept: list[Kept], k: int) -> Entry:
        """``kept[k]`` (of :attr:`_done` or :attr:`_undone`) as an entry, made from the
        log if it is still only a log index (its notes then unknown)."""
        item = kept[k]
        if isinstance(item, int):
            item = kept[k] = Entry(item, self.log[item], self._told.pop(item, None))
        return item

    def _entries(self, kept: list[Kept], start: int, stop: int | None = None) -> list[Entry]:
        """``kept[start:stop]`` as entries (see :meth:`_entry`)."""
        return [self._entry(kept, k) for k in range(*slice(start, stop).indices(len(kept)))]

    def _untold(self, item: Kept) -> bool:
        """Whether the notes of an event in force are not known (never replayed)."""
        return item not in self._told if isinstance(item, int) else item.notes is None

    def _event(self, item: Kept) -> Event:
        return self.log[item] if isinstance(item, int) else item.event

    def _kind(self, item: Kept) -> str:
        return self._event(item).kind

    def _resolve(self, state: Any, event: Event, *, borrow: bool = False) -> Resolution:
        if event.kind not in (RESOLVE, SPENT):
            raise Refused(f"unknown event kind {event.kind!r}")
        intent = event.data.get("intent")
        raw_answers = event.data.get("answers", [])
        if not isinstance(intent, Mapping) or not isinstance(raw_answers, list):
            raise Refused(f"a {event.kind} event needs an intent table and an answers list")
        answers = [answer_from_data(a) for a in raw_answers]
        if event.kind == SPENT:
            return Resolution(state, self._spend(intent, answers, event.by), borrow=borrow)
        res = Resolution(state, self.ruleset.resolution(state, intent, event.by), borrow=borrow)
        res.replay(answers)
        if not res.done:
            raise Refused("the recorded answers stop before the resolution ends")
        return res

    def _spend(self, intent: Mapping[str, Any], answers: list[Answer], by: str) -> Maker:
        """The resolution of a :data:`SPENT` event: the cancelled action is replayed as
        far as it went, on a copy, and only where it left the dice RNG is kept; the
        note says which dice were spent."""

        def spend(ctx: Context) -> None:
            state = ctx.state
            res = Resolution(state, self.ruleset.resolution(state, intent, by))
            res.replay(answers)
            if res.ctx.turned:
                raise Refused("a turned card is not spent: the draw stands")
            state.rng.state = res.ctx.state.rng.state  # in place: it may be shared
            rolled = [faces_text(a.faces) for a in answers
                      if isinstance(a, Dice) and a.generated]
            what = next((o.label for o in self.ruleset.intents(state)
                         if dict(o.intent) == dict(intent)), str(intent.get("type", "")))
            who = f"{side_name(by)} cancelled" if by else "Cancelled"
            ctx.say(f"{who} ({what}) after the dice showed "
                    f"{'; '.join(rolled) or 'their faces'}: dice once rolled stay rolled "
                    "(the next roll comes after them).")

        return at_once(spend)


def _indices(kept: list[Kept]) -> list[int]:
    """The log indices of ``kept`` (entries, or indices already), in one pass: a cache
    of a long game writes thousands."""
    return [item if isinstance(item, int) else item.at for item in kept]

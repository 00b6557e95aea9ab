"""The event log: the only truth about a game.

Every change is an :class:`Event` appended to the log, never edited or removed.
Undo and redo are events too; :func:`effective` folds them away, giving the events
that made the current state. State is always ``forces + replay(effective(log))``.

A :data:`SPENT` event records the chance an action showed before it was cancelled
(dice rolled from the game's RNG): as at a table, what was shown is not put back.
It is not an action of its own for undo and redo: an undo takes back the last action
together with the chances spent after it (taking back only those would put shown
dice back for the next action), and a redo brings them back with it
(:func:`undo_span`, :func:`redo_span`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, TypeVar, overload

T = TypeVar("T")

UNDO = "undo"
REDO = "redo"
RESOLVE = "resolve"
"""A completed resolution: ``{"intent": {...}, "answers": [...]}``."""
SPENT = "spent"
"""A cancelled action that had shown chance, as far as it went: ``{"intent": {...},
"answers": [...]}``. Replaying it moves the dice RNG on as the action did, and
changes nothing else (see :meth:`~deathzap_tui.rules.game.Game.cancel`)."""


@dataclass(frozen=True)
class Event:
    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    by: str = ""
    """Who asked for it (``red``, ``black``, or empty at a shared table)."""

    def to_data(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, **({"by": self.by} if self.by else {})}
        if self.data:
            out["data"] = dict(self.data)
        return out

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Event:
        kind = data.get("kind")
        if not isinstance(kind, str) or not kind:
            raise ValueError("event has no kind")
        body = data.get("data", {})
        if not isinstance(body, Mapping):
            raise ValueError(f"event {kind!r}: data must be a table")
        by = data.get("by", "")
        if not isinstance(by, str):
            raise ValueError(f"event {kind!r}: by must be a string")
        return cls(kind, dict(body), by)


class EventLog(Sequence[Event]):
    """A game's log: its events in order, appended to as the game goes.

    Its first ``undecoded`` events may be left where they are kept (a save's records):
    ``decode(index)`` makes event ``index`` the first time it is read. A game resumed
    from a save's cache reads none of its older events, so resuming costs the same at
    event 100 and event 5,000 (issue 21). Compares equal to a list of the same
    events."""

    __slots__ = ("_decode", "_items")
    _items: list[Event | None]
    _decode: Callable[[int], Event] | None

    def __init__(self, events: Iterable[Event] = (),
                 decode: Callable[[int], Event] | None = None, *, undecoded: int = 0) -> None:
        """``events`` (after the ``undecoded`` ones)."""
        if isinstance(events, EventLog):  # a copy: appending to one leaves the other
            self._items = [*events._items]
            self._decode = events._decode
            return
        self._items = [None] * undecoded
        self._items += events
        self._decode = decode

    def __len__(self) -> int:
        return len(self._items)

    @overload
    def __getitem__(self, index: int) -> Event: ...
    @overload
    def __getitem__(self, index: slice) -> list[Event]: ...
    def __getitem__(self, index: int | slice) -> Event | list[Event]:
        if isinstance(index, slice):
            return [self[k] for k in range(*index.indices(len(self._items)))]
        item = self._items[index]
        if item is None:
            assert self._decode is not None, "an event kept undecoded needs a decode"
            index %= len(self._items)
            item = self._items[index] = self._decode(index)
        return item

    def __iter__(self) -> Iterator[Event]:
        return (self[k] for k in range(len(self._items)))

    def head(self, count: int) -> EventLog:
        """A copy of the first ``count`` events (none decoded that were not)."""
        head = EventLog(self)
        del head._items[count:]
        return head

    def append(self, event: Event) -> None:
        self._items.append(event)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, EventLog | list | tuple):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"EventLog({list(self)!r})"


def undo_span(done: Sequence[T], kind: Callable[[T], str] = attrgetter("kind")) -> int:
    """How many entries an undo takes off the end of ``done`` (events in force,
    oldest first): the last action and the :data:`SPENT` chances after it; 0 when no
    action is in force (chances spent before the first action stay spent)."""
    n = len(done)
    while n and kind(done[n - 1]) == SPENT:
        n -= 1
    return len(done) - n + 1 if n else 0


def redo_span(undone: Sequence[T], kind: Callable[[T], str] = attrgetter("kind")) -> int:
    """How many entries a redo brings back from the end of ``undone`` (next last):
    the action, and the :data:`SPENT` chances an undo took back with it."""
    if not undone:
        return 0
    n = 1
    while n < len(undone) and kind(undone[-1 - n]) == SPENT:
        n += 1
    return n


def fold(entries: Iterable[T], kind: Callable[[T], str] = attrgetter("kind"),
         ) -> tuple[list[T], list[T]]:
    """Apply undo/redo: (entries in force oldest first, undone entries newest last).
    ``kind`` gives an entry's event kind (entries may be events, or carry them)."""
    done: list[T] = []
    undone: list[T] = []
    for e in entries:
        k = kind(e)
        if k == UNDO:
            n = undo_span(done, kind)
            undone.extend(reversed(done[len(done) - n:]))
            del done[len(done) - n:]
        elif k == REDO:
            n = redo_span(undone, kind)
            done.extend(reversed(undone[len(undone) - n:]))
            del undone[len(undone) - n:]
        else:
            done.append(e)
            undone.clear()
    return done, undone


def effective(entries: Iterable[Event]) -> list[Event]:
    """The events in force once undo/redo are applied, oldest first."""
    return fold(entries)[0]


def numbered(log: Iterable[Event]) -> list[tuple[int, Event]]:
    """The events in force once undo/redo are applied, oldest first, each with its
    index in ``log`` (to name an event that does not replay)."""
    return fold(enumerate(log), kind=lambda entry: entry[1].kind)[0]


def redoable(entries: Iterable[Event]) -> list[Event]:
    """Events that a redo would bring back, next first."""
    return list(reversed(fold(entries)[1]))

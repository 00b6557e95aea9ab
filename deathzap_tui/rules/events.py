"""The event log: the only truth about a game.

Every change is an :class:`Event` appended to the log, never edited or removed.
Undo and redo are events too; :func:`effective` folds them away, giving the events
that made the current state. State is always ``forces + replay(effective(log))``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, TypeVar

T = TypeVar("T")

UNDO = "undo"
REDO = "redo"
RESOLVE = "resolve"
"""A completed resolution: ``{"intent": {...}, "answers": [...]}``."""


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


def fold(entries: Iterable[T], kind: Callable[[T], str] = attrgetter("kind"),
         ) -> tuple[list[T], list[T]]:
    """Apply undo/redo: (entries in force oldest first, undone entries newest last).
    ``kind`` gives an entry's event kind (entries may be events, or carry them)."""
    done: list[T] = []
    undone: list[T] = []
    for e in entries:
        k = kind(e)
        if k == UNDO:
            if done:
                undone.append(done.pop())
        elif k == REDO:
            if undone:
                done.append(undone.pop())
        else:
            done.append(e)
            undone.clear()
    return done, undone


def effective(entries: Iterable[Event]) -> list[Event]:
    """The events in force once undo/redo are applied, oldest first."""
    return fold(entries)[0]


def redoable(entries: Iterable[Event]) -> list[Event]:
    """Events that a redo would bring back, next first."""
    return list(reversed(fold(entries)[1]))

"""What each player has already seen of a game, for play by turn at different times.

Stored next to the save as ``<save>.seen`` (TOML ``red = N`` / ``black = M``: the
number of log events the player had seen), so the save format is untouched and a
save copied without it simply shows everything as new. ``deathzap resume SAVE --as
red`` shows :func:`since` for red's mark, then :func:`mark` s red as up to date.
"""

from __future__ import annotations

import contextlib
import tomllib
from pathlib import Path
from typing import Any

import tomli_w

from deathzap_tui.net.views import notes_for
from deathzap_tui.rules.events import REDO, UNDO, Event, redo_span, undo_span
from deathzap_tui.rules.ruleset import SIDES
from deathzap_tui.safefiles import read_regular, write_atomic

MAX_BYTES = 4096


def seen_path(save: Path) -> Path:
    return save.with_name(save.name + ".seen")


def read(save: Path) -> dict[str, int]:
    """Each side's mark; a missing or broken file counts as nothing seen."""
    try:
        data = tomllib.loads(read_regular(seen_path(save), MAX_BYTES).decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    return {s: v for s in SIDES if type(v := data.get(s)) is int and v >= 0}


def mark(save: Path, side: str, events: int) -> None:
    """Record that ``side`` has seen the first ``events`` events of the log."""
    marks = read(save)
    if marks.get(side) == events:
        return
    marks[side] = events
    with contextlib.suppress(OSError):  # losing a mark only repeats a summary
        write_atomic(seen_path(save), tomli_w.dumps(marks))


class Recorder:
    """A ``(side, events)`` callback for the referee that writes only on change."""

    def __init__(self, save: Path) -> None:
        self.save = save
        self.marks = read(save)

    def __call__(self, side: str, events: int) -> None:
        if self.marks.get(side) != events:
            self.marks[side] = events
            mark(self.save, side, events)


def since(game: Any, start: int, viewer: str | None) -> list[str]:
    """What happened from log event ``start`` on, in plain words, as ``viewer`` may
    see it: the narrative of new actions still in force, and undos/redos."""
    done: list[tuple[int, Event]] = []
    undone: list[tuple[int, Event]] = []
    changes: list[tuple[int, str]] = []
    def kind(entry: tuple[int, Event]) -> str:
        return entry[1].kind

    for i, event in enumerate(game.log):
        if event.kind == UNDO and (n := undo_span(done, kind)):
            action = done[-n][1]  # and the chances spent after it go with it
            undone += reversed(done[-n:])
            del done[-n:]
            if i >= start:
                changes.append((i, f"{event.by or 'someone'} took back {_what(action)}"))
        elif event.kind == REDO and (n := redo_span(undone, kind)):
            action = undone[-1][1]
            done += reversed(undone[-n:])
            del undone[-n:]
            if i >= start:
                changes.append((i, f"{event.by or 'someone'} redid {_what(action)}"))
        elif event.kind not in (UNDO, REDO):
            done.append((i, event))
            undone.clear()
    index = {id(e): i for i, e in done}
    lines: list[tuple[int, str]] = list(changes)
    recent = sum(1 for i, _e in done if i >= start)  # the tail of the events in force
    for event, notes in game.history(recent):
        i = index[id(event)]
        if i >= start:
            lines.extend((i, n.text) for n in notes_for(notes, viewer))
    lines.sort(key=lambda x: x[0])  # stable: an event's notes keep their order
    return [text for _, text in lines]


def _what(event: Event) -> str:
    intent = event.data.get("intent", {})
    kind = intent.get("type", "an action") if isinstance(intent, dict) else "an action"
    who = f"{event.by}'s " if event.by else ""
    return f"{who}{kind}"

"""The action in flight: an action begun and partly answered, not yet in the log.

A resolution is deterministic given its answers (generated dice are recorded as the
faces the game's RNG gave, and replaying checks them against the same RNG state), so
the whole of an action in progress is small plain data: its intent, who acts, and the
answers given so far. :class:`InFlight` is that record, plus where the log stood when
it was written, so that a record the game has moved past is recognised as stale.

It is written through :class:`InFlightStore` (load, store, clear), one small
interface: :class:`FileStore` keeps it beside a save (``NAME.toml.inflight``,
replaced atomically on every change); a club's database store can keep the same
record per game. :class:`~deathzap_tui.session.Session` writes it as the action
moves and clears it when the action is committed or cancelled.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from deathzap_tui.rules.events import Event
from deathzap_tui.rules.steps import Answer, answer_from_data, answer_to_data
from deathzap_tui.safefiles import read_regular, write_atomic

FORMAT = "deathzap-inflight"
VERSION = 1
MAX_BYTES = 1024 * 1024
"""An in-flight record is a few hundred bytes; anything near this is not one."""


class InFlightError(ValueError):
    """A record that cannot be read; the message says what is wrong with it."""


def log_mark(log: Sequence[Event]) -> tuple[int, str]:
    """Where ``log`` stands: its length and a digest of its last event. A record
    written at another mark belongs to another moment of the game."""
    if not log:
        return 0, ""
    last = json.dumps(log[-1].to_data(), sort_keys=True, ensure_ascii=False)
    return len(log), hashlib.sha256(last.encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class InFlight:
    """An action in progress: what was intended, by whom, the answers so far, and
    the log's mark (:func:`log_mark`) when it was begun."""

    intent: Mapping[str, Any]
    by: str = ""
    answers: tuple[Any, ...] = ()
    """Answers in their plain form (:func:`~deathzap_tui.rules.steps.answer_to_data`)."""
    events: int = 0
    last: str = ""

    @classmethod
    def of(cls, intent: Mapping[str, Any], by: str, answers: Sequence[Answer],
           log: Sequence[Event]) -> InFlight:
        events, last = log_mark(log)
        return cls(dict(intent), by, tuple(answer_to_data(a) for a in answers), events, last)

    def answers_in(self) -> list[Answer]:
        """The answers to feed the resolution again."""
        return [answer_from_data(a) for a in self.answers]

    def stale_for(self, log: Sequence[Event]) -> str:
        """Why this record no longer belongs to a game with ``log`` ("" if it does)."""
        if (self.events, self.last) != log_mark(log):
            return "the game has moved on since"
        return ""

    def to_data(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "intent": dict(self.intent),
                "by": self.by, "answers": list(self.answers), "events": self.events,
                "last": self.last}

    @classmethod
    def from_data(cls, data: Any) -> InFlight:
        """Read a record, raising :class:`InFlightError` naming the field at fault."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise InFlightError(f"not an in-flight record (no format = {FORMAT!r})")
        if data.get("version") != VERSION:
            raise InFlightError(f"record version {data.get('version')!r}; this deathzap "
                                f"reads version {VERSION}")
        fields = {"intent": dict, "by": str, "answers": list, "events": int, "last": str}
        for key, kind in fields.items():
            value = data.get(key)
            if not isinstance(value, kind) or isinstance(value, bool):
                raise InFlightError(f"field {key!r} is missing or not a {kind.__name__}")
        for i, answer in enumerate(data["answers"]):
            try:
                answer_from_data(answer)
            except (ValueError, TypeError) as exc:
                raise InFlightError(f"answers[{i}]: {exc}") from None
        return cls(data["intent"], data["by"], tuple(data["answers"]), data["events"],
                   data["last"])


class InFlightStore(Protocol):
    """Where one game's action in flight is kept (at most one at a time)."""

    def load(self) -> InFlight | None:
        """The record, ``None`` if there is none; :class:`InFlightError` if it cannot
        be read."""

    def store(self, record: InFlight) -> None:
        """Replace the record, durably, before returning (raises ``OSError``)."""

    def clear(self) -> None:
        """Forget the record (nothing to do if there is none)."""


class FileStore:
    """The record as JSON beside a save, ``NAME.toml.inflight``: replaced whole and
    read only if it is a regular file, never through a link (:mod:`.safefiles`)."""

    def __init__(self, save: Path) -> None:
        self.path = save.with_name(save.name + ".inflight")

    def load(self) -> InFlight | None:
        try:
            raw = read_regular(self.path, MAX_BYTES)
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise InFlightError(f"{self.path}: cannot read ({exc.strerror or exc})") from None
        try:
            data = json.loads(raw.decode("utf-8"))
        except (ValueError, RecursionError) as exc:
            raise InFlightError(f"{self.path}: not JSON ({type(exc).__name__})") from None
        try:
            return InFlight.from_data(data)
        except InFlightError as exc:
            raise InFlightError(f"{self.path}: {exc}") from None

    def store(self, record: InFlight) -> None:
        write_atomic(self.path, json.dumps(record.to_data(), ensure_ascii=False))

    def clear(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)

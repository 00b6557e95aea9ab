"""Steps, answers, intents and board views as plain JSON data, and back.

The referee only ever sends what :mod:`.views` built for one viewer; this module only
changes the representation.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from typing import Any

from deathzap_tui.rules.ruleset import (
    OTHER,
    BoardView,
    Column,
    DeckView,
    IntentOption,
    TurnClock,
    UnitRow,
)
from deathzap_tui.rules.steps import (
    ROLL,
    Answer,
    Choice,
    Dice,
    DiceRequest,
    Question,
    Step,
    answer_from_data,
    answer_to_data,
)


@dataclasses.dataclass(frozen=True)
class Waiting:
    """The pending step belongs to another player: what this client may know of it.

    ``text`` is public (a dice request's purpose, or "choosing"); the step itself,
    which may list secret choices, is never sent to anyone but the one answering.
    """

    side: str
    text: str
    key: str = ""


COMMITTED, CANCELLED = "committed", "cancelled"
"""How an action at a table ended (:class:`Ended`)."""


@dataclasses.dataclass(frozen=True)
class Ended:
    """How the table's last action ended, as a state push says it (``"ended"``):
    a terminal whose action left the table tells from it whether that action was
    committed or cancelled, e.g. by another terminal of the same player (issue 23).

    ``line``: for a commit, the last line of its narrative this viewer may read
    (what the action did); "" otherwise."""

    aid: int
    by: str
    how: str
    line: str = ""


def ended_from_data(d: Mapping[str, Any] | None) -> Ended | None:
    """The push's ``"ended"``; ``None`` if there is none (no action ended yet, a
    referee too old to say) or it is not one."""
    if not isinstance(d, Mapping):
        return None
    aid, by, how, line = d.get("aid"), d.get("by"), d.get("how"), d.get("line", "")
    if type(aid) is not int or not all(isinstance(v, str) for v in (by, how, line)):
        return None
    return Ended(aid, by, how, line)


PLAIN = frozenset({str, int, float, bool, type(None)})
"""Types :func:`to_data` gives back as they are, known at a glance."""


def to_data(obj: Any) -> Any:
    """Dataclasses, mappings and tuples as JSON-able dicts and lists.

    Every snapshot the referee sends is built here (a board view is some thousands
    of values), so the common types are told by their exact type first, and a
    dataclass's field names are looked up once per class."""
    kind = type(obj)
    if kind in PLAIN:
        return obj
    if kind is dict:
        return {str(k): to_data(v) for k, v in obj.items()}
    if kind is list or kind is tuple:
        return [to_data(v) for v in obj]
    names = _field_names(kind)
    if names is not None:
        return {name: to_data(getattr(obj, name)) for name in names}
    if isinstance(obj, Mapping):
        return {str(k): to_data(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [to_data(v) for v in obj]
    return obj


@functools.cache
def _field_names(kind: type) -> tuple[str, ...] | None:
    """The field names of a dataclass, in order; ``None`` for any other type."""
    if not dataclasses.is_dataclass(kind):
        return None
    return tuple(f.name for f in dataclasses.fields(kind))


def _tuples(value: Any) -> Any:
    """JSON lists (and lists in them: a unit card's sections) back to the tuples the
    view dataclasses hold."""
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


PARTS: dict[str, type] = {"deck": DeckView, "clock": TurnClock}
"""The :class:`BoardView` fields that hold a dataclass (or ``None``)."""


def view_from_data(d: Mapping[str, Any]) -> BoardView:
    """Inverse of ``to_data(view)``. Every field of :class:`BoardView` comes back, so
    adding one to the interface needs no change here."""
    fields: dict[str, Any] = {}
    for f in dataclasses.fields(BoardView):
        if f.name not in d:
            continue
        value = d[f.name]
        if f.name == "units":
            value = {side: tuple(UnitRow(**{k: _tuples(v) for k, v in row.items()})
                                 for row in rows) for side, rows in value.items()}
        elif f.name == "column_hints":
            value = tuple(Column(**hint) for hint in value)
        elif f.name in PARTS and value is not None:  # None: the ruleset has none
            value = PARTS[f.name](**{k: _tuples(v) for k, v in value.items()})
        elif isinstance(value, Mapping):
            value = {k: _tuples(v) for k, v in value.items()}
        fields[f.name] = _tuples(value)
    return BoardView(**fields)


def intent_from_data(d: Mapping[str, Any]) -> IntentOption:
    return IntentOption(dict(d["intent"]), d["label"], d.get("side"), d.get("rule", ""),
                        d.get("group", OTHER))


def step_to_data(step: Step | Waiting | None) -> dict[str, Any] | None:
    if step is None:
        return None
    kind = {Question: "question", DiceRequest: "dice", Waiting: "wait"}[type(step)]
    return {"kind": kind, **to_data(step)}


def step_from_data(d: Mapping[str, Any] | None) -> Step | Waiting | None:
    if d is None:
        return None
    fields = {k: v for k, v in d.items() if k != "kind"}
    if d["kind"] == "question":
        fields["choices"] = tuple(Choice(**c) for c in fields.get("choices", ()))
        return Question(**fields)
    if d["kind"] == "dice":
        return DiceRequest(**fields)
    return Waiting(**fields)


def answer_out(answer: Answer) -> Any:
    """An answer as the client sends it (ROLL becomes ``{"roll": true}``)."""
    if isinstance(answer, Dice) and answer.generated:
        if answer.faces:
            raise ValueError("generated dice are rolled by the referee")
        return {"roll": True}
    return answer_to_data(answer)


def answer_in(data: Any) -> Answer:
    """An answer as the referee reads it from a (checked) client message."""
    if data == {"roll": True}:
        return ROLL
    return answer_from_data(data)

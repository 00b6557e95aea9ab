"""An end-of-game report read back from its JSON (:meth:`GameReport.to_json`).

A joined terminal holds no game to replay: the referee sends the report of its game
as JSON and the terminal rebuilds the same objects from it, so the game-over screen
renders a remote report exactly as a local one. The data comes from the network:
every field is checked for its type, and a bad one raises :class:`ValueError`.

Not carried by the JSON, so not rebuilt: each roll's ``spread`` (the distribution
the percentile was computed from; the percentile itself is carried).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from deathzap_tui.rules.luck import RollLuck, SideLuck
from deathzap_tui.rules.report import GameReport, ScorePoint, UnitTally
from deathzap_tui.rules.ruleset import SIDES

MAX_NUMBER = 10 ** 9
"""The largest whole number (a score, a count, an event) a report may hold: far past
any game, small enough for every layout."""
MAX_ITEMS = 100_000
"""The most entries a list of a report may hold (points, units, rolls)."""

_POINT_KEYS = ("event", "turn")
"""The keys of a ``score_over_time`` entry that are not a side's score."""


def report_from_json(data: Any) -> GameReport:
    """The :class:`GameReport` that ``data`` (its ``to_json()``) was made from."""
    d = _map(data, "report")
    rolls = tuple(roll_from_json(r) for r in _list(d, "rolls"))
    return GameReport(
        ruleset=_get(d, "ruleset", str), title=_get(d, "title", str),
        forces=_str_map(d, "forces", str), over=_get(d, "over", bool),
        result=_get(d, "result", str), score_label=_get(d, "score_label", str),
        score=_str_map(d, "score", int),
        series=tuple(_point(p) for p in _list(d, "score_over_time")),
        events=_get(d, "events", int),
        units=tuple(_unit(u) for u in _list(d, "units")),
        luck=_luck(_map(d.get("luck"), "luck")),
        rolls=rolls, damage_counts=_get(d, "damage_counts", str))


def _luck(data: Mapping[str, Any]) -> dict[str, SideLuck]:
    if set(data) != set(SIDES):
        raise ValueError(f"luck must have exactly the sides {', '.join(SIDES)}")
    return {side: side_luck_from_json(side, data[side]) for side in SIDES}


def side_luck_from_json(side: str, data: Any) -> SideLuck:
    """One side's :class:`SideLuck` from its ``to_json()``."""
    d = _map(data, f"luck.{side}")
    return SideLuck(side, _get(d, "rolls", int), _get(d, "dice", int),
                    _number(d, "percentile", 100.0), _get(d, "method", str),
                    _roll_or_none(d.get("luckiest")), _roll_or_none(d.get("unluckiest")))


def roll_from_json(data: Any) -> RollLuck:
    """One judged roll from its ``to_json()`` (without its ``spread``)."""
    d = _map(data, "roll")
    faces = _list(d, "faces")
    if not all(type(f) is int for f in faces):
        raise ValueError("roll.faces must be whole numbers")
    return RollLuck(_get(d, "event", int), _side(d), _get(d, "purpose", str),
                    _get(d, "rule", str), _get(d, "dice", int), tuple(faces),
                    _get(d, "measure", str), _get(d, "more_is_better", bool),
                    _get(d, "outcome", int), _number(d, "p_at_least", 1.0),
                    _number(d, "rank", 1.0))


def _roll_or_none(data: Any) -> RollLuck | None:
    return None if data is None else roll_from_json(data)


def _point(data: Any) -> ScorePoint:
    d = _map(data, "score_over_time")
    score = {k: v for k, v in d.items() if k not in _POINT_KEYS}
    if not set(score) <= set(SIDES):
        raise ValueError(f"score_over_time may only have the sides {', '.join(SIDES)}")
    if not all(type(v) is int and abs(v) <= MAX_NUMBER for v in score.values()):
        raise ValueError(f"score_over_time: scores must be whole numbers up to {MAX_NUMBER}")
    return ScorePoint(_get(d, "event", int), _get(d, "turn", int), score)


def _unit(data: Any) -> UnitTally:
    d = _map(data, "units")
    return UnitTally(_get(d, "id", str), _side(d), _get(d, "name", str),
                     _get(d, "kills", int), _get(d, "damage_dealt", int),
                     _get(d, "damage_taken", int), _get(d, "figures_lost", int),
                     _get(d, "gone", bool))


def _side(d: Mapping[str, Any]) -> str:
    side: str = _get(d, "side", str)
    if side not in SIDES:
        raise ValueError(f"side must be one of {', '.join(SIDES)}")
    return side


def _number(d: Mapping[str, Any], key: str, top: float) -> float:
    """A finite number from 0 to ``top`` (a chance, a rank, a percentile)."""
    value = _get(d, key, (int, float))
    try:
        number = float(value)
    except OverflowError:
        raise ValueError(f"{key} is out of range") from None
    if not 0 <= number <= top:  # also refuses nan
        raise ValueError(f"{key} must be from 0 to {top:g}")
    return number


def _map(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ValueError(f"{where} must be an object")
    return value


def _list(d: Mapping[str, Any], key: str) -> list[Any]:
    value = d.get(key)
    if not isinstance(value, list):
        raise ValueError(f"{key} must be a list")
    if len(value) > MAX_ITEMS:
        raise ValueError(f"{key} has more than {MAX_ITEMS} entries")
    return value


def _get(d: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    value = d.get(key)
    # bool is an int in Python, never the other way round in the JSON we read.
    if not isinstance(value, kind) or (isinstance(value, bool) and bool not in _kinds(kind)):
        raise ValueError(f"{key} must be {_kinds(kind)[0].__name__}")
    if type(value) is int and abs(value) > MAX_NUMBER:
        raise ValueError(f"{key} is more than {MAX_NUMBER}")
    return value


def _kinds(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def _str_map(d: Mapping[str, Any], key: str, kind: type) -> dict[str, Any]:
    """A mapping by side (``forces``, ``score``): only the sides, each a ``kind``."""
    found = _map(d.get(key), key)
    if not set(found) <= set(SIDES):
        raise ValueError(f"{key} may only have the sides {', '.join(SIDES)}")
    return {k: _get({key: v}, key, kind) for k, v in found.items()}

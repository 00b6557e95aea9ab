"""Unit and figure ids, the one place that writes and reads them.

``"red.3"`` is red's unit 3 (0-based, in its force's order) and ``"red.3.0"`` that
unit's first figure. Ids stay plain strings everywhere (intents, events, saves, the
wire); only this module builds or takes one apart.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class UnitId:
    """A unit id taken apart: ``str(UnitId("red", 3)) == "red.3"``."""

    side: str
    index: int

    def __str__(self) -> str:
        return f"{self.side}.{self.index}"

    @classmethod
    def parse(cls, text: str) -> UnitId:
        """``"red.3"`` as ``UnitId("red", 3)``; ``ValueError`` naming ``text`` if it
        is not a side and a whole number."""
        side, dot, index = text.partition(".")
        if not (side and dot and index.isdigit()):
            raise ValueError(f"{text!r} is not a unit id (side.index, e.g. red.3)")
        return cls(side, int(index))


def unit_id(side: str, index: int) -> str:
    """The id of ``side``'s unit ``index``: ``"red.3"``."""
    return str(UnitId(side, index))


def figure_id(side: str, unit_index: int, figure_index: int) -> str:
    """The id of figure ``figure_index`` of ``side``'s unit ``unit_index``: ``"red.3.0"``."""
    return f"{unit_id(side, unit_index)}.{figure_index}"


def side_of(any_id: str) -> str:
    """The side a unit or figure id belongs to: ``"red"`` for ``"red.3.0"``."""
    return any_id.partition(".")[0]


def split_figure_id(text: str) -> tuple[str, int]:
    """``"red.3.0"`` as ``("red.3", 0)``; ``ValueError`` naming ``text`` if it is not
    a unit id and a whole number."""
    unit, dot, index = text.rpartition(".")
    if not (dot and index.isdigit()):
        raise ValueError(f"{text!r} is not a figure id (side.unit.figure, e.g. red.3.0)")
    UnitId.parse(unit)
    return unit, int(index)

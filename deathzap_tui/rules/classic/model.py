"""Deathzap Classic force model: what a force file holds once validated (CL §1, §2,
§5). The numbers of each type and weapon class live in :mod:`.tables`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from deathzap_tui.rules.classic import tables


@dataclass(frozen=True)
class Weapon:
    """A gun as the force names it: a display name over a CL §5 weapon class."""

    id: str
    name: str
    kind: str
    """A key of :data:`tables.WEAPONS` (basic | advanced | auto-heavy | heavy | radius)."""

    @property
    def table(self) -> tables.WeaponClass:
        return tables.WEAPONS[self.kind]


@dataclass(frozen=True)
class Figure:
    name: str
    weapons: tuple[str, ...]
    """Weapon ids (keys of ``Force.weapons``): one die to hit per gun (CL §5)."""
    general: bool = False
    """The file's choice of general (CL §1); set-up asks, defaulting to it."""


@dataclass(frozen=True)
class Unit:
    """CL §1: figures of one type (CL §2); they may carry different guns."""

    name: str
    type: str
    """A key of :data:`tables.TYPES`."""
    figures: tuple[Figure, ...]
    """One entry per model (``count`` expanded)."""

    @property
    def stats(self) -> tables.FigureType:
        return tables.TYPES[self.type]


@dataclass(frozen=True)
class Force:
    name: str
    weapons: Mapping[str, Weapon]
    """Every weapon id a figure may name: the five class ids, plus the force's own
    named guns from its ``[weapons.*]`` table."""
    units: tuple[Unit, ...]
    ruleset: str = tables.RULESET_ID
    source: Mapping[str, Any] = field(default_factory=dict, compare=False)
    """The validated TOML table, embedded verbatim in saves."""

"""Deathzap 3 force model: what a force file holds once validated (DZ3 §14)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Profile:
    name: str
    shots: int
    power: str  # light | medium | heavy
    rules: frozenset[str] = frozenset()  # strike | short-range

    @property
    def strike(self) -> bool:
        return "strike" in self.rules

    @property
    def short_range(self) -> bool:
        return "short-range" in self.rules


@dataclass(frozen=True)
class Weapon:
    id: str
    name: str
    profiles: tuple[Profile, ...]


@dataclass(frozen=True)
class Figure:
    name: str
    weapons: tuple[str, ...]  # weapon ids
    leader: bool = False
    command: int = 0


@dataclass(frozen=True)
class Unit:
    name: str
    skill: str
    move: int
    melee_attacks: int
    shield_strength: str
    shields: int
    vehicle: bool
    figures: tuple[Figure, ...]  # one entry per model (``count`` expanded)


@dataclass(frozen=True)
class Force:
    name: str
    weapons: Mapping[str, Weapon]
    units: tuple[Unit, ...]
    ruleset: str = "deathzap3"
    expected_total: int | None = None
    source: Mapping[str, Any] = field(default_factory=dict, compare=False)
    """The validated TOML table, embedded verbatim in saves."""

"""Command Hand force model: what a force file holds once validated (CH §7)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Weapon:
    """CH §4: shots per range band, to-damage by the target's cover, rules."""

    id: str
    name: str
    shots_near: int
    """Shots at 0-12" (CH §4)."""
    shots_far: int
    """Shots beyond 12" (CH §4)."""
    to_damage: Mapping[str, int]
    """cover (open | soft | hard) -> the die each shot needs to do damage."""
    rules: frozenset[str] = frozenset()

    @property
    def explosive(self) -> bool:
        return "explosive" in self.rules

    def shots(self, band: str) -> int:
        return self.shots_near if band == "near" else self.shots_far


@dataclass(frozen=True)
class Figure:
    name: str
    weapons: tuple[str, ...]  # weapon ids


@dataclass(frozen=True)
class Unit:
    """CH §7 statline."""

    name: str
    run: int
    walk: int
    melee_attacks: int
    melee_damage: int
    shields: int
    recharge: int
    figures: tuple[Figure, ...]  # one entry per model (``count`` expanded)


@dataclass(frozen=True)
class Force:
    name: str
    command_rating: int
    """CH §2: how many cards of its colour the force draws into its Command Hand."""
    weapons: Mapping[str, Weapon]
    units: tuple[Unit, ...]
    ruleset: str = "command-hand"
    source: Mapping[str, Any] = field(default_factory=dict, compare=False)
    """The validated TOML table, embedded verbatim in saves."""

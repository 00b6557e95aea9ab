"""Double Tap force model: what a force file holds once validated (DT §4, §7).

Every Double Tap unit is one model (DT §2); the numbers of its weapons and special
rules live in :mod:`.tables`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from deathzap_tui.rules.doubletap import tables


@dataclass(frozen=True)
class Unit:
    """One model with its weapons and special rules."""

    name: str
    weapons: tuple[str, ...]
    """Keys of :data:`tables.WEAPONS`; at least one melee weapon (DT-R2)."""
    rules: tuple[str, ...] = ()
    """Keys of :data:`tables.SPECIAL_RULES`, each at most once."""
    poison: str = ""
    """With Poison Gear: which of its hits poison, "melee" or "shooting" (DT §7)."""

    @property
    def figures(self) -> tuple[Unit, ...]:
        """The unit's one model: every family force has ``units`` of ``figures``."""
        return (self,)

    @property
    def points(self) -> int:
        """DT-R4: its weapons + its special rules."""
        return (sum(tables.WEAPONS[w].points for w in self.weapons)
                + sum(tables.SPECIAL_RULES[r].points for r in self.rules))

    def has(self, rule: str) -> bool:
        return rule in self.rules


@dataclass(frozen=True)
class Force:
    name: str
    units: tuple[Unit, ...]
    ruleset: str = tables.RULESET_ID
    source: Mapping[str, Any] = field(default_factory=dict, compare=False)
    """The validated TOML table, embedded verbatim in saves."""

    @property
    def points(self) -> int:
        return sum(u.points for u in self.units)

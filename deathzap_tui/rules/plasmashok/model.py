"""Deathzap Plasmashok force model: what a force file holds once validated (PS §1,
§2, §5, §9). The numbers of each type and weapon live in :mod:`.tables`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from deathzap_tui.rules.plasmashok import tables
from deathzap_tui.rules.plasmashok.tables import Melee, WeaponProfile


@dataclass(frozen=True)
class Model:
    """One model (``count`` expanded). Its weapons are weapon ids (keys of
    ``Force.weapons``); a model naming a weapon twice carries two."""

    name: str
    weapons: tuple[str, ...]


@dataclass(frozen=True)
class Unit:
    """PS §1: models of one type (or one vehicle / monster) of one training bracket."""

    name: str
    type: str
    """A key of :data:`tables.TYPES`."""
    training: str
    """One of :data:`tables.BRACKETS`."""
    base_cost: int
    """Per model (PS §9): from the file, or PS-R3's 12 for big beasts and light
    vehicles."""
    figures: tuple[Model, ...]
    """One entry per model (``count`` expanded), as in every family force file."""
    melee: Melee | None
    """Per model: the file's profile, else PS-R1's for the type, else ``None`` (the
    unit cannot attack in melee)."""
    melee_missing: tuple[str, ...] = ()
    """Why ``melee`` is ``None``: the profile fields the file left out
    (``("melee.attacks", ...)``; all three when there is no ``melee`` table), for the
    refusal message (PS-R1)."""
    shields: int = 0
    """Advanced Shields levels (PS §9), on every model of the unit."""
    special: int = 0
    """Special-combat value, 0..3 (PS §4, §9)."""

    @property
    def stats(self) -> tables.ModelType:
        return tables.TYPES[self.type]

    @property
    def save(self) -> int:
        """The shield save N+ with Advanced Shields (PS §2, §9)."""
        return tables.shield_save(self.type, self.shields)


@dataclass(frozen=True)
class Force:
    name: str
    weapons: Mapping[str, WeaponProfile]
    """Every weapon id a model may name: the PS §5 table's ids plus the force's own
    ``[weapons.*]`` (PS-R2)."""
    units: tuple[Unit, ...]
    ruleset: str = tables.RULESET_ID
    source: Mapping[str, Any] = field(default_factory=dict, compare=False)
    """The validated TOML table, embedded verbatim in saves."""

    def model_cost(self, unit: Unit, model: Model) -> int:
        """PS §9: base cost + the model's weapons + Advanced Shields; what the model is
        worth when it is lost (PS §8). Special combat is bought per unit and is not in
        any one model's cost."""
        return (unit.base_cost + sum(self.weapons[w].points for w in model.weapons)
                + unit.shields * unit.stats.shield_cost)

    def unit_cost(self, unit: Unit) -> int:
        """PS §9: every model's cost + special combat (per unit)."""
        return (sum(self.model_cost(unit, m) for m in unit.figures)
                + unit.special * tables.SPECIAL_COST)

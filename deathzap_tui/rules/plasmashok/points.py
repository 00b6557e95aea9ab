"""Deathzap Plasmashok points (PS §9), computed from the force by
:meth:`Force.model_cost` and :meth:`Force.unit_cost`, never copied.

:attr:`UnitPoints.breakdown` follows the convention ``deathzap points`` reads (see
:mod:`deathzap_tui.rules.deathzap3.costs`): ``base``, ``weapons``, ``shields`` and
``special`` are the unit's cost parts, shown as columns (``count`` x ``each``), and
the weapons' ``items`` are listed line by line. ``models`` (JSON only) prices each
distinct kind of model (name and weapons) with its parts.
"""

from __future__ import annotations

from typing import Any

from deathzap_tui.rules.plasmashok import tables
from deathzap_tui.rules.plasmashok.force import force_points, force_warnings
from deathzap_tui.rules.plasmashok.model import Force, Unit
from deathzap_tui.rules.ruleset import PointsReport, UnitPoints


def _model_kinds(force: Force, unit: Unit) -> list[dict[str, Any]]:
    """One entry per distinct (name, weapons) model, in file order: how many, what one
    costs (PS §9: base + weapons + Advanced Shields) and those parts."""
    kinds: dict[tuple[str, tuple[str, ...]], dict[str, Any]] = {}
    for model in unit.figures:
        kind = kinds.get((model.name, model.weapons))
        if kind is None:
            each = force.model_cost(unit, model)
            kind = kinds[(model.name, model.weapons)] = {
                "name": model.name, "count": 0, "each": each, "points": 0,
                "base": unit.base_cost,
                "weapons": [{"id": w, "name": force.weapons[w].name,
                             "points": force.weapons[w].points} for w in model.weapons],
                "shields": unit.shields * unit.stats.shield_cost,
            }
        kind["count"] += 1
        kind["points"] += kind["each"]
    return list(kinds.values())


def unit_points(force: Force, unit: Unit) -> UnitPoints:
    """PS §9: every model's base cost, weapons and Advanced Shields, then special
    combat at 5 a level for the unit."""
    models = len(unit.figures)
    items: dict[str, dict[str, Any]] = {}
    for model in unit.figures:
        for weapon_id in model.weapons:
            weapon = force.weapons[weapon_id]
            item = items.setdefault(weapon_id, {"name": weapon.name, "count": 0,
                                                "each": weapon.points, "points": 0})
            item["count"] += 1
            item["points"] += weapon.points
    shield_levels = models * unit.shields
    breakdown: dict[str, Any] = {
        "models": _model_kinds(force, unit),
        "base": {"count": models, "each": unit.base_cost,
                 "points": models * unit.base_cost},
        "weapons": {"points": sum(i["points"] for i in items.values()), "items": items},
        "shields": {"count": shield_levels, "each": unit.stats.shield_cost,
                    "points": shield_levels * unit.stats.shield_cost},
        "special": {"count": unit.special, "each": tables.SPECIAL_COST,
                    "points": unit.special * tables.SPECIAL_COST},
    }
    return UnitPoints(unit.name, force.unit_cost(unit), breakdown)


def force_points_note(force: Force) -> str:
    """PS §9 force organisation, for the report's notes."""
    unlocked, used = force_points(force)
    return (f"Force points (PS §9): {unlocked} unlocked by infantry/beast units, {used} "
            "used by light vehicle, big beast, vehicle and monster units.")


def points_report(force: Force) -> PointsReport:
    """Points of every unit and the total (PS §9); Plasmashok has no command points.
    The force points go in the notes, the force file's warnings in the warnings."""
    units = tuple(unit_points(force, u) for u in force.units)
    return PointsReport(
        force=force.name,
        ruleset=force.ruleset,
        units=units,
        command_points=0,
        has_command=False,
        total=sum(u.points for u in units),
        warnings=tuple(p.located() for p in force_warnings(force)),
        notes=(force_points_note(force),),
    )

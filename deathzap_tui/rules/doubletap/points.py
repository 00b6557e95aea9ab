"""Double Tap points (DT §2, DT-R4), computed by :attr:`model.Unit.points`, never
copied.

:attr:`UnitPoints.breakdown` follows the convention ``deathzap points`` reads (see
:mod:`deathzap_tui.rules.deathzap3.costs`): ``weapons`` and ``rules`` are the
unit's two cost parts, shown as columns, each with its ``items`` (id -> name, count,
each, points) for ``--json``; the weapons' items are also listed line by line.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from deathzap_tui.rules.doubletap import tables
from deathzap_tui.rules.doubletap.force import force_warnings
from deathzap_tui.rules.doubletap.model import Force, Unit
from deathzap_tui.rules.ruleset import PointsReport, UnitPoints


def _items(ids: Iterable[str], table: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Each id once, in file order, with how many and what they cost (a weapon may be
    listed twice, DT-R4)."""
    out: dict[str, dict[str, Any]] = {}
    for item_id in ids:
        entry = table[item_id]
        item = out.setdefault(item_id, {"name": entry.name, "count": 0,
                                        "each": entry.points, "points": 0})
        item["count"] += 1
        item["points"] += entry.points
    return out


def unit_points(unit: Unit) -> UnitPoints:
    """DT-R4: the unit's weapons + its special rules."""
    weapons = _items(unit.weapons, tables.WEAPONS)
    rules = _items(unit.rules, tables.SPECIAL_RULES)
    breakdown: dict[str, Any] = {
        "weapons": {"points": sum(i["points"] for i in weapons.values()), "items": weapons},
        "rules": {"points": sum(i["points"] for i in rules.values()), "items": rules},
    }
    return UnitPoints(unit.name, unit.points, breakdown)


def _rules_note(units: Iterable[UnitPoints]) -> tuple[str, ...]:
    """The special rules unit by unit, for the text view (its table lists only the
    weapons item by item); nothing when no unit has any."""
    parts = [f"{u.name}: " + ", ".join(f"{i['name']} {i['points']}"
                                      for i in u.breakdown["rules"]["items"].values())
             for u in units if u.breakdown["rules"]["items"]]
    return (f"Special rules (DT §7): {'; '.join(parts)}.",) if parts else ()


def points_report(force: Force) -> PointsReport:
    """Points of every unit and the total against DT §2's army size; Double Tap has
    no command points. The force file's warnings (an army over the size) go in the
    warnings."""
    units = tuple(unit_points(u) for u in force.units)
    total = sum(u.points for u in units)
    return PointsReport(
        force=force.name,
        ruleset=force.ruleset,
        units=units,
        command_points=0,
        has_command=False,
        total=total,
        warnings=tuple(p.located() for p in force_warnings(force)),
        notes=(f"Army: {total} of {tables.ARMY_POINTS} points (DT §2).",
               *_rules_note(units)),
    )

"""Deathzap 3 costs (DZ3 §13): of a profile, a weapon, a unit, the command and the
whole force, computed, never copied from a printed total (DZ3-R17). :mod:`.points`
reports them; :mod:`.force` warns when a force is above the loose limits.

Every sum is integer arithmetic: the only divisions (Short Range's halving, the
vehicle surcharge) are done as exact fractions rounded once, so no float can round a
.5 the wrong way.

:attr:`UnitPoints.breakdown` convention (read by ``deathzap points``): entries whose
value is an int, or a mapping with a ``"points"`` int, are parts of the unit's cost
shown as columns, in order (``"count"`` and ``"each"`` explain a part's points); a
part's ``"items"`` mapping details it line by line.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from deathzap_tui.rules.deathzap3.model import Force, Profile, Unit, Weapon
from deathzap_tui.rules.deathzap3.tables import (
    COMMAND_POINT_COST,
    POWER_VALUE,
    SKILL_VALUE,
    VEHICLE_SURCHARGE_PERCENT,
)
from deathzap_tui.rules.ruleset import UnitPoints


def _ceil_div(numerator: int, denominator: int) -> int:
    return -(-numerator // denominator)


def profile_cost(profile: Profile, skill: str) -> int:
    """DZ3 §13: skill × shots × power; Strike doubles, Short Range halves.

    DZ3-R18: double first, halve second, round up once at the end
    (1 shot Heavy Strike Short Range at Basic: 3 → 6 → 3).
    """
    cost = SKILL_VALUE[skill] * profile.shots * POWER_VALUE[profile.power]
    if profile.strike:
        cost *= 2
    return _ceil_div(cost, 2) if profile.short_range else cost


def weapon_cost(weapon: Weapon, skill: str) -> int:
    """DZ3 §13: a weapon with several profiles costs its dearest profile only."""
    return max(profile_cost(p, skill) for p in weapon.profiles)


def figure_cost(unit: Unit) -> int:
    """DZ3 §13: Move + MA × skill value (the same for every figure of a unit)."""
    return unit.move + unit.melee_attacks * SKILL_VALUE[unit.skill]


def shields_cost(unit: Unit) -> int:
    """DZ3 §13: shields × strength value, once per unit (shields are a pool, DZ3-R6)."""
    return unit.shields * POWER_VALUE[unit.shield_strength]


def vehicle_surcharge(subtotal: int) -> int:
    """DZ3 §13, DZ3-R16: +10% of the unit's cost, nearest point, .5 rounds up."""
    return (subtotal * VEHICLE_SURCHARGE_PERCENT + 50) // 100


def unit_points(unit: Unit, weapons: Mapping[str, Weapon]) -> UnitPoints:
    """DZ3 §13: figures + weapons + shields, +10% for a vehicle. Command is not part
    of a unit's cost (the seed's Squad 1 is 69 and its leader's command "an extra
    60"); the leaders are listed in the breakdown for reference."""
    models = len(unit.figures)
    each = figure_cost(unit)
    items: dict[str, dict[str, Any]] = {}
    for figure in unit.figures:
        for weapon_id in figure.weapons:
            weapon = weapons[weapon_id]
            item = items.setdefault(weapon_id, {
                "name": weapon.name, "count": 0,
                "each": weapon_cost(weapon, unit.skill), "points": 0,
            })
            item["count"] += 1
            item["points"] += item["each"]
    weapons_total = sum(item["points"] for item in items.values())
    shields = shields_cost(unit)
    subtotal = models * each + weapons_total + shields
    surcharge = vehicle_surcharge(subtotal) if unit.vehicle else 0
    breakdown: dict[str, Any] = {
        "figures": {"count": models, "each": each, "points": models * each},
        "weapons": {"points": weapons_total, "items": items},
        "shields": {"count": unit.shields, "strength": unit.shield_strength,
                    "each": POWER_VALUE[unit.shield_strength], "points": shields},
        "vehicle_surcharge": surcharge,
        "leaders": [{"name": f.name, "command": f.command}
                    for f in unit.figures if f.leader],
    }
    return UnitPoints(unit.name, subtotal + surcharge, breakdown)


def command_rating(force: Force) -> int:
    """The force's total command: the sum of its leaders' ratings (DZ3 §11)."""
    return sum(f.command for unit in force.units for f in unit.figures)


def command_cost(force: Force) -> int:
    """DZ3 §13: 10 points per command point."""
    return COMMAND_POINT_COST * command_rating(force)


def force_total(force: Force) -> int:
    return sum(unit_points(u, force.weapons).points for u in force.units) + command_cost(force)

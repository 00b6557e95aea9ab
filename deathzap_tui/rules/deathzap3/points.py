"""Deathzap 3 points (DZ3 §13): the report of a force's costs (:mod:`.costs`), with
its loose-limit warnings and the expected-vs-computed note (DZ3-R17)."""

from __future__ import annotations

from deathzap_tui.rules.deathzap3.costs import command_cost, unit_points
from deathzap_tui.rules.deathzap3.force import force_warnings
from deathzap_tui.rules.deathzap3.model import Force
from deathzap_tui.rules.ruleset import PointsReport


def expected_note(expected: int, units_total: int, command: int) -> str | None:
    """DZ3-R17: a force may state its expected total; when the formula disagrees, show
    both and say where the difference might come from. ``None`` when they agree."""
    total = units_total + command
    if expected == total:
        return None
    gap = total - expected
    note = (f"The force file expects {expected} points; the formula gives {total} "
            f"(units {units_total} + command {command}), {abs(gap)} "
            f"{'more' if gap > 0 else 'fewer'}. The formula wins (DZ3-R17).")
    if command and expected == units_total:
        note += f" The expected figure leaves out the {command} points of command."
    return note


def points_report(force: Force) -> PointsReport:
    """Points of every unit, command, the total, loose-limit warnings (DZ3 §13) and
    the expected-vs-computed note (DZ3-R17)."""
    units = tuple(unit_points(u, force.weapons) for u in force.units)
    command = command_cost(force)
    units_total = sum(u.points for u in units)
    note = (None if force.expected_total is None
            else expected_note(force.expected_total, units_total, command))
    return PointsReport(
        force=force.name,
        ruleset=force.ruleset,
        units=units,
        command_points=command,
        total=units_total + command,
        warnings=tuple(p.located() for p in force_warnings(force)),
        notes=(note,) if note else (),
    )

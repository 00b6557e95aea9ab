"""Double Tap points (DT §2, DT-R4): hand-computed costs, the per-unit breakdown
``deathzap points`` reads, and the army size in the notes."""

from __future__ import annotations

from typing import Any

from deathzap_tui.rules import registry
from deathzap_tui.rules.doubletap.force import parse_force
from deathzap_tui.rules.doubletap.points import points_report, unit_points
from deathzap_tui.rules.doubletap.state import new_state


def force_data() -> dict[str, Any]:
    return {
        "name": "Priced", "ruleset": "double-tap",
        "units": [
            {"name": "Sniper", "weapons": ["sniper-rifle", "knife"],
             "rules": ["camouflage", "scout", "spotter"]},
            {"name": "Duelist", "weapons": ["pistol", "pistol", "sword"],
             "rules": ["fast"]},
            {"name": "Brute", "weapons": ["lmg", "knife"], "rules": ["tough", "armored"]},
            {"name": "Ganger", "weapons": ["smg", "knife"], "rules": ["poison-gear"],
             "poison": "shooting", "count": 2},
        ],
    }


def test_dt_r4_unit_costs_by_hand() -> None:
    """DT-R4: weapons + special rules. Sniper 6 + 1 + 4 + 2 + 2 = 15; Duelist 3 + 3 +
    4 + 2 = 12; Brute 6 + 1 + 12 + 4 = 23; each Ganger 4 + 1 + 2 = 7; total 64."""
    report = points_report(parse_force(force_data()))
    assert [(u.name, u.points) for u in report.units] == [
        ("Sniper", 15), ("Duelist", 12), ("Brute", 23), ("Ganger 1", 7), ("Ganger 2", 7)]
    assert report.total == 64
    assert report.command_points == 0  # Double Tap has no command points
    assert report.ruleset == "double-tap" and report.force == "Priced"


def test_dt_breakdown_columns_weapons_then_rules_dt_r4() -> None:
    """Every unit has the same two columns, so ``deathzap points`` can build its
    table from the first; the items list each id once with its count."""
    force = parse_force(force_data())
    duelist = unit_points(force.units[1])
    assert list(duelist.breakdown) == ["weapons", "rules"]
    assert duelist.breakdown["weapons"] == {"points": 10, "items": {
        "pistol": {"name": "Pistol", "count": 2, "each": 3, "points": 6},
        "sword": {"name": "Sword", "count": 1, "each": 4, "points": 4}}}
    assert duelist.breakdown["rules"] == {"points": 2, "items": {
        "fast": {"name": "Fast", "count": 1, "each": 2, "points": 2}}}
    for unit in force.units:
        b = unit_points(unit).breakdown
        assert list(b) == ["weapons", "rules"]
        assert b["weapons"]["points"] + b["rules"]["points"] == unit.points


def test_dt_a_unit_without_rules_has_an_empty_rules_column_dt_r4() -> None:
    data = force_data()
    del data["units"][1]["rules"]
    duelist = unit_points(parse_force(data).units[1])
    assert duelist.breakdown["rules"] == {"points": 0, "items": {}}
    assert duelist.points == 10


def test_dt_notes_give_the_army_size_and_the_rules_dt_s2_s7() -> None:
    report = points_report(parse_force(force_data()))
    assert report.notes == (
        "Army: 64 of 50 points (DT §2).",
        "Special rules (DT §7): Sniper: Camouflage 4, Scout 2, Spotter 2; Duelist: "
        "Fast 2; Brute: Tough 12, Armored 4; Ganger 1: Poison Gear 2; Ganger 2: Poison "
        "Gear 2.",
    )


def test_dt_no_rules_note_without_rules_dt_s2() -> None:
    data = {"name": "Plain", "ruleset": "double-tap",
            "units": [{"name": "Knifer", "weapons": ["knife"]}]}
    report = points_report(parse_force(data))
    assert report.notes == ("Army: 1 of 50 points (DT §2).",)
    assert report.warnings == ()  # under 50 is no warning: the note says the total


def test_dt_over_50_is_in_the_report_warnings_dt_s2() -> None:
    report = points_report(parse_force(force_data()))
    assert report.warnings == ("units: the army costs 64 points, 14 over the 50 of "
                               "DT §2",)


def test_dt_the_state_carries_each_units_cost_dt_r4() -> None:
    force = parse_force(force_data())
    state = new_state(force, force, {}, seed=1)
    assert [u.points for u in state.units["red"]] == [
        u.points for u in points_report(force).units]


def test_dt_the_plugin_reports_points_dt_r4() -> None:
    force = parse_force(force_data())
    assert registry.get("double-tap").points(force) == points_report(force)

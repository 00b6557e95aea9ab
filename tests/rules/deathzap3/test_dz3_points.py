"""Deathzap 3 points (DZ3 §13, DZ3-R16, DZ3-R17, DZ3-R18)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from deathzap_tui.rules.deathzap3.costs import profile_cost, vehicle_surcharge, weapon_cost
from deathzap_tui.rules.deathzap3.force import parse_force
from deathzap_tui.rules.deathzap3.model import Profile, Weapon
from deathzap_tui.rules.deathzap3.points import expected_note, points_report


def test_seed_example_squad1_is_69_and_leader_command_is_60(squad1: dict[str, Any]) -> None:
    """DZ3 §13 worked example: cultist 7, squad 1 = 49 + 14 + 6 = 69; CR 6 = 60."""
    report = points_report(parse_force(squad1))
    (unit,) = report.units
    assert unit.points == 69
    assert unit.breakdown["figures"] == {"count": 7, "each": 7, "points": 49}
    assert unit.breakdown["weapons"]["points"] == 14
    assert {k: v["points"] for k, v in unit.breakdown["weapons"]["items"].items()} == {
        "grenades": 3, "small-arms": 5, "destroyer": 6}
    assert unit.breakdown["shields"]["points"] == 6
    assert unit.breakdown["vehicle_surcharge"] == 0
    assert report.command_points == 60
    assert report.total == 129


@pytest.mark.parametrize(("shots", "power", "rules", "skill", "cost"), [
    (1, "heavy", {"strike", "short-range"}, "basic", 3),   # DZ3-R18: 3 -> 6 -> 3
    (1, "heavy", {"strike"}, "basic", 6),                  # seed: Destroyer 1x1x3x2
    (6, "light", {"short-range"}, "basic", 3),             # seed: Grenades 6 -> 3
    (5, "light", {"short-range"}, "basic", 3),             # 2.5 rounds up
    (1, "light", {"short-range"}, "basic", 1),             # 0.5 rounds up
    (3, "medium", set(), "elite", 18),                     # 3 x 3 x 2
    (1, "medium", {"strike", "short-range"}, "regular", 4),
])
def test_profile_cost_strike_then_short_range_round_up_once(
        shots: int, power: str, rules: set[str], skill: str, cost: int) -> None:
    """DZ3 §13, DZ3-R18: skill x shots x power, x2 Strike, then /2 rounding up once."""
    assert profile_cost(Profile("p", shots, power, frozenset(rules)), skill) == cost


def test_two_profiles_pay_the_dearer_only() -> None:
    """DZ3 §13: the Destroyer pays its Strike profile (6), not the spread (2)."""
    destroyer = Weapon("destroyer", "Destroyer", (
        Profile("Spread", 2, "light"),
        Profile("Strike", 1, "heavy", frozenset({"strike"})),
    ))
    assert weapon_cost(destroyer, "basic") == 6
    # At Elite the spread costs 6 and the strike 18: still the dearer one.
    assert weapon_cost(destroyer, "elite") == 18


def test_weapon_cost_uses_the_skill_of_the_unit(squad1: dict[str, Any]) -> None:
    """DZ3 §13: weapon cost = skill of the user x shots x power."""
    squad1["units"][0]["skill"] = "regular"
    unit = points_report(parse_force(squad1)).units[0]
    # figures 7 x (6 + 1x2) = 56; weapons 5x2 + 6 + 12 = 28; shields 6
    assert unit.breakdown["weapons"]["points"] == 28
    assert unit.points == 56 + 28 + 6


def test_shields_paid_once_per_unit_not_per_figure(squad1: dict[str, Any]) -> None:
    """DZ3 §13, DZ3-R6: shields x strength once for the unit, whatever its size."""
    squad1["units"][0]["shield_strength"] = "heavy"
    squad1["units"][0]["shields"] = 4
    unit = points_report(parse_force(squad1)).units[0]
    assert unit.breakdown["shields"] == {"count": 4, "strength": "heavy", "each": 3,
                                         "points": 12}
    assert unit.points == 49 + 14 + 12


@pytest.mark.parametrize(("subtotal", "surcharge"), [
    (45, 5),   # 4.5 -> 5: DZ3-R16 .5 rounds up
    (44, 4),   # 4.4 -> 4
    (46, 5),   # 4.6 -> 5
    (50, 5),
    (5, 1),    # 0.5 -> 1
    (4, 0),
    (0, 0),
])
def test_vehicle_surcharge_rounds_half_up(subtotal: int, surcharge: int) -> None:
    """DZ3 §13, DZ3-R16: +10%, to the nearest point, .5 up (integer arithmetic)."""
    assert vehicle_surcharge(subtotal) == surcharge


def vehicle(shields: int) -> dict[str, Any]:
    return {
        "name": "Skiff Wing",
        "weapons": {"cannon": {"shots": 1, "power": "heavy", "rules": ["strike"]}},
        "units": [{
            "name": "Gravskiff", "skill": "regular", "move": 10, "melee_attacks": 0,
            "shield_strength": "heavy", "shields": shields, "vehicle": True,
            "figures": [{"name": "Gravskiff", "weapons": ["cannon"]}],
        }],
    }


def test_vehicle_unit_45_points_becomes_50() -> None:
    """DZ3-R16 concrete case: figure 10 (move 10, no MA) + cannon 12 (Regular 2 x 1 x
    Heavy 3, Strike x2) + pistol 2 + shields 21 (7 x Heavy 3) = 45; 4.5 -> 5."""
    data = vehicle(shields=7)
    data["weapons"]["pistol"] = {"shots": 1, "power": "light"}
    data["units"][0]["figures"][0]["weapons"].append("pistol")  # regular: 2 points
    unit = points_report(parse_force(data)).units[0]
    assert unit.breakdown["vehicle_surcharge"] == 5  # 10% of 45 = 4.5 -> 5
    assert unit.points == 50


def test_vehicle_surcharge_is_on_the_whole_unit_total() -> None:
    """DZ3 §13: figures + weapons + shields first, then +10% of that total."""
    unit = points_report(parse_force(vehicle(shields=10))).units[0]
    assert unit.points - unit.breakdown["vehicle_surcharge"] == 10 + 12 + 30
    assert unit.breakdown["vehicle_surcharge"] == 5  # 5.2 -> 5


def test_expected_total_mismatch_is_explained(squad1: dict[str, Any]) -> None:
    """DZ3-R17: a stated total that disagrees is shown next to the computed one."""
    squad1["expected_points"] = 100
    report = points_report(parse_force(squad1))
    assert report.total == 129
    (note,) = report.notes
    assert "100" in note and "129" in note and "DZ3-R17" in note
    assert "29 more" in note


def test_expected_total_that_matches_gives_no_note(squad1: dict[str, Any]) -> None:
    squad1["expected_points"] = 129
    assert points_report(parse_force(squad1)).notes == ()


def test_expected_note_spots_a_total_without_command() -> None:
    """DZ3-R17: the seed's kind of slip: a printed total that leaves out command."""
    note = expected_note(expected=267, units_total=267, command=60)
    assert note is not None and "leaves out the 60 points of command" in note
    assert expected_note(expected=327, units_total=267, command=60) is None


def test_points_warnings_include_the_loose_limits(squad1: dict[str, Any]) -> None:
    """DZ3 §13: loose limits reach the report as warnings; over 1000 points too."""
    squad1["units"] = [copy.deepcopy(squad1["units"][0]) for _ in range(10)]  # > 9
    squad1["units"][0]["move"] = 13  # > 12": 7 points dearer per figure
    report = points_report(parse_force(squad1))
    assert report.total == 10 * 69 + 7 * 7 + 10 * 60
    text = "\n".join(report.warnings)
    assert "units: 10 units" in text
    assert "1339 points" in text
    assert "units[0].move" in text
    assert "60 command" in text

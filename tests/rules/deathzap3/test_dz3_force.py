"""Deathzap 3 force validation (DZ3 §5, §9, §11, §13, §14)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from deathzap_tui.rules.deathzap3.force import force_warnings, parse_force
from deathzap_tui.rules.problems import InvalidInput, Problem

Data = dict[str, Any]


def problems_of(data: Data) -> list[Problem]:
    with pytest.raises(InvalidInput) as caught:
        parse_force(data)
    return caught.value.problems


def paths_of(data: Data) -> dict[str, str]:
    return {p.path: p.message for p in problems_of(data)}


def test_valid_force_expands_count_and_keeps_source(squad1: Data) -> None:
    """DZ3 §14 statline; ``count`` becomes one Figure per model."""
    force = parse_force(squad1)
    (unit,) = force.units
    assert (unit.skill, unit.move, unit.melee_attacks, unit.shield_strength,
            unit.shields, unit.vehicle) == ("basic", 6, 1, "light", 6, False)
    assert [f.name for f in unit.figures] == ["Platoon Leader"] + ["Cultist"] * 6
    assert unit.figures[0].leader and unit.figures[0].command == 6
    assert unit.figures[1].weapons == ("small-arms",)
    assert force.weapons["small-arms"].name == "Small Arms"  # derived from the id
    assert [p.name for p in force.weapons["destroyer"].profiles] == ["Strike", "Spread"]
    assert force.weapons["grenades"].profiles[0].short_range
    assert force.source == squad1 and force.source is not squad1
    assert force.expected_total is None


def test_names_are_stripped_and_expected_points_kept(squad1: Data) -> None:
    squad1["name"] = "  Mortan's Men \n"
    squad1["expected_points"] = 249
    force = parse_force(squad1)
    assert force.name == "Mortan's Men"
    assert force.expected_total == 249


Mutation = Callable[[Data], None]


def unit(d: Data) -> Data:
    return d["units"][0]


def fig(d: Data, i: int = 0) -> Data:
    return d["units"][0]["figures"][i]


CASES: list[tuple[str, Mutation, str, str]] = [
    # (id, change, path, words in the message)
    ("unknown-top-key", lambda d: d.update(colour="red"), "colour", "unknown key"),
    ("unknown-unit-key", lambda d: unit(d).update(melee=1), "units[0].melee",
     "did you mean melee_attacks"),
    ("unknown-figure-key", lambda d: fig(d).update(rank=1),
     "units[0].figures[0].rank", "unknown key"),
    ("unknown-weapon-key", lambda d: d["weapons"]["small-arms"].update(range=24),
     "weapons.small-arms.range", "unknown key"),
    ("unknown-profile-key",
     lambda d: d["weapons"]["destroyer"]["profiles"][0].update(ap=1),
     "weapons.destroyer.profiles[0].ap", "unknown key"),
    ("missing-name", lambda d: d.pop("name"), "name", "missing"),
    ("empty-name", lambda d: unit(d).update(name="   "), "units[0].name", "empty"),
    ("long-name", lambda d: fig(d).update(name="x" * 61), "units[0].figures[0].name",
     "at most 60"),
    ("control-char", lambda d: unit(d).update(name="Squad\x1b[2J"), "units[0].name",
     "U+001B"),
    ("c1-control", lambda d: unit(d).update(name="Squad\x9b"), "units[0].name", "U+009B"),
    ("bidi-override", lambda d: fig(d).update(name="Leader\u202e"),
     "units[0].figures[0].name", "U+202E"),
    ("name-not-text", lambda d: d.update(name=5), "name", "the number 5"),
    ("bool-is-not-int", lambda d: unit(d).update(move=True), "units[0].move",
     "got true"),
    ("float-is-not-int", lambda d: unit(d).update(shields=6.0), "units[0].shields",
     "decimal"),
    ("text-is-not-int", lambda d: unit(d).update(melee_attacks="1"),
     "units[0].melee_attacks", "whole number"),
    ("negative", lambda d: unit(d).update(move=-1), "units[0].move", "at least 0"),
    ("huge", lambda d: unit(d).update(shields=10**30), "units[0].shields",
     "a huge number"),
    ("zero-shots", lambda d: d["weapons"]["small-arms"].update(shots=0),
     "weapons.small-arms.shots", "at least 1"),
    ("zero-count", lambda d: fig(d, 1).update(count=0), "units[0].figures[1].count",
     "at least 1"),
    ("count-bool", lambda d: fig(d, 1).update(count=True), "units[0].figures[1].count",
     "got true"),
    ("bad-skill", lambda d: unit(d).update(skill="veteran"), "units[0].skill",
     "basic, regular, elite"),
    ("bad-strength", lambda d: unit(d).update(shield_strength="mega"),
     "units[0].shield_strength", "light, medium, heavy"),
    ("bad-power", lambda d: d["weapons"]["small-arms"].update(power=1),
     "weapons.small-arms.power", "light, medium, heavy"),
    ("bad-rule", lambda d: d["weapons"]["grenades"].update(rules=["blast"]),
     "weapons.grenades.rules[0]", "strike, short-range"),
    ("duplicate-rule", lambda d: d["weapons"]["grenades"].update(
        rules=["short-range", "short-range"]), "weapons.grenades.rules[1]", "twice"),
    ("rules-not-list", lambda d: d["weapons"]["grenades"].update(rules="strike"),
     "weapons.grenades.rules", "array"),
    ("missing-power", lambda d: d["weapons"]["small-arms"].pop("power"),
     "weapons.small-arms.power", "missing"),
    ("inline-and-profiles", lambda d: d["weapons"]["destroyer"].update(shots=1),
     "weapons.destroyer", "not both"),
    ("neither", lambda d: d["weapons"].update(empty={"name": "Empty"}),
     "weapons.empty", "shots and power"),
    ("no-profiles", lambda d: d["weapons"]["destroyer"].update(profiles=[]),
     "weapons.destroyer.profiles", "1 to"),
    ("duplicate-profile-name", lambda d: d["weapons"]["destroyer"]["profiles"][1].update(
        name="Strike"), "weapons.destroyer.profiles[1].name", "another profile"),
    ("weapon-not-table", lambda d: d["weapons"].update(knife=3), "weapons.knife",
     "a table"),
    ("bad-weapon-id", lambda d: d["weapons"].update({"big gun": {"shots": 1,
                                                                 "power": "light"}}),
     'weapons."big gun"', "weapon id"),
    ("unknown-weapon", lambda d: fig(d, 1).update(weapons=["small-arms", "lasgun"]),
     "units[0].figures[1].weapons[1]",
     'unknown weapon "lasgun"; this force defines: small-arms, destroyer, grenades'),
    ("weapon-ref-not-text", lambda d: fig(d, 1).update(weapons=[["x"]]),
     "units[0].figures[1].weapons[0]", "unknown weapon"),
    ("command-not-leader", lambda d: fig(d, 1).update(command=2),
     "units[0].figures[1].command", "only a leader"),
    ("leader-not-bool", lambda d: fig(d).update(leader="yes"),
     "units[0].figures[0].leader", "true or false"),
    ("vehicle-not-bool", lambda d: unit(d).update(vehicle=1), "units[0].vehicle",
     "true or false"),
    ("vehicle-many-models", lambda d: unit(d).update(vehicle=True), "units[0].figures",
     "exactly one model, this one has 7"),
    ("no-figures", lambda d: unit(d).update(figures=[]), "units[0].figures",
     "at least one figure"),
    ("figure-not-table", lambda d: unit(d)["figures"].append("Cultist"),
     "units[0].figures[3]", "a table"),
    ("no-units", lambda d: d.update(units=[]), "units", "at least one unit"),
    ("units-not-list", lambda d: d.update(units={"name": "x"}), "units", "array"),
    ("missing-units", lambda d: d.pop("units"), "units", "missing"),
    ("unit-not-table", lambda d: d["units"].append(7), "units[1]", "a table"),
    ("weapons-not-table", lambda d: d.update(weapons=[]), "weapons", "a table"),
    ("expected-negative", lambda d: d.update(expected_points=-5), "expected_points",
     "at least 0"),
    ("other-ruleset", lambda d: d.update(ruleset="classic"), "ruleset", '"classic"'),
]


@pytest.mark.parametrize(("change", "path", "words"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_each_problem_is_reported_at_its_path(squad1: Data, change: Mutation, path: str,
                                              words: str) -> None:
    change(squad1)
    found = paths_of(squad1)
    assert path in found, found
    assert words in found[path]
    assert all(p.is_error for p in problems_of(squad1))


def test_all_problems_are_reported_at_once(squad1: Data) -> None:
    squad1["colour"] = "red"
    unit(squad1).update(move=True, skill="veteran", vehicle=True)
    fig(squad1, 1)["weapons"] = ["lasgun"]
    squad1["weapons"]["small-arms"]["shots"] = 0
    assert set(paths_of(squad1)) == {
        "colour", "units[0].move", "units[0].skill", "units[0].figures[1].weapons[0]",
        "weapons.small-arms.shots",
    }


def test_vehicle_with_one_model_is_fine(squad1: Data) -> None:
    """DZ3 §9: a vehicle unit is exactly one model."""
    unit(squad1).update(vehicle=True, figures=[{"name": "Tank", "weapons": ["destroyer"]}])
    assert parse_force(squad1).units[0].vehicle


def test_vehicle_count_two_is_an_error(squad1: Data) -> None:
    unit(squad1).update(vehicle=True, figures=[{"name": "Tank", "count": 2}])
    assert "units[0].figures" in paths_of(squad1)


def test_not_a_table_at_all() -> None:
    with pytest.raises(InvalidInput) as caught:
        parse_force([])  # type: ignore[arg-type]
    assert "a table" in caught.value.problems[0].message


def test_messages_escape_terminal_control_text(squad1: Data) -> None:
    fig(squad1, 1)["weapons"] = ["\x1b]52;c;evil\x07"]
    text = str(problems_of(squad1)[0])
    assert "\x1b" not in text and "\x07" not in text
    assert "\\u001b" in text


# --- warnings: DZ3 §13 loose limits ---------------------------------------------------


def warnings_of(data: Data) -> dict[str, str]:
    out = {p.path: p.message for p in force_warnings(parse_force(data))}
    assert all(p.severity == "warning" for p in force_warnings(parse_force(data)))
    return out


def test_squad1_has_no_warnings(squad1: Data) -> None:
    assert warnings_of(squad1) == {}


def test_more_than_10_figures_warns(squad1: Data) -> None:
    fig(squad1, 1)["count"] = 9
    assert "11 models" in warnings_of(squad1)["units[0].figures"]


def test_move_over_12_warns(squad1: Data) -> None:
    unit(squad1)["move"] = 13
    assert "DZ3 §13" in warnings_of(squad1)["units[0].move"]


def test_total_melee_attacks_over_24_warns(squad1: Data) -> None:
    unit(squad1)["melee_attacks"] = 4  # 7 x 4 = 28
    assert "28 melee attacks" in warnings_of(squad1)["units[0].melee_attacks"]


def test_total_shots_over_24_counts_the_most_shots_profile(squad1: Data) -> None:
    """DZ3 §13 total shots: grenades 6 + 5 small arms + the Destroyer's 2-shot
    profile (not the 1-shot one it pays for) = 13; with grenades for all 5: 38."""
    assert "units[0].figures" not in warnings_of(squad1)
    fig(squad1, 1)["weapons"] = ["grenades"]  # 6 + 5 x 6 + 2 = 38
    assert "38 shots" in warnings_of(squad1)["units[0].figures"]


def test_shields_over_12_warn_but_a_vehicle_may_have_24(squad1: Data) -> None:
    unit(squad1)["shields"] = 13
    assert "limit is 12" in warnings_of(squad1)["units[0].shields"]
    unit(squad1).update(vehicle=True, shields=24, figures=[{"name": "Tank"}])
    assert "units[0].shields" not in warnings_of(squad1)
    unit(squad1)["shields"] = 25
    assert "limit is 24 for a vehicle" in warnings_of(squad1)["units[0].shields"]


def test_more_than_9_units_warns(squad1: Data) -> None:
    squad1["units"] = [dict(unit(squad1), name=f"Squad {i}") for i in range(10)]
    for u in squad1["units"][1:]:
        u["figures"] = u["figures"][1:]  # only one leader: keep command at 6
    assert "10 units" in warnings_of(squad1)["units"]


def test_command_over_12_is_a_warning_not_an_error(squad1: Data) -> None:
    """DZ3 §13 "a maximum of 12 command": kept a loose limit (see force_warnings)."""
    fig(squad1)["command"] = 13
    assert "13 command" in warnings_of(squad1)[""]


def test_over_1000_points_warns(squad1: Data) -> None:
    fig(squad1)["command"] = 12
    unit(squad1)["shields"] = 12
    fig(squad1, 1)["count"] = 8
    squad1["weapons"]["small-arms"]["power"] = "heavy"
    unit(squad1)["skill"] = "elite"
    warnings = warnings_of(squad1)
    assert "points" not in warnings.get("", "")
    fig(squad1)["command"] = 100
    assert "points; a force is about 1000" in " ".join(
        m for p, m in warnings_of(squad1).items() if p == "")


def test_unused_weapon_and_duplicate_unit_name_warn(squad1: Data) -> None:
    squad1["weapons"]["spare"] = {"shots": 1, "power": "light"}
    squad1["units"].append(dict(unit(squad1), figures=[{"name": "Cultist"}]))
    warnings = warnings_of(squad1)
    assert "no figure carries it" in warnings["weapons.spare"]
    assert "units[0]" in warnings["units[1].name"]

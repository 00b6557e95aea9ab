"""Double Tap force files (DT §2, §4, §7, DT-R2, DT-R4): the shape, every error with
its path, the warnings, the shipped ``forces/dt-*.toml`` and the help text formatted
from the tables."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from deathzap_tui.forcefile import force_from_text, load_force
from deathzap_tui.rules import registry
from deathzap_tui.rules.doubletap import tables
from deathzap_tui.rules.doubletap.force import TEMPLATE, force_warnings, parse_force
from deathzap_tui.rules.doubletap.help import HELP_SECTIONS
from deathzap_tui.rules.doubletap.model import Force, Unit
from deathzap_tui.rules.problems import InvalidInput

FORCES = Path(__file__).resolve().parents[3] / "forces"
DT_FORCES = sorted(FORCES.glob("dt-*.toml"))
WEAPON_IDS = ", ".join(tables.WEAPONS)
RULE_IDS = ", ".join(tables.SPECIAL_RULES)


def good() -> dict[str, Any]:
    """Rifle 5 + Knife 1 + Armored 4 + Grenade 1 = 11; Pistol 3 x 2 + Sword 4 = 10;
    Knife 1 + Poison Gear 2 = 3 twice: 27 points (DT-R4)."""
    return {
        "name": "Test Cell", "ruleset": "double-tap",
        "units": [
            {"name": "Sergeant Vey", "weapons": ["rifle", "knife"],
             "rules": ["armored", "grenade"]},
            {"name": "Duelist", "weapons": ["pistol", "pistol", "sword"]},
            {"name": "Cutter", "weapons": ["knife"], "rules": ["poison-gear"],
             "poison": "shooting", "count": 2},
        ],
    }


def problems(data: Any) -> dict[str, str]:
    with pytest.raises(InvalidInput) as exc:
        parse_force(data)
    return {p.path: p.message for p in exc.value.problems}


def warnings_of(data: dict[str, Any]) -> dict[str, str]:
    return {p.path: p.message for p in force_warnings(parse_force(data))}


def with_unit(**unit: Any) -> dict[str, Any]:
    data = good()
    data["units"].append({"name": "Extra", "weapons": ["knife"], **unit})
    return data


# --- the shape ---------------------------------------------------------------------


def test_dt_the_shape_parses_dt_s2_s4_s7() -> None:
    f = parse_force(good())
    assert f.name == "Test Cell" and f.ruleset == "double-tap"
    assert f.units[0] == Unit("Sergeant Vey", ("rifle", "knife"), ("armored", "grenade"))
    assert f.units[1] == Unit("Duelist", ("pistol", "pistol", "sword"))
    assert f.units[0].figures == (f.units[0],)  # DT §2: one model a unit
    assert f.source == good()


def test_dt_count_expands_into_alike_named_units_dt_s2() -> None:
    """``count`` gives that many units of one model each (DT §2), "Name 1"..."""
    units = parse_force(good()).units
    assert [u.name for u in units] == ["Sergeant Vey", "Duelist", "Cutter 1", "Cutter 2"]
    assert units[2] == Unit("Cutter 1", ("knife",), ("poison-gear",), "shooting")
    assert units[3].poison == "shooting" and units[3].rules == ("poison-gear",)


def test_dt_count_one_keeps_the_name_dt_s2() -> None:
    data = good()
    data["units"][2]["count"] = 1
    assert parse_force(data).units[2].name == "Cutter"


def test_dt_rules_keep_file_order_and_default_to_none_dt_r4() -> None:
    data = with_unit(rules=["tough", "ambush", "fast"])
    units = parse_force(data).units
    assert units[-1].rules == ("tough", "ambush", "fast")
    assert units[1].rules == () and units[1].poison == ""


def test_dt_every_rule_and_weapon_id_is_accepted_dt_s4_s7() -> None:
    rules = [r for r in tables.SPECIAL_RULES]
    data = with_unit(weapons=list(tables.WEAPONS), rules=rules, poison="melee")
    unit = parse_force(data).units[-1]
    assert unit.weapons == tuple(tables.WEAPONS) and unit.rules == tuple(rules)


def test_dt_a_weapon_listed_twice_is_two_weapons_dt_r4() -> None:
    """Two pistols are allowed, and each costs its 3 points."""
    duelist = parse_force(good()).units[1]
    assert duelist.weapons.count("pistol") == 2
    assert duelist.points == 3 + 3 + 4


# --- errors ------------------------------------------------------------------------


def test_dt_unknown_weapon_at_its_path_dt_s4() -> None:
    data = good()
    data["units"][0]["weapons"] = ["rifle", "lasgun", 3]
    assert problems(data) == {
        "units[0].weapons[1]": f'"lasgun" is not a weapon (DT §4); use one of: {WEAPON_IDS}',
        "units[0].weapons[2]": f"the number 3 is not a weapon (DT §4); use one of: "
                               f"{WEAPON_IDS}",
    }


def test_dt_unknown_rule_at_its_path_dt_s7_dt_r4() -> None:
    data = good()
    data["units"][1]["rules"] = ["fast", "psychic"]
    assert problems(data) == {"units[1].rules[1]": (
        f'"psychic" is not a special rule (DT §7); use one of: {RULE_IDS}')}


def test_dt_a_rule_listed_twice_is_an_error_dt_s7() -> None:
    data = good()
    data["units"][0]["rules"] = ["armored", "grenade", "armored"]
    assert problems(data) == {"units[0].rules[2]": '"armored" is listed twice'}


def test_dt_no_melee_weapon_names_what_it_has_dt_r2() -> None:
    data = good()
    data["units"][0]["weapons"] = ["rifle", "pistol"]
    assert problems(data) == {"units[0].weapons": (
        "no melee weapon: it has Rifle, Pistol; every unit needs a knife or a sword "
        "(DT-R2)")}


def test_dt_no_weapons_at_all_dt_r2() -> None:
    data = good()
    data["units"][1]["weapons"] = []
    assert problems(data) == {"units[1].weapons": (
        "no melee weapon: it has no weapons; every unit needs a knife or a sword "
        "(DT-R2)")}
    del data["units"][1]["weapons"]
    assert problems(data) == {"units[1].weapons": "missing: weapon ids (DT §4)"}


@pytest.mark.parametrize("melee", ["knife", "sword"])
def test_dt_either_melee_weapon_is_enough_dt_r2(melee: str) -> None:
    data = with_unit(weapons=["lmg", melee])
    assert parse_force(data).units[-1].weapons == ("lmg", melee)


def test_dt_poison_gear_needs_poison_dt_s7() -> None:
    data = good()
    del data["units"][2]["poison"]
    assert problems(data) == {"units[2].poison": (
        'missing: Poison Gear needs poison = "melee" or "shooting", the hits that '
        "poison (DT §7)")}


def test_dt_poison_without_poison_gear_is_refused_dt_s7() -> None:
    data = good()
    data["units"][0]["poison"] = "melee"
    assert problems(data) == {"units[0].poison": (
        'only a unit with "poison-gear" in its rules says which hits poison (DT §7); '
        "add the rule or remove poison")}


def test_dt_poison_must_be_melee_or_shooting_dt_s7() -> None:
    data = good()
    data["units"][2]["poison"] = "gas"
    assert problems(data) == {"units[2].poison": (
        '"gas" is not a kind of hit; use "melee" or "shooting" (DT §7 Poison Gear)')}


@pytest.mark.parametrize("kind", tables.POISON_KINDS)
def test_dt_both_poison_kinds_are_read_dt_s7(kind: str) -> None:
    data = good()
    data["units"][2]["poison"] = kind
    assert parse_force(data).units[2].poison == kind


def test_dt_poison_is_checked_even_when_another_rule_is_bad_dt_s7() -> None:
    data = good()
    data["units"][2]["rules"] = ["poison-gear", "nope"]
    del data["units"][2]["poison"]
    assert set(problems(data)) == {"units[2].rules[1]", "units[2].poison"}


def test_dt_no_units_dt_s2() -> None:
    assert problems({**good(), "units": []}) == {
        "units": "a force needs at least one unit"}
    data = good()
    del data["units"]
    assert problems(data) == {"units": "missing: the force's units"}


def test_dt_count_must_be_a_positive_whole_number_dt_s2() -> None:
    data = good()
    data["units"][2]["count"] = 0
    assert problems(data) == {"units[2].count": "must be at least 1, not 0"}
    data["units"][2]["count"] = "two"
    assert problems(data) == {"units[2].count": (
        'expected a whole number (how many such units), got the text "two"')}


def test_dt_too_many_units_once_expanded_dt_s2() -> None:
    data = good()
    data["units"] = [dict(data["units"][1], name=f"D{i}", count=60) for i in range(2)]
    assert problems(data) == {"units": "120 units once counts are expanded; at most 100"}


def test_dt_unknown_keys_are_errors_at_every_level_dt_s2() -> None:
    data = good()
    data["points"] = 50
    data["weapons"] = {}
    data["units"][0]["quality"] = 4
    found = problems(data)
    assert found == {
        "points": "unknown key; allowed here: name, ruleset, units",
        "weapons": "unknown key; allowed here: name, ruleset, units",
        "units[0].quality": "unknown key; allowed here: name, weapons, rules, poison, "
                            "count",
    }


def test_dt_every_problem_at_once_dt_s4_s7() -> None:
    data = good()
    data["units"][0]["weapons"] = ["rifle"]
    data["units"][0]["rules"] = ["armored", "armored"]
    data["units"][1] = "tank"
    data["units"][2]["poison"] = "gas"
    data["units"][2]["name"] = ""
    assert set(problems(data)) == {"units[0].weapons", "units[0].rules[1]", "units[1]",
                                   "units[2].poison", "units[2].name"}


def test_dt_structure_and_hostile_text_dt_s2() -> None:
    data = good()
    data["ruleset"] = "plasmashok"
    data["units"][0]["name"] = "Evil\x1b[2J"
    data["units"][1]["weapons"] = ["\x1b]52;c;x\x07", "knife"]
    data["units"][2]["rules"] = "tough"
    found = problems(data)
    assert "double-tap reader" in found["ruleset"]
    assert "U+001B" in found["units[0].name"]
    assert "\\u001b" in found["units[1].weapons[0]"]
    assert found["units[2].rules"] == (
        'expected an array (special rule ids), got the text "tough"')
    assert "\x1b" not in "".join(found.values())
    with pytest.raises(InvalidInput):
        parse_force(["not", "a", "table"])  # type: ignore[arg-type]


def test_dt_loader_locates_lines_dt_s7() -> None:
    text = DT_FORCES[0].read_text()
    with pytest.raises(InvalidInput) as exc:
        force_from_text(text.replace('rules = ["armored"]', 'rules = ["armoured"]'),
                        "x.toml")
    (p,) = exc.value.problems
    assert p.path == "units[0].rules[0]" and p.line is not None
    assert text.splitlines()[p.line - 1] == 'rules = ["armored"]'


# --- warnings, never errors --------------------------------------------------------


def test_dt_army_over_50_points_is_a_warning_with_the_total_dt_s2() -> None:
    """DT §2 "armies of 50 points each": over, the gap is said; short of 50 is no
    warning (the issue: "warning when over"; `points` shows the total)."""
    data = with_unit(weapons=["lmg", "sword"], rules=["tough"])  # 27 + 22 = 49
    assert parse_force(data).points == 49
    assert warnings_of(data) == {}
    data["units"][-1]["rules"] = ["tough", "fast"]  # 51
    assert warnings_of(data) == {"units": "the army costs 51 points, 1 over the 50 of "
                                          "DT §2"}


def test_dt_exactly_50_points_is_fine_dt_s2() -> None:
    data = with_unit(weapons=["lmg", "sword"], rules=["tough", "athletic"])
    assert parse_force(data).points == 50 and warnings_of(data) == {}


def test_dt_duplicate_names_are_warnings_dt_s2() -> None:
    data = with_unit(name="Duelist")
    assert warnings_of(data) == {"units[3].name": (
        '"Duelist" is also the name of units[1]; players tell units apart by name')}


def test_dt_duplicate_expanded_names_are_located_at_their_entry_dt_s2() -> None:
    """"Cutter 2" typed by hand clashes with units[2]'s second cutter."""
    data = with_unit(name="Cutter 2")
    assert warnings_of(data) == {"units[3].name": (
        '"Cutter 2" is also the name of units[2]; players tell units apart by name')}


def test_dt_warnings_of_a_force_built_in_code_dt_s2() -> None:
    """Without a source the units' own indexes are used."""
    unit = Unit("Twin", ("knife",))
    force = Force("Coded", (unit, unit))
    assert [(p.path, p.severity) for p in force_warnings(force)] == [
        ("units[1].name", "warning")]


def test_dt_template_parses_without_errors_dt_s2() -> None:
    """One unit, far short of DT §2's 50 points: no warning (only over 50 is)."""
    loaded = force_from_text(TEMPLATE, "template.toml")
    assert loaded.ruleset.id == "double-tap"
    assert loaded.warnings == []
    assert registry.get("double-tap").force_template() == TEMPLATE
    assert max(len(line) for line in TEMPLATE.splitlines()) <= 80


# --- the shipped armies ------------------------------------------------------------


@pytest.mark.parametrize("path", DT_FORCES, ids=[p.name for p in DT_FORCES])
def test_dt_shipped_dt_armies_load_cleanly_at_50_points_dt_s2(path: Path) -> None:
    loaded = load_force(path)
    assert loaded.ruleset.id == "double-tap" and loaded.warnings == []
    report = loaded.ruleset.points(loaded.force)
    assert report is not None and report.warnings == ()
    assert report.total == loaded.force.points == tables.ARMY_POINTS
    assert path.read_text().startswith("#")
    assert 5 <= len(loaded.force.units) <= 8
    assert all(any(tables.WEAPONS[w].melee for w in u.weapons)
               for u in loaded.force.units)  # DT-R2


def test_dt_shipped_dt_armies_use_every_weapon_and_many_rules_dt_s4_s7() -> None:
    """Between them: every DT §4 weapon and at least ten DT §7 rules (14 asked for by
    name, Poison Gear with its kind)."""
    forces = [load_force(p).force for p in DT_FORCES]
    assert len(forces) == 2
    units = [u for f in forces for u in f.units]
    assert {w for u in units for w in u.weapons} == set(tables.WEAPONS)
    rules = {r for u in units for r in u.rules}
    assert len(rules) >= 10
    assert rules >= {"ambush", "scout", "infiltrate", "camouflage", "sixth-sense",
                     "grenade", "hacker", "spotter", "poison-gear", "tough",
                     "regeneration", "doctor", "engineer", "armored"}
    assert all(u.poison in tables.POISON_KINDS for u in units if u.has("poison-gear"))


# --- help (formatted from the tables) ----------------------------------------------


def test_dt_help_sections_cover_the_rules_dt_s1_s7() -> None:
    assert registry.get("double-tap").help_sections() == HELP_SECTIONS
    text = "\n".join(body for _, body in HELP_SECTIONS)
    titles = " ".join(title for title, _ in HELP_SECTIONS)
    assert all(title and len(body) > 100 for title, body in HELP_SECTIONS)
    for word in ("Quality tests", "Set-up", "markers", "activation points", "Shooting",
                 "Range bands", "Melee", "Reactions", "cancelling", "Morale",
                 "Special rules", "Grenades", "Winning", "Rulings"):
        assert word in titles
    for rule in (*(f"DT §{n}" for n in range(1, 8)), "DT-R1", "DT-R2", "DT-R3",
                 "DT-R4"):
        assert rule in titles + text
    assert text.count("App reading") >= 10
    for title, body in HELP_SECTIONS:
        rows = [line for line in body.splitlines() if line.startswith("  ")]
        assert all(len(line) <= 78 for line in rows), title


def test_dt_help_tables_come_from_tables_py_dt_s1_s4() -> None:
    body = dict(HELP_SECTIONS)
    weapons = body["Range bands (DT §4, DT-R2)"].splitlines()
    for w in tables.WEAPONS.values():
        row = next(line for line in weapons if line.strip().startswith(w.name + " "))
        cells = row.split()
        assert cells[len(w.name.split()):len(w.name.split()) + 2] == [
            str(w.points), str(w.attacks)]
        assert cells[-1] == ("melee" if w.melee else f'{w.max_range}"')
        for band in w.bands:
            assert f'{band.modifier:+d} at {band.low}-{band.high}"' in row
    rules = body["Special rules (DT §7, DT-R4)"]
    for r in tables.SPECIAL_RULES.values():
        assert f"  {r.name} ({r.points}): " in rules
    actions = body["Turns and activation points (DT §3)"].splitlines()
    for a in tables.ACTIONS.values():
        row = next(line for line in actions if line.strip().startswith(a.name + " "))
        assert row.split()[1] == f'{a.move}"'
    quality = body["Quality tests (DT §1, DT-R1)"]
    assert tables.need_text(-3) in quality and tables.need_text(-4) in quality

"""Deathzap Plasmashok force files (PS §1, §2, §5, §9, PS-R1..R3): the shape, every
error with its path, the warnings, the shipped ``forces/ps-*.toml`` and the help
text formatted from the tables."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from ps_fixtures import MELEE_TABLE, force_data

from deathzap_tui.forcefile import force_from_text, load_force
from deathzap_tui.rules import registry
from deathzap_tui.rules.plasmashok import tables
from deathzap_tui.rules.plasmashok.force import (
    TEMPLATE,
    force_points,
    force_warnings,
    parse_force,
    type_force_points,
)
from deathzap_tui.rules.plasmashok.help import HELP_SECTIONS
from deathzap_tui.rules.plasmashok.model import Model
from deathzap_tui.rules.plasmashok.tables import Melee, WeaponProfile
from deathzap_tui.rules.problems import InvalidInput

FORCES = Path(__file__).resolve().parents[3] / "forces"
PS_FORCES = sorted(FORCES.glob("ps-*.toml"))


def good() -> dict[str, Any]:
    return force_data()


def problems(data: Any) -> dict[str, str]:
    with pytest.raises(InvalidInput) as exc:
        parse_force(data)
    return {p.path: p.message for p in exc.value.problems}


def warnings_of(data: dict[str, Any]) -> dict[str, str]:
    return {p.path: p.message for p in force_warnings(parse_force(data))}


def unit(**changes: Any) -> dict[str, Any]:
    """A one-model unit of ``changes["type"]`` with a melee profile."""
    out = {"name": "Extra", "training": "regular", "base_cost": 10, "melee": dict(MELEE_TABLE),
           "figures": [{"name": "M"}]}
    return {**out, **changes}


def with_unit(**changes: Any) -> dict[str, Any]:
    """The good force and ``unit(**changes)`` as ``units[3]``, then as many beast units
    as its force points need (PS §9)."""
    data = good()
    data["units"].append(unit(**changes))
    types = [u["type"] for u in data["units"]]
    unlocked, used = type_force_points(types)
    data["units"] += [unit(type="beasts", name=f"Pack {i + 1}")
                      for i in range(used - unlocked)]
    return data


# --- the shape ---------------------------------------------------------------------


def test_ps_the_shape_parses_ps_s1_s2_s5_s9() -> None:
    data = good()
    f = parse_force(data)
    assert f.name == "Test Force" and f.ruleset == "plasmashok"
    # PS §5: every table weapon by its id, then the force's own (PS-R2).
    assert list(f.weapons) == [*tables.WEAPONS, "spike"]
    assert f.weapons["spike"] == WeaponProfile("spike", "Spike", 1, 2, 1, 2, "heavy", 6)
    rifles, hounds, skiffs = f.units
    assert (rifles.type, rifles.training, rifles.base_cost) == ("infantry", "regular", 5)
    assert (rifles.shields, rifles.special, rifles.save) == (1, 1, 4)
    assert rifles.melee == Melee(1, 1, 1) and rifles.melee_missing == ()
    assert rifles.figures[0] == Model("Sergeant", ("advanced-rifle", "spike"))
    assert [m.name for m in rifles.figures] == ["Sergeant"] + ["Trooper"] * 4
    assert hounds.figures == (Model("Hound", ()),) * 3
    # PS-R1, PS-R3: light vehicles bring their melee profile and base cost.
    assert skiffs.melee == Melee(2, 2, 2) and skiffs.base_cost == 12
    assert f.source == data and f.source is not data
    assert force_warnings(f) == []


def test_ps_weapon_defaults_points_name_kind_and_range_ps_s5() -> None:
    """PS §5: a fixed-shot weapon's points default to shots x strength x damage; the
    kind defaults to heavy (PS §9), the range to none."""
    data = good()
    data["weapons"]["twin-gun"] = {"shots": 3, "strength": 2, "damage": 2}
    data["weapons"]["pistol"] = {"shots": 1, "strength": 1, "damage": 1}
    data["units"][2]["figures"][0]["weapons"] = ["pistol", "twin-gun"]
    f = parse_force(data)
    assert f.weapons["twin-gun"] == WeaponProfile("twin-gun", "Twin Gun", 3, 2, 2, 12,
                                                  "heavy", 0)
    assert f.weapons["pistol"].kind == "heavy" and f.weapons["pistol"].points == 1


def test_ps_s9_an_own_weapon_is_never_a_rifle() -> None:
    """PS §9: only the table's basic and advanced rifles and repeaters are rifles; a
    force's own weapon is heavy or super-heavy."""
    data = good()
    data["weapons"]["pistol"] = {"shots": 1, "strength": 1, "damage": 1, "kind": "rifle"}
    assert problems(data) == {"weapons.pistol.kind": (
        '"rifle": only the PS §5 table\'s basic and advanced rifles and repeaters are '
        "rifles; a force's own weapon is heavy or super-heavy (PS §9)")}
    data["weapons"]["pistol"]["kind"] = "super-heavy"
    data["units"][3:] = [unit(type="vehicles", figures=[{"name": "M", "weapons": ["pistol"]}]),
                         unit(type="beasts", name="Pack")]
    assert parse_force(data).weapons["pistol"].kind == "super-heavy"


def test_ps_variable_shots_need_points_ps_s5() -> None:
    """PS §5: "target-size" (Arc) and "radius" weapons have no shots x strength x
    damage price, so the file must give one."""
    data = good()
    data["weapons"]["spore"] = {"shots": "radius", "strength": 2, "damage": 1}
    data["weapons"]["lash"] = {"shots": "target-size", "strength": 1, "damage": 1,
                               "points": 5}
    found = problems(data)
    assert found == {"weapons.spore.points": "missing: the weapon's points (PS §5: "
                     '"radius" shots cannot be priced as shots x strength x damage)'}
    data["weapons"]["spore"]["points"] = 20
    data["units"][2]["figures"][0]["weapons"] = ["spore", "lash"]
    f = parse_force(data)
    assert f.weapons["spore"].shots == tables.SHOTS_RADIUS and f.weapons["spore"].points == 20
    assert not f.weapons["lash"].fixed_shots


def test_ps_melee_comes_from_the_type_when_the_seed_kept_one_ps_r1() -> None:
    data = good()
    data["units"].append(unit(type="big-beasts", base_cost=12))
    del data["units"][3]["melee"]
    assert parse_force(data).units[3].melee == Melee(4, 2, 1)


def test_ps_no_melee_table_loads_but_cannot_fight_ps_r1() -> None:
    data = good()
    del data["units"][0]["melee"]
    u = parse_force(data).units[0]
    assert u.melee is None
    assert u.melee_missing == ("melee.attacks", "melee.strength", "melee.damage")


def test_ps_partial_melee_table_loads_but_cannot_fight_ps_r1() -> None:
    data = good()
    del data["units"][0]["melee"]["damage"]
    u = parse_force(data).units[0]
    assert u.melee is None and u.melee_missing == ("melee.damage",)


def test_ps_weapons_table_and_ruleset_key_are_optional_ps_s5() -> None:
    data = good()
    del data["weapons"]
    data["units"][0]["figures"][0]["weapons"] = ["advanced-rifle"]
    f = parse_force(data)
    assert list(f.weapons) == list(tables.WEAPONS)
    registry_default = {**data}
    del registry_default["ruleset"]
    assert parse_force(registry_default).ruleset == "plasmashok"


# --- errors, all at once, with paths -----------------------------------------------


def test_ps_all_errors_at_once_with_paths_ps_s1_s2_s9() -> None:
    data = good()
    data["weapons"]["spike"]["kind"] = "laser"
    data["weapons"]["spike"]["shots"] = "lots"
    data["units"][0]["type"] = "cavalry"
    data["units"][1]["training"] = "veteran"
    data["units"][0]["figures"][1]["count"] = 0
    data["units"][0]["figures"][1]["weapons"] = ["basic-rifle", "lasgun"]
    data["units"][2]["figures"][0]["wepons"] = []
    found = problems(data)
    assert found["weapons.spike.kind"] == (
        '"laser" is not a weapon kind (PS §9); use one of: heavy, super-heavy')
    assert found["weapons.spike.shots"] == (
        '"lots" is not a number of shots; use a whole number of 1 or more, '
        '"target-size" or "radius" (PS §5)')
    assert found["units[0].type"] == (
        '"cavalry" is not a model type (PS §2); use one of: infantry, beasts, '
        "light-vehicles, big-beasts, vehicles, monsters")
    assert found["units[1].training"] == (
        '"veteran" is not a training bracket (PS §1); use one of: elite, regular, recruit')
    assert found["units[0].figures[1].count"] == "must be at least 1, not 0"
    assert found["units[0].figures[1].weapons[1]"] == (
        f'unknown weapon "lasgun"; this force defines: {", ".join(tables.WEAPONS)}, spike')
    assert "did you mean weapons?" in found["units[2].figures[0].wepons"]
    assert len(found) == 7


@pytest.mark.parametrize(("key", "value", "message"), [
    ("shots", 0, "must be at least 1, not 0"),
    ("shots", True, "expected a whole number"),
    ("strength", 0, "must be at least 1, not 0"),
    ("damage", "1", "expected a whole number"),
    ("points", -1, "must be at least 0, not -1"),
    ("range", 0, "must be at least 1, not 0"),
])
def test_ps_bad_weapon_numbers_ps_s5(key: str, value: Any, message: str) -> None:
    data = good()
    data["weapons"]["spike"][key] = value
    found = problems(data)
    assert list(found) == [f"weapons.spike.{key}"]
    assert message in found[f"weapons.spike.{key}"]


def test_ps_missing_weapon_stats_ps_s5() -> None:
    data = good()
    data["weapons"]["spike"] = {"name": "Spike"}
    found = problems(data)
    assert set(found) == {"weapons.spike.shots", "weapons.spike.strength",
                          "weapons.spike.damage"}
    assert found["weapons.spike.strength"] == "missing: strength (PS §5)"


def test_ps_own_weapon_may_not_reuse_a_table_id_ps_s5() -> None:
    data = good()
    data["weapons"]["basic-rifle"] = {"shots": 1, "strength": 3, "damage": 1}
    data["weapons"]["bad id!"] = {"shots": 1, "strength": 1, "damage": 1}
    found = problems(data)
    assert found["weapons.basic-rifle"].startswith(
        '"basic-rifle" is a PS §5 weapon every force has; give your own weapon another id')
    assert "id is 1-40 letters" in found['weapons."bad id!"']


@pytest.mark.parametrize(("key", "value", "message"), [
    ("base_cost", -1, "must be at least 0, not -1"),
    ("base_cost", 2.5, "expected a whole number"),
    ("shields", -1, "must be at least 0, not -1"),
    ("special", -1, "must be at least 0, not -1"),
    ("melee", 3, "expected a melee profile (a table), got the number 3"),
])
def test_ps_bad_unit_numbers_ps_s9(key: str, value: Any, message: str) -> None:
    data = good()
    data["units"][0][key] = value
    found = problems(data)
    assert list(found) == [f"units[0].{key}"] and message in found[f"units[0].{key}"]


@pytest.mark.parametrize("field", ["attacks", "strength", "damage"])
def test_ps_bad_melee_value_has_its_path_ps_s6(field: str) -> None:
    data = good()
    data["units"][0]["melee"][field] = 0
    data["units"][0]["melee"]["reach"] = 1
    found = problems(data)
    assert found[f"units[0].melee.{field}"] == "must be at least 1, not 0"
    assert found["units[0].melee.reach"].startswith("unknown key; allowed here: attacks")


def test_ps_missing_base_cost_is_an_error_ps_s9_ps_r3() -> None:
    data = good()
    del data["units"][0]["base_cost"]
    assert problems(data) == {"units[0].base_cost": (
        "missing: the base cost per model (PS §9; PS-R3 gives one only for Big Beasts "
        "and Light Vehicles)")}


@pytest.mark.parametrize("kind", [t for t in tables.MODEL_TYPES
                                  if tables.TYPES[t].base_cost is not None])
def test_ps_base_cost_defaults_to_12_for_big_beasts_and_light_vehicles_ps_r3(
        kind: str) -> None:
    data = with_unit(type=kind)
    del data["units"][3]["base_cost"]
    del data["units"][3]["melee"]
    assert parse_force(data).units[3].base_cost == 12


@pytest.mark.parametrize("kind", ["beasts", "big-beasts"])
def test_ps_beasts_never_carry_weapons_ps_s9(kind: str) -> None:
    data = with_unit(type=kind, figures=[{"name": "B", "weapons": ["basic-rifle"]}])
    assert problems(data) == {"units[3].figures[0].weapons": (
        f"{tables.TYPES[kind].name} never carry weapons (PS §9)")}


@pytest.mark.parametrize("kind", [t for t in tables.MODEL_TYPES
                                  if tables.TYPES[t].max_weapons])
def test_ps_weapons_per_model_ps_s9(kind: str) -> None:
    most = tables.TYPES[kind].max_weapons
    assert most is not None
    parse_force(with_unit(type=kind, figures=[
        {"name": "M", "weapons": ["basic-rifle"] * most}]))
    data = with_unit(type=kind, figures=[{"name": "M", "weapons": ["basic-rifle"] * (most + 1)}])
    assert problems(data) == {"units[3].figures[0].weapons": (
        f"{most + 1} weapons on one model; {tables.TYPES[kind].name} carry at most "
        f"{most} (PS §9)")}


def test_ps_infantry_carry_any_number_of_weapons_a_model_ps_s9() -> None:
    data = good()
    data["units"][0]["figures"][1]["weapons"] = ["basic-rifle"] * 5
    assert len(parse_force(data).units[0].figures[1].weapons) == 5


@pytest.mark.parametrize("kind", ["infantry", "light-vehicles"])
def test_ps_super_heavy_only_on_vehicles_and_monsters_ps_s9(kind: str) -> None:
    data = with_unit(type=kind, figures=[
        {"name": "M", "weapons": ["basic-rifle", "super-heavy-repeater"]}])
    assert problems(data) == {"units[3].figures[0].weapons[1]": (
        '"Super Heavy Repeater" is super-heavy: only Vehicles and Monsters may carry one '
        "(PS §9)")}


@pytest.mark.parametrize("kind", ["vehicles", "monsters"])
def test_ps_vehicles_and_monsters_carry_super_heavy_weapons_ps_s9(kind: str) -> None:
    data = with_unit(type=kind, figures=[{"name": "M", "weapons": ["super-heavy-weapon"]}])
    assert parse_force(data).units[3].figures[0].weapons == ("super-heavy-weapon",)


def test_ps_own_super_heavy_weapon_is_checked_too_ps_s9_ps_r2() -> None:
    data = good()
    data["weapons"]["spike"]["kind"] = "super-heavy"
    assert problems(data) == {"units[0].figures[0].weapons[1]": (
        '"Spike" is super-heavy: only Vehicles and Monsters may carry one (PS §9)')}


def test_ps_at_most_two_infantry_models_with_heavy_weapons_ps_s9() -> None:
    """PS §9: two models with anything but rifles and repeaters is fine; the line
    that makes it three is the problem."""
    data = good()
    data["units"][0]["figures"].append({"name": "Gunner", "weapons": ["heavy-weapon"]})
    parse_force(data)  # the Sergeant's spike and this one: 2
    data["units"][0]["figures"].append(
        {"name": "Gunner", "count": 2, "weapons": ["basic-rifle", "medium-repeater"]})
    assert problems(data) == {"units[0].figures[3]": (
        "with this line 4 models of the unit carry something other than rifles and "
        "repeaters; an infantry unit may have at most 2 (PS §9)")}


def test_ps_rifle_kind_weapons_do_not_count_as_heavy_ps_s9() -> None:
    data = good()
    data["units"][0]["figures"][1]["weapons"] = ["advanced-repeater", "basic-repeater"]
    data["units"][0]["figures"][1]["count"] = 9
    parse_force(data)


@pytest.mark.parametrize(("kind", "count", "message"), [
    ("vehicles", 2, "a unit of Vehicles is exactly 1 model (PS §1), not 2"),
    ("monsters", 3, "a unit of Monsters is exactly 1 model (PS §1), not 3"),
    ("big-beasts", 4, "a unit of Big Beasts has 1 to 3 models (PS-R3), not 4"),
    ("light-vehicles", 4, "a unit of Light Vehicles has 1 to 3 models (PS-R3), not 4"),
])
def test_ps_models_per_unit_ps_s1_ps_r3(kind: str, count: int, message: str) -> None:
    data = with_unit(type=kind, figures=[{"name": "M", "count": count}])
    assert problems(data) == {"units[3].figures": message}
    data["units"][3]["figures"][0]["count"] = tables.TYPES[kind].models[1]
    parse_force(data)


@pytest.mark.parametrize("kind", tables.MODEL_TYPES)
def test_ps_shields_never_better_than_2_up_ps_s9(kind: str) -> None:
    most = tables.max_shields(kind)
    data = with_unit(type=kind, shields=most)
    assert parse_force(data).units[3].save == tables.BEST_SAVE
    data["units"][3]["shields"] = most + 1
    stats = tables.TYPES[kind]
    assert problems(data) == {"units[3].shields": (
        f"{stats.name} save on {stats.save}+ and Advanced Shields never make a save "
        f"better than 2+ (PS §9): at most {most}, not {most + 1}")}


def test_ps_special_combat_at_most_3_ps_s9() -> None:
    data = good()
    data["units"][0]["special"] = 3
    assert parse_force(data).units[0].special == 3
    data["units"][0]["special"] = 4
    assert problems(data) == {"units[0].special": (
        "special combat may be bought at most 3 times (PS §9), not 4")}


def test_ps_unknown_keys_are_errors_at_every_level_ps_s9() -> None:
    data = good()
    data["cost"] = 100
    data["weapons"]["spike"]["class"] = "heavy"
    data["units"][0]["move"] = 9
    data["units"][0]["melee"]["power"] = 2
    data["units"][0]["figures"][0]["general"] = True
    found = problems(data)
    assert set(found) == {"cost", "weapons.spike.class", "units[0].move",
                          "units[0].melee.power", "units[0].figures[0].general"}
    assert found["cost"] == "unknown key; allowed here: name, ruleset, weapons, units"
    assert found["weapons.spike.class"] == (
        "unknown key; allowed here: name, shots, strength, damage, points, range, kind")
    assert found["units[0].figures[0].general"] == (
        "unknown key; allowed here: name, count, weapons")


def test_ps_structure_errors_ps_s9() -> None:
    assert "at least one unit" in problems({**good(), "units": []})["units"]
    assert "expected the force's weapons" in problems({**good(), "weapons": []})["weapons"]
    data = good()
    data["units"][0]["figures"] = []
    data["units"][1] = "tank"
    data["weapons"]["spike"] = 3
    found = problems(data)
    assert found["units[0].figures"] == "a unit needs at least one figure"
    assert found["units[1]"] == 'expected a unit (a table), got the text "tank"'
    assert found["weapons.spike"] == "expected a weapon (a table), got the number 3"
    with pytest.raises(InvalidInput):
        parse_force(["not", "a", "table"])  # type: ignore[arg-type]


def test_ps_other_ruleset_and_hostile_text_ps_s9() -> None:
    data = good()
    data["ruleset"] = "classic"
    data["units"][0]["name"] = "Evil\x1b[2J"
    data["units"][0]["figures"][0]["weapons"] = ["\x1b]52;c;x\x07"]
    found = problems(data)
    assert "plasmashok reader" in found["ruleset"]
    assert "U+001B" in found["units[0].name"]
    assert "\\u001b" in found["units[0].figures[0].weapons[0]"]
    assert "\x1b" not in "".join(found.values())


def test_ps_loader_locates_lines_ps_s9() -> None:
    text = PS_FORCES[0].read_text()
    with pytest.raises(InvalidInput) as exc:
        force_from_text(text.replace('training = "recruit"', 'training = "green"'), "x.toml")
    (p,) = exc.value.problems
    assert p.path.endswith(".training") and p.line is not None
    assert text.splitlines()[p.line - 1] == 'training = "recruit"'


# --- warnings, never errors --------------------------------------------------------


def test_ps_no_melee_profile_is_a_warning_naming_the_fields_ps_r1() -> None:
    data = good()
    del data["units"][0]["melee"]
    assert warnings_of(data) == {"units[0].melee": (
        "no melee profile: the force file gives no melee.attacks, melee.strength, "
        "melee.damage, so this unit cannot attack in melee (PS-R1)")}
    data = good()
    del data["units"][1]["melee"]["strength"]
    assert warnings_of(data) == {"units[1].melee": (
        "no melee profile: the force file gives no melee.strength, so this unit cannot "
        "attack in melee (PS-R1)")}


def test_ps_partial_melee_on_a_seed_type_says_how_to_get_ps_r1s_profile() -> None:
    data = good()
    data["units"][2]["melee"] = {"attacks": 3}
    assert parse_force(data).units[2].melee is None
    assert warnings_of(data) == {"units[2].melee": (
        "no melee profile: the force file gives no melee.strength, melee.damage, so "
        "this unit cannot attack in melee (PS-R1); leave the melee table out to use "
        "PS-R1's Light Vehicles profile 2/2/2")}


def test_ps_melee_overriding_the_profile_is_a_warning_ps_r1() -> None:
    data = good()
    data["units"][2]["melee"] = {"attacks": 3, "strength": 2, "damage": 2}
    assert parse_force(data).units[2].melee == Melee(3, 2, 2)
    assert warnings_of(data) == {"units[2].melee": (
        "3/2/2 overrides PS-R1's Light Vehicles profile 2/2/2; the file's profile is "
        "used")}
    data["units"][2]["melee"] = {"attacks": 2, "strength": 2, "damage": 2}
    assert warnings_of(data) == {}  # the same as PS-R1's: nothing to say


def test_ps_custom_weapon_points_off_the_table_check_is_a_warning_ps_s5() -> None:
    data = good()
    data["weapons"]["spike"]["points"] = 3
    f = parse_force(data)
    assert f.weapons["spike"].points == 3  # the file's price is used
    assert warnings_of(data) == {"weapons.spike.points": (
        '"Spike" costs 3 points, but shots x strength x damage = 1 x 2 x 1 = 2 (PS §5); '
        "the file's 3 is used")}


def test_ps_variable_shot_weapons_have_no_points_check_ps_s5() -> None:
    data = good()
    data["weapons"]["spore"] = {"shots": "radius", "strength": 2, "damage": 1,
                                "points": 99}
    data["units"][2]["figures"][0]["weapons"] = ["spore"]
    assert warnings_of(data) == {}


def test_ps_base_cost_other_than_12_is_a_warning_ps_r3() -> None:
    data = good()
    data["units"][2]["base_cost"] = 15
    assert parse_force(data).units[2].base_cost == 15
    assert warnings_of(data) == {"units[2].base_cost": (
        "Light Vehicles cost 12 points a model (PS-R3); the file's 15 is used")}
    data["units"][2]["base_cost"] = 12
    assert warnings_of(data) == {}


def test_ps_s9_force_points_overspent_is_an_error() -> None:
    """PS §9: infantry and beast units unlock 1 each; light vehicles and big beasts
    cost 1, vehicles and monsters 2. The good force: 2 unlocked, 1 used; a monster
    more needs 3: refused, giving both numbers."""
    data = good()
    assert force_points(parse_force(data)) == (2, 1)
    data["units"].append(unit(type="monsters"))
    assert problems(data) == {"units": (
        "the light vehicle, big beast, vehicle and monster units need 3 force points, "
        "but the infantry and beast units unlock only 2 (PS §9)")}
    data["units"].append(unit(type="beasts", name="Pack"))
    assert force_points(parse_force(data)) == (3, 3)
    assert warnings_of(data) == {}


def test_ps_shared_oddities_are_warnings_ps_s9() -> None:
    data = good()
    data["weapons"]["spare"] = {"shots": 1, "strength": 1, "damage": 1}
    data["units"].append({**data["units"][1]})
    assert warnings_of(data) == {
        "weapons.spare": "defined but no figure carries it",
        "units[3].name": '"Hounds" is also the name of units[1]; players tell units '
                         "apart by name",
    }


def test_ps_template_parses_cleanly_ps_s9() -> None:
    loaded = force_from_text(TEMPLATE, "template.toml")
    assert loaded.ruleset.id == "plasmashok" and loaded.warnings == []
    assert registry.get("plasmashok").force_template() == TEMPLATE
    assert max(len(line) for line in TEMPLATE.splitlines()) <= 80


# --- the shipped forces ----------------------------------------------------------------


@pytest.mark.parametrize("path", PS_FORCES, ids=[p.name for p in PS_FORCES])
def test_ps_shipped_ps_forces_load_cleanly_ps_s9(path: Path) -> None:
    loaded = load_force(path)
    assert loaded.ruleset.id == "plasmashok" and loaded.warnings == []
    report = loaded.ruleset.points(loaded.force)
    assert report is not None and report.warnings == ()
    assert 150 <= report.total <= 300
    assert path.read_text().startswith("#")
    units = loaded.force.units
    assert 4 <= len(units) <= 6
    unlocked, used = force_points(loaded.force)
    assert used <= unlocked  # PS §9
    assert all(u.melee is not None for u in units)  # PS-R1: every unit can fight


def test_ps_s9_iron_choir_comment_says_force_points_are_errors() -> None:
    """PS §9 (seed deathzap-plasmashok.txt: "Each infantry or beast unit you take
    unlocks 1 force point. For 1 force point you can add a light vehicle or big beast
    unit to your force. For 2 force points you can add 1 monster or vehicle unit"):
    the file's comment calls the limit an error, and it is one: the Iron Choir's three
    infantry units unlock its light vehicle and vehicle exactly; without one of them,
    `check` refuses the force."""
    path = FORCES / "ps-iron-choir.toml"
    text = path.read_text()
    header = " ".join(line.lstrip("# ") for line in text.splitlines() if line.startswith("#"))
    assert "Force points are errors too" in header and "warned about" not in header
    data = tomllib.loads(text)
    assert force_points(parse_force(data)) == (3, 3)
    infantry = next(i for i, u in enumerate(data["units"]) if u["type"] == "infantry")
    del data["units"][infantry]
    with pytest.raises(InvalidInput) as exc:
        force_from_text(tomli_w.dumps(data), path.name)
    assert [p.message for p in exc.value.problems] == [
        "the light vehicle, big beast, vehicle and monster units need 3 force points, "
        "but the infantry and beast units unlock only 2 (PS §9)"]


def test_ps_shipped_ps_forces_cover_the_rules_ps_s2_s9() -> None:
    """Between them: every PS §2 type, all three brackets (PS §3), a spike (PS-R2),
    special combat (PS §4) and Advanced Shields (PS §9)."""
    forces = [load_force(p).force for p in PS_FORCES]
    assert len(forces) == 2
    units = [u for f in forces for u in f.units]
    assert {u.type for u in units} == set(tables.MODEL_TYPES)
    assert {u.training for u in units} == set(tables.BRACKETS)
    assert any(u.special for u in units) and any(u.shields for u in units)
    spikes = [w for f in forces for w in f.weapons.values() if w.name == "Spike"]
    assert spikes and spikes[0].range == 6 and spikes[0].id not in tables.WEAPONS
    totals = [sum(f.unit_cost(u) for u in f.units) for f in forces]
    assert max(totals) <= 1.25 * min(totals)  # roughly matched


# --- help (formatted from the tables) ---------------------------------------------------


def test_ps_help_sections_cover_the_rules_ps_s1_to_s9() -> None:
    assert registry.get("plasmashok").help_sections() == HELP_SECTIONS
    text = "\n".join(body for _, body in HELP_SECTIONS)
    titles = " ".join(title for title, _ in HELP_SECTIONS)
    assert all(title and len(body) > 100 for title, body in HELP_SECTIONS)
    for word in ("Set-up", "turn", "Special combat", "Shooting", "Melee",
                 "End of melee", "Morale", "Winning", "Rulings"):
        assert word in titles
    for rule in (*(f"PS §{n}" for n in range(1, 10)), "PS-R1", "PS-R2", "PS-R3"):
        assert rule in titles + text
    shooting = dict(HELP_SECTIONS)["Shooting (PS §5)"]
    for step in ("1. Attack dice", "2. Blocking dice", "3. Strength dice",
                 "4. Size dice", "5. Shield saves"):
        assert step in shooting
    assert text.count("App reading") >= 8
    # table lines stay narrow, like Classic's help
    for title in ("Model types (PS §2, PS-R1)", "Weapons (PS §5, PS-R2)"):
        rows = [line for line in dict(HELP_SECTIONS)[title].splitlines()
                if line.startswith("  ")]
        assert rows and max(len(line) for line in rows) <= 78


def test_ps_help_tables_come_from_tables_py_ps_s2_s5() -> None:
    body = dict(HELP_SECTIONS)
    types = body["Model types (PS §2, PS-R1)"].splitlines()
    for m in tables.TYPES.values():
        row = next(line for line in types if line.strip().startswith(m.name + " "))
        melee = (f"{m.melee.attacks}/{m.melee.strength}/{m.melee.damage}" if m.melee
                 else "file")
        assert row.split()[-6:] == [f'{m.move}"', str(m.defence), str(m.size),
                                    f"{m.save}+", str(m.wounds), melee]
    weapons = body["Weapons (PS §5, PS-R2)"].splitlines()
    for w in tables.WEAPONS.values():
        row = next(line for line in weapons if line.strip().startswith(w.name + " "))
        assert row.split()[-4:] == [str(w.strength), str(w.damage), str(w.points), w.kind]

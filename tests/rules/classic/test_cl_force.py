"""Deathzap Classic force files (CL §1, §2, §5, CL-R6): the shape, every error with
its path, the warnings, the shipped ``forces/cl-*.toml``, the counts shown in place
of points, and the help text formatted from the tables."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from deathzap_tui.forcefile import force_from_text, load_force
from deathzap_tui.rules import registry
from deathzap_tui.rules.classic import tables
from deathzap_tui.rules.classic.force import force_counts, force_warnings, parse_force
from deathzap_tui.rules.classic.help import HELP_SECTIONS
from deathzap_tui.rules.classic.model import Figure, Weapon
from deathzap_tui.rules.problems import InvalidInput

FORCES = Path(__file__).resolve().parents[3] / "forces"
CL_FORCES = sorted(FORCES.glob("cl-*.toml"))
CLASSES = ", ".join(tables.WEAPONS)


def good() -> dict[str, Any]:
    return {
        "name": "Test Force", "ruleset": "classic",
        "weapons": {"rail-rifle": {"name": "Rail Rifle", "class": "advanced"},
                    "lobber": {"class": "radius"}},
        "units": [
            {"name": "Rifle Squad", "type": "infantry",
             "figures": [{"name": "Sergeant", "weapons": ["rail-rifle"], "general": True},
                         {"name": "Trooper", "count": 5, "weapons": ["basic"]},
                         {"name": "Hound", "count": 2}]},
            {"name": "Guns", "type": "vehicles",
             "figures": [{"name": "Tank", "weapons": ["heavy", "lobber", "basic"]}]},
        ],
    }


def problems(data: Any) -> dict[str, str]:
    with pytest.raises(InvalidInput) as exc:
        parse_force(data)
    return {p.path: p.message for p in exc.value.problems}


def warnings_of(data: dict[str, Any]) -> dict[str, str]:
    return {p.path: p.message for p in force_warnings(parse_force(data))}


# --- the shape ---------------------------------------------------------------------


def test_the_shape_parses_cl_s1_s2_s5() -> None:
    data = good()
    f = parse_force(data)
    assert f.name == "Test Force" and f.ruleset == "classic"
    # CL §5: the five classes are always there, by id, then the force's own guns.
    assert list(f.weapons) == [*tables.WEAPONS, "rail-rifle", "lobber"]
    assert f.weapons["auto-heavy"] == Weapon("auto-heavy", "Auto-heavy", "auto-heavy")
    assert f.weapons["rail-rifle"] == Weapon("rail-rifle", "Rail Rifle", "advanced")
    assert f.weapons["lobber"].name == "Lobber" and f.weapons["lobber"].table.radius
    squad, guns = f.units
    assert squad.type == "infantry" and squad.stats.move == tables.TYPES["infantry"].move
    assert squad.figures[0] == Figure("Sergeant", ("rail-rifle",), general=True)
    assert [fig.name for fig in squad.figures] == ["Sergeant"] + ["Trooper"] * 5 + ["Hound"] * 2
    assert squad.figures[-1].weapons == () and not squad.figures[-1].general
    assert guns.figures[0].weapons == ("heavy", "lobber", "basic")
    assert f.source == data and f.source is not data
    assert force_warnings(f) == []


def test_weapons_table_and_ruleset_key_are_optional() -> None:
    data = good()
    del data["weapons"]
    data["units"][0]["figures"][0]["weapons"] = ["advanced"]
    data["units"][1]["figures"][0]["weapons"] = ["radius"]
    f = parse_force(data)
    assert list(f.weapons) == list(tables.WEAPONS)
    del data["ruleset"]
    assert parse_force(data).ruleset == "classic"


# --- errors, all at once, with paths -----------------------------------------------


def test_all_errors_at_once_with_paths() -> None:
    data = good()
    data["weapons"]["rail-rifle"]["class"] = "laser"
    data["units"][0]["type"] = "cavalry"
    data["units"][0]["figures"][1]["count"] = 0
    data["units"][0]["figures"][1]["weapons"] = ["basic", "lasgun"]
    data["units"][1]["figures"][0]["wepons"] = []
    found = problems(data)
    assert found["weapons.rail-rifle.class"] == (
        f'"laser" is not a weapon class (CL §5); use one of: {CLASSES}')
    assert found["units[0].type"] == (
        f'"cavalry" is not a figure type (CL §2); use one of: '
        f'{", ".join(tables.FIGURE_TYPES)}')
    assert found["units[0].figures[1].count"] == "must be at least 1, not 0"
    assert found["units[0].figures[1].weapons[1]"] == (
        f'unknown weapon "lasgun"; this force defines: {CLASSES}, rail-rifle, lobber')
    assert "did you mean weapons?" in found["units[1].figures[0].wepons"]
    assert len(found) == 5


def test_missing_and_ill_typed_fields() -> None:
    data = good()
    del data["name"]
    del data["weapons"]["lobber"]["class"]
    data["weapons"]["rail-rifle"]["name"] = 7
    del data["units"][0]["type"]
    data["units"][0]["figures"][0]["general"] = "yes"
    data["units"][0]["figures"][1]["count"] = "5"
    data["units"][0]["figures"][2]["weapons"] = "basic"
    data["units"][1]["name"] = ""
    del data["units"][1]["figures"]
    found = problems(data)
    assert found["name"] == "missing: a name"
    assert found["weapons.lobber.class"] == f"missing: weapon class (CL §5): one of {CLASSES}"
    assert found["weapons.rail-rifle.name"] == "expected a name (text), got the number 7"
    assert found["units[0].type"].startswith("missing: figure type (CL §2): one of infantry")
    assert found["units[0].figures[0].general"] == 'expected true or false, got the text "yes"'
    assert "got the text" in found["units[0].figures[1].count"]
    assert found["units[0].figures[2].weapons"] == (
        'expected an array (weapon ids), got the text "basic"')
    assert found["units[1].name"] == "must not be empty"
    assert found["units[1].figures"] == "missing: the unit's figures"


def test_structure_errors() -> None:
    assert "at least one unit" in problems({**good(), "units": []})["units"]
    assert "expected an array" in problems({**good(), "units": {"a": 1}})["units"]
    assert "expected the force's weapons" in problems({**good(), "weapons": []})["weapons"]
    data = good()
    data["units"][0]["figures"] = []
    data["units"][1] = "tank"
    found = problems(data)
    assert found["units[0].figures"] == "a unit needs at least one figure"
    assert found["units[1]"] == 'expected a unit (a table), got the text "tank"'
    with pytest.raises(InvalidInput):
        parse_force(["not", "a", "table"])  # type: ignore[arg-type]


def test_unknown_keys_are_errors_at_every_level() -> None:
    data = good()
    data["cost"] = 100
    data["weapons"]["lobber"]["range"] = 36
    data["units"][0]["move"] = 9
    data["units"][0]["figures"][0]["leader"] = True
    found = problems(data)
    assert set(found) == {"cost", "weapons.lobber.range", "units[0].move",
                          "units[0].figures[0].leader"}
    assert found["cost"] == "unknown key; allowed here: name, ruleset, weapons, units"
    assert found["weapons.lobber.range"] == "unknown key; allowed here: name, class"


def test_own_weapon_may_not_shadow_a_class_id_cl_s5() -> None:
    data = good()
    data["weapons"]["heavy"] = {"name": "Big Gun", "class": "basic"}
    data["weapons"]["bad id!"] = {"class": "basic"}
    found = problems(data)
    assert found["weapons.heavy"] == (
        '"heavy" is a weapon class every force has; give your own weapon another id '
        f"(classes: {CLASSES})")
    assert 'weapons."bad id!"' in found and "id is 1-40 letters" in found['weapons."bad id!"']


def test_one_general_per_force_cl_s1() -> None:
    data = good()
    data["units"][1]["figures"][0]["general"] = True
    data["units"][0]["figures"][1]["general"] = True  # a line of 5 generals
    with pytest.raises(InvalidInput) as exc:
        parse_force(data)
    second = "a force has one general (CL §1); units[0].figures[0].general already names one"
    assert [(p.path, p.message) for p in exc.value.problems] == [
        ("units[0].figures[1].general", "the general is one figure, this line is 5; give "
         "the general a line of its own (CL §1)"),
        ("units[0].figures[1].general", second),
        ("units[1].figures[0].general", second),
    ]
    data = good()
    data["units"][0]["figures"][0]["general"] = False
    data["units"][0]["figures"][1].update(count=1, general=True)
    assert parse_force(data).units[0].figures[1].general  # count = 1 is fine


def test_other_ruleset_and_hostile_text() -> None:
    data = good()
    data["ruleset"] = "deathzap3"
    data["units"][0]["name"] = "Evil\x1b[2J"
    data["units"][0]["figures"][0]["weapons"] = ["\x1b]52;c;x\x07"]
    found = problems(data)
    assert "classic reader" in found["ruleset"]
    assert "U+001B" in found["units[0].name"]
    assert "\\u001b" in found["units[0].figures[0].weapons[0]"]
    assert "\x1b" not in "".join(found.values())


def test_loader_locates_lines() -> None:
    text = CL_FORCES[0].read_text()
    with pytest.raises(InvalidInput) as exc:
        force_from_text(text.replace('type = "beasts"', 'type = "dogs"'), "x.toml")
    (p,) = exc.value.problems
    assert p.path.endswith(".type") and p.line is not None
    assert text.splitlines()[p.line - 1] == 'type = "beasts"'


# --- warnings, never errors --------------------------------------------------------


@pytest.mark.parametrize("kind", tables.ALWAYS_PANICKED_ALONE)
def test_a_lone_figure_of_these_types_is_always_panicked_cl_s4_s7(kind: str) -> None:
    data = good()
    data["units"][1]["type"] = kind
    assert warnings_of(data) == {"units[1].figures": (
        f"a lone {tables.TYPES[kind].name} figure is always panicked and always fails its "
        "morale test until it joins a friendly unit of its type (CL §4, §7)")}


@pytest.mark.parametrize("kind", [k for k in tables.FIGURE_TYPES
                                  if k not in tables.ALWAYS_PANICKED_ALONE])
def test_other_types_may_stand_alone(kind: str) -> None:
    data = good()
    data["units"][1]["type"] = kind
    assert warnings_of(data) == {}


def test_no_general_is_a_warning_set_up_asks_cl_s1() -> None:
    data = good()
    del data["units"][0]["figures"][0]["general"]
    assert warnings_of(data) == {"units": "no figure is marked general = true; set-up will "
                                 "ask which figure is the general (CL §1)"}


def test_oddities_are_warnings() -> None:
    data = good()
    data["weapons"]["spare"] = {"class": "heavy"}
    data["weapons"]["lobber"]["name"] = "basic"
    data["units"].append(copy.deepcopy(data["units"][1]))
    data["units"][2]["figures"][0]["weapons"] = ["heavy"]
    found = warnings_of(data)
    assert found == {
        "weapons.spare": "defined but no figure carries it",
        "weapons.lobber.name": '"basic" is also the name of the weapon "basic"; players '
                               "tell guns apart by name",
        "units[2].name": '"Guns" is also the name of units[1]; players tell units apart '
                         "by name",
    }
    # warnings never stop a force from loading
    assert parse_force(data).units[2].name == "Guns"


# --- the counts shown in place of points (CL-R6) -------------------------------------


def test_force_counts_figures_per_type_then_guns_per_class_cl_r6() -> None:
    f = parse_force(good())
    expected = (("Infantry", 8), ("Vehicles", 1), ("Basic guns", 6), ("Advanced guns", 1),
                ("Heavy guns", 1), ("Radius guns", 1))
    assert force_counts(f) == expected
    ruleset = registry.get("classic")
    assert ruleset.points(f) is None  # CL-R6
    assert ruleset.force_counts(f) == expected  # through the plugin's force module


def test_force_counts_follow_the_type_table_order() -> None:
    data = good()
    data["units"].reverse()
    data["units"].append({"name": "Horde", "type": "beasts",
                          "figures": [{"name": "Hound", "count": 3}]})
    types = [label for label, _ in force_counts(parse_force(data))][:3]
    assert types == ["Infantry", "Beasts", "Vehicles"]


def test_a_ruleset_without_the_hook_counts_nothing() -> None:
    ch = load_force(next(FORCES.glob("ch-*.toml")))
    assert ch.ruleset.force_counts(ch.force) == ()
    dz3 = load_force(FORCES / "mortans-men.toml")
    assert dz3.ruleset.force_counts(dz3.force) == ()


# --- the shipped forces ----------------------------------------------------------------


@pytest.mark.parametrize("path", CL_FORCES, ids=[p.name for p in CL_FORCES])
def test_shipped_cl_forces_load_cleanly(path: Path) -> None:
    loaded = load_force(path)
    assert loaded.ruleset.id == "classic" and loaded.warnings == []
    assert loaded.ruleset.points(loaded.force) is None  # CL-R6
    assert path.read_text().startswith("#")
    units = loaded.force.units
    assert 6 <= len(units) <= 9
    assert sum(f.general for u in units for f in u.figures) == 1  # CL §1


def test_shipped_cl_forces_cover_every_type_and_class() -> None:
    forces = [load_force(p).force for p in CL_FORCES]
    assert len(forces) >= 2
    types = {u.type for f in forces for u in f.units}
    kinds = {f.weapons[w].kind for f in forces for u in f.units for fig in u.figures
             for w in fig.weapons}
    assert types == set(tables.FIGURE_TYPES) and kinds == set(tables.WEAPONS)
    assert all(len(f.weapons) > len(tables.WEAPONS) for f in forces)  # own named guns too
    sizes = [sum(len(u.figures) for u in f.units) for f in forces]
    assert max(sizes) <= 1.5 * min(sizes)  # roughly matched


# --- help (formatted from the tables) ---------------------------------------------------


def test_help_sections_cover_the_rules() -> None:
    assert registry.get("classic").help_sections() == HELP_SECTIONS
    text = "\n".join(body for _, body in HELP_SECTIONS)
    titles = " ".join(title for title, _ in HELP_SECTIONS)
    assert len(HELP_SECTIONS) >= 10
    assert all(title and len(body) > 100 for title, body in HELP_SECTIONS)
    for word in ("Impetus", "Movement", "Rallying", "Shooting", "Melee", "Morale",
                 "Winning", "Rulings"):
        assert word in titles
    for rule in ("CL §1", "CL §2", "CL §3", "CL §4", "CL §5", "CL §6", "CL §7", "CL §8",
                 *(f"CL-R{n}" for n in range(1, 7))):
        assert rule in titles + text


def test_help_and_options_say_what_the_engine_does_cl_4_cl_8() -> None:
    """The rulings on merging (CL §4) and the basic game's end (CL §8) read the same
    in the help, the option text and the engine."""
    from deathzap_tui.rules.classic.options import OPTION_SPECS

    body = dict(HELP_SECTIONS)
    merging = body["Rallying by merging (CL §4)"]
    assert "A unit that is not panicked may move into a panicked friendly unit" in merging
    assert "a panicked unit cannot move to join a steady one" in merging
    assert "Joining a steady unit rolls as above" in merging
    assert "Joining a panicked unit rolls nothing: the new unit is panicked" in merging
    winning = body["Winning (CL §8, CL-R5)"]
    assert "the moment the enemy has no unit left in play that is not panicked" in winning
    assert "both sides reach it at once the game is a draw" in winning
    game = next(o for o in OPTION_SPECS if o.key == "game")
    assert "wins the moment the enemy has no unit in play that is not panicked" in game.help
    assert "once a side has no unit left" in game.help


def test_help_tables_come_from_tables_py_cl_r3() -> None:
    body = dict(HELP_SECTIONS)
    weapons = body["Weapons and saves (CL §5, CL-R3)"].splitlines()
    for w in tables.WEAPONS.values():
        row = next(line.split() for line in weapons if line.split()[:1] == [w.name])
        saves = ["safe" if s == tables.SAFE else "dead" if s == tables.DEAD else f"{s}+"
                 for s in (w.save[g] for g in tables.SAVE_GROUPS)]
        assert row == [w.name, f'{w.range}"', *(f"{w.to_hit[c]}+" for c in tables.COVERS),
                       *saves]
    for names in tables.SAVE_GROUP_NAMES.values():
        assert names in body["Weapons and saves (CL §5, CL-R3)"]
    types = body["Figure types (CL §2)"]
    for ft in tables.TYPES.values():
        assert f'{ft.name}  ' in types
        line = next(x for x in types.splitlines() if x.strip().startswith(ft.name + " "))
        assert line.split()[-4:] == [f'{ft.move}"', str(ft.melee_attacks),
                                     str(ft.melee_power), f"{ft.save}+"]

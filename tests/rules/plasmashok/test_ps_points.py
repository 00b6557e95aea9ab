"""Deathzap Plasmashok points (PS §9): hand-computed totals, the per-unit breakdown
and the force points in the notes."""

from __future__ import annotations

from ps_fixtures import MELEE_TABLE, force_data

from deathzap_tui.rules import registry
from deathzap_tui.rules.plasmashok.force import parse_force
from deathzap_tui.rules.plasmashok.points import points_report, unit_points
from deathzap_tui.rules.plasmashok.state import new_state


def test_ps_s9_unit_costs_by_hand() -> None:
    """PS §9: model = base + weapons + Advanced Shields; unit = models + special x 5.
    Rifles: Sergeant 5 + 4 + 2 + 2 = 13, Troopers 4 x (5 + 2 + 2) = 36, special 5:
    54. Hounds: 3 x 3 = 9. Skiffs (PS-R3 base 12): 2 x (12 + 12 + 10) = 68."""
    report = points_report(parse_force(force_data()))
    assert [(u.name, u.points) for u in report.units] == [
        ("Rifles", 54), ("Hounds", 9), ("Skiffs", 68)]
    assert report.total == 131
    assert report.command_points == 0  # PS has no command points
    assert report.ruleset == "plasmashok" and report.force == "Test Force"
    assert report.warnings == ()


def test_ps_s9_breakdown_columns_add_up() -> None:
    """The columns ``deathzap points`` shows: base, weapons, Advanced Shields (per
    model per level, 2 for infantry) and special combat (5 a level, per unit)."""
    force = parse_force(force_data())
    rifles = unit_points(force, force.units[0])
    b = rifles.breakdown
    assert [k for k in b if k != "models"] == ["base", "weapons", "shields", "special"]
    assert b["base"] == {"count": 5, "each": 5, "points": 25}
    assert b["weapons"]["points"] == 14
    assert b["weapons"]["items"] == {
        "advanced-rifle": {"name": "Advanced Rifle", "count": 1, "each": 4, "points": 4},
        "spike": {"name": "Spike", "count": 1, "each": 2, "points": 2},
        "basic-rifle": {"name": "Basic Rifle", "count": 4, "each": 2, "points": 8},
    }
    assert b["shields"] == {"count": 5, "each": 2, "points": 10}
    assert b["special"] == {"count": 1, "each": 5, "points": 5}
    assert sum(b[k]["points"] for k in ("base", "weapons", "shields", "special")) == 54


def test_ps_s9_breakdown_per_model_kind() -> None:
    """Each distinct model (name and weapons) once, with its count, its cost and the
    parts of that cost."""
    force = parse_force(force_data())
    models = unit_points(force, force.units[0]).breakdown["models"]
    assert models == [
        {"name": "Sergeant", "count": 1, "each": 13, "points": 13, "base": 5,
         "weapons": [{"id": "advanced-rifle", "name": "Advanced Rifle", "points": 4},
                     {"id": "spike", "name": "Spike", "points": 2}],
         "shields": 2},
        {"name": "Trooper", "count": 4, "each": 9, "points": 36, "base": 5,
         "weapons": [{"id": "basic-rifle", "name": "Basic Rifle", "points": 2}],
         "shields": 2},
    ]


def test_ps_same_name_other_weapons_is_another_kind_same_kind_merges_ps_s9() -> None:
    data = force_data()
    data["units"][0]["figures"] += [{"name": "Trooper", "weapons": ["basic-repeater"]},
                                    {"name": "Trooper", "weapons": ["basic-rifle"]}]
    force = parse_force(data)
    kinds = unit_points(force, force.units[0]).breakdown["models"]
    assert [(k["name"], k["count"]) for k in kinds] == [
        ("Sergeant", 1), ("Trooper", 5), ("Trooper", 1)]
    assert kinds[2]["weapons"][0]["id"] == "basic-repeater"


def test_ps_s9_big_model_shields_and_special_by_hand() -> None:
    """PS §9: Advanced Shields on a monster are 72 a level per model; special combat
    2 levels = 10. Monster 40 + Radius Weapon 30 + 72 = 142, unit 152; the save
    improves from 3+ to 2+."""
    data = force_data()
    data["units"] = [{"name": "Hive", "type": "monsters", "training": "elite",
                      "base_cost": 40, "shields": 1, "special": 2, "melee": dict(MELEE_TABLE),
                      "figures": [{"name": "Mother", "weapons": ["radius-weapon"]}]},
                     data["units"][1], data["units"][1] | {"name": "Pack"}]
    force = parse_force(data)
    hive = unit_points(force, force.units[0])
    assert hive.points == 152
    assert hive.breakdown["shields"] == {"count": 1, "each": 72, "points": 72}
    assert hive.breakdown["models"][0]["each"] == 142
    assert force.units[0].save == 2


def test_ps_model_value_is_what_the_state_counts_lost_ps_s8() -> None:
    """A model's cost in the breakdown is the value its side loses when it dies (PS §8,
    app reading 3): special combat is in the unit's points, not in any model."""
    force = parse_force(force_data())
    state = new_state(force, force, {}, seed=1)
    for unit, ustate in zip(force.units, state.units["red"], strict=True):
        kinds = unit_points(force, unit).breakdown["models"]
        assert sorted(f.cost for f in ustate.figures) == sorted(
            k["each"] for k in kinds for _ in range(k["count"]))
    assert state.worth["red"] == 131 - 5


def test_ps_force_points_note_ps_s9() -> None:
    report = points_report(parse_force(force_data()))
    assert report.notes == ("Force points (PS §9): 2 unlocked by infantry/beast units, 1 "
                            "used by light vehicle, big beast, vehicle and monster units.",)


def test_ps_warnings_are_in_the_report_located_ps_s5_s9() -> None:
    data = force_data()
    data["weapons"]["spike"]["points"] = 5
    data["weapons"]["spike"]["points"] = 1
    data["weapons"]["spike"]["damage"] = 2
    report = points_report(parse_force(data))
    assert report.warnings == (
        'weapons.spike.points: "Spike" costs 1 point, but shots x strength x damage = '
        "1 x 2 x 2 = 4 (PS §5); the file's 1 is used",
    )


def test_ps_the_plugin_reports_points_ps_s9() -> None:
    force = parse_force(force_data())
    assert registry.get("plasmashok").points(force) == points_report(force)

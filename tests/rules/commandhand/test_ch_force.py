"""Command Hand force files (CH §7, CH-R4): shape, errors with paths, warnings, the
shipped ``forces/ch-*.toml`` and the ``check`` / ``points`` commands."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from deathzap_tui.cli import main
from deathzap_tui.forcefile import force_from_text, load_force
from deathzap_tui.rules.commandhand.force import force_warnings, parse_force
from deathzap_tui.rules.problems import InvalidInput

FORCES = Path(__file__).resolve().parents[3] / "forces"
CH_FORCES = sorted(FORCES.glob("ch-*.toml"))


def good() -> dict[str, Any]:
    return {
        "name": "Test Force", "ruleset": "command-hand", "command_rating": 3,
        "weapons": {
            "rifle": {"shots_near": 1, "shots_far": 1,
                      "to_damage": {"open": 4, "soft": 5, "hard": 6}},
            "bomb": {"name": "Bomb", "shots_near": 1, "shots_far": 0,
                     "to_damage": {"open": 5, "soft": 5, "hard": 6}, "rules": ["explosive"]},
        },
        "units": [{"name": "Squad", "run": 8, "walk": 4, "melee_attacks": 1,
                   "melee_damage": 4, "shields": 3, "recharge": 1,
                   "figures": [{"name": "Trooper", "count": 4, "weapons": ["rifle"]},
                               {"name": "Bomber", "weapons": ["bomb"]}]}],
    }


def problems(data: Any) -> dict[str, str]:
    with pytest.raises(InvalidInput) as exc:
        parse_force(data)
    return {p.path: p.message for p in exc.value.problems}


def test_the_shape_parses_ch_s7() -> None:
    f = parse_force(good())
    assert f.command_rating == 3 and f.ruleset == "command-hand"
    assert f.weapons["rifle"].name == "Rifle" and f.weapons["bomb"].explosive
    assert f.weapons["rifle"].to_damage == {"open": 4, "soft": 5, "hard": 6}
    u = f.units[0]
    assert (u.run, u.walk, u.melee_attacks, u.melee_damage, u.shields, u.recharge) == (
        8, 4, 1, 4, 3, 1)
    assert len(u.figures) == 5
    assert force_warnings(f) == []


def test_all_errors_at_once_with_paths() -> None:
    data = good()
    data["command_rating"] = 27
    data["weapons"]["rifle"]["to_damage"]["hard"] = 7
    del data["weapons"]["rifle"]["to_damage"]["soft"]
    data["weapons"]["bomb"]["rules"] = ["explosive", "strike"]
    data["units"][0]["melee_damage"] = 1
    data["units"][0]["figures"][0]["weapons"] = ["lasgun"]
    data["units"][0]["shield"] = 3
    found = problems(data)
    assert "at most 26" in found["command_rating"]
    assert "at most 6" in found["weapons.rifle.to_damage.hard"]
    assert "missing" in found["weapons.rifle.to_damage.soft"]
    assert '"strike" is not a weapon rule' in found["weapons.bomb.rules[1]"]
    assert "at least 2" in found["units[0].melee_damage"]
    assert "unknown weapon" in found["units[0].figures[0].weapons[0]"]
    assert "did you mean shields?" in found["units[0].shield"]


def test_missing_and_wrong_types_are_errors() -> None:
    data = good()
    del data["command_rating"]
    data["units"][0]["run"] = "fast"
    data["units"][0]["walk"] = True
    data["weapons"]["rifle"]["shots_far"] = 1.5
    found = problems(data)
    assert "missing" in found["command_rating"]
    assert "the text" in found["units[0].run"]
    assert "got true" in found["units[0].walk"]
    assert "decimal" in found["weapons.rifle.shots_far"]


def test_unknown_keys_are_errors_at_every_level() -> None:
    data = good()
    data["points"] = 100
    data["weapons"]["rifle"]["power"] = "light"
    data["weapons"]["rifle"]["to_damage"]["vehicle"] = 6
    data["units"][0]["figures"][0]["leader"] = True
    found = problems(data)
    assert set(found) == {"points", "weapons.rifle.power", "weapons.rifle.to_damage.vehicle",
                          "units[0].figures[0].leader"}


def test_a_weapon_needs_shots_in_some_band_ch_s4() -> None:
    data = good()
    data["weapons"]["rifle"].update(shots_near=0, shots_far=0)
    assert "at least one range band" in problems(data)["weapons.rifle"]


def test_other_ruleset_and_hostile_text() -> None:
    data = good()
    data["ruleset"] = "deathzap3"
    data["name"] = "Evil\x1b[2J"
    data[("x" * 5)] = 1
    found = problems(data)
    assert "command-hand reader" in found["ruleset"]
    assert "U+001B" in found["name"] and "\x1b" not in "".join(found.values())
    bad = copy.deepcopy(good())
    bad["weapons"] = {"bad id!": bad["weapons"]["rifle"]}
    assert 'weapons."bad id!"' in problems(bad)


def test_warnings_never_errors_ch_r4() -> None:
    data = good()
    data["command_rating"] = 0
    data["units"][0].update(walk=9, recharge=5)
    data["weapons"]["rifle"]["to_damage"] = {"open": 6, "soft": 5, "hard": 4}
    data["weapons"]["unused"] = copy.deepcopy(data["weapons"]["bomb"])
    data["units"].append(copy.deepcopy(data["units"][0]))
    paths = {p.path for p in force_warnings(parse_force(data))}
    assert paths == {"command_rating", "units[0].walk", "units[0].recharge",
                     "units[1].walk", "units[1].recharge", "weapons.rifle.to_damage",
                     "weapons.unused", "units[1].name"}


def test_loader_picks_the_ruleset_and_locates_lines() -> None:
    text = (FORCES / "ch-cinder-collective.toml").read_text()
    loaded = force_from_text(text, "x.toml")
    assert loaded.ruleset.id == "command-hand"
    with pytest.raises(InvalidInput) as exc:
        force_from_text(text.replace("melee_damage = 3", "melee_damage = 9"), "x.toml")
    (p,) = exc.value.problems
    assert p.path == "units[1].melee_damage" and p.line is not None
    assert text.splitlines()[p.line - 1].startswith("melee_damage")


@pytest.mark.parametrize("path", CH_FORCES, ids=[p.name for p in CH_FORCES])
def test_shipped_ch_forces_load_cleanly(path: Path) -> None:
    loaded = load_force(path)
    assert loaded.ruleset.id == "command-hand" and loaded.warnings == []
    assert loaded.ruleset.points(loaded.force) is None  # CH-R4
    assert path.read_text().startswith("#")


def test_shipped_ch_forces_use_every_feature() -> None:
    forces = [load_force(p).force for p in CH_FORCES]
    assert len(forces) >= 2
    weapons = [w for f in forces for w in f.weapons.values()]
    units = [u for f in forces for u in f.units]
    assert any(w.explosive for w in weapons)
    assert any(w.shots_far == 0 for w in weapons) and any(w.shots_near == 0 for w in weapons)
    assert any(w.shots_far > w.shots_near > 0 for w in weapons)
    assert len({u.melee_damage for u in units}) >= 3
    assert len({u.recharge for u in units}) >= 2 and all(u.recharge for u in units)
    assert len({f.command_rating for f in forces}) == 2


def test_check_and_points_commands(capsys: pytest.CaptureFixture[str]) -> None:
    paths = [str(p) for p in CH_FORCES]
    assert main(["check", *paths]) == 0
    out = capsys.readouterr().out
    assert "OK: Ironbark Rangers (command-hand), 3 units, 10 models" in out
    assert main(["points", *paths]) == 0
    out = capsys.readouterr().out
    assert "no points system: 3 units, 10 models" in out  # CH-R4
    assert main(["points", "--json", paths[0]]) == 0
    assert '"points": null' in capsys.readouterr().out

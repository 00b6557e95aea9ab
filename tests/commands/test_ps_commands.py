"""``deathzap check`` and ``deathzap points`` on Deathzap Plasmashok forces, through
the real CLI entry point (PS §9 points, the same command code as Deathzap 3)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from deathzap_tui.cli import main

FORCES = Path(__file__).resolve().parents[2] / "forces"
IRON = str(FORCES / "ps-iron-choir.toml")
VERDANT = str(FORCES / "ps-verdant-swarm.toml")


def test_ps_check_ok_ps_s9(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", IRON, VERDANT]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"{IRON}: OK: Iron Choir (plasmashok), 5 units, 22 models, 272 points",
        f"{VERDANT}: OK: Verdant Swarm (plasmashok), 5 units, 24 models, 240 points",
    ]


def test_ps_points_text_ps_s9(capsys: pytest.CaptureFixture[str]) -> None:
    """PS §9 by hand: Choir Wardens 5 x 6 base + 5 Advanced Rifles x 4 + a Spike 2 +
    5 x 2 Advanced Shields + 1 special x 5 = 67; Line Choristers 28 + 20 = 48; Novice
    Chorus 21 + 14 = 35; Arc Skiffs 2 x (12 + 4 + 10) = 52; Cantor Engine 20 + 36 +
    12 + 2 = 70; total 272."""
    assert main(["points", IRON]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"Iron Choir  (Deathzap Plasmashok, {IRON})"
    assert lines[2].split() == ["Unit", "Base", "Weapons", "Shields", "Special", "Points"]
    wardens = next(line for line in lines if line.startswith("Choir Wardens"))
    assert wardens.split() == ["Choir", "Wardens", "5", "×", "6", "=", "30", "22", "5",
                               "×", "2", "=", "10", "1", "×", "5", "=", "5", "67"]
    points = {line.rsplit(None, 1)[0].split("  ")[0]: line.split()[-1] for line in lines
              if line[:1].isupper() and line.split()[-1].isdigit()}
    assert points == {"Choir Wardens": "67", "Line Choristers": "48", "Novice Chorus": "35",
                      "Arc Skiffs": "52", "Cantor Engine": "70", "Total": "272"}
    text = "\n".join(lines)
    # No command points in Plasmashok: no command row, a "Weapons:" section.
    assert "Command" not in text and "Weapons:" in text
    assert "Choir Wardens: 5 × Advanced Rifle at 4 = 20, 1 × Spike at 2 = 2" in text
    assert "Force points (PS §9): 3 unlocked by infantry/beast units, 3" in text
    assert "Warnings:" not in text


def test_ps_points_json_ps_s9(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["points", "--json", VERDANT]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["force"] == "Verdant Swarm" and data["ruleset"] == "plasmashok"
    assert [(u["name"], u["points"]) for u in data["units"]] == [
        ("Thorn Hounds", 24), ("Briar Stalkers", 42), ("Grove Tenders", 53),
        ("Old Tusks", 36), ("The Rootmother", 85)]
    mother = data["units"][-1]
    assert mother["base"] == {"count": 1, "each": 40, "points": 40}
    assert mother["special"] == {"count": 1, "each": 5, "points": 5}
    assert mother["models"] == [{
        "name": "Rootmother", "count": 1, "each": 80, "points": 80, "base": 40,
        "weapons": [{"id": "radius-weapon", "name": "Radius Weapon", "points": 30},
                    {"id": "arc-weapon", "name": "Arc Weapon", "points": 10}],
        "shields": 0}]
    assert data["command_points"] == 0 and data["total"] == 240
    assert data["warnings"] == [] and "3 unlocked" in data["notes"][0]


def test_ps_points_json_several_files_ps_s9(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["points", "--json", IRON, VERDANT]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(d["force"], d["total"]) for d in data] == [("Iron Choir", 272),
                                                        ("Verdant Swarm", 240)]


def _broken(tmp_path: Path) -> tuple[Path, int, int]:
    """The Iron Choir with an unknown weapon id and an unknown model type; returns
    the path and the two lines."""
    text = Path(IRON).read_text()
    broken = (text.replace('{ name = "Novice", count = 5, weapons = ["basic-repeater"] }',
                           '{ name = "Novice", count = 5, weapons = ["lasgun"] }')
              .replace('type = "vehicles"', 'type = "tanks"'))
    lines = broken.splitlines()
    lasgun = next(i for i, line in enumerate(lines, 1) if "lasgun" in line)
    tanks = lines.index('type = "tanks"') + 1
    path = tmp_path / "broken.toml"
    path.write_text(broken)
    return path, lasgun, tanks


def test_ps_broken_file_gives_file_line_path_message_ps_s9(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, lasgun, tanks = _broken(tmp_path)
    assert main(["check", str(path), VERDANT]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[:3] == [
        f'{path}:{lasgun}: units[2].figures[0].weapons[0]: unknown weapon "lasgun"; this '
        "force defines: basic-rifle, advanced-rifle, basic-repeater, advanced-repeater, "
        "medium-repeater, arc-weapon, heavy-repeater, heavy-weapon, radius-weapon, "
        "super-heavy-weapon, super-heavy-repeater, spike",
        f'{path}:{tanks}: units[4].type: "tanks" is not a model type (PS §2); use one of: '
        "infantry, beasts, light-vehicles, big-beasts, vehicles, monsters",
        f"{path}: 2 errors",
    ]
    assert out[3].startswith(f"{VERDANT}: OK")
    assert main(["points", str(path)]) == 1
    captured = capsys.readouterr()
    assert f"{path}:{lasgun}: units[2].figures[0].weapons[0]" in captured.err
    assert captured.out == ""


def test_ps_rule_errors_have_lines_too_ps_s9(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """PS §9: a third model with a spike in an infantry unit, at its figure line."""
    text = Path(IRON).read_text().replace(
        '{ name = "Spiker", count = 2, weapons = ["spike"] }',
        '{ name = "Spiker", count = 3, weapons = ["spike"] }')
    path = tmp_path / "heavy.toml"
    path.write_text(text)
    line = text.splitlines().index(
        '  { name = "Spiker", count = 3, weapons = ["spike"] },') + 1
    assert main(["check", str(path)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"{path}:{line}: units[2].figures[1]: with this line 3 models of the unit carry "
        "something other than rifles and repeaters; an infantry unit may have at most 2 "
        "(PS §9)",
        f"{path}: 1 error",
    ]


def test_ps_check_warnings_have_file_line_and_path_ps_s9(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """PS-R1: no melee profile; PS §5: a spike priced off the table; both warnings,
    the force still loads."""
    text = (Path(IRON).read_text()
            .replace("melee = { attacks = 1, strength = 1, damage = 1 }\n"
                     'figures = [\n  { name = "Novice"',
                     'figures = [\n  { name = "Novice"')
            .replace("damage = 1\nrange = 6", "damage = 1\npoints = 3\nrange = 6"))
    path = tmp_path / "warned.toml"
    path.write_text(text)
    lines = text.splitlines()
    points = lines.index("points = 3") + 1
    novices = lines.index('name = "Novice Chorus"')  # the unit's [[units]] line
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f'{path}:{points}: warning: weapons.spike.points: "Spike" costs 3 points, but '
        "shots x strength x damage = 1 x 2 x 1 = 2 (PS §5); the file's 3 is used",
        f"{path}:{novices}: warning: units[2].melee: no melee profile: the force file "
        "gives no melee.attacks, melee.strength, melee.damage, so this unit cannot "
        "attack in melee (PS-R1)",
        f"{path}: OK: Iron Choir (plasmashok), 5 units, 22 models, 275 points, 2 warnings",
    ]
    assert main(["points", str(path)]) == 0
    assert "Warnings:" in capsys.readouterr().out

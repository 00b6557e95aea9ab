"""``deathzap check`` and ``deathzap points`` on Double Tap armies, through the real
CLI entry point (DT §2 army size, DT-R4 points, the same command code as the other
rulesets)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from deathzap_tui.cli import main

FORCES = Path(__file__).resolve().parents[2] / "forces"
KESTREL = str(FORCES / "dt-kestrel-cell.toml")
RUSTMOTH = str(FORCES / "dt-rustmoth-gang.toml")


def test_dt_check_ok_dt_s2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", KESTREL, RUSTMOTH]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"{KESTREL}: OK: Kestrel Cell (double-tap), 5 units, 5 models, 50 points",
        f"{RUSTMOTH}: OK: Rustmoth Gang (double-tap), 6 units, 6 models, 50 points",
    ]


def test_dt_points_text_without_command_dt_r4(capsys: pytest.CaptureFixture[str]) -> None:
    """DT-R4 by hand: Sergeant Vey rifle 5 + knife 1 | armored 4 = 10; Marksman Oro
    sniper rifle 6 + knife 1 | camouflage 4 + scout 2 = 13; Medic Hale pistol 3 +
    knife 1 | doctor 6 = 10; Tech Imre carbine 5 + knife 1 | engineer 6 = 12;
    Signaller Nadir knife 1 | spotter 2 + hacker 2 = 5; total 50 (DT §2)."""
    assert main(["points", KESTREL]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"Kestrel Cell  (Double Tap 2.1, {KESTREL})"
    assert lines[2].split() == ["Unit", "Weapons", "Rules", "Points"]
    rows = {line.rsplit(None, 3)[0]: line.split()[-3:] for line in lines[4:9]}
    assert rows == {"Sergeant Vey": ["6", "4", "10"], "Marksman Oro": ["7", "6", "13"],
                    "Medic Hale": ["4", "6", "10"], "Tech Imre": ["6", "6", "12"],
                    "Signaller Nadir": ["1", "4", "5"]}
    # Double Tap has no command points: no command row or words (only the total).
    assert set(lines[9]) == {"-"}
    assert lines[10].split() == ["Total", "50"]
    text = "\n".join(lines)
    assert "Command" not in text and "\nWeapons:\n" in text
    assert "Marksman Oro: 1 × Sniper Rifle at 6 = 6, 1 × Knife at 1 = 1" in text
    assert "Army: 50 of 50 points (DT §2)." in text
    assert "Signaller Nadir: Spotter 2, Hacker 2." in text
    assert "Warnings:" not in text


def test_dt_points_json_dt_r4(capsys: pytest.CaptureFixture[str]) -> None:
    """Boss Karn sword 4 | tough 12 = 16; Gunner Mott lmg 6 + knife 1 | sixth sense
    2 = 9; Runner Sike smg 4 + knife 1 | grenade 1 + athletic 1 + infiltrate 2 = 9;
    Stalker Vess shotgun 3 + knife 1 | ambush 2 + regeneration 4 = 10; two Cutters
    knife 1 | poison gear 2 = 3 each; total 50."""
    assert main(["points", "--json", RUSTMOTH]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["force"] == "Rustmoth Gang" and data["ruleset"] == "double-tap"
    assert [(u["name"], u["points"]) for u in data["units"]] == [
        ("Boss Karn", 16), ("Gunner Mott", 9), ("Runner Sike", 9), ("Stalker Vess", 10),
        ("Cutter 1", 3), ("Cutter 2", 3)]
    sike = data["units"][2]
    assert sike["weapons"] == {"points": 5, "items": {
        "smg": {"name": "SMG", "count": 1, "each": 4, "points": 4},
        "knife": {"name": "Knife", "count": 1, "each": 1, "points": 1}}}
    assert sike["rules"]["points"] == 4
    assert list(sike["rules"]["items"]) == ["grenade", "athletic", "infiltrate"]
    assert data["command_points"] == 0 and data["total"] == 50
    assert data["warnings"] == [] and data["notes"][0] == "Army: 50 of 50 points (DT §2)."


def test_dt_points_json_several_files_dt_r4(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["points", "--json", KESTREL, RUSTMOTH]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(d["force"], d["total"]) for d in data] == [("Kestrel Cell", 50),
                                                        ("Rustmoth Gang", 50)]


def test_dt_broken_file_gives_file_line_path_message_dt_r2_dt_s7(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An unknown weapon, a sergeant without a melee weapon (DT-R2) and cutters
    without their poison kind (DT §7), all at once, each at its line."""
    text = (Path(KESTREL).read_text()
            .replace('weapons = ["pistol", "knife"]', 'weapons = ["pistol", "lasgun"]')
            .replace('weapons = ["rifle", "knife"]', 'weapons = ["rifle"]'))
    path = tmp_path / "broken.toml"
    path.write_text(text)
    lines = text.splitlines()
    lasgun = lines.index('weapons = ["pistol", "lasgun"]') + 1
    rifle = lines.index('weapons = ["rifle"]') + 1
    assert main(["check", str(path), RUSTMOTH]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[:3] == [
        f"{path}:{rifle}: units[0].weapons: no melee weapon: it has Rifle; every unit "
        "needs a knife or a sword (DT-R2)",
        f'{path}:{lasgun}: units[2].weapons[1]: "lasgun" is not a weapon (DT §4); use '
        "one of: knife, sword, pistol, shotgun, smg, carbine, rifle, lmg, sniper-rifle",
        f"{path}: 2 errors",
    ]
    assert out[3].startswith(f"{RUSTMOTH}: OK")
    assert main(["points", str(path)]) == 1
    captured = capsys.readouterr()
    assert f"{path}:{lasgun}: units[2].weapons[1]" in captured.err
    assert captured.out == ""


def test_dt_poison_errors_have_lines_dt_s7(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = Path(RUSTMOTH).read_text().replace('poison = "melee"\n', "")
    path = tmp_path / "poisonless.toml"
    path.write_text(text)
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 2 and out[1] == f"{path}: 1 error"
    assert out[0].startswith(f"{path}:")
    assert out[0].endswith(': units[4].poison: missing: Poison Gear needs poison = '
                           '"melee" or "shooting", the hits that poison (DT §7)')


def test_dt_check_warnings_over_50_and_duplicate_names_dt_s2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (Path(KESTREL).read_text()
            .replace('rules = ["engineer"]', 'rules = ["engineer", "fast"]')
            .replace('name = "Signaller Nadir"', 'name = "Medic Hale"'))
    path = tmp_path / "warned.toml"
    path.write_text(text)
    lines = text.splitlines()
    nadir = [i for i, line in enumerate(lines, 1)
             if line.startswith('name = "Medic Hale"')][1]
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith("warning: units: the army costs 52 points, 2 over the 50 "
                           "of DT §2")
    assert out[1] == (f'{path}:{nadir}: warning: units[4].name: "Medic Hale" is also '
                      "the name of units[2]; players tell units apart by name")
    assert out[2] == (f"{path}: OK: Kestrel Cell (double-tap), 5 units, 5 models, 52 "
                      "points, 2 warnings")
    assert main(["points", str(path)]) == 0
    assert "Warnings:" in capsys.readouterr().out


def test_dt_check_does_not_warn_under_50_dt_s2(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """DT §2: only an army over 50 points is warned about (the issue: "warning when
    over"); a smaller one checks clean and `points` shows its total."""
    text = Path(KESTREL).read_text().replace('rules = ["engineer"]', "rules = []")
    path = tmp_path / "short.toml"
    path.write_text(text)
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1 and "warning" not in out[0] and "44 points" in out[0]

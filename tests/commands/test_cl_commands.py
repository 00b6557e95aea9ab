"""``deathzap check`` and ``deathzap points`` on Deathzap Classic forces, through the
real CLI entry point (CL-R6: counts per type instead of points)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from deathzap_tui.cli import main

FORCES = Path(__file__).resolve().parents[2] / "forces"
RED_DAWN = str(FORCES / "cl-red-dawn-irregulars.toml")
BLACK_MAW = str(FORCES / "cl-black-maw-brood.toml")


def test_check_ok(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", RED_DAWN, BLACK_MAW]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"{RED_DAWN}: OK: Red Dawn Irregulars (classic), 8 units, 33 models",
        f"{BLACK_MAW}: OK: Black Maw Brood (classic), 7 units, 27 models",
    ]


def test_points_text_shows_counts_per_type_cl_r6(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["points", RED_DAWN]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:4] == [
        f"Red Dawn Irregulars  (Deathzap Classic, {RED_DAWN})",
        "Deathzap Classic has no points system: 8 units, 33 models.",
        "",
        "Counts:",
    ]
    assert [line.strip().rsplit(" ", 1)[0].strip() for line in lines[4:]] == [
        "Infantry", "Beasts", "Light Vehicles", "Vehicles", "Basic guns", "Advanced guns",
        "Auto-heavy guns", "Heavy guns", "Radius guns"]
    assert lines[4].split() == ["Infantry", "25"]
    assert lines[-1].split() == ["Radius", "guns", "1"]


def test_points_json_has_a_counts_object(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["points", "--json", BLACK_MAW]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == {
        "force": "Black Maw Brood", "ruleset": "classic", "points": None,
        "units": 7, "models": 27,
        "counts": {"Infantry": 6, "Heavy Infantry": 9, "Beasts": 6, "Big Beasts": 5,
                   "Monsters": 1, "Basic guns": 10, "Advanced guns": 4,
                   "Auto-heavy guns": 1, "Heavy guns": 2, "Radius guns": 2},
        "warnings": [],
    }
    assert list(data["counts"])[:5] == ["Infantry", "Heavy Infantry", "Beasts",
                                        "Big Beasts", "Monsters"]  # CL §2 table order


def test_points_json_several_files(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["points", "--json", RED_DAWN, BLACK_MAW]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [d["force"] for d in data] == ["Red Dawn Irregulars", "Black Maw Brood"]
    assert data[0]["counts"]["Infantry"] == 25


def test_points_shows_warnings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "nogeneral.toml"
    path.write_text(Path(BLACK_MAW).read_text().replace(", general = true", ""))
    assert main(["points", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Warnings:" in out and "units: no figure is marked general = true" in out


def test_broken_file_gives_file_line_path_message(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = Path(RED_DAWN).read_text()
    broken = (text.replace('weapons = ["mortar"]', 'weapons = ["lasgun"]')
              .replace('type = "light-vehicles"', 'type = "bikes"'))
    lines = broken.splitlines()
    lasgun = next(i for i, line in enumerate(lines, 1) if "lasgun" in line)
    bikes = lines.index('type = "bikes"') + 1
    path = tmp_path / "broken.toml"
    path.write_text(broken)
    assert main(["check", str(path), BLACK_MAW]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[:3] == [
        f'{path}:{lasgun}: units[4].figures[0].weapons[0]: unknown weapon "lasgun"; this '
        "force defines: basic, advanced, auto-heavy, heavy, radius, rail-rifle, chaingun, "
        "mortar, tank-gun",
        f'{path}:{bikes}: units[6].type: "bikes" is not a figure type (CL §2); use one of: '
        "infantry, heavy-infantry, beasts, big-beasts, light-vehicles, vehicles, monsters",
        f"{path}: 2 errors",
    ]
    assert out[3].startswith(f"{BLACK_MAW}: OK")
    assert main(["points", str(path)]) == 1
    assert 'unknown weapon "lasgun"' in capsys.readouterr().err


def test_check_warning_has_file_line_and_path(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lone = 'figures = [ { name = "Skitterer" } ]'
    text = Path(BLACK_MAW).read_text().replace(
        'figures = [ { name = "Skitterer", count = 6 } ]', lone)
    path = tmp_path / "warned.toml"
    path.write_text(text)
    line = text.splitlines().index(lone) + 1
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert (f"{path}:{line}: warning: units[3].figures: a lone Beasts figure is always "
            "panicked") in out
    assert out.splitlines()[-1].endswith("7 units, 22 models, 1 warning")

"""``deathzap points`` and ``deathzap check`` through the real CLI entry point."""

from __future__ import annotations

import json
from pathlib import Path
from unittest import mock

import pytest

from deathzap_tui.cli import main

FORCES = Path(__file__).resolve().parents[2] / "forces"
MORTAN = str(FORCES / "mortans-men.toml")
SHIPPED = sorted(str(p) for p in FORCES.glob("*.toml"))


@pytest.fixture
def bad(tmp_path: Path) -> str:
    text = (FORCES / "mortans-men.toml").read_text()
    path = tmp_path / "bad.toml"
    path.write_text(text.replace('weapons = ["destroyer"]', 'weapons = ["lasgun"]'))
    return str(path)


@pytest.fixture
def warned(tmp_path: Path) -> str:
    text = (FORCES / "mortans-men.toml").read_text()
    path = tmp_path / "warned.toml"
    path.write_text(text.replace("move = 6", "move = 13", 1))
    return str(path)


def test_points_text(capsys: pytest.CaptureFixture[str]) -> None:
    """DZ3 §13 worked example in the table; DZ3-R17 note below it."""
    assert main(["points", MORTAN]) == 0
    out = capsys.readouterr().out
    squad1 = next(line for line in out.splitlines() if line.startswith("Squad 1"))
    assert squad1.split()[-1] == "69" and "7 × 7 = 49" in squad1 and "14" in squad1
    assert any(line.startswith("Command") and line.endswith(" 60")
               for line in out.splitlines())
    assert any(line.startswith("Total") and line.endswith(" 327")
               for line in out.splitlines())
    assert "5 × Small Arms at 1 = 5" in out
    assert "Platoon Leader (Squad 1) 6" in out
    assert "expects 249" in out and "DZ3-R17" in out


def test_points_json_one_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["points", "--json", MORTAN]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["force"] == "Mortan's Men" and data["ruleset"] == "deathzap3"
    assert [u["points"] for u in data["units"]] == [69, 66, 66, 66]
    squad1 = data["units"][0]
    assert squad1["name"] == "Squad 1"
    assert squad1["figures"] == {"count": 7, "each": 7, "points": 49}
    assert squad1["weapons"]["items"]["destroyer"]["each"] == 6
    assert squad1["shields"]["points"] == 6 and squad1["vehicle_surcharge"] == 0
    assert data["command_points"] == 60 and data["total"] == 327
    assert data["warnings"] == []


def test_points_json_several_files_is_a_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["points", "--json", *SHIPPED]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [d["force"] for d in data][SHIPPED.index(MORTAN)] == "Mortan's Men"
    assert len(data) == len(SHIPPED)


def test_points_bad_file_exits_1_with_problems_on_stderr(
        bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["points", bad, MORTAN]) == 1
    captured = capsys.readouterr()
    assert f"{bad}:" in captured.err and 'unknown weapon "lasgun"' in captured.err
    assert "Mortan's Men" in captured.out  # the good file is still reported


def test_points_json_bad_file_prints_nothing_on_stdout(
        bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["points", "--json", bad]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and "lasgun" in captured.err


def test_points_warnings_exit_0(warned: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["points", warned]) == 0
    out = capsys.readouterr().out
    assert "Warnings:" in out and "units[0].move" in out


def test_points_for_a_ruleset_without_points(capsys: pytest.CaptureFixture[str]) -> None:
    with mock.patch("deathzap_tui.rules.deathzap3.plugin.Deathzap3.points",
                    return_value=None):
        assert main(["points", MORTAN]) == 0
        assert "no points system: 4 units, 28 models" in capsys.readouterr().out
        assert main(["points", "--json", MORTAN]) == 0
        data = json.loads(capsys.readouterr().out)
    assert data["points"] is None and data["units"] == 4 and data["models"] == 28


def test_check_ok(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", *SHIPPED]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(SHIPPED)
    assert f"{MORTAN}: OK: Mortan's Men (deathzap3), 4 units, 28 models, 327 points" in lines


def test_check_errors_exit_1_and_name_file_line_path(
        bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", MORTAN, bad]) == 1
    out = capsys.readouterr().out
    assert (f'{bad}:38: units[0].figures[2].weapons[0]: unknown weapon "lasgun"; '
            "this force defines: small-arms, repeater, destroyer, grenades") in out
    assert f"{bad}: 1 error" in out
    assert f"{MORTAN}: OK" in out


def test_check_warnings_alone_exit_0(warned: str,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", warned]) == 0
    out = capsys.readouterr().out
    assert f"{warned}:31: warning: units[0].move: " in out
    assert "OK" in out and "1 warning" in out


def test_check_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = str(tmp_path / "nope.toml")
    assert main(["check", missing]) == 1
    assert f"{missing}: no such file" in capsys.readouterr().out


def test_check_never_echoes_control_characters_of_the_file_names(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 19: the file names given, quoted on stdout (OK, each problem, the count,
    a missing file), carried an OSC 52 (clipboard write) and a BEL to the terminal."""
    nasty = "f\x1b]52;c;QUFB\x07\x9b2J"
    good = tmp_path / f"{nasty}-ok.toml"
    good.write_text((FORCES / "mortans-men.toml").read_text())
    broken = tmp_path / f"{nasty}-bad.toml"
    broken.write_text((FORCES / "mortans-men.toml").read_text().replace(
        'weapons = ["destroyer"]', 'weapons = ["lasgun"]'))
    assert main(["check", str(good), str(broken), str(tmp_path / f"{nasty}.toml")]) == 1
    out = capsys.readouterr().out
    assert not any(c in out for c in "\x1b\x07\x9b"), out
    shown = "f]52;c;QUFB2J"
    assert f"{shown}-ok.toml: OK" in out and f"{shown}-bad.toml: 1 error" in out
    assert f"{shown}-bad.toml:38: units[0]" in out and f"{shown}.toml: no such file" in out


def test_points_never_echoes_control_characters_of_the_file_name(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 19: the table's title quotes the file name given, which carried an OSC 52
    (clipboard write) and a BEL to the terminal."""
    good = tmp_path / "f\x1b]52;c;QUFB\x07\x9b2J.toml"
    good.write_text((FORCES / "mortans-men.toml").read_text())
    assert main(["points", str(good)]) == 0
    out = capsys.readouterr().out
    assert not any(c in out for c in "\x1b\x07\x9b"), out
    assert f"Mortan's Men  (Deathzap 3, {tmp_path}/f]52;c;QUFB2J.toml)" in out


def test_check_and_points_count_one_in_the_singular(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 26: "1 units"."""
    with mock.patch("deathzap_tui.forcefile.LoadedForce.counts", return_value=(1, 1)):
        assert main(["check", MORTAN]) == 0
        assert ", 1 unit, 1 model, 327 points" in capsys.readouterr().out
        with mock.patch("deathzap_tui.rules.deathzap3.plugin.Deathzap3.points",
                        return_value=None):
            assert main(["points", MORTAN]) == 0
    assert "no points system: 1 unit, 1 model." in capsys.readouterr().out


ONE_UNIT = '''name = "Lone Cell"
ruleset = "double-tap"

[[units]]
name = "{name}"
weapons = ["rifle", "knife"]
rules = ["armored"]

[[units]]
name = "Oro"
weapons = ["rifle", "knife"]
'''


def test_check_a_force_of_one_unit_says_1_unit(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 22: `deathzap check` of a real one-unit force (no mock)."""
    path = tmp_path / "lone.toml"
    path.write_text(ONE_UNIT.format(name="Vey").split("\n\n[[units]]\nname = \"Oro\"")[0])
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert ", 1 unit, 1 model, " in out and "units" not in out


def test_points_columns_line_up_under_their_headers_with_wide_names(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 22: a name of wide characters (two terminal cells each) still leaves
    every column's right edge under its header's, in terminal cells."""
    from deathzap_tui.reporttext import cells

    path = tmp_path / "wide.toml"
    path.write_text(ONE_UNIT.format(name="軍曹 Vey"))
    assert main(["points", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    header = lines.index(next(line for line in lines if line.startswith("Unit ")))
    table = [line for line in lines[header:header + 6] if not line.startswith("-")]
    assert [line.split()[0] for line in table] == ["Unit", "軍曹", "Oro", "Total"]
    assert len({cells(line) for line in table}) == 1, table
    heading = table[0]
    for title in heading.split()[1:]:
        edge = cells(heading[:heading.index(title) + len(title)])
        for row in table[1:3]:
            assert row[len(row) - (cells(row) - edge) - 1] != " ", (title, row)

"""Loading force files safely: every failure is an InvalidInput with a clear Problem."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest
from force_texts import force_text, unit_text

from deathzap_tui import forcefile
from deathzap_tui.forcefile import (
    MAX_BYTES,
    force_from_data,
    force_from_text,
    line_index,
    load_force,
    locate,
    split_path,
)
from deathzap_tui.rules import registry
from deathzap_tui.rules.problems import InvalidInput, Problem

FORCES = Path(__file__).resolve().parent.parent / "forces"
SHIPPED = sorted(FORCES.glob("*.toml"))
DZ3_SHIPPED = [p for p in SHIPPED if load_force(p).ruleset.id == "deathzap3"]

GOOD = force_text(
    unit_text("Squad 1",
              'name = "Leader", leader = true, command = 2, weapons = ["small-arms"]',
              'name = "Trooper", count = 5, weapons = ["small-arms"]'),
    unit_text("Squad 2",
              'name = "Trooper", count = 5, weapons = ["small-arms"]',
              'name = "Gunner", weapons = ["destroyer"]'),
)


def problems(text: str) -> list[Problem]:
    with pytest.raises(InvalidInput) as caught:
        force_from_text(text, "t.toml")
    assert caught.value.source == "t.toml"
    return caught.value.problems


def only_problem(text: str) -> Problem:
    (problem,) = problems(text)
    return problem


def test_good_text_loads() -> None:
    loaded = force_from_text(GOOD, "t.toml")
    assert loaded.name == "Test Force"
    assert loaded.ruleset is registry.get("deathzap3")
    assert loaded.warnings == []
    assert loaded.counts() == (2, 12)
    assert loaded.source == "t.toml"


def test_syntax_error_reports_its_line() -> None:
    problem = only_problem(GOOD.replace('move = 6\nmelee', 'move = six\nmelee', 1))
    assert problem.line == 16
    assert "not valid TOML" in problem.message and "(at line" not in problem.message
    assert problem.located("t.toml").startswith("t.toml:16: not valid TOML")


def test_oversized_text_and_file_are_refused_before_parsing(tmp_path: Path) -> None:
    big = "# " + "x" * MAX_BYTES + "\n"
    assert "at most" in only_problem(big).message
    path = tmp_path / "big.toml"
    path.write_text(big)
    with pytest.raises(InvalidInput) as caught:
        load_force(path)
    assert "bytes" in caught.value.problems[0].message


def test_deep_nesting_is_a_problem_not_a_crash() -> None:
    assert "nested too deeply" in only_problem("x = " + "[" * 5000 + "]" * 5000).message


def test_huge_integer_is_a_problem_not_a_crash() -> None:
    assert "too long" in only_problem("x = " + "9" * 5000).message


@pytest.mark.parametrize("word", ["nan", "inf", "-inf", "+nan"])
def test_nan_and_inf_are_rejected_once_with_a_line(word: str) -> None:
    text = GOOD.replace("shields = 6\nfigures = [\n  { name = \"Trooper\"",
                        f"shields = {word}\nfigures = [\n  {{ name = \"Trooper\"")
    found = [p for p in problems(text) if p.path == "units[1].shields"]
    assert len(found) == 1
    assert "not a usable number" in found[0].message
    assert found[0].line == 31


def test_nan_hidden_in_an_unknown_key_is_found() -> None:
    found = problems(GOOD + "\n[extra]\nx = [1.0, [nan]]\n")
    assert "extra.x[1][0]" in {p.path for p in found}


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes(GOOD.replace("Squad 2", "Escouade \xe9").encode("latin-1"))
    with pytest.raises(InvalidInput) as caught:
        load_force(path)
    (problem,) = caught.value.problems
    assert "not UTF-8" in problem.message and problem.line == 26


def test_utf8_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + GOOD.encode())
    assert load_force(path).name == "Test Force"


@pytest.mark.parametrize(("make", "words"), [
    (lambda d: d / "missing.toml", "no such file"),
    (lambda d: d, "is a directory"),
])
def test_missing_file_and_directory(tmp_path: Path, make, words: str) -> None:
    path = make(tmp_path)
    with pytest.raises(InvalidInput) as caught:
        load_force(path)
    assert words in str(caught.value)
    assert caught.value.source == str(path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    with pytest.raises(InvalidInput, match="not a regular file"):
        load_force(fifo)


def test_permission_denied(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "secret.toml"
    path.write_text(GOOD)

    def refuse(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(forcefile, "open", refuse, raising=False)  # works as root too
    with pytest.raises(InvalidInput, match="permission denied"):
        load_force(path)


def test_unknown_ruleset_lists_the_known_ones() -> None:
    problem = only_problem('ruleset = "deathzap9"\n' + GOOD)
    assert problem.path == "ruleset" and problem.line == 1
    assert "deathzap3" in problem.message and "deathzap9" in problem.message


def test_ruleset_must_be_text() -> None:
    assert only_problem("ruleset = 3\n" + GOOD).path == "ruleset"


def test_validation_problems_get_lines_and_come_in_line_order() -> None:
    text = (GOOD.replace('weapons = ["destroyer"]', 'weapons = ["lasgun"]')
            .replace("shots = 1\npower", "shots = 0\npower", 1)
            .replace('name = "Squad 1"', 'name = "Squad 1"\ncolour = "red"'))
    found = problems(text)
    assert [(p.line, p.path) for p in found] == [
        (4, "weapons.small-arms.shots"),
        (15, "units[0].colour"),
        (35, "units[1].figures[1].weapons[0]"),
    ]
    assert found[2].located("forces/x.toml") == (
        'forces/x.toml:35: units[1].figures[1].weapons[0]: unknown weapon "lasgun"; '
        "this force defines: small-arms, destroyer")


def test_missing_key_points_at_its_table() -> None:
    found = problems(GOOD.replace("skill = \"basic\"\n", "", 1))
    assert [(p.line, p.path) for p in found] == [(13, "units[0].skill")]


def test_warnings_get_lines_too() -> None:
    loaded = force_from_text(GOOD.replace("move = 6", "move = 14", 1), "t.toml")
    assert [(w.line, w.path, w.severity) for w in loaded.warnings] == [
        (16, "units[0].move", "warning")]


def test_force_from_data_without_text_has_no_lines() -> None:
    data = tomllib.loads(GOOD)
    data["units"][0]["move"] = "six"
    with pytest.raises(InvalidInput) as caught:
        force_from_data(data, "save:red")
    (problem,) = caught.value.problems
    assert problem.line is None and problem.located("save:red").startswith("save:red: ")


def test_force_from_data_rejects_a_non_table() -> None:
    with pytest.raises(InvalidInput, match="expected a table"):
        force_from_data([1, 2], "save:red")  # type: ignore[arg-type]


# --- the path -> line index -------------------------------------------------------


def test_split_path() -> None:
    assert split_path('units[2].figures[0].weapons[1]') == [
        "units", 2, "figures", 0, "weapons", 1]
    assert split_path('weapons."big gun".shots') == ["weapons", "big gun", "shots"]
    assert split_path("") == []


INDEX_TEXT = '''\
top = 1  # comment [not a table]
"quoted key" = 'x'
dotted.key = """multi
line ] } string"""

[table]
inner = { a = 1, b = [1, 2] }

[[list]]
x = [
  1,   # one
  [2, 3],
]

[[list]]
y = "]"

[list.sub]
z = 3

[[list.items]]
w = 4
'''


@pytest.mark.parametrize(("path", "line"), [
    ("top", 1), ('"quoted key"', 2), ("dotted.key", 3), ("table", 6),
    ("table.inner.b[1]", 7), ("list[0]", 9), ("list[0].x", 10), ("list[0].x[0]", 11),
    ("list[0].x[1][1]", 12), ("list[1].y", 16), ("list[1].sub.z", 19),
    ("list[1].items[0].w", 22), ("list[1].nothing", 15), ("nothing", None),
])
def test_line_index(path: str, line: int | None) -> None:
    tomllib.loads(INDEX_TEXT)  # the index only ever sees valid TOML
    assert locate(line_index(INDEX_TEXT), path) == line


def test_line_index_is_best_effort_on_text_it_cannot_follow() -> None:
    assert line_index("a = 1\nb = \n")[("a",)] == 1
    assert locate(line_index("a = 1\n= broken"), "a") == 1


# --- the shipped forces -----------------------------------------------------------


@pytest.mark.parametrize("path", SHIPPED, ids=[p.name for p in SHIPPED])
def test_every_shipped_force_loads_without_problems(path: Path) -> None:
    loaded = load_force(path)
    assert loaded.warnings == []
    report = loaded.ruleset.points(loaded.force)
    assert report is None or (report.total <= 1000 and report.warnings == ())
    assert path.read_text().startswith("#"), "each force file opens with a comment"


def test_shipped_forces_cover_every_rule() -> None:
    """The three forces of our own design together use every DZ3 feature."""
    forces = [load_force(p).force for p in DZ3_SHIPPED if p.name != "mortans-men.toml"]
    assert len(forces) >= 3
    units = [u for f in forces for u in f.units]
    profiles = [p for f in forces for w in f.weapons.values() for p in w.profiles]
    assert any(u.vehicle for u in units)
    assert {u.skill for u in units} == {"basic", "regular", "elite"}
    assert {u.shield_strength for u in units} == {"light", "medium", "heavy"}
    assert any(p.strike for p in profiles) and any(p.short_range for p in profiles)
    assert any(len(w.profiles) == 2 for f in forces for w in f.weapons.values())
    for force in forces:
        command = [fig.command for u in force.units for fig in u.figures if fig.leader]
        assert command and 0 < sum(command) <= 12


def test_the_two_demo_forces_have_nine_units() -> None:
    """DZ3 §1: about 9 units; the demo forces are the ``demo-*`` files."""
    demos = sorted(FORCES.glob("demo-*.toml"))
    assert len(demos) == 2
    assert [len(load_force(p).force.units) for p in demos] == [9, 9]


def test_mortans_men_is_the_seed_force() -> None:
    """DZ3 §13 worked example: Squad 1 = 69, command 60; the other squads are 66 each
    by the formula, not the 60 the seed prints (DZ3-R17)."""
    loaded = load_force(FORCES / "mortans-men.toml")
    report = loaded.ruleset.points(loaded.force)
    assert [u.points for u in report.units] == [69, 66, 66, 66]
    assert report.command_points == 60 and report.total == 327
    assert loaded.force.expected_total == 249 and "249" in report.notes[0]

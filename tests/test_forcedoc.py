"""The force editor's document: round trips, edits by path, checks, atomic saves."""

from __future__ import annotations

import difflib
import os
import re
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from deathzap_tui import forcedoc
from deathzap_tui.cli import main
from deathzap_tui.forcedoc import ForceDocument, join_path, parse_path
from deathzap_tui.rules import registry
from deathzap_tui.rules.problems import InvalidInput

FORCES = Path(__file__).resolve().parent.parent / "forces"
SHIPPED = sorted(FORCES.glob("*.toml"))


def changed_lines(before: str, after: str) -> list[str]:
    return [line for line in difflib.ndiff(before.splitlines(), after.splitlines())
            if line[:1] in "+-"]


def check_output(capsys: Any, path: Path) -> tuple[int, list[str]]:
    status = main(["check", str(path)])
    return status, capsys.readouterr().out.splitlines()


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_a_shipped_force_round_trips_byte_for_byte(path: Path) -> None:
    doc = ForceDocument.load(path)
    assert doc.text().encode() == path.read_bytes()
    assert not doc.modified
    assert doc.check().ok


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_editing_one_value_changes_only_its_line(path: Path) -> None:
    doc = ForceDocument.load(path)
    before = doc.text()
    doc.set("units[0].name", "Renamed Unit")
    (old, new) = changed_lines(before, doc.text())
    assert old.startswith("- ") and new.startswith("+ ")
    assert new[2:] == re.sub(r'"[^"]*"', '"Renamed Unit"', old[2:], count=1)
    assert doc.get("units[0].name") == "Renamed Unit"
    def comments(text: str) -> list[str]:
        return [line[line.index("#"):] for line in text.splitlines() if "#" in line]

    assert comments(doc.text()) == comments(before)
    assert doc.modified


def test_setting_a_count_keeps_the_comment_after_it() -> None:
    doc = ForceDocument.from_text('name = "F"\nshots = 1   # one a turn\n[t]\nx = 2\n')
    doc.set("shots", 3)
    doc.set("t.x", 4)
    assert doc.text() == 'name = "F"\nshots = 3   # one a turn\n[t]\nx = 4\n'


def test_setting_a_figure_count_in_a_shipped_force() -> None:
    path = FORCES / "demo-ashfall-legion.toml"
    doc = ForceDocument.load(path)
    doc.set("units[1].figures[1].count", 5)
    assert changed_lines(path.read_text(), doc.text()) == [
        '-   { name = "Trooper", count = 6, weapons = ["service-rifle"] },',
        '+   { name = "Trooper", count = 5, weapons = ["service-rifle"] },',
    ]



def test_entries_and_keys_added_to_inline_tables_are_written_as_their_neighbours() -> None:
    """Force files write inline tables ``{ a = 1 }``: a new profile, a key added to a
    figure and a key taken from one keep that spelling and every comment."""
    doc = ForceDocument.from_text(
        'name = "F"\nprofiles = [\n  { name = "A", shots = 1 },  # first\n'
        '  { name = "B", shots = 2, rules = ["x"] },\n]\nm = {a = 1}  # tight\n')
    doc.append("profiles", {"name": "C", "sub": {"q": 1}})
    doc.set("profiles[0].rules", ["y"])
    doc.delete("profiles[1].shots")
    doc.set("m.b", 2)
    assert doc.text() == (
        'name = "F"\nprofiles = [\n  { name = "A", shots = 1, rules = ["y"] },  # first\n'
        '  { name = "B", rules = ["x"] },\n  { name = "C", sub = { q = 1 } },\n]\n'
        'm = {a = 1, b = 2}  # tight\n')
    doc.delete("m.a")
    doc.delete("m.b")
    assert doc.text().endswith("m = {}  # tight\n")


@pytest.mark.parametrize("path", [
    "name", "units[2].figures[0].count", "weapons.spike.shots", "units[0].melee.attacks",
    'weapons."odd key".shots',
])
def test_problem_paths_parse_and_join_back(path: str) -> None:
    assert join_path(*parse_path(path)) == path


@pytest.mark.parametrize("path", [
    "", "[0]", "units[", "units[x]", "units[-1]", "units[01]", "units..name", "units.",
    '"unclosed', "a b",
])
def test_a_bad_path_is_refused(path: str) -> None:
    doc = ForceDocument.new("deathzap3")
    for call in (lambda: doc.get(path), lambda: doc.set(path, 1), lambda: doc.delete(path)):
        with pytest.raises(ValueError, match="not a force-file path"):
            call()


def test_get_set_delete_and_missing_entries() -> None:
    doc = ForceDocument.load(FORCES / "ps-iron-choir.toml")
    assert doc.get("units[0].melee") == {"attacks": 1, "strength": 2, "damage": 1}
    assert doc.get("units[99].name", "none") == "none"
    assert doc.get("name.x") is None
    with pytest.raises(ValueError, match="append"):
        doc.set("units[99]", {"name": "x"})
    with pytest.raises(ValueError, match="not a table"):
        doc.set("name.x", 1)
    assert doc.delete("units[0].melee.damage")
    assert doc.get("units[0].melee") == {"attacks": 1, "strength": 2}
    assert not doc.delete("units[0].melee.damage")
    units = len(doc.get("units"))
    assert doc.delete("units[0]")
    assert len(doc.get("units")) == units - 1


def test_check_matches_deathzap_check_for_a_broken_edit(tmp_path: Path, capsys: Any) -> None:
    doc = ForceDocument.load(FORCES / "demo-ashfall-legion.toml")
    doc.set("units[1].figures[1].count", 0)
    doc.set("units[2].skill", "legendary")
    doc.delete("weapons.sidearm.power")
    path = tmp_path / "broken.toml"
    path.write_text(doc.text())
    doc.source = str(path)
    result = doc.check()
    assert not result.ok and result.force is None and result.points is None
    assert len(result.problems) >= 3
    assert all(p.line is not None for p in result.problems)
    assert result.at("units[2].skill")
    status, out = check_output(capsys, path)
    assert status == 1
    assert out[:-1] == [p.located(str(path)) for p in result.problems]


def test_check_reports_warnings_points_and_counts(tmp_path: Path, capsys: Any) -> None:
    for path in SHIPPED:
        result = ForceDocument.load(path).check()
        assert result.ok
        assert (result.points is None) == (result.loaded.ruleset.points(result.force) is None)
        if result.points is None:
            assert result.counts == tuple(result.loaded.ruleset.force_counts(result.force))
        status, out = check_output(capsys, path)
        assert status == 0
        shown = [replace(p, path=": ".join(x for x in ("warning", p.path) if x))
                 for p in result.problems]
        assert out[:-1] == [p.located(str(path)) for p in shown]


def test_not_toml_is_refused_with_the_check_message(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('name = "x"\nunits = [\n')
    with pytest.raises(InvalidInput) as caught:
        ForceDocument.load(path)
    _, out = check_output(capsys, path)
    assert out[0] == caught.value.problems[0].located(str(path))


# --- a new force from empty: every registered ruleset ---------------------------------------


def build_deathzap3(doc: ForceDocument) -> None:
    doc.set("weapons.rifle.shots", 1)
    doc.set("weapons.rifle.power", "light")
    u = doc.append("units", {"name": "Line", "skill": "regular"})
    for key, value in (("move", 6), ("melee_attacks", 1), ("shield_strength", "light"),
                       ("shields", 4)):
        doc.set(f"units[{u}].{key}", value)
    doc.append(f"units[{u}].figures", {"name": "Sarge", "leader": True, "command": 2,
                                        "weapons": ["rifle"]})
    f = doc.append(f"units[{u}].figures", {"name": "Trooper", "weapons": ["rifle"]})
    doc.set(f"units[{u}].figures[{f}].count", 4)


def build_command_hand(doc: ForceDocument) -> None:
    doc.set("command_rating", 3)
    doc.set("weapons.gun.shots_near", 1)
    doc.set("weapons.gun.shots_far", 1)
    doc.set("weapons.gun.to_damage", {"open": 4, "soft": 5, "hard": 6})
    u = doc.append("units", {"name": "Line"})
    for key, value in (("run", 8), ("walk", 4), ("melee_attacks", 1), ("melee_damage", 4),
                       ("shields", 3), ("recharge", 1)):
        doc.set(f"units[{u}].{key}", value)
    doc.append(f"units[{u}].figures", {"name": "Trooper", "count": 4, "weapons": ["gun"]})


def build_plasmashok(doc: ForceDocument) -> None:
    u = doc.append("units", {"name": "Line", "type": "infantry"})
    doc.set(f"units[{u}].training", "regular")
    doc.set(f"units[{u}].base_cost", 5)
    doc.set(f"units[{u}].melee.attacks", 1)
    doc.set(f"units[{u}].melee.strength", 1)
    doc.set(f"units[{u}].melee.damage", 1)
    doc.append(f"units[{u}].figures", {"name": "Trooper", "count": 5,
                                        "weapons": ["basic-rifle"]})


def build_double_tap(doc: ForceDocument) -> None:
    for name in ("Alpha", "Bravo"):
        u = doc.append("units", {"name": name})
        doc.append(f"units[{u}].weapons", "rifle")
        doc.append(f"units[{u}].weapons", "knife")
        doc.set(f"units[{u}].rules", ["armored"])


def build_from_template(doc: ForceDocument) -> None:
    """Any ruleset: its force template (``Ruleset.force_template``) typed in table by
    table, list item by list item."""
    template = tomllib.loads(registry.get(doc.get("ruleset")).force_template())
    for key, value in template.items():
        if key in ("name", "ruleset"):
            continue
        if isinstance(value, list):
            for item in value:
                doc.append(key, item)
        else:
            doc.set(key, value)


BUILDERS = {
    "deathzap3": build_deathzap3,
    "command-hand": build_command_hand,
    "plasmashok": build_plasmashok,
    "double-tap": build_double_tap,
}
"""Forces built by hand, path by path; a ruleset without one here is built from its
template (:func:`build_from_template`)."""


@pytest.mark.parametrize("ruleset_id", registry.ids())
def test_a_new_force_built_from_empty_passes_deathzap_check(
        ruleset_id: str, tmp_path: Path, capsys: Any) -> None:
    doc = ForceDocument.new(ruleset_id)
    assert doc.get("ruleset") == ruleset_id and doc.modified
    assert not doc.check().ok  # no units yet
    BUILDERS.get(ruleset_id, build_from_template)(doc)
    result = doc.check()
    assert result.ok, result.problems
    if "points" not in getattr(registry.get(ruleset_id), "parts", ()):
        assert result.points is None  # no points system: nothing to total
    else:
        assert result.points is not None and result.points.total > 0
    path = tmp_path / "new.toml"
    doc.save(path)
    assert not doc.modified and doc.path == path
    status, out = check_output(capsys, path)
    assert status == 0, out
    assert out[-1].startswith(f"{path}: OK: New force ({ruleset_id})")
    if result.points is not None:
        assert out[-1].endswith(f", {result.points.total} points")


@pytest.mark.parametrize("ruleset_id", registry.ids())
def test_a_new_force_from_the_template_is_valid(ruleset_id: str) -> None:
    doc = ForceDocument.new(ruleset_id, template=True, name="Mine")
    assert doc.get("name") == "Mine"
    assert doc.check().ok


# --- saving ------------------------------------------------------------------------


def test_save_keeps_the_mode_and_replaces_the_file(tmp_path: Path) -> None:
    path = tmp_path / "f.toml"
    path.write_text((FORCES / "gutter-saints.toml").read_text())
    path.chmod(0o640)
    doc = ForceDocument.load(path)
    doc.set("name", "Saved")
    doc.save()
    assert path.stat().st_mode & 0o777 == 0o640
    assert ForceDocument.load(path).get("name") == "Saved"
    assert sorted(os.listdir(tmp_path)) == ["f.toml"]


def test_a_failure_while_writing_leaves_the_old_file(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "f.toml"
    original = (FORCES / "gutter-saints.toml").read_bytes()
    path.write_bytes(original)
    doc = ForceDocument.load(path)
    doc.set("name", "Lost")

    def disk_full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(OSError, match="No space"):
        doc.save()
    assert path.read_bytes() == original
    assert sorted(os.listdir(tmp_path)) == ["f.toml"]
    assert doc.modified  # what was typed is still there to save again


def test_saving_text_that_is_not_toml_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "f.toml"
    path.write_text('name = "old"\n')
    with pytest.raises(InvalidInput) as caught:
        forcedoc.save_text(path, 'name = "new"\nunits = [\n')
    assert caught.value.problems[0].message.startswith("not valid TOML")
    assert path.read_text() == 'name = "old"\n'
    assert sorted(os.listdir(tmp_path)) == ["f.toml"]


def test_save_never_writes_through_a_symlink(tmp_path: Path) -> None:
    """No file the app writes follows a link (issue 19): refused, naming the file to
    edit instead; the link and its target stay as they were."""
    from deathzap_tui.safefiles import UnsafeFile

    target = tmp_path / "real.toml"
    target.write_text('name = "old"\n')
    link = tmp_path / "link.toml"
    link.symlink_to(target)
    with pytest.raises(UnsafeFile, match=f"link.toml: a symbolic link, .* edit {target}"):
        forcedoc.save_text(link, 'name = "new"\n')
    assert link.is_symlink() and target.read_text() == 'name = "old"\n'


def test_save_removes_the_temporary_files_an_interrupted_save_left(tmp_path: Path) -> None:
    """Issue 19: temporary files of an interrupted atomic write were never cleaned up.
    Saving a force removes those of its own file left long ago (not a fresh one,
    which may be another save in progress, nor another file's)."""
    path = tmp_path / "f.toml"
    old = tmp_path / ".f.toml.ab_cd123.tmp"
    fresh = tmp_path / ".f.toml.zz9_y8x7.tmp"
    other = tmp_path / ".g.toml.ab_cd123.tmp"
    for left in (old, fresh, other):
        left.write_text("half a file")
    os.utime(old, (1, 1))
    os.utime(other, (1, 1))
    forcedoc.save_text(path, 'name = "new"\n')
    assert path.read_text() == 'name = "new"\n'
    assert sorted(os.listdir(tmp_path)) == sorted([other.name, fresh.name, "f.toml"])


def test_a_new_file_gets_the_default_mode(tmp_path: Path) -> None:
    doc = ForceDocument.new("deathzap3")
    with pytest.raises(ValueError, match="no file"):
        doc.save()
    doc.save(tmp_path / "n.toml")
    assert (tmp_path / "n.toml").stat().st_mode & 0o777 == forcedoc.NEW_FILE_MODE



# --- opening a file to edit (deathzap edit, the start screen) ------------------------


def test_open_a_missing_file_starts_an_empty_force_named_after_it(tmp_path: Path) -> None:
    path = tmp_path / "night-raiders.toml"
    doc = ForceDocument.open(path, "double-tap")
    assert doc.data() == {"name": "night-raiders", "ruleset": "double-tap"}
    assert doc.path == path and doc.source == str(path) and doc.modified
    assert ForceDocument.open(tmp_path / "x.toml").get("ruleset") == "deathzap3"


def test_open_an_existing_file_checks_the_ruleset_given(tmp_path: Path) -> None:
    path = FORCES / "ps-iron-choir.toml"
    assert ForceDocument.open(path, "plasmashok").text() == path.read_text()
    assert not ForceDocument.open(path).modified
    with pytest.raises(ValueError, match="is a plasmashok force file, not classic"):
        ForceDocument.open(path, "classic")
    default = tmp_path / "old.toml"  # no ruleset key: the default's
    default.write_text('name = "Old"\n')
    assert ForceDocument.open(default, "deathzap3").path == default
    with pytest.raises(ValueError, match="is a deathzap3 force file, not plasmashok"):
        ForceDocument.open(default, "plasmashok")


def test_setting_a_commented_key_of_a_shipped_force_keeps_its_place_and_comment() -> None:
    """The editor sets an existing key in place (an emptied field never deletes it):
    the line stays where it was, its comment after it."""
    path = FORCES / "dt-kestrel-cell.toml"
    doc = ForceDocument.load(path)
    doc.set("units[0].name", "Sergeant Vey")
    assert doc.text() == path.read_text()
    doc.set("units[0].name", "Sgt Vey")
    assert changed_lines(path.read_text(), doc.text()) == [
        '- name = "Sergeant Vey"              # 5 + 1 + 4 = 10',
        '+ name = "Sgt Vey"              # 5 + 1 + 4 = 10',
    ]

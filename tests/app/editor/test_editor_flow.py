"""Issue 22, the force editor as a new player meets it: the form's heading follows a
renamed unit; while some units have errors the others' points and the total so far
show, naming the units left out; a points limit (a game size) to build against,
shown as used/limit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app_helpers import aiotest, copy_forces
from editor_helpers import demo, editing, keys

from deathzap_tui.app.common.dialogs import PromptScreen
from deathzap_tui.forcedoc import ForceDocument
from deathzap_tui.forcefile import load_force


def points_panel(screen: Any) -> str:
    return str(screen.query_one("#points").render())


def heading(screen: Any) -> str:
    return str(screen.query_one("#form-heading").render())


@aiotest
async def test_the_form_heading_follows_a_renamed_unit(workdir: Path) -> None:
    async with editing(demo(workdir), size=(80, 24)) as (pilot, screen):
        await screen.go_to("units[0].name")
        await pilot.pause()
        old = str(screen.doc.get("units[0].name"))
        assert old in heading(screen)
        await keys(pilot, *"Vanguard")  # the field's text is selected: typing replaces it
        assert screen.doc.get("units[0].name") == "Vanguard"
        assert "Vanguard" in heading(screen) and old not in heading(screen)


@aiotest
async def test_points_so_far_while_a_unit_has_an_error(workdir: Path) -> None:
    red, _ = copy_forces(workdir, ("dt-kestrel-cell.toml", "dt-rustmoth-gang.toml"))
    report = load_force(red).ruleset.points(load_force(red).force)
    broken = report.units[1]
    async with editing(red, size=(120, 40)) as (pilot, screen):
        await screen.go_to("units[1].weapons")
        await pilot.pause()
        await keys(pilot, *"laser")  # no such weapon (DT §4)
        await pilot.pause()  # the total so far comes after the key's frame
        assert not screen.result.ok
        panel = points_panel(screen)
        assert "Points so far" in panel
        total = next(line for line in panel.splitlines() if line.startswith("Total so far"))
        assert int(total.split()[-1]) == report.total - broken.points
        assert f"not counted: {broken.name} (1 error to fix)" in panel
        assert broken.name not in panel.split("Total so far")[0]


def test_no_total_so_far_with_an_error_outside_the_units(workdir: Path) -> None:
    doc = ForceDocument.open(demo(workdir), None)
    assert doc.points_so_far(doc.check()) == (None, ())  # valid: the check's points
    doc.set("units[0].figures[1].count", 0)
    report, left_out = doc.points_so_far(doc.check())
    assert report is not None and left_out == (doc.get("units[0].name"),)
    doc.set("name", 5)  # an error of the force itself: no total to give
    assert doc.points_so_far(doc.check()) == (None, ())


@aiotest
async def test_a_points_limit_shows_used_over_limit(workdir: Path) -> None:
    path = demo(workdir)
    total = load_force(path).ruleset.points(load_force(path).force).total
    async with editing(path, size=(120, 40)) as (pilot, screen):
        await keys(pilot, "l")
        assert isinstance(pilot.app.screen, PromptScreen)
        await keys(pilot, *"x", "enter")  # refused: stays asking
        assert isinstance(pilot.app.screen, PromptScreen)
        await keys(pilot, "backspace", *str(total + 100), "enter")
        assert pilot.app.screen is screen and screen.limit == total + 100
        panel = points_panel(screen)
        assert f"{total}/{total + 100}" in panel and "100 left" in panel
        await keys(pilot, "l", *["backspace"] * 8, *str(total - 1), "enter")
        assert f"{total}/{total - 1}" in points_panel(screen)
        assert "1 over the limit" in points_panel(screen)
    async with editing(path, size=(80, 24)) as (pilot, screen):  # narrow: the status line
        screen.limit = 500
        screen._update_side()
        await pilot.pause()
        assert f"{total}/500 points" in str(screen.query_one("#editor-status").render())

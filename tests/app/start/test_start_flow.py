"""Issue 22, the start screen as a new player meets it at 80x24: the focus starts on
a field that shows it (Enter does something), and Classic's default pairing gives
each side the force named for it."""

from __future__ import annotations

from pathlib import Path

from app_helpers import aiotest, copy_forces
from textual.widgets import Input, Select

from deathzap_tui.app.app import DeathzapApp, Launch
from deathzap_tui.app.common.formrow import FormRow
from deathzap_tui.app.start.start import StartScreen
from deathzap_tui.headless.forcelist import pair_for

SMALL = (80, 24)


@aiotest
async def test_the_first_field_has_the_focus_and_shows_it(demo_paths) -> None:
    app = DeathzapApp(Launch("start", seed=7))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, StartScreen)
        ruleset = screen.query_one("#ruleset", Select)
        assert app.focused is ruleset
        rows = list(screen.query(FormRow))  # each draws its field's label

        def label_colour(row: FormRow) -> object:
            return row.get_component_rich_style("form-row--label").color

        focused_row = ruleset.parent
        assert isinstance(focused_row, FormRow)
        others = {label_colour(row) for row in rows if row is not focused_row}
        assert label_colour(focused_row) not in others
        seed = screen.query_one("#seed", Input)
        assert seed.styles.background != ruleset.styles.background  # (its own row)
        await pilot.press("enter")  # Enter acts on the first key: the ruleset list opens
        await pilot.pause()
        assert ruleset.expanded
        await pilot.press("escape")
        await pilot.press("tab")
        assert app.focused is screen.query_one("#red-pick", Select)
        await pilot.pause()
        lit = [row for row in rows if label_colour(row) not in others]
        assert lit == [app.focused.parent]  # the label follows the focus


@aiotest
async def test_classic_pairs_each_side_with_the_force_named_for_it(workdir: Path) -> None:
    red, black = copy_forces(workdir, ("cl-red-dawn-irregulars.toml",
                                       "cl-black-maw-brood.toml"))
    files = sorted((workdir / "forces").glob("*.toml"))
    assert files.index(black) < files.index(red)  # sorted, BLACK's file comes first
    assert pair_for(files, "classic") == (red, black)
    app = DeathzapApp(Launch("start", seed=7))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = app.screen
        screen.query_one("#ruleset", Select).value = "classic"
        await pilot.pause()
        assert screen.query_one("#red-path", Input).value.endswith(red.name)
        assert screen.query_one("#black-path", Input).value.endswith(black.name)

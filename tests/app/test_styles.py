"""Issue 21: an app opening on the start screen reads only ``START_STYLES`` before its
first frame, the other sheets (in ``STYLES``' order) before it shows another screen;
and no rule of those others styles a widget of the start screen (so reading them
later styles the start screen exactly as reading them up front did)."""

from __future__ import annotations

from app_helpers import aiotest
from textual.css.match import match
from textual.css.stylesheet import Stylesheet

from deathzap_tui.app.app import DeathzapApp, Launch
from deathzap_tui.app.start.start import StartScreen
from deathzap_tui.app.styles import START_STYLES, STYLES

SMALL = (80, 24)


def later_sheets(app: DeathzapApp) -> Stylesheet:
    """The sheets the start screen is shown without, parsed."""
    sheets = Stylesheet(variables=app.get_css_variables())
    for path in STYLES[len(START_STYLES):]:
        sheets.read(path)
    sheets.parse()
    return sheets


@aiotest
async def test_the_start_screen_is_styled_by_the_start_styles_alone(demo_paths) -> None:
    app = DeathzapApp(Launch("start", seed=7))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        read = [path for path in STYLES if app.stylesheet.has_source(str(path))]
        assert read == START_STYLES
        nodes = [app, *app.screen_stack, *app.screen.walk_children()]
        for rule in later_sheets(app).rules:
            styled = [node for node in nodes if match(rule.selector_set, node)]
            assert not styled, (rule.css, styled)


@aiotest
async def test_another_screen_reads_the_other_sheets_first(demo_paths) -> None:
    app = DeathzapApp(Launch("start", seed=7))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+g")  # a quick start: the battle screen
        await pilot.pause()
        assert not isinstance(app.screen, StartScreen)
        assert [path for path in STYLES if app.stylesheet.has_source(str(path))] == STYLES
        sheets = {str(path) for path in STYLES}
        read_order = [path for path, _ in app.stylesheet.source if path in sheets]
        assert read_order == [str(path) for path in STYLES]  # of two tied rules, the later wins


@aiotest
async def test_an_app_opening_on_another_screen_reads_every_sheet_up_front(demo_paths) -> None:
    app = DeathzapApp(Launch("resolve"))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert [path for path in STYLES if app.stylesheet.has_source(str(path))] == STYLES

"""The style sheets kept from one run of the app to the next (issue 21): a sheet kept
is the sheet parsed, used only by the same sheet, theme and parser, and only from a
file this user's key signed."""

from __future__ import annotations

import os
from typing import Any

from app_helpers import aiotest
from textual.css.stylesheet import Stylesheet

from deathzap_tui.app.app import DeathzapApp, Launch
from deathzap_tui.app.frames import KeptStylesheet
from deathzap_tui.app.stylecache import MAGIC, KeptSheets
from deathzap_tui.paths import kept_styles_path
from deathzap_tui.savesign import sign


async def start_screen() -> tuple[str, dict[Any, Any], KeptStylesheet]:
    """The start screen's first frame (as SVG text), its app's sheets, and its kept
    stylesheet (the app has quit: the sheets it parsed are kept)."""
    app = DeathzapApp(Launch("start", seed=7))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.export_screenshot()
        sources = dict(app.stylesheet.source)
    return screen, sources, app.kept_styles


def described(rules: list[Any]) -> list[tuple[Any, ...]]:
    """What a sheet's rules say and where they rank: selectors, declarations (their
    values by their repr: a layout, ``<vertical>``, is equal only to itself; ``.css``
    fails on Widget's ``link-background: initial`` whether parsed or kept), the
    important ones, defaults or not, tie-breaker, names and pseudo-classes matched."""
    return [(rule.selectors, repr(sorted(rule.styles.get_rules().items())),
             sorted(rule.styles.important), rule.is_default_rules, rule.tie_breaker,
             sorted(rule.selector_names), sorted(rule.pseudo_classes)) for rule in rules]


@aiotest
async def test_the_start_screen_is_drawn_alike_from_kept_sheets() -> None:
    parsed_screen, sources, first = await start_screen()
    assert first.sheets.used == set()
    assert len(first.sheets.kept) >= len(sources)  # every sheet parsed, kept as the app quit
    kept_screen, _, second = await start_screen()
    assert len(second.sheets.used) >= len(sources)
    assert second.sheets.parsed == {}  # nothing parsed again
    assert kept_screen == parsed_screen


@aiotest
async def test_kept_rules_are_the_rules_textual_parses() -> None:
    _, sources, _ = await start_screen()
    kept = KeptStylesheet(variables=DeathzapApp().get_css_variables())
    for read_from, (css, defaults, tie_breaker, scope) in sources.items():
        parsed = Stylesheet(variables=kept._variables)._parse_rules(
            css, read_from, defaults, tie_breaker, scope)
        rules = kept._parse_rules(css, read_from, defaults, tie_breaker, scope)
        assert described(rules) == described(parsed), read_from
    assert kept.sheets.parsed == {}


@aiotest
async def test_another_sheet_or_theme_is_parsed_again() -> None:
    _, sources, _ = await start_screen()
    variables = DeathzapApp().get_css_variables()
    (read_from, (css, defaults, tie_breaker, scope)), *_ = sources.items()
    edited = KeptStylesheet(variables=variables)
    edited._parse_rules(css + "\nLabel { color: red; }", read_from, defaults, tie_breaker, scope)
    assert edited.sheets.used == set()
    assert len(edited.sheets.parsed) == 1
    themed = KeptStylesheet(variables={**variables, "primary": "#123456"})
    themed._parse_rules(css, read_from, defaults, tie_breaker, scope)
    assert themed.sheets.used == set()
    assert len(themed.sheets.parsed) == 1
    same = KeptStylesheet(variables=variables)
    same._parse_rules(css, read_from, defaults, tie_breaker, scope)
    assert len(same.sheets.used) == 1
    assert same.sheets.parsed == {}


@aiotest
async def test_only_sheets_this_users_key_signed_are_read() -> None:
    await start_screen()
    assert KeptSheets.read().kept
    key = os.environ["DEATHZAP_CACHE_KEY"]
    os.replace(key, key + ".old")  # another key (made on first use) signed nothing here
    assert KeptSheets.read().kept == {}
    os.replace(key + ".old", key)
    sign(kept_styles_path(), MAGIC, lambda: b"not a pickle")
    assert KeptSheets.read().kept == {}
    kept_styles_path().write_bytes(b"forged")
    assert KeptSheets.read().kept == {}

"""The game-over screen with the end-of-game report (issue 14): snapshots at 80x24 and
120x40 of a finished golden game, a game played to its end in the app, and the
Markdown written beside the save with ``m``.

Numbers are never written here: every check compares the screen with what
``Session.report()`` returns, laid out by :mod:`deathzap_tui.reporttext`."""

from __future__ import annotations

import os
from typing import Any

from app_helpers import aiotest, battle_app, play_out
from ch_helpers import screen_text
from test_cl_golden import play_scripted_game
from test_dz3_golden import play_scripted_game as play_dz3_game

from deathzap_tui.app.app import GamePlan
from deathzap_tui.app.gameover.gameover import WORKING, GameOverScreen, ReportText
from deathzap_tui.headless.flow import new_session, quick_setup
from deathzap_tui.reporttext import as_markdown, luck_text, units_note, units_table
from deathzap_tui.rules.ruleset import ADVANCE, UNIT

SMALL = (80, 24)
LARGE = (120, 40)


async def until_report(pilot: Any) -> None:
    """Wait for the game-over screen and for its report (worked out in a thread)."""
    app = pilot.app
    for _ in range(50):
        if isinstance(app.screen, GameOverScreen):
            break
        await pilot.pause()
    assert isinstance(app.screen, GameOverScreen)
    await app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.pause()
    assert app.screen.report is not None


async def scrolled_to_report(pilot: Any) -> None:
    """The report, scrolled to the top of the screen (below the summary at 80x24)."""
    await until_report(pilot)
    screen = pilot.app.screen
    screen.query_one("#over-body").scroll_to_widget(screen.query_one("#report"),
                                                    animate=False, top=True)
    await pilot.pause()
    await pilot.pause()


def test_report_screen_small(snap_compare) -> None:
    """A finished Deathzap 3 game (the golden script), scrolled to its report: the
    score by event (DZ3 has no turns), then the units table."""
    assert snap_compare(battle_app(play_dz3_game()), terminal_size=SMALL,
                        run_before=scrolled_to_report)


def test_report_screen_large(snap_compare) -> None:
    """A finished Classic game (the golden script) at 120x40: the summary, then the
    score by turn across the width and the top of the units table."""
    assert snap_compare(battle_app(play_scripted_game()), terminal_size=LARGE,
                        run_before=until_report)


def shown(screen: GameOverScreen, part: str) -> tuple[str, int]:
    """The text of one part of the report as the screen renders it, and its width."""
    widget = screen.query_one(f"#report-{part}", ReportText)
    return widget.render().plain, widget.content_size.width


@aiotest
async def test_a_game_played_to_its_end_shows_its_report(demo_paths, monkeypatch) -> None:
    """Every action committed through the battle screen until the deck runs out
    (DZ3-R2): the game-over screen opens and shows the session's own report, worked
    out in a thread as a long game's is."""
    monkeypatch.setattr("deathzap_tui.app.gameover.gameover.QUICK_EVENTS", 0)
    session = new_session(GamePlan(*demo_paths, 7, {"end": "decks", "decks": 1}, "to-end"))
    quick_setup(session)
    app = battle_app(session)
    async with app.run_test(size=LARGE) as pilot:
        screen = app.screen
        for _ in range(400):
            if session.view().over:
                break
            options = ([o for o in screen.options if o.group == UNIT]
                       or [o for o in screen.options if o.group == ADVANCE])
            screen.commit(play_out(session, options[0]))
        assert session.over
        await until_report(pilot)
        over = app.screen
        report = session.report()
        assert over.report.to_json() == report.to_json()
        units, width = shown(over, "units")
        # The table, then what its columns count (issue 26)
        assert units == "\n".join([*units_table(report, width), *units_note(report, width)])
        for unit in report.units:  # each row carries that unit's numbers
            row = next(line for line in units.splitlines() if line.startswith(unit.name))
            numbers = [w for w in row.split() if w.isdigit()][-4:]
            assert numbers == [str(unit.kills), str(unit.damage_dealt),
                               str(unit.damage_taken), str(unit.figures_lost)]
        luck, width = shown(over, "luck")
        assert luck == "\n".join(luck_text(report, width))
        chart, width = shown(over, "chart")
        assert {len(line) for line in chart.splitlines()} == {width}
        text = screen_text(app)
        assert WORKING not in text and "Score over time" in text
        assert report.result in text


@aiotest
async def test_m_writes_the_markdown_report_beside_the_save() -> None:
    session = play_scripted_game()
    app = battle_app(session)
    async with app.run_test(size=SMALL) as pilot:
        await until_report(pilot)
        await pilot.press("m")
        await pilot.pause()
        written = session.path.with_name(f"{session.path.stem}-report.md")
        assert written.read_text(encoding="utf-8") == as_markdown(session.report())
        assert any(str(written) in n.message for n in app._notifications)


@aiotest
async def test_m_removes_what_an_interrupted_m_left() -> None:
    """Issue 19: temporary files of an interrupted atomic write were never removed."""
    session = play_scripted_game()
    report = session.path.with_name(f"{session.path.stem}-report.md")
    left = report.with_name(f".{report.name}.ab_cd123.tmp")
    left.write_text("half a report")
    os.utime(left, (1, 1))
    app = battle_app(session)
    async with app.run_test(size=SMALL) as pilot:
        await until_report(pilot)
        await pilot.press("m")
        await pilot.pause()
    assert report.exists() and not left.exists()

"""The battle screen's log draws a row once while it is shown (issue 24): every line
it draws is the one Textual draws of the whole text, however the rows came."""

from __future__ import annotations

import asyncio

from rich.text import Text
from textual.app import App, ComposeResult
from textual.widget import Widget

from deathzap_tui.app.common.log import EventLog
from deathzap_tui.app.styles import STYLES

LINES = [
    "RED activates Red Squad: 5 shots at Black Team.",
    "",
    "… RED: hit, in progress",
    "  ✓ BLACK, saves: rolled 5 2 6",
    "全角の文字 wide characters wrap by cells, not by letters",
    "[b]not markup[/b] and a very long word: " + "x" * 60,
]


class LogApp(App[None]):
    CSS_PATH = STYLES

    def compose(self) -> ComposeResult:
        yield EventLog(id="log")


def whole(log: EventLog) -> list:
    """The log's lines as Textual draws its whole text (``TailLog.render``)."""
    log._render_content()
    return [Widget.render_line(log, y) for y in range(log.size.height)]


def rows(log: EventLog) -> list:
    return [log.render_line(y) for y in range(log.size.height)]


def test_each_row_is_drawn_as_the_whole_text_draws_it() -> None:
    async def run() -> None:
        app = LogApp()
        async with app.run_test(size=(30, 12)) as pilot:
            log = app.query_one(EventLog)
            seen = 0
            for n, line in enumerate(LINES):  # one at a time: rows kept, moved up
                log.add([line], style="italic" if n % 2 else "")
                await pilot.pause()
                assert rows(log) == whole(log), line
                seen += 1
            log.drop_lines(2)  # an undo: rows come back from above
            await pilot.pause()
            assert rows(log) == whole(log)
            log.replace([*LINES[:3], "another end"])
            await pilot.pause()
            assert rows(log) == whole(log)
            await pilot.resize_terminal(22, 9)  # rewrapped: drawn again
            await pilot.pause()
            assert rows(log) == whole(log)
            log.set_lines([Text("one", style="bold")])  # fewer rows than the log holds
            await pilot.pause()
            assert rows(log) == whole(log)
            assert seen == len(LINES)

    asyncio.run(run())


def test_a_row_shown_already_is_not_drawn_again() -> None:
    async def run() -> None:
        app = LogApp()
        async with app.run_test(size=(30, 12)) as pilot:
            log = app.query_one(EventLog)
            log.add(LINES[:3])
            await pilot.pause()
            rows(log)
            drawn = {id(row): entry[1] for row, entry in
                     ((r, log._strips[id(r)]) for r in log.tail())}
            log.add(["one more"])
            await pilot.pause()
            rows(log)
            kept = [r for r in log.tail() if id(r) in drawn]
            assert kept and all(log._strips[id(r)][1] is drawn[id(r)] for r in kept)

    asyncio.run(run())

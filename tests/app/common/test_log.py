"""The battle screen's log follows a joined table's pushes in one edit (issue 24)."""

from __future__ import annotations

import asyncio

from rich.text import Text
from textual.app import App, ComposeResult

from deathzap_tui.app.common.log import EventLog
from deathzap_tui.app.styles import STYLES


class LogApp(App[None]):
    CSS_PATH = STYLES

    def compose(self) -> ComposeResult:
        yield EventLog(id="log")


def test_splice_keeps_the_beginning_and_adds_in_one_redraw() -> None:
    async def run() -> None:
        app = LogApp()
        async with app.run_test(size=(30, 12)) as pilot:
            log = app.query_one(EventLog)
            log.add(["one", "two", "three"])
            await pilot.pause()
            kept = log.lines[:2]
            redraws = []
            real = log.refresh
            log.refresh = lambda *a, **k: (redraws.append(1), real(*a, **k))  # type: ignore[method-assign]
            log.splice(2, [Text("four"), Text("five", style="italic")])
            assert [line.plain for line in log.lines] == ["one", "two", "four", "five"]
            assert log.lines[:2] == kept and log.lines[0] is kept[0]
            assert redraws == [1]
            log.splice(4, [])  # nothing to do: no redraw
            assert redraws == [1]
            log.splice(1, [])  # only dropped
            assert [line.plain for line in log.lines] == ["one"] and redraws == [1, 1]

    asyncio.run(run())

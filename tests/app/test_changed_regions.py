"""A partial frame renders only the widgets over a region that changed, and writes
the same bytes as Textual's, which renders every widget over the regions' union
(issue 24: a joined board's status line and log, at opposite corners, made every
frame of a push render the whole screen)."""

from __future__ import annotations

import asyncio
from typing import Any

from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static

from deathzap_tui.app.common.log import EventLog
from deathzap_tui.app.frames import ChangedRegions, RegionsCompositor
from deathzap_tui.app.styles import STYLES


class Board(ChangedRegions, Screen[None]):
    """Widgets beside and under each other, a log with a border among them."""

    def compose(self) -> ComposeResult:
        with Horizontal(id="top"):
            yield Static("status", id="a")
            yield Static("prompt", id="b")
        with Horizontal(id="main"):
            with Vertical():
                yield Static("red units\n1\n2", id="c")
                yield Static("black units\n3\n4", id="d")
            yield EventLog(id="e")
        yield Static("keys", id="f")

    def on_mount(self) -> None:
        for widget in self.query("#top, #top > *, #main > *"):
            widget.styles.width = "1fr"
        self.query_one("#top").styles.height = 1
        self.query_one("#main").styles.height = "1fr"


class BoardApp(App[None]):
    CSS_PATH = STYLES

    def get_default_screen(self) -> Screen[Any]:
        return Board()


def test_a_partial_frame_writes_what_textual_writes_rendering_fewer_widgets(
        monkeypatch) -> None:
    frames: list[tuple[str, str, int, int]] = []
    ours = RegionsCompositor.render_partial_update
    render_lines = Widget.render_lines
    rendered: list[Widget] = []

    def counted(widget: Widget, crop: Any) -> Any:
        rendered.append(widget)
        return render_lines(widget, crop)

    def both(compositor: RegionsCompositor) -> Any:
        """Textual's update and ours of the same dirty regions, as bytes."""
        dirty = set(compositor._dirty_regions)
        rendered.clear()
        theirs = compositor.__class__.__mro__[1].render_partial_update(compositor)
        by_textual = len(rendered)
        compositor._dirty_regions.update(dirty)
        rendered.clear()
        update = ours(compositor)
        console = compositor_app[0].console
        if update is not None and theirs is not None:
            frames.append((theirs.render_segments(console), update.render_segments(console),
                           by_textual, len(rendered)))
        return update

    compositor_app: list[App[None]] = []
    monkeypatch.setattr(Widget, "render_lines", counted)
    monkeypatch.setattr(RegionsCompositor, "render_partial_update", both)

    async def run() -> None:
        app = BoardApp()
        compositor_app.append(app)
        async with app.run_test(size=(60, 16)) as pilot:
            screen = app.screen
            assert isinstance(screen._compositor, RegionsCompositor)
            await pilot.pause()
            log = app.query_one(EventLog)
            for n, changes in enumerate((("a", "f"), ("c", "e"), ("b",), ("a", "d", "e", "f"))):
                frames.clear()
                for name in changes:
                    if name == "e":
                        log.add([f"line {n} of the log"])
                    else:
                        app.query_one(f"#{name}", Static).update(f"{name} {n}", layout=False)
                await pilot.pause()
                await pilot.pause()
                assert frames, changes
                for theirs, mine, by_textual, by_us in frames:
                    assert mine == theirs, changes
                    assert by_us <= by_textual
                if changes == ("a", "f"):  # opposite ends: the middle is not rendered
                    assert all(by_us < by_textual for *_, by_textual, by_us in frames)

    asyncio.run(run())

"""The game's event log in plain words, newest at the bottom.

A bottom-anchored tail: it renders the last lines that fit, wrapped to its width.
Unlike a RichLog (which scrolls to the end one frame *after* the new line is
drawn), adding a line repaints this widget once, in the same frame as the rest of
the key press. The whole narrative is one key away (``l``) on the log screen.

The lines change only at the end: a commit appends its lines, an undo drops the
undone event's, and :meth:`EventLog.replace` keeps every line already shown that
the new narrative still begins with, so no change rebuilds the whole log.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from rich.text import Text
from textual.widget import Widget

from deathzap_tui.app.common.text import clean


class TailLog(Widget):
    """Shows the tail of a list of (possibly styled) lines."""

    WHOLE: ClassVar[bool] = False
    """Show only whole lines: a line that does not fit wrapped is left out with the
    older ones (the last line is shown in part when it alone is too tall)."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.lines: list[Text] = []
        self._wrapped: dict[int, tuple[Text, int, list[Text]]] = {}
        """The lines the last render showed, wrapped: ``id(line)`` -> (line, width,
        rows). A line added redraws the whole tail; the lines above it are not
        wrapped again (a joined terminal's log changes at every answer given)."""

    def set_lines(self, lines: Iterable[Text]) -> None:
        self.lines = list(lines)
        self.refresh()

    def add_lines(self, lines: Iterable[Text]) -> None:
        self.lines.extend(lines)
        self.refresh()

    def drop_lines(self, count: int) -> None:
        """Remove the last ``count`` lines."""
        if count > 0:
            del self.lines[-count:]
            self.refresh()

    def splice(self, keep: int, lines: Iterable[Text]) -> None:
        """Keep the first ``keep`` lines and add ``lines`` after them: one redraw."""
        lines = list(lines)
        if keep < len(self.lines) or lines:
            del self.lines[keep:]
            self.lines.extend(lines)
            self.refresh()

    def render(self) -> Text:
        region = self.content_region
        width, height = max(1, region.width), max(1, region.height)
        console = self.app.console
        shown: list[Text] = []
        known, self._wrapped = self._wrapped, {}
        for line in reversed(self.lines):
            hit = known.get(id(line))
            if hit is not None and hit[0] is line and hit[1] == width:
                wrapped = hit[2]
            else:
                wrapped = list(line.wrap(console, width))
            self._wrapped[id(line)] = (line, width, wrapped)
            if self.WHOLE and shown and len(shown) + len(wrapped) > height:
                break
            shown[:0] = wrapped
            if len(shown) >= height:
                break
        return Text("\n").join(shown[-height:])


class EventLog(TailLog):

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.border_title = "Log"
        self.border_subtitle = "l: whole log"

    def add(self, lines: Iterable[str], *, style: str = "") -> None:
        self.add_lines(Text(clean(line), style=style) for line in lines)

    def replace(self, lines: Iterable[str]) -> None:
        """Show ``lines``, writing only where they differ from what is shown: the
        common beginning stays, the rest is dropped and the new end added."""
        new = [clean(line) for line in lines]
        keep = 0
        for shown, line in zip(self.lines, new, strict=False):
            if shown.plain != line:
                break
            keep += 1
        self.drop_lines(len(self.lines) - keep)
        if keep < len(new):
            self.add_lines(Text(line) for line in new[keep:])

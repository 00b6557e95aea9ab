"""The game's event log in plain words, newest at the bottom.

A bottom-anchored tail: it renders the last lines that fit, wrapped to its width.
Unlike a RichLog (which scrolls to the end one frame *after* the new line is
drawn), adding a line repaints this widget once, in the same frame as the rest of
the key press. The whole narrative is one key away (``l``) on the log screen.

The lines change only at the end: a commit appends its lines, an undo drops the
undone event's, and :meth:`EventLog.replace` keeps every line already shown that
the new narrative still begins with, so no change rebuilds the whole log.

The battle screen's log draws each row it shows once: a row keeps its drawn strip
while it stays on screen (:class:`EventLog`), so a joined terminal's log, redrawn at
every push, draws only the rows the push added.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from rich.text import Text
from textual.strip import Strip
from textual.style import Style
from textual.visual import Visual, visualize
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
        self.version = 0
        """Counts the changes to :attr:`lines`."""
        self._wrapped: dict[int, tuple[Text, int, list[Text]]] = {}
        """The lines the last render showed, wrapped: ``id(line)`` -> (line, width,
        rows). A line added redraws the whole tail; the lines above it are not
        wrapped again (a joined terminal's log changes at every answer given)."""

    def set_lines(self, lines: Iterable[Text]) -> None:
        self.lines = list(lines)
        self._changed()

    def add_lines(self, lines: Iterable[Text]) -> None:
        self.lines.extend(lines)
        self._changed()

    def drop_lines(self, count: int) -> None:
        """Remove the last ``count`` lines."""
        if count > 0:
            del self.lines[-count:]
            self._changed()

    def splice(self, keep: int, lines: Iterable[Text]) -> None:
        """Keep the first ``keep`` lines and add ``lines`` after them: one redraw."""
        lines = list(lines)
        if keep < len(self.lines) or lines:
            del self.lines[keep:]
            self.lines.extend(lines)
            self._changed()

    def _changed(self) -> None:
        self.version += 1
        self.refresh()

    def render(self) -> Text:
        return Text("\n").join(self.tail())

    def tail(self) -> list[Text]:
        """The wrapped rows shown, top to bottom: the last that fit."""
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
        return shown[-height:]


class EventLog(TailLog):
    """The battle screen's log. Each row is drawn once while it is shown: a joined
    terminal's log changes at every push (an answer given elsewhere adds a row at
    the end and moves the others up), and drawing all its rows again was most of
    such a frame. A row's strip is what Textual draws of the whole text's line
    (:meth:`render_line`); drawn on its own, it is moved to its line."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.border_title = "Log"
        self.border_subtitle = "l: whole log"
        self._drawn: tuple[tuple[int, int, int, Style], list[Strip]] | None = None
        """The rows' strips, on line 0, for (the lines' version, width, height, style)."""
        self._strips: dict[int, tuple[Text, Strip]] = {}
        """``id(row)`` -> (row, its strip on line 0) of the rows drawn for that key."""

    def render_line(self, y: int) -> Strip:
        if self.text_selection is not None:
            return super().render_line(y)  # a selection styles the whole text
        strips = self._row_strips()
        if not 0 <= y < len(strips):
            return Strip.blank(self.size.width, self.visual_style.rich_style)
        # Textual marks each cell with its offset in the text (for selecting it).
        return strips[y].apply_offsets(0, y) if y else strips[y]

    def _row_strips(self) -> list[Strip]:
        """The strip of each row shown (:meth:`tail`), a row drawn only if it was not
        at this width and style already."""
        region, style = self.content_region, self.visual_style
        width, height = max(1, region.width), max(1, region.height)
        key = (self.version, width, height, style)
        if self._drawn is not None and self._drawn[0] == key:
            return self._drawn[1]
        same = self._drawn is not None and self._drawn[0][1:] == key[1:]
        known, self._strips = (self._strips if same else {}), {}
        strips = []
        for row in self.tail():
            hit = known.get(id(row))
            if hit is not None and hit[0] is row:
                strip = hit[1]
            else:
                strip = Visual.to_strips(self, visualize(self, row), width, 1, style)[0]
            self._strips[id(row)] = (row, strip)
            strips.append(strip)
        self._drawn = (key, strips)
        return strips

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

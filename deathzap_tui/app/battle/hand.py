"""One side's secret lines (a hand of cards), for that side's eyes only.

Shows ``BoardView.private[side]`` as the ruleset wrote it: the first line as a
heading, every further line as an item. The lines are untrusted text and are shown
as plain ``Text`` (never parsed as markup), with control characters removed.

Where this widget may appear is decided by its owner: on a terminal that plays one
side (a joined game) it sits on the battle screen; on a shared terminal (hot-seat)
only the cover screen shows it, after the "pass the terminal" cover.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import Static

from deathzap_tui.app.common.paint import repaint
from deathzap_tui.app.common.text import clean
from deathzap_tui.headless.describe import side_label

SIDE_STYLE = {"red": "bold red", "black": "bold"}


def render_hand(lines: Sequence[str], *, compact: bool = False) -> Text:
    """The private lines: the first one bold, the rest as a list (``compact``: the
    first line only, e.g. the cards held without what each does)."""
    out = Text()
    for i, line in enumerate(lines[:1] if compact else lines):
        text = clean(line, oneline=True)
        if i == 0:
            out.append(text, style="bold")
        else:
            out.append("\n• ", style="dim").append(text)
    if not lines:
        out.append("Nothing secret to show.", style="dim")
    return out


class HandWidget(Static):
    """``show(side, lines)`` puts a side's private lines on screen; ``clear()`` takes
    them off again (the text is dropped, not only hidden). ``compact``: the first
    line only (the battle screen; the whole text is one key away)."""


    def __init__(self, *args, compact: bool = False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.compact = compact
        self.side = ""
        self.lines: tuple[str, ...] = ()

    def show(self, side: str, lines: Sequence[str]) -> None:
        lines = tuple(lines)
        if (side, lines) == (self.side, self.lines) and self.display:
            return
        self.side, self.lines = side, lines
        self.border_title = f"{side_label(side)} only"
        if self.compact and len(lines) > 1:
            self.border_subtitle = "h: details"
        self.display = True
        repaint(self, render_hand(lines, compact=self.compact))

    def clear(self) -> None:
        if not self.lines and not self.display:
            return  # already clear: no layout
        self.side, self.lines = "", ()
        self.border_title = ""
        self.update("")
        self.display = False

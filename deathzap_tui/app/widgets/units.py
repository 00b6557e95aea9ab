"""A side's unit status table: one row per unit, destroyed units dimmed.

Drawn as plain lines of :class:`~rich.text.Text`, one per unit, laid out for the
widget's own width at render time: no Rich table to measure cell by cell and no
repaint when the widget is resized. Columns are fitted to the width available:
headers shrink to their cells first ("Status" -> "St…"), then long text columns
(a list of guns) are cut to :data:`LONG` cells, then the unit name is shortened in
the middle, so at 80 columns every column stays visible and similar names stay told
apart.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget

from deathzap_tui.app.describe import side_label
from deathzap_tui.app.text import clean
from deathzap_tui.rules.ruleset import UnitRow

SIDE_STYLE = {"red": "bold red", "black": "bold"}
GAP = 1
LONG = 12
"""A column wider than this gives way (cut, with an ellipsis) before the unit name."""


def fit_widths(headers: Sequence[str], rows: Sequence[Sequence[str]], avail: int) -> list[int]:
    """Column widths that fit ``avail`` cells (column 0 is the name)."""
    n = len(headers)
    cells = [max([cell_len(r[i]) for r in rows if i < len(r)] + [0]) for i in range(n)]
    widths = [max(cell_len(h), c) for h, c in zip(headers, cells, strict=True)]
    budget = avail - GAP * max(0, n - 1)

    def over() -> int:
        return sum(widths) - budget

    for i in range(1, n):  # headers give way first ("Status" -> "St…")
        if over() <= 0:
            break
        widths[i] = max(min(widths[i], max(cells[i], 3)), 1)
    for i in sorted(range(1, n), key=lambda i: -widths[i]):  # then long text, widest first
        if over() <= 0 or widths[i] <= LONG:
            break
        widths[i] -= min(over(), widths[i] - LONG)
    if n and over() > 0:  # then the name, down to a readable minimum
        widths[0] = max(8, widths[0] - over())
    return widths


def squeeze(text: str, width: int) -> str:
    """Shorten from the middle, keeping both ends: "Blade Cell Penumbra" ->
    "Blade…numbra", so that similar names stay told apart."""
    if cell_len(text) <= width or width < 4:
        return text
    head = max(3, (width - 1) // 3)
    tail = width - 1 - head
    return text[:head].rstrip() + "…" + text[len(text) - tail:].lstrip()


def _line(cells: Sequence[Text], widths: Sequence[int]) -> Text:
    """Cells cut to their column (an ellipsis marks a cut), a gap between columns."""
    line = Text(no_wrap=True, overflow="crop", end="")
    for i, (cell, width) in enumerate(zip(cells, widths, strict=False)):
        if i:
            line.append(" " * GAP)
        cell.truncate(width, overflow="ellipsis", pad=i < len(cells) - 1)
        line.append_text(cell)
    return line


def render_units(columns: Sequence[str], rows: Sequence[UnitRow], avail: int) -> Text:
    """The table as text, ``avail`` cells wide: a header line, then a line a unit.
    Names are shown as plain text (never markup) with control characters removed."""
    headers = [clean(c, oneline=True) for c in columns]
    body = [[clean(c, oneline=True) for c in r.cells] for r in rows]
    widths = fit_widths(headers, body, avail)
    lines = [_line([Text(h, style="bold underline") for h in headers], widths)]
    for row, cells in zip(rows, body, strict=True):
        live = not row.gone
        cells = [squeeze(cells[0], widths[0]), *cells[1:]] if cells else cells
        texts = [Text(c, style="" if live else "dim strike") for c in cells]
        if texts and live and row.ready:
            texts[0].stylize("bold")
        lines.append(_line(texts, widths))
    return Text("\n", no_wrap=True, overflow="crop", end="").join(lines)


class UnitTable(Widget):
    """The status table of one side: re-rendered for its width whenever Textual
    paints it, so a resize or a new row of data costs this widget alone."""

    DEFAULT_CSS = """
    UnitTable { height: auto; }
    """

    def __init__(self, side: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.side = side
        self.add_class(side)
        self._columns: Sequence[str] = ()
        self._rows: Sequence[UnitRow] = ()
        self._title = ""

    def show(self, columns: Sequence[str], rows: Sequence[UnitRow], force_name: str,
             score: int | None, score_label: str) -> None:
        """``score`` is followed by ``score_label`` (``BoardView.score_label``)."""
        title = f"{side_label(self.side)} — {clean(force_name, oneline=True)}"
        if score is not None:
            title += f" — {score} {clean(score_label, oneline=True)}"
        if (title, columns, rows) == (self._title, self._columns, self._rows):
            return  # unchanged: no repaint
        taller = len(rows) != len(self._rows)
        if title != self._title:
            self.border_title = Text(title, style=SIDE_STYLE.get(self.side, "bold"))
        self._title, self._columns, self._rows = title, columns, rows
        self.refresh(layout=taller)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return 1 + len(self._rows) if self._columns else 0

    def render(self) -> Text:
        if not self._columns:
            return Text()
        return render_units(self._columns, self._rows, self.content_region.width)

"""A side's unit status table: one row per unit, destroyed units dimmed.

Rendered as one Rich table inside a Static (one repaint per update, much cheaper than
a DataTable). Columns are fitted to the width available: headers shrink to their cells first
("Status" -> "St…"), then the unit name is shortened in the middle, so at 80 columns
every column stays visible and similar names stay told apart.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from deathzap_tui.app.describe import side_label
from deathzap_tui.app.text import clean
from deathzap_tui.app.widgets.paint import repaint
from deathzap_tui.rules.ruleset import UnitRow

SIDE_STYLE = {"red": "bold red", "black": "bold"}
GAP = 1
MARK = 0


def fit_widths(headers: Sequence[str], rows: Sequence[Sequence[str]], avail: int) -> list[int]:
    """Column widths that fit ``avail`` cells (column 0 is the name)."""
    n = len(headers)
    cells = [max([cell_len(r[i]) for r in rows if i < len(r)] + [0]) for i in range(n)]
    widths = [max(cell_len(h), c) for h, c in zip(headers, cells, strict=True)]
    budget = avail - MARK - GAP * max(0, n - 1)

    def over() -> int:
        return sum(widths) - budget

    for i in range(1, n):  # headers give way first ("Status" -> "St…")
        if over() <= 0:
            break
        widths[i] = max(min(widths[i], max(cells[i], 3)), 1)
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


def render_units(columns: Sequence[str], rows: Sequence[UnitRow], avail: int) -> Table:
    headers = [clean(c, oneline=True) for c in columns]
    body = [[clean(c, oneline=True) for c in r.cells] for r in rows]
    widths = fit_widths(headers, body, avail)
    table = Table(box=None, show_edge=False, pad_edge=False, padding=(0, GAP, 0, 0),
                  expand=False, header_style="bold underline", collapse_padding=True)
    for header, width in zip(headers, widths, strict=True):
        table.add_column(header, width=width, no_wrap=True, overflow="ellipsis")
    for row, cells in zip(rows, body, strict=True):
        live = not row.gone
        cells = [squeeze(cells[0], widths[0]), *cells[1:]] if cells else cells
        texts = [Text(c, style="" if live else "dim strike") for c in cells]
        if texts and live and row.ready:
            texts[0].stylize("bold")
        table.add_row(*texts, style=None if live else "dim")
    return table


class UnitTable(Static):
    """The status table of one side."""

    DEFAULT_CSS = """
    UnitTable { height: auto; }
    """

    def __init__(self, side: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.side = side
        self.add_class(side)
        self._data: tuple[Sequence[str], Sequence[UnitRow]] | None = None

    def show(self, columns: Sequence[str], rows: Sequence[UnitRow], force_name: str,
             score: int | None = None) -> None:
        title = f"{side_label(self.side)} — {clean(force_name, oneline=True)}"
        if score is not None:
            title += f" — {score} VP"
        if (title, columns, rows) == getattr(self, "_last", None):
            return  # unchanged: no repaint
        self._last = (title, columns, rows)
        self.border_title = Text(title, style=SIDE_STYLE.get(self.side, "bold"))
        self._data = (columns, rows)
        self._paint()

    def _avail(self) -> int:
        width = self.content_region.width if self.size.width else 0
        if width <= 0:  # not laid out yet: guess from the screen
            width = max(20, self.app.size.width - 32)
        return width

    def _paint(self) -> None:
        if self._data is not None:
            repaint(self, render_units(*self._data, self._avail()))

    def on_resize(self) -> None:
        self._paint()

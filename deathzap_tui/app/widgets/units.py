"""A side's unit status table: one row per unit, destroyed units dimmed.

Drawn as plain lines of :class:`~rich.text.Text`, one per unit, laid out for the
widget's own width at render time: no Rich table to measure cell by cell and no
repaint when the widget is resized. Columns are fitted to the width available:
headers shrink to their cells first ("Status" -> "St…"), then long text columns
(a list of guns, a long status) are cut to :data:`LONG` cells, then the unit name is
shortened in the middle, but never so far that two names read alike: every column
stays visible at 80 columns, one line a unit, a cut shown by "…". When the widget is
shorter than its rows, destroyed units give way first and a last line says how many
are not shown ("+2 more"), so no unit is dropped without a sign.
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
    while over() > 0 and max(widths[1:], default=1) > 1:  # then the widest, a cell at a time
        i = max(range(1, n), key=lambda i: widths[i])
        widths[i] -= 1
    if n and widths[0] < cells[0]:  # names squeezed alike take cells from the others
        need = distinct_width([r[0] for r in rows if r], widths[0])
        for i in sorted(range(1, n), key=lambda i: -widths[i]):
            give = min(need - widths[0], widths[i] - 3)
            if give > 0:
                widths[i] -= give
                widths[0] += give
    return widths


def distinct_width(names: Sequence[str], width: int) -> int:
    """The narrowest width, from ``width`` up, at which :func:`squeeze` tells every
    name apart (ignoring case); the longest name's if none is."""
    longest = max([cell_len(n) for n in names] + [width])
    for w in range(width, longest):
        shown = [squeeze(n, w).casefold() for n in names]
        if len(set(shown)) == len(set(n.casefold() for n in names)):
            return w
    return longest


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


def shown_rows(rows: Sequence[UnitRow], room: int) -> list[UnitRow]:
    """The rows that fit ``room`` lines, in table order: all if they fit, else the
    units in play first (a destroyed or fled one gives way), keeping a line for
    "+N more"."""
    if len(rows) <= room:
        return list(rows)
    keep = max(0, room - 1)
    ranked = sorted(range(len(rows)), key=lambda i: (rows[i].gone, i))[:keep]
    return [rows[i] for i in sorted(ranked)]


def render_units(columns: Sequence[str], rows: Sequence[UnitRow], avail: int,
                 height: int | None = None) -> Text:
    """The table as text, ``avail`` cells wide and at most ``height`` lines: a header
    line, then a line a unit (and "+N more" for those that do not fit). Names are
    shown as plain text (never markup) with control characters removed."""
    headers = [clean(c, oneline=True) for c in columns]
    body = [[clean(c, oneline=True) for c in r.cells] for r in rows]
    widths = fit_widths(headers, body, avail)
    lines = [_line([Text(h, style="bold underline") for h in headers], widths)]
    shown = rows if height is None else shown_rows(rows, max(1, height - 1))
    visible = {id(r) for r in shown}
    for row, cells in zip(rows, body, strict=True):
        if id(row) not in visible:
            continue
        live = not row.gone
        cells = [squeeze(cells[0], widths[0]), *cells[1:]] if cells else cells
        texts = [Text(c, style="" if live else "dim strike") for c in cells]
        if texts and live and row.ready:
            texts[0].stylize("bold")
        lines.append(_line(texts, widths))
    hidden = [r for r in rows if id(r) not in visible]
    if hidden:
        gone = sum(r.gone for r in hidden)
        more = f"+{len(hidden)} more" + (f" ({gone} destroyed or fled)" if gone else "")
        lines.append(Text(more, style="italic", no_wrap=True, overflow="ellipsis", end=""))
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
        region = self.content_region
        return render_units(self._columns, self._rows, region.width, region.height)

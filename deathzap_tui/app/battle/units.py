"""A side's unit status table: one row per unit, destroyed units dimmed.

Drawn as plain lines of :class:`~rich.text.Text`, laid out for the widget's own width
at render time: no Rich table to measure cell by cell and no repaint when the widget
is resized. Nothing is ever cut mid-word (issue 22). The layout is decided per width,
as table-side trackers do: every column at its natural width if they fit; else the
headers the ruleset abbreviates (:class:`~deathzap_tui.rules.ruleset.Column`) take
their short form; else whole columns give way in the ruleset's order (their values
stay on the unit's card); a long state wraps onto more lines under its own column. A
legend under the table explains the short headers and names the columns not shown.
Unit names are always whole: only a name longer than the table can spare wraps at its
spaces. When the widget is shorter than its lines, the legend goes first, then
destroyed units give way and a last line says how many are not shown ("+2 more"), so
no unit is dropped without a sign.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from rich.cells import cell_len, chop_cells, set_cell_size
from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget

from deathzap_tui.app.common.text import clean
from deathzap_tui.headless.describe import side_label
from deathzap_tui.rules.ruleset import Column, UnitRow

SIDE_STYLE = {"red": "bold red", "black": "bold"}
GAP = 1
MIN_WRAP = 12
"""A wrapping column (a state) narrower than this makes another column give way."""
MAX_LINES = 2
"""A unit's row wraps onto a second line, no more, while a column can give way."""


@dataclass(frozen=True)
class Layout:
    """Which columns a table shows at one width, how wide, under which headers."""

    shown: tuple[int, ...]
    """Indexes into the columns, the name (0) first."""
    widths: tuple[int, ...]
    headers: tuple[str, ...]
    wraps: tuple[bool, ...]
    """Per shown column: its text wraps (the name wraps only when squeezed)."""
    legend: str
    hint: str = ""
    """The legend in brief, for the table's title when it has no line of its own
    ("Sh shields · card: Skill")."""


def wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` cells, broken at spaces; a word longer
    than a line is folded onto the next, never cut."""
    if cell_len(text) <= width:
        return [text]
    width = max(1, width)
    lines: list[str] = []
    line, used = "", 0
    for word in text.split():
        size = cell_len(word)
        if size > width:  # a word longer than a line: folded, whole
            if line:
                lines.append(line)
            *full, word = chop_cells(word, width)
            lines.extend(full)
            line, used = word, cell_len(word)
        elif line and used + 1 + size > width:
            lines.append(line)
            line, used = word, size
        else:
            line, used = (f"{line} {word}", used + 1 + size) if line else (word, size)
    return [*lines, line] if line else lines or [""]


def _longest_word(texts: Sequence[str]) -> int:
    return max([cell_len(w) for t in texts for w in t.split()] + [1])


def _fit(natural: list[int], least: list[int], flexible: list[int], room: int) -> list[int] | None:
    """Widths within ``room``: the ``flexible`` columns (in that order of need) share
    what the others leave, none below its ``least``; ``None`` if they cannot."""
    widths = list(natural)
    fixed = sum(w for i, w in enumerate(widths) if i not in flexible)
    left = room - fixed
    if left < sum(least[i] for i in flexible):
        return None
    for n, i in enumerate(flexible):  # a fair share each, the rest to those that need it
        share = max(least[i], left // (len(flexible) - n))
        widths[i] = min(natural[i], share)
        left -= widths[i]
    for i in flexible:
        grow = min(left, natural[i] - widths[i])
        widths[i] += grow
        left -= grow
    return widths


def plan(columns: Sequence[str], hints: Sequence[Column], body: Sequence[Sequence[str]],
         avail: int) -> list[Layout]:
    """The layouts that fit ``avail`` cells, most shown first: all columns; then the
    short headers; then columns dropped one by one in the hints' order. If none fits
    (a name longer than the table can spare), one where every column, the names too,
    wraps at its spaces: there is always one."""
    hints = [*hints, *[Column()] * (len(columns) - len(hints))][:len(columns)]
    order = sorted((i for i in range(1, len(columns)) if hints[i].drop),
                   key=lambda i: hints[i].drop)
    cells = [[r[i] if i < len(r) else "" for r in body] for i in range(len(columns))]
    widest = [max([cell_len(c) for c in column] + [0]) for column in cells]
    out: list[Layout] = []
    for dropped in range(len(order) + 1):
        shown = tuple(i for i in range(len(columns)) if i not in order[:dropped])
        for short in (False, True):
            if short and not any(hints[i].short for i in shown):
                continue
            layout = _layout(columns, hints, (cells, widest), shown, short, order[:dropped],
                             avail, squeeze_names=False)
            if layout is not None:
                out.append(layout)
    if not out:
        shown = tuple(i for i in range(len(columns)) if i not in order)
        squeezed = _layout(columns, hints, (cells, widest), shown, True, order, avail,
                           squeeze_names=True)
        assert squeezed is not None  # squeezing always gives one
        out.append(squeezed)
    return out


def _layout(columns: Sequence[str], hints: Sequence[Column],
            measured: tuple[Sequence[Sequence[str]], Sequence[int]], shown: tuple[int, ...],
            short: bool, dropped: Sequence[int], avail: int, *,
            squeeze_names: bool) -> Layout | None:
    """One layout of :func:`plan` (``measured``: each column's cells and its widest
    cell), or ``None`` if it does not fit ``avail``."""
    cells, widest = measured
    headers = [hints[i].short if short and hints[i].short else columns[i] for i in shown]
    natural = [max(cell_len(h), widest[i]) for h, i in zip(headers, shown, strict=True)]
    wraps = [hints[i].wrap for i in shown]
    least = [max(cell_len(h), min(n, MIN_WRAP)) if w else n
             for h, n, w in zip(headers, natural, wraps, strict=True)]
    flexible = [k for k, w in enumerate(wraps) if w]
    if squeeze_names and shown:  # the last resort: every column wraps at its spaces
        least = [max(cell_len(h), min(n, _longest_word(cells[i])))
                 for h, n, i in zip(headers, natural, shown, strict=True)]
        least[0] = min(natural[0], max(least[0], avail // 3))
        flexible = [*range(1, len(shown)), 0]
        wraps = [True] * len(shown)
    room = avail - GAP * max(0, len(shown) - 1)
    widths = _fit(natural, least, flexible, room)
    if widths is None:
        if not squeeze_names:
            return None
        widths = least
    legend = [f"{hints[i].short} {hints[i].meaning}" for i in shown
              if short and hints[i].short and hints[i].meaning]
    hint = list(legend)
    if dropped:
        names = ", ".join(columns[i] for i in sorted(dropped))
        legend.append(f"on the unit card: {names}")
        hint.append(f"card: {names}")
    return Layout(shown, tuple(widths), tuple(headers), tuple(wraps), " · ".join(legend),
                  " · ".join(hint))


def _row_lines(cells: Sequence[str], layout: Layout) -> list[list[str]]:
    """The row's shown cells, each as its lines (one unless it wraps)."""
    out = []
    for i, width, wraps in zip(layout.shown, layout.widths, layout.wraps, strict=True):
        text = cells[i] if i < len(cells) else ""
        out.append(wrap(text, width) if wraps else [text])
    return out


def _height(row_cells: Sequence[Sequence[str]], layout: Layout) -> list[int]:
    return [max(len(c) for c in _row_lines(cells, layout)) for cells in row_cells]


def shown_rows(rows: Sequence[UnitRow], heights: Sequence[int], room: int) -> list[int]:
    """The indexes of the rows that fit ``room`` lines, in table order: all if they
    fit, else the units in play first (a destroyed or fled one gives way), keeping a
    line for "+N more"."""
    if sum(heights) <= room:
        return list(range(len(rows)))
    keep, used = [], 1
    for i in sorted(range(len(rows)), key=lambda i: (rows[i].gone, i)):
        if used + heights[i] > room:
            continue  # a shorter row after it may still fit
        keep.append(i)
        used += heights[i]
    return sorted(keep)


def choose(columns: Sequence[str], hints: Sequence[Column], rows: Sequence[UnitRow],
           avail: int, height: int | None = None) -> tuple[Layout, list[list[str]], list[int]]:
    """The layout for ``avail`` cells and ``height`` lines (``None``: no limit): the
    first of :func:`plan` whose rows all fit, none of them on more than
    :data:`MAX_LINES` (and, if it shortens headers, the legend explaining them), else
    the one needing the fewest lines. Returns it with
    the cleaned cells and each row's lines. Remembered: a board's tables are measured
    and drawn several times a key press with the same rows."""
    return _choose(tuple(columns), tuple(hints), tuple(rows), avail, height)


@lru_cache(maxsize=16)
def _choose(columns: tuple[str, ...], hints: tuple[Column, ...], rows: tuple[UnitRow, ...],
            avail: int, height: int | None) -> tuple[Layout, list[list[str]], list[int]]:
    body = [[clean(c, oneline=True) for c in r.cells] for r in rows]
    best: tuple[Layout, list[int]] | None = None
    for layout in plan(columns, hints, body, avail):
        heights = _height(body, layout)
        # Short headers only with the legend that explains them in view.
        need = len(wrap(layout.legend, avail)) if layout.headers != tuple(
            columns[i] for i in layout.shown) else 0
        if max(heights, default=1) <= MAX_LINES and (
                height is None or 1 + sum(heights) + need <= height):
            return layout, body, heights
        if best is None or sum(heights) < sum(best[1]):
            best = layout, heights
    assert best is not None
    return best[0], body, best[1]


def _line(cells: Sequence[str], widths: Sequence[int], style: str, first: str = "") -> Text:
    """Cells padded to their column (the last one not) in ``style``, a gap between
    columns; the first cell's text (not its padding) in ``first`` if given."""
    line = Text(no_wrap=True, overflow="crop", end="")
    last = len(cells) - 1
    for i, (cell, width) in enumerate(zip(cells, widths, strict=True)):
        if i:
            line.append(" " * GAP)
        shown = set_cell_size(cell, width) if cell_len(cell) > width else cell
        line.append(shown, style=(first if i == 0 and first else style) or None)
        if i < last and cell_len(shown) < width:
            line.append(" " * (width - cell_len(shown)), style=style or None)
    line.rstrip()
    return line


def units_height(columns: Sequence[str], hints: Sequence[Column], rows: Sequence[UnitRow],
                 avail: int) -> int:
    """The lines :func:`render_units` takes at ``avail`` cells with no height limit."""
    if not columns:
        return 0
    layout, _body, heights = choose(columns, hints, rows, avail)
    legend = len(wrap(layout.legend, avail)) if layout.legend else 0
    return 1 + sum(heights) + legend


def render_units(columns: Sequence[str], rows: Sequence[UnitRow], avail: int,
                 height: int | None = None, hints: Sequence[Column] = (),
                 selected: str = "") -> Text:
    """The table as text, ``avail`` cells wide and at most ``height`` lines: a header
    line, then each unit on its lines, then the legend (and "+N more" for the units
    that do not fit). ``selected`` is the id of the unit shown reversed. Names are
    shown as plain text (never markup) with control characters removed."""
    headers = [clean(c, oneline=True) for c in columns]
    layout, body, heights = choose(headers, hints, rows, avail, height)
    lines = [_line(layout.headers, layout.widths, "bold underline")]
    room = 10**6 if height is None else max(1, height - 1)
    visible = shown_rows(rows, heights, room)
    for index in visible:
        row = rows[index]
        style = "" if not row.gone else "dim strike"
        name = " ".join([style] + ["bold"] * (row.ready and not row.gone)
                        + ["reverse"] * (row.id == selected)).strip()
        cells = _row_lines(body[index], layout)
        for n in range(heights[index]):
            lines.append(_line([c[n] if n < len(c) else "" for c in cells], layout.widths,
                               style, name))
    hidden = [r for i, r in enumerate(rows) if i not in visible]
    if hidden:
        gone = sum(r.gone for r in hidden)
        more = f"+{len(hidden)} more" + (f" ({gone} destroyed or fled)" if gone else "")
        lines.append(Text(more, style="italic", no_wrap=True, overflow="ellipsis", end=""))
    elif _legend_fits(layout, sum(heights[i] for i in visible), avail, height):
        lines.extend(Text(line, style="dim italic", end="")
                     for line in wrap(layout.legend, avail))
    return Text("\n", no_wrap=True, overflow="crop", end="").join(lines)


def _legend_fits(layout: Layout, rows_lines: int, avail: int, height: int | None) -> bool:
    """There is a legend and room for it under the header and ``rows_lines``."""
    return bool(layout.legend) and (
        height is None or 1 + rows_lines + len(wrap(layout.legend, avail)) <= height)


def legend_hint(columns: Sequence[str], hints: Sequence[Column], rows: Sequence[UnitRow],
                avail: int, height: int | None) -> str:
    """The legend in brief (:attr:`Layout.hint`) when :func:`render_units` has no line
    for it at ``avail`` x ``height`` (issue 22: Deathzap 3's busy board at 80x24 sent
    Skill and Where to the card without naming them); "" when the legend is shown or
    there is none."""
    if not columns:
        return ""
    headers = [clean(c, oneline=True) for c in columns]
    layout, _body, heights = choose(headers, hints, rows, avail, height)
    room = 10**6 if height is None else max(1, height - 1)
    visible = shown_rows(rows, heights, room)
    if not layout.hint or (len(visible) == len(rows) and _legend_fits(
            layout, sum(heights), avail, height)):
        return ""
    return layout.hint


class UnitTable(Widget):
    """The status table of one side: re-rendered for its width whenever Textual
    paints it, so a resize or a new row of data costs this widget alone."""


    def __init__(self, side: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.side = side
        self.add_class(side)
        self._columns: Sequence[str] = ()
        self._hints: Sequence[Column] = ()
        self._rows: Sequence[UnitRow] = ()
        self._title = ""
        self._short_titles: tuple[str, ...] = ()
        """Shorter titles for a hint that leaves no room for the whole one: without the
        score (the score panel shows it), then without the force's name."""
        self._hint = ""
        self._shown_title = Text()
        self._selected = ""

    def show(self, columns: Sequence[str], rows: Sequence[UnitRow], force_name: str,
             score: int | None, score_label: str, hints: Sequence[Column] = (),
             selected: str = "") -> None:
        """``score`` is followed by ``score_label`` (``BoardView.score_label``);
        ``hints`` are ``BoardView.column_hints``; ``selected`` the unit id shown
        reversed (the battle screen's selected row)."""
        scored = "" if score is None else f" — {score} {clean(score_label, oneline=True)}"
        title = f"{side_label(self.side)} — {clean(force_name, oneline=True)}{scored}"
        named = f"{side_label(self.side)} — {clean(force_name, oneline=True)}"
        self._short_titles = (named, side_label(self.side) + scored)
        shown = (title, columns, rows, tuple(hints), selected)
        if shown == (self._title, self._columns, self._rows, tuple(self._hints),
                     self._selected):
            return  # unchanged: no repaint
        width = self.content_region.width
        before = units_height(self._columns, self._hints, self._rows, width)
        self._columns, self._rows = columns, rows
        self._hints, self._selected = hints, selected
        # A layout pass only when the table needs another number of lines.
        layout = not width or units_height(columns, hints, rows, width) != before
        self._sync_title(title)
        self.refresh(layout=layout)

    def on_resize(self) -> None:
        self._sync_title(self._title)

    def _sync_title(self, title: str) -> None:
        """Show ``title`` and the legend in brief for the rows at the table's size
        (:func:`legend_hint`). Decided where the rows or the size change, not as the
        table is drawn: a title changed then is drawn only by a second frame (the
        border is drawn from the title before the lines: issue 21)."""
        region = self.content_region
        self._title = title
        self._hint = legend_hint(self._columns, self._hints, self._rows, region.width,
                                 region.height) if region else ""
        self._show_title()

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return units_height(self._columns, self._hints, self._rows, width)

    def render(self) -> Text:
        if not self._columns:
            return Text()
        region = self.content_region
        return render_units(self._columns, self._rows, region.width, region.height,
                            self._hints, self._selected)

    def _show_title(self) -> None:
        """The side, force and score, then the legend in brief when the table has no
        line for it (``· card: Skill, Where``); when both do not fit the score gives way
        to the hint (the score panel shows it), then the force's name; the hint when
        nothing does (the border keeps 3 cells each side of its title)."""
        hint = f" · {self._hint}" if self._hint else ""
        room = self.size.width - 6
        title = next((t for t in (self._title, *self._short_titles)
                      if hint and cell_len(t + hint) <= room), None)
        text = Text(title or self._title, style=SIDE_STYLE.get(self.side, "bold"))
        if title:
            text.append(hint, style="italic")
        if text != self._shown_title:  # setting it repaints the table
            self._shown_title = text
            self.border_title = text

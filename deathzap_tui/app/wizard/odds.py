"""The odds panel of the resolution wizard (issue 4): the exact odds of the attack
being resolved, per target, updated after every answer.

Layout (styles in ``wizard.tcss``):

* **under 120 columns** (80x24 included) the panel is a strip between the history
  and the step: two lines per target, every number the ruleset's odds carry, from
  their labelled rows (``rules/odds.py``: the expected values, such as hits with
  their distribution, damage, shields left, wounds, casualties; the headline
  chances, such as P(at least one casualty), P(wiped out), P(breaks) with and without
  a leader near, P(panicked) with its chance from any cause; or an outcomes table
  such as a vehicle's damage table) and the whole casualty distribution as a
  one-line sparkline. No ruleset is named here. At 80x24 the step box
  and the key bar leave eight rows: a bar chart there would push out the history, so
  it is one key away: ctrl+o (or a click) swaps the history for the *detail* view,
  whose bar chart groups counts into ranges to fit the rows there are.
* **120 columns and more** it is a side column, always the detail view: the current
  target with a horizontal bar chart (up to 11 rows), other targets of a split fire as
  compact blocks below it.

The panel never takes focus and never blocks input; it is recomputed synchronously
(about a millisecond, see ``headless/oddsview.py``) and repainted only when it changes.
All text is plain (``rich.text.Text``), never markup: unit and weapon names come from
force files.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.widget import Widget

from deathzap_tui import oddstext as ot
from deathzap_tui.headless.oddsview import OddsEntry, entries_for, signature
from deathzap_tui.rules.odds import Mean, Odds

BAR_WIDTH = 22
"""Cells for the longest bar in the detail view (the side column is 46 wide)."""
DETAIL_FIXED = 5
"""Lines of the detail view above the bar chart: header, expected, chances (2), title
(and a line per :func:`spark_charts` where the odds ask for one)."""


def _num(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".") if x else "0"


def _as_declared(entry: OddsEntry) -> str:
    if not entry.current:
        return "next"
    return "as declared" if entry.stage in ("declared", "hit") else "given the dice so far"


def header(entry: OddsEntry) -> Text:
    """``▶ Black Pickets ← Small Arms (shooting) · as declared``."""
    out = Text()
    out.append("▶ " if entry.current else "· ", style="bold" if entry.current else "dim")
    out.append(entry.label, style="bold")
    if entry.what:
        out.append(" ← " + entry.what)
    out.append(f" · {_as_declared(entry)}", style="dim")
    if entry.queued:
        more = "attack" if entry.queued == 1 else "attacks"
        out.append(f" (+{entry.queued} {more} after)", style="dim")
    return out


def _mean(mean: Mean, spark: bool) -> str:
    """``hits 2.5``, ``shields left 1.5 of 2``, with the distribution where there is
    one (and ``spark``): ``hits 2.5 (0 ▃█▆▂ 6)``."""
    text = f"{mean.name} {_num(mean.value)}"
    if mean.of is not None:
        text += f" of {mean.of}"
    if spark and mean.dist is not None:
        lo, line, hi = ot.spark_span(mean.dist)
        if hi > lo:
            text += f" ({lo} {line} {hi})"
    return text


def expected(odds: Odds, width: int = 0) -> str:
    """The expected values in one line ("" where the odds have none). Where that line
    is wider than ``width`` (the strip does not wrap) the distributions give way, so
    that the casualties at the end of the line stay in sight."""
    def line(spark: bool) -> str:
        parts = [_mean(m, spark) for m in odds.means()]
        if odds.shows_casualties:
            parts.append(f"casualties {_num(odds.mean_casualties)} of {odds.figures}")
        return "Expected " + ", ".join(parts) if parts else ""

    text = line(spark=True)
    if width and len(text) > width:
        text = line(spark=False)
    return text


def chances(odds: Odds, *, short: bool) -> list[str]:
    """The headline chances as short phrases, in the ruleset's order; an aside in
    brackets after the phrase it belongs to (left out with it)."""
    p = ot.short_pct if short else ot.pct
    out: list[str] = []
    shown = False
    for row in odds.chances():
        label = row.tight if short and row.tight is not None else row.label
        if row.aside:
            if shown and label:
                out[-1] += f" ({label} {p(row.p)})"
            continue
        shown = bool(label)
        if shown:
            out.append(f"{label} {p(row.p)}")
    return out


def spark_line(odds: Odds) -> Text:
    """``casualties 0 ▂▆█▅▂ 4``: the whole distribution in one line."""
    out = Text("0 ", style="dim")
    out.append(ot.spark(odds.casualties), style="bold")
    out.append(f" {len(odds.casualties) - 1}", style="dim")
    return out


def spark_charts(odds: Odds) -> list[Text]:
    """``wounds 0 ▂▆█▅▂ 9``: each distribution the odds ask the panel to draw (wounds,
    several per model: the casualties alone hide them), one line each."""
    out = []
    for chart in odds.charts():
        if chart.spark:
            lo, line, hi = ot.spark_span(chart.dist)
            text = Text(f"{chart.title.lower()} {lo} ", style="dim")
            text.append(line, style="bold")
            text.append(f" {hi}", style="dim")
            out.append(text)
    return out


def brief(entry: OddsEntry) -> list[Text]:
    """One line: the target and its headline chances (another target of a split fire,
    in the narrow layout)."""
    line = Text("· ", style="dim")
    line.append(entry.label, style="bold")
    line.append(": " + " · ".join(chances(entry.odds, short=True)[:3]))
    line.append(" (next)", style="dim")
    return [line]


def compact(entry: OddsEntry, width: int = 0) -> list[Text]:
    """Header, expected values (fitted to ``width``, 0: any), chances and the
    casualty sparkline."""
    odds = entry.odds
    first = header(entry)
    line = expected(odds, width)
    if line:
        first.append("\n")
        first.append(line)
    second = Text(" · ".join(chances(odds, short=True)))
    if odds.shows_casualties:
        second.append(" · ")
        second.append_text(spark_line(odds))
    return [first, second]


def detail(entry: OddsEntry, rows: int = 11, width: int = BAR_WIDTH,
           height: int = 0) -> list[Text]:
    """Header, expected values, chances, and a horizontal bar chart of at most
    ``rows`` rows (casualties, or the outcomes table the odds carry, such as a
    vehicle's damage table), fewer (3 at least) to fit in ``height`` lines (0: no
    limit)."""
    odds = entry.odds
    sparks = spark_charts(odds)
    if height:
        rows = min(rows, max(height - DETAIL_FIXED - len(sparks), 3))
    lines = [header(entry)]
    line = expected(odds)
    if line:
        lines.append(Text(line))
    table = odds.table
    if table is not None:
        lines.append(Text(table.heading, style="bold"))
        pad = max(len(row.label) for row in table.rows)
        bars = ot.bar_rows([(row.label, row.p or 0.0) for row in table.rows], width)
        for label, pc, bar in bars[:max(rows, 1)]:
            lines.append(Text(f" {label:<{pad}} {pc:>6} {bar}"))
        return lines
    phrases = chances(odds, short=False)
    lines.append(Text(" · ".join(phrases[:2])))
    if phrases[2:]:
        lines.append(Text(" · ".join(phrases[2:])))
    if not odds.shows_casualties:
        return lines
    lines += sparks
    lines.append(Text("Casualties", style="bold"))
    counts = ot.count_rows(odds.casualties, max_rows=max(rows, 3))
    pad = max(len(label) for label, _ in counts)
    for label, pc, bar in ot.bar_rows(counts, width):
        lines.append(Text(f" {label:>{pad}} {pc:>6} {bar}"))
    return lines


def columns(entry: OddsEntry, height: int, width: int) -> list[Text]:
    """The detail view for a short, wide space (80x24): header, expected values,
    chances, and the casualty distribution as a column chart with each count's
    percent under it (7 lines for a unit of up to 10 figures); or the outcomes table
    the odds carry, as phrases; or, for odds with neither, their chances."""
    odds = entry.odds
    lines = [header(entry)]
    table = odds.table
    if table is None and not odds.shows_casualties:
        return [*lines, Text(" · ".join(chances(odds, short=False)))]
    line = expected(odds, width)
    if line:
        lines.append(Text(line))
    if table is not None:
        lines.append(Text(table.heading, style="bold"))
        line = ""
        for row in table.rows:
            item = f"{row.label} {ot.pct(row.p)}"
            if line and len(line) + len(item) + 3 > width:
                lines.append(Text(line))
                line = ""
            line = f"{line} · {item}" if line else item
        lines.append(Text(line))
        return lines
    lines.append(Text(" · ".join(chances(odds, short=True))))
    gutter = 11
    counts = ot.count_rows(odds.casualties, max_rows=max(3, min(11, (width - gutter) // 5)))
    col = max(5, min(8, (width - gutter) // max(len(counts), 1)))
    bars = max(1, height - len(lines) - 2) if height else 4
    chart = ot.column_chart(counts, min(bars, 6), col)
    names = [""] * (len(chart) - 2) + ["casualties", "chance"]
    lines += [Text(f"{name:>{gutter - 1}} ", style="dim") + Text(line)
              for name, line in zip(names, chart, strict=True)]
    return lines


def panel_text(entries: Sequence[OddsEntry], *, full: bool, height: int = 0,
               width: int = 0, side: bool = True) -> Text:
    """The panel's text: ``full`` = the detail view of the first entry and compact
    blocks for the other targets; otherwise a compact block for the first and one
    line for each other. ``height`` (0: no limit) shrinks the bar chart to fit;
    ``width`` (0: default) sizes the bars. ``side``: the detail view is a tall side
    column (horizontal bars); otherwise a short strip (a column chart)."""
    lines: list[Text] = []
    rest = list(entries)
    if rest:
        first = rest.pop(0)
        if full and not side:
            lines += columns(first, max(height - len(rest), 0), width or 78)
        elif full:
            bar_width = max(6, min(BAR_WIDTH, width - 16)) if width else BAR_WIDTH
            lines += detail(first, width=bar_width,
                            height=max(height - 3 * len(rest), 1) if height else 0)
        else:
            lines += compact(first, width)
    for entry in rest:
        lines += compact(entry) if full and side else brief(entry)
    return Text("\n").join(lines)


class OddsPanel(Widget):
    """Shows :class:`~deathzap_tui.headless.oddsview.OddsEntry` items; hidden when empty.

    ``detail`` (toggled by the wizard's ctrl+o, or a click) chooses the detail view
    in the narrow layout; the wide layout (the ``-side`` class, set by the wizard's
    CSS breakpoint on the screen) always shows it.
    """


    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.entries: list[OddsEntry] = []
        self.detail = False
        self._signature: tuple[Any, ...] = ()
        self._subtitle()

    @property
    def side(self) -> bool:
        return self.screen.has_class("-wide")

    @property
    def full(self) -> bool:
        return self.detail or self.side

    def show(self, entries: Sequence[OddsEntry]) -> bool:
        """Show ``entries`` (hide if none); repaint only on a change. Returns whether
        the panel is shown."""
        sig = signature(entries)
        visible = bool(entries)
        if sig != self._signature:
            self._signature = sig
            self.entries = list(entries)
            self._subtitle()
            self.refresh(layout=True)
        if self.display != visible:
            self.display = visible
        return visible

    def toggle_detail(self) -> None:
        self.detail = not self.detail
        self.set_class(self.detail, "-detail")
        self._subtitle()
        self.refresh(layout=True)

    def _subtitle(self) -> None:
        if self.is_attached and self.side:
            self.border_title = "Odds"
        else:
            self.border_title = "Odds (ctrl+o: less)" if self.detail else "Odds (ctrl+o: chart)"

    def on_click(self) -> None:
        self.toggle_detail()

    def plain(self) -> str:
        """What the panel shows, as plain text (tests, screen readers)."""
        return panel_text(self.entries, full=self.full, side=self.side).plain

    def render(self) -> Text:
        region = self.content_region
        return panel_text(self.entries, full=self.full, height=region.height,
                          width=region.width, side=self.side)

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        if not self.entries:
            return 0
        text = panel_text(self.entries, full=self.full, width=width, side=self.side)
        if not self.side:  # the strip does not wrap (CSS text-wrap: nowrap)
            return len(text.split())
        return len(text.wrap(self.app.console, max(width, 1)))


def sync_odds(screen: Any, panel: OddsPanel, history: Widget) -> None:
    """Refresh ``panel``, the wizard's odds panel, from its resolution as it stands
    (call after every answer, back and redraw). The ruleset is the screen's
    ``odds_ruleset`` or else the session's; labels come from the screen's
    ``unit_names``. In the narrow layout the detail view takes ``history``'s place."""
    ruleset = getattr(screen, "odds_ruleset", None)
    if ruleset is None:
        session = getattr(screen.app, "session", None)
        ruleset = getattr(session, "ruleset", None) if session is not None else None
    entries = entries_for(getattr(screen, "resolution", None), ruleset,
                          getattr(screen, "unit_names", None))
    if panel.show(entries) and panel.detail and not screen.has_class("-wide"):
        history.display = False

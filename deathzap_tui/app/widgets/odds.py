"""The odds panel of the resolution wizard (issue 4): the exact odds of the attack
being resolved, per target, updated after every answer.

Layout (styles in ``screens/wizard.tcss``):

* **under 120 columns** (80x24 included) the panel is a strip between the history
  and the step: two lines per target, every number the issue asks for (expected
  hits, with their distribution where the ruleset gives one, damage, shields left,
  wounds, casualties; P(at least one casualty), P(wiped out), P(breaks) with and without a
  leader near, or whatever the ruleset's ``p_break`` is, such as P(panicked) (with its
  chance from any cause where the ruleset gives one, ``p_break_any_cause``); or the
  vehicle's damage-table outcomes) and the whole casualty distribution as a one-line
  sparkline. At 80x24 the step box
  and the key bar leave eight rows: a bar chart there would push out the history, so
  it is one key away: ctrl+o (or a click) swaps the history for the *detail* view,
  whose bar chart groups counts into ranges to fit the rows there are.
* **120 columns and more** it is a side column, always the detail view: the current
  target with a horizontal bar chart (up to 11 rows), other targets of a split fire as
  compact blocks below it.

The panel never takes focus and never blocks input; it is recomputed synchronously
(about a millisecond, see ``app/oddsview.py``) and repainted only when it changes.
All text is plain (``rich.text.Text``), never markup: unit and weapon names come from
force files.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.widget import Widget

from deathzap_tui import oddstext as ot
from deathzap_tui.app.oddsview import OddsEntry, signature

BAR_WIDTH = 22
"""Cells for the longest bar in the detail view (the side column is 46 wide)."""
DETAIL_FIXED = 5
"""Lines of the detail view above the bar chart: header, expected, chances (2), title
(and :func:`wounds_line` where the odds carry wounds)."""


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


def _hits(odds: Any, spark: bool = True) -> list[str]:
    """``hits 2.5``, with the distribution where there is one (and ``spark``):
    ``hits 2.5 (0 ▃█▆▂ 6)``; nothing for an attack that scores no hits."""
    if not odds.hits_step:
        return []
    text = f"hits {_num(odds.hits_mean)}"
    if spark and odds.hits is not None:
        lo, line, hi = ot.spark_span(odds.hits)
        if hi > lo:
            text += f" ({lo} {line} {hi})"
    return [text]


def expected(odds: Any, width: int = 0) -> str:
    """The expected values in one line. Where that line is wider than ``width`` (the
    strip does not wrap) the hits distribution gives way, so that the casualties at
    the end of the line stay in sight."""
    if odds.kind == "morale":
        return f"Morale test: {odds.figures} dice"
    rest = [f"{name} {_num(value)}" for name, value in ot.means(odds)]
    if odds.damage_step:
        rest += [f"damage {_num(odds.damage_mean)}",
                 f"shields left {_num(odds.mean_shields_left)} of {odds.shields}"]
    if odds.vehicle is None:
        rest.append(f"casualties {_num(odds.mean_casualties)} of {odds.figures}")
    text = "Expected " + ", ".join([*_hits(odds), *rest])
    if width and len(text) > width:
        text = "Expected " + ", ".join([*_hits(odds, spark=False), *rest])
    return text


def _break_text(odds: Any, short: bool) -> str:
    p = ot.short_pct if short else ot.pct
    text = f"{odds.break_label} {p(odds.p_break)}"
    if odds.p_break_with_leader is not None:
        text += f" ({'leader' if short else 'leader near:'} {p(odds.p_break_with_leader)})"
    if odds.p_break_any_cause is not None:  # Classic: a lone figure too (CL §4)
        text += f" (any cause {p(odds.p_break_any_cause)})"
    return text


def chances(odds: Any, *, short: bool) -> list[str]:
    """The headline chances as short phrases, in the issue's order."""
    p = ot.short_pct if short else ot.pct
    if odds.kind == "morale":
        passes = None if odds.p_break is None else 1 - odds.p_break
        return [_break_text(odds, short), f"passes {p(passes)}"]
    if odds.vehicle is not None:
        return [f"{label} {p(v)}" for label, v in ot.vehicle_rows(odds.vehicle, short=True)
                if label not in ("killed", "explodes") or not short]
    out = [f"≥1 casualty {p(odds.p_any_casualty)}", f"wiped out {p(odds.p_wiped_out)}"]
    if odds.wounds is not None:
        out.insert(0, f"≥1 wound {p(odds.p_any_wound)}")
    if odds.p_break is not None:
        out.append(_break_text(odds, short))
    return out


def spark_line(odds: Any) -> Text:
    """``casualties 0 ▂▆█▅▂ 4``: the whole distribution in one line."""
    out = Text("0 ", style="dim")
    out.append(ot.spark(odds.casualties), style="bold")
    out.append(f" {len(odds.casualties) - 1}", style="dim")
    return out


def wounds_line(odds: Any) -> list[Text]:
    """``wounds 0 ▂▆█▅▂ 9``: the wounds distribution in one line, for odds that carry
    one (several wounds per model: the casualties alone hide them); else nothing."""
    if odds.wounds is None:
        return []
    lo, line, hi = ot.spark_span(odds.wounds)
    out = Text(f"wounds {lo} ", style="dim")
    out.append(line, style="bold")
    out.append(f" {hi}", style="dim")
    return [out]


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
    if odds.kind != "morale":
        first.append("\n")
        first.append(expected(odds, width))
    second = Text(" · ".join(chances(odds, short=True)))
    if odds.kind != "morale" and odds.vehicle is None:
        second.append(" · ")
        second.append_text(spark_line(odds))
    return [first, second]


def detail(entry: OddsEntry, rows: int = 11, width: int = BAR_WIDTH,
           height: int = 0) -> list[Text]:
    """Header, expected values, chances, and a horizontal bar chart of at most
    ``rows`` rows (casualties, or the damage-table outcomes of a vehicle), fewer
    (3 at least) to fit in ``height`` lines (0: no limit)."""
    odds = entry.odds
    wounds = wounds_line(odds)
    if height:
        rows = min(rows, max(height - DETAIL_FIXED - len(wounds), 3))
    lines = [header(entry)]
    if odds.kind != "morale":
        lines.append(Text(expected(odds)))
    phrases = chances(odds, short=False)
    if odds.vehicle is not None:
        lines.append(Text("Damage table (DZ3 §9), at least once:", style="bold"))
        table = [(label, v) for label, v in ot.vehicle_rows(odds.vehicle, short=True)]
        pad = max(len(label) for label, _ in table)
        for label, pc, bar in ot.bar_rows(table, width)[:max(rows, 1)]:
            lines.append(Text(f" {label:<{pad}} {pc:>6} {bar}"))
        return lines
    lines.append(Text(" · ".join(phrases[:2])))
    if phrases[2:]:
        lines.append(Text(" · ".join(phrases[2:])))
    if odds.kind == "morale":
        return lines
    lines += wounds
    lines.append(Text("Casualties", style="bold"))
    table = ot.count_rows(odds.casualties, max_rows=max(rows, 3))
    pad = max(len(label) for label, _ in table)
    for label, pc, bar in ot.bar_rows(table, width):
        lines.append(Text(f" {label:>{pad}} {pc:>6} {bar}"))
    return lines


def columns(entry: OddsEntry, height: int, width: int) -> list[Text]:
    """The detail view for a short, wide space (80x24): header, expected values,
    chances, and the casualty distribution as a column chart with each count's
    percent under it (7 lines for a unit of up to 10 figures)."""
    odds = entry.odds
    lines = [header(entry)]
    if odds.kind == "morale":
        return [*lines, Text(" · ".join(chances(odds, short=False)))]
    lines.append(Text(expected(odds, width)))
    if odds.vehicle is not None:
        lines.append(Text("Damage table (DZ3 §9), at least once:", style="bold"))
        line = ""
        for label, v in ot.vehicle_rows(odds.vehicle, short=True):
            item = f"{label} {ot.pct(v)}"
            if line and len(line) + len(item) + 3 > width:
                lines.append(Text(line))
                line = ""
            line = f"{line} · {item}" if line else item
        lines.append(Text(line))
        return lines
    lines.append(Text(" · ".join(chances(odds, short=True))))
    gutter = 11
    table = ot.count_rows(odds.casualties, max_rows=max(3, min(11, (width - gutter) // 5)))
    col = max(5, min(8, (width - gutter) // max(len(table), 1)))
    bars = max(1, height - len(lines) - 2) if height else 4
    chart = ot.column_chart(table, min(bars, 6), col)
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
    """Shows :class:`~deathzap_tui.app.oddsview.OddsEntry` items; hidden when empty.

    ``detail`` (toggled by the wizard's ctrl+o, or a click) chooses the detail view
    in the narrow layout; the wide layout (the ``-side`` class, set by the wizard's
    CSS breakpoint on the screen) always shows it.
    """

    DEFAULT_CSS = """
    OddsPanel { height: auto; display: none; text-wrap: nowrap; text-overflow: ellipsis; }
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


def sync_odds(screen: Any, *, history_id: str = "wiz-history") -> None:
    """Refresh the wizard's odds panel from its resolution as it stands (call after
    every answer, back and redraw). The ruleset is the screen's ``odds_ruleset`` or
    else the session's; labels come from the screen's ``unit_names``. In the narrow
    layout the detail view takes the history's place."""
    from deathzap_tui.app.oddsview import entries_for

    panels = screen.query(OddsPanel)
    if not panels:
        return
    panel = panels.first()
    ruleset = getattr(screen, "odds_ruleset", None)
    if ruleset is None:
        session = getattr(screen.app, "session", None)
        ruleset = getattr(session, "ruleset", None) if session is not None else None
    entries = entries_for(getattr(screen, "resolution", None), ruleset,
                          getattr(screen, "unit_names", None))
    visible = panel.show(entries)
    takeover = visible and panel.detail and not screen.has_class("-wide")
    for history in screen.query(f"#{history_id}"):
        if takeover:
            history.display = False

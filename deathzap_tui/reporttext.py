"""The end-of-game report as plain text and Markdown (``deathzap report``, the
game-over screen): the score over time as a terminal chart, a table of what each unit
did and suffered, and each player's dice luck.

Plain strings only (no rich, no textual): the CLI prints them, the app shows them.
Every name in a report comes from force files, so it is untrusted: it goes through
:func:`~deathzap_tui.app.common.text.clean` before it is laid out, and is escaped for
Markdown where it lands in a table.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from deathzap_tui.headless.text import clean
from deathzap_tui.rules.luck import RollLuck, SideLuck, luck_sentence
from deathzap_tui.rules.narration import side_name
from deathzap_tui.rules.report import GameReport, ScorePoint, UnitTally
from deathzap_tui.rules.ruleset import SIDES
from deathzap_tui.rules.steps import D3_VALUE, DAMAGE, DISTINCT, MATCHES, SUCCESSES, TOTAL

MARKERS = {"red": "R", "black": "B"}
"""The chart's marker for each side's score."""
BOTH = "*"
"""The marker where both sides' scores fall in the same cell."""
MIN_CHART_WIDTH = 20
MIN_CHART_HEIGHT = 5
"""A legend, two rows of plot, the x axis and its labels."""
CHART_HEIGHT = 12
"""The chart's height in the text and Markdown reports."""
MARKDOWN_WIDTH = 80
TICK_GAP = 10
"""The fewest columns between two event ticks on the x axis."""

_NUMBERS = (("Kills", "kills"), ("Dealt", "damage_dealt"), ("Taken", "damage_taken"),
            ("Lost", "figures_lost"))
"""The units table's number columns (heading, :class:`UnitTally` field)."""
_LONG_HEADINGS = {"Dealt": "Damage dealt", "Taken": "Damage taken", "Lost": "Figures lost"}
"""The Markdown table has room for whole headings."""


# --- safe, measured text ------------------------------------------------------------

def safe_line(text: object) -> str:
    """``text`` from a force file or the rules as one line with no control characters."""
    return clean(text, oneline=True)


def cells(text: str) -> int:
    """The terminal columns ``text`` takes (wide East Asian characters take two,
    combining marks none)."""
    return sum(_char_cells(c) for c in text)


def _char_cells(char: str) -> int:
    if unicodedata.combining(char):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def fit(text: str, width: int, *, right: bool = False) -> str:
    """``text`` cut (with an ellipsis) or padded to exactly ``width`` columns."""
    if cells(text) > width:
        out, used = "", 0
        for char in text:
            if used + _char_cells(char) > width - 1:
                break
            out += char
            used += _char_cells(char)
        text = out + "…"
    pad = " " * (width - cells(text))
    return pad + text if right else text + pad


# --- the chart ------------------------------------------------------------------------

def by_turn(report: GameReport) -> bool:
    """Whether the chart's x axis counts turns (a ruleset with turns) or events."""
    return any(p.turn for p in report.series)


def vp_chart(report: GameReport, width: int, height: int) -> list[str]:
    """The score over time: ``height`` lines of exactly ``width`` columns (a legend,
    the plot with the score up the side, the x axis and its labels).

    Each side's score is a step line of its marker (:data:`MARKERS`, :data:`BOTH`
    where they meet): the score after the last change at or before each column's
    moment. The x axis counts turns when the ruleset has them, else events.
    """
    if width < MIN_CHART_WIDTH or height < MIN_CHART_HEIGHT:
        raise ValueError(f"a chart needs at least {MIN_CHART_WIDTH}x{MIN_CHART_HEIGHT}")
    turns = by_turn(report)
    points = [(p.turn if turns else p.event, p) for p in report.series]
    scores = [s for _x, p in points for s in p.score.values()] or [0]
    low, high = min(0, *scores), max(0, *scores)
    gutter = max(len(str(low)), len(str(high)))
    plot_width, rows = width - gutter - 1, height - 3
    first, last = (points[0][0], points[-1][0]) if points else (0, 0)
    grid = [[" "] * plot_width for _ in range(rows)]
    for column in range(plot_width):
        at = _column_x(column, plot_width, first, last)
        now = _score_at(points, at)
        for side in SIDES:
            row = _row(now.get(side, 0), low, high, rows) if now else None
            if row is not None:
                cell = grid[rows - 1 - row][column]
                grid[rows - 1 - row][column] = MARKERS[side] if cell == " " else BOTH
    lines = [fit(_legend(report, turns), width)]
    for r, row in enumerate(grid):
        label = str(low) if r == rows - 1 else str(high) if r == 0 and high != low else ""
        lines.append(label.rjust(gutter) + ("┤" if label else "│") + "".join(row))
    lines.append(" " * gutter + "└" + "─" * plot_width)
    lines.append(" " * (gutter + 1) + _x_labels(plot_width, first, last, turns))
    return lines


def _column_x(column: int, plot_width: int, first: int, last: int) -> float:
    """The moment (turn or event) a column of the plot shows."""
    if plot_width <= 1:
        return last
    return first + (last - first) * column / (plot_width - 1)


def _score_at(points: Sequence[tuple[int, ScorePoint]], at: float) -> dict[str, int]:
    """The score after the last change at or before ``at``."""
    now: dict[str, int] = {}
    for x, point in points:
        if x > at + 1e-9:
            break
        now = dict(point.score)
    return now


def _row(score: int, low: int, high: int, rows: int) -> int:
    """The plot row (0 = bottom) of ``score``."""
    if high == low:
        return 0
    return round((score - low) * (rows - 1) / (high - low))


def _legend(report: GameReport, turns: bool) -> str:
    keys = "  ".join(f"{MARKERS[s]} {side_name(s)} ({safe_line(report.forces.get(s, ''))})"
                     for s in SIDES)
    return (f"{safe_line(report.score_label)} by {'turn' if turns else 'event'}: {keys}  "
            f"{BOTH} both")


def _x_labels(plot_width: int, first: int, last: int, turns: bool) -> str:
    """The x axis labels under the plot: the first and last moments, and ticks in
    between where they fit (every turn, or every round number of events)."""
    line = [" "] * plot_width

    def place(text: str, column: int) -> None:
        start = max(0, min(column - len(text) // 2, plot_width - len(text)))
        end = start + len(text)
        if all(c == " " for c in line[max(0, start - 1):end + 1]):
            line[start:end] = text

    place(str(first), 0)
    place(str(last), plot_width - 1)
    if last > first:
        span = last - first
        step = _tick_step(span, plot_width)
        for x in range(first + step - first % step, last, step):
            place(str(x), round((x - first) * (plot_width - 1) / span))
    return "".join(line)


def _tick_step(span: int, plot_width: int) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50... turns or events that puts ticks at least
    :data:`TICK_GAP` columns apart (the whole ``span`` at most: one tick-less step)."""
    step = 1
    while step < span and step * (plot_width - 1) / span < TICK_GAP:
        step = step * 5 // 2 if str(step).startswith("2") else step * 2
    return step


# --- the units table --------------------------------------------------------------------

def status(unit: UnitTally) -> str:
    return "gone" if unit.gone else "in play"


def units_table(report: GameReport, width: int) -> list[str]:
    """The units table in ``width`` columns: a heading row, then one row a unit."""
    numbers = [max(len(h), *(len(str(getattr(u, f))) for u in report.units))
               if report.units else len(h) for h, f in _NUMBERS]
    fixed = 2 + 6 + sum(n + 2 for n in numbers) + 2 + len("in play")
    names = [safe_line(u.name) for u in report.units]
    name_width = max(4, min(max((cells(n) for n in names), default=4), width - fixed))
    head = (fit("Unit", name_width) + "  " + fit("Side", 6)
            + "".join("  " + fit(h, n, right=True) for (h, _f), n in zip(_NUMBERS, numbers,
                                                                          strict=True))
            + "  " + "Status")
    rows = [head]
    for unit, name in zip(report.units, names, strict=True):
        rows.append(fit(name, name_width) + "  " + fit(side_name(unit.side), 6)
                    + "".join("  " + fit(str(getattr(unit, f)), n, right=True)
                              for (_h, f), n in zip(_NUMBERS, numbers, strict=True))
                    + "  " + status(unit))
    return [fit(row, width).rstrip() for row in rows]


def columns_note(report: GameReport) -> str:
    """What the units table's number columns count: Dealt and Taken in the
    ruleset's own terms (:attr:`GameReport.damage_counts`)."""
    damage = safe_line(report.damage_counts) or "damage that took effect"
    return (f"Kills: enemy figures removed. Damage dealt / taken: {damage}. "
            "Lost: its own figures removed, by any cause.")


def units_note(report: GameReport, width: int) -> list[str]:
    """:func:`columns_note` wrapped at ``width``, under the units table."""
    return _wrap(columns_note(report), width)


# --- dice luck --------------------------------------------------------------------------

def one_in(p: float) -> str:
    """A chance as "1 in N" (N rounded; "1 in 1" for a near certainty, "under 1 in
    a trillion" past that)."""
    if p <= 0:
        return "never"
    if p < 1e-12:
        return "under 1 in a trillion"
    return f"1 in {max(1, round(1 / p)):,}"


def outcome_words(roll: RollLuck) -> str:
    """What the roll's measure came to ("4 successes", "a total of 9", "a D3 of 2",
    "3 damage let through")."""
    n = roll.outcome
    if roll.measure == SUCCESSES:
        return f"{n} success{'es' if n != 1 else ''}"
    if roll.measure == TOTAL:
        return f"a total of {n}"
    if roll.measure == D3_VALUE:
        return f"a D3 of {n}" if roll.dice == 1 else f"D3s totalling {n}"
    if roll.measure == DAMAGE:
        return f"{n} damage let through"
    if roll.measure == DISTINCT:
        return f"{n} different face{'s' if n != 1 else ''}"
    if roll.measure == MATCHES:
        return f"{n} match{'es' if n != 1 else ''}"
    return str(n)


def roll_line(kind: str, roll: RollLuck) -> str:
    """One notable roll: what it was for, its faces, and how rare doing that well
    (the luckiest) or that badly (the unluckiest) is with fair dice."""
    faces = " ".join(str(f) for f in roll.faces)
    shown = f"{faces} ({outcome_words(roll)})" if faces else outcome_words(roll)
    if kind == "Luckiest":
        chance = f"{one_in(roll.p_at_least)} to do as well"
    else:
        chance = f"{one_in(roll.p_at_most)} to do as badly"
    return f"{kind}: {safe_line(roll.purpose)}: {shown}, {chance}"


def luck_lines(luck: SideLuck) -> list[str]:
    """A side's luck sentence, then its luckiest and unluckiest rolls (indented)."""
    lines = [luck_sentence(luck)]
    if luck.luckiest is not None:
        lines.append("  " + roll_line("Luckiest", luck.luckiest))
    if luck.unluckiest is not None and luck.unluckiest != luck.luckiest:
        lines.append("  " + roll_line("Unluckiest", luck.unluckiest))
    return lines


# --- the whole report ---------------------------------------------------------------------

def title_line(report: GameReport) -> str:
    """"Red force (red) vs Black force (black) — Ruleset"."""
    forces = " vs ".join(f"{safe_line(report.forces.get(s, ''))} ({s})" for s in SIDES)
    return f"{forces} — {safe_line(report.title)}"


def result_line(report: GameReport) -> str:
    """The result, or "In progress" for a game not over yet."""
    if not report.over:
        return f"In progress (after {report.events} event{'s' if report.events != 1 else ''})"
    return safe_line(report.result) or "Game over"


def score_line(report: GameReport) -> str:
    label = safe_line(report.score_label)
    which = "Final" if report.over else "Current"
    scores = ", ".join(f"{side_name(s)} {report.score.get(s, 0)}" for s in SIDES)
    return f"{which} {label}: {scores}"


def as_text(report: GameReport, width: int = 80) -> str:
    """The whole report as plain text in ``width`` columns."""
    out = [fit(title_line(report), width).rstrip(), fit(result_line(report), width).rstrip(),
           fit(score_line(report), width).rstrip(), "",
           "Score over time", *vp_chart(report, width, CHART_HEIGHT), "",
           "Units", *units_table(report, width), *units_note(report, width), "",
           "Dice luck", *luck_text(report, width)]
    return "\n".join(line.rstrip() for line in out) + "\n"


def luck_text(report: GameReport, width: int) -> list[str]:
    """Both sides' :func:`luck_lines`, wrapped at ``width`` (continuations indented)."""
    return [wrapped for side in SIDES for line in luck_lines(report.luck[side])
            for wrapped in _wrap(line, width)]


def _wrap(line: str, width: int) -> list[str]:
    """``line`` wrapped at word breaks into lines of at most ``width`` terminal
    columns (wide characters count two), continuations indented two more; a word
    longer than a line is cut."""
    lead = line[:len(line) - len(line.lstrip())]
    indent = lead + "  "
    out: list[str] = []
    current = lead
    for word in line.split():
        joined = current + word if current.isspace() or not current else f"{current} {word}"
        if cells(joined) <= width or current.isspace() or not current:
            current = joined
        else:
            out.append(current)
            current = indent + word
    out.append(current)
    return [fit(part, width).rstrip() if cells(part) > width else part for part in out]


def md_cell(text: object) -> str:
    """Untrusted text as one line of Markdown or one table cell: clean, one line, and
    every character that would end a cell (``|``), open HTML or an autolink (``<``,
    ``>``), a link (``[``, ``]``), emphasis or code (``*``, ``_``, `````) escaped."""
    out = safe_line(text).replace("\\", "\\\\")
    for char in "|<>[]*_`":
        out = out.replace(char, "\\" + char)
    return out


def _fence(lines: Sequence[str]) -> str:
    """A code fence longer than any run of backticks in ``lines``."""
    longest = max((len(run) for line in lines for run in _backtick_runs(line)), default=0)
    return "`" * max(3, longest + 1)


def _backtick_runs(line: str) -> list[str]:
    runs, run = [], ""
    for char in line:
        if char == "`":
            run += char
        elif run:
            runs.append(run)
            run = ""
    return [*runs, run] if run else runs


def as_markdown(report: GameReport) -> str:
    """The whole report as Markdown: headings, a units table, the chart in a fence."""
    chart = vp_chart(report, MARKDOWN_WIDTH, CHART_HEIGHT)
    fence = _fence(chart)
    heads = ["Unit", "Side", *(_LONG_HEADINGS.get(h, h) for h, _f in _NUMBERS), "Status"]
    out = [f"# {md_cell(title_line(report))}", "",
           f"**{md_cell(result_line(report))}**", "", md_cell(score_line(report)), "",
           "## Score over time", "", fence, *(line.rstrip() for line in chart), fence, "",
           "## Units", "", "| " + " | ".join(heads) + " |",
           "|" + "---|" * 2 + "--:|" * len(_NUMBERS) + "---|"]
    for unit in report.units:
        row = [md_cell(unit.name), side_name(unit.side),
               *(str(getattr(unit, f)) for _h, f in _NUMBERS), status(unit)]
        out.append("| " + " | ".join(row) + " |")
    out += ["", md_cell(columns_note(report)), "", "## Dice luck", ""]
    for side in SIDES:
        first, *rolls = luck_lines(report.luck[side])
        out.append(f"- {md_cell(first)}")
        out += [f"  - {md_cell(line.strip())}" for line in rolls]
    return "\n".join(out) + "\n"

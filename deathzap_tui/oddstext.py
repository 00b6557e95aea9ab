"""Odds in words and bars: the pure formatting shared by ``deathzap odds`` (text) and
the app's odds panel. No Textual, no Rich: plain strings and numbers.

Numbers and distributions in, text out: what an edition's odds say (their labelled
rows, :class:`~deathzap_tui.rules.odds.Odds`) the renderers read from the odds
themselves, so nothing here knows a ruleset.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

BAR = "█"
SLIVER = "▏"
"""Drawn for a probability too small to earn a whole cell but not zero."""
SPARK = " ▁▂▃▄▅▆▇█"
"""One-cell heights, index 0 = nothing at all."""

def pct(p: float | None) -> str:
    """``12.3%``; ``<0.1%`` / ``>99.9%`` near the ends (never a misleading 0 or 100);
    ``unknown`` for ``None``."""
    if p is None:
        return "unknown"
    if 0 < p < 0.0005:
        return "<0.1%"
    if 0.9995 < p < 1:
        return ">99.9%"
    return f"{p * 100:.1f}%"


def short_pct(p: float | None) -> str:
    """Like :func:`pct` without the decimal where space is short: ``12%``, ``<1%``."""
    if p is None:
        return "?"
    if 0 < p < 0.005:
        return "<1%"
    if 0.995 < p < 1:
        return ">99%"
    return f"{p * 100:.0f}%"


def bar(p: float, top: float, width: int) -> str:
    """A horizontal bar for ``p``, the largest value ``top`` filling ``width`` cells;
    a sliver for a non-zero value too small for one cell."""
    n = round(p / (top or 1.0) * width) if width > 0 else 0
    return BAR * n if n else (SLIVER if p > 0 else "")


def spark(dist: Sequence[float]) -> str:
    """The whole distribution in one line, one cell per value, heights scaled to the
    largest value; a value that is not zero never draws as blank."""
    top = max(dist, default=0.0) or 1.0
    out = []
    for p in dist:
        level = round(p / top * (len(SPARK) - 1))
        out.append(SPARK[max(level, 1)] if p > 0 else SPARK[0])
    return "".join(out)


def count_rows(dist: Sequence[float], max_rows: int = 11,
               negligible: float = 0.0005) -> list[tuple[str, float]]:
    """Rows ``(label, p)`` for a distribution indexed by count, at most ``max_rows``.

    Short distributions come back whole. Longer ones drop the negligible values in
    the tails (0 and the last count, e.g. "wiped out", are always kept) and, if still
    too long, group neighbouring counts into ranges ("3-4"): the sum is kept.
    """
    n = len(dist)
    if n <= max_rows:
        return [(str(k), p) for k, p in enumerate(dist)]

    def span(a: int, b: int) -> tuple[str, float]:
        return (str(a) if a == b else f"{a}-{b}", math.fsum(dist[a:b + 1]))

    keep = [k for k in range(1, n - 1) if dist[k] >= negligible]
    lo, hi = (keep[0], keep[-1]) if keep else (1, n - 2)
    rows = [("0", dist[0])]
    tail = [(str(n - 1), dist[n - 1])]
    if lo > 1:
        rows.append(span(1, lo - 1))
    if hi < n - 2:
        tail.insert(0, span(hi + 1, n - 2))
    room = max(1, max_rows - len(rows) - len(tail))
    size = -(-(hi - lo + 1) // room)  # ceiling division
    for a in range(lo, hi + 1, size):
        rows.append(span(a, min(a + size - 1, hi)))
    return rows + tail


def spark_span(dist: Sequence[float], negligible: float = 0.0005,
               width: int = 12) -> tuple[int, str, int]:
    """``(first, sparkline, last)``: :func:`spark` of the counts from the first to the
    last that are not negligible, neighbours summed into one cell where there are
    more than ``width`` (a long distribution, e.g. melee hits, stays short)."""
    keep = [k for k, p in enumerate(dist) if p >= negligible] or [0]
    lo, hi = keep[0], keep[-1]
    part = dist[lo:hi + 1]
    size = -(-len(part) // max(width, 1))  # ceiling division
    return lo, spark([math.fsum(part[i:i + size]) for i in range(0, len(part), size)]), hi


def bar_rows(rows: Sequence[tuple[str, float]], width: int) -> list[tuple[str, str, str]]:
    """``(label, percent, bar)`` for each row, bars scaled to the largest value."""
    top = max((p for _, p in rows), default=0.0) or 1.0
    return [(label, pct(p), bar(p, top, width)) for label, p in rows]


EIGHTHS = " ▁▂▃▄▅▆▇█"


def column_chart(rows: Sequence[tuple[str, float]], height: int,
                 col_width: int = 6) -> list[str]:
    """A vertical bar chart: ``height`` lines of columns (eighth-block resolution,
    the largest value full height), then a line of labels and a line of percents,
    each column ``col_width`` cells wide. A value that is not zero shows at least a
    sliver."""
    height = max(1, height)
    top = max((p for _, p in rows), default=0.0) or 1.0
    levels = []
    for _, p in rows:
        n = round(p / top * height * 8)
        levels.append(max(n, 1) if p > 0 else 0)
    lines = []
    for r in range(height - 1, -1, -1):
        cells = []
        for n in levels:
            part = min(max(n - r * 8, 0), 8)
            cells.append((EIGHTHS[part] * 2).center(col_width))
        lines.append("".join(cells).rstrip())
    lines.append("".join(label.center(col_width) for label, _ in rows).rstrip())
    lines.append("".join(short_pct(p).center(col_width) for _, p in rows).rstrip())
    return lines

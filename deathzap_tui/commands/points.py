"""``deathzap points FILE... [--json]``: a force's points, unit by unit."""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from deathzap_tui.forcefile import load_force
from deathzap_tui.headless.text import clean
from deathzap_tui.reporttext import cells, fit, safe_line
from deathzap_tui.rules.narration import plural
from deathzap_tui.rules.problems import InvalidInput

if TYPE_CHECKING:
    from deathzap_tui.forcefile import LoadedForce
    from deathzap_tui.rules.ruleset import PointsReport


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="force file (TOML)")
    parser.add_argument("--json", action="store_true",
                        help="print JSON instead of a table: one object per force, "
                        "a list of them for several files")


def run(args: argparse.Namespace) -> int:
    status = 0
    results: list[dict[str, Any]] = []
    blocks = 0
    for path in args.files:
        try:
            loaded = load_force(path)
        except InvalidInput as e:
            for problem in e.problems:
                print(problem.located(e.source), file=sys.stderr)
            status = 1
            continue
        report = loaded.ruleset.points(loaded.force)
        if args.json:
            results.append(as_json(loaded, report))
        else:
            # The title quotes the file name given: no control character of it
            # reaches the terminal (issue 19).
            print(clean(("\n" if blocks else "") + as_text(loaded, report)))
            blocks += 1
    if args.json and results:
        print(json.dumps(results[0] if len(args.files) == 1 else results,
                         indent=2, ensure_ascii=False))
    return status


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _parts(breakdown: Mapping[str, Any]) -> dict[str, str]:
    """The cost parts of a unit as table cells, by the breakdown convention of
    :mod:`deathzap_tui.rules.deathzap3.costs`: an int, or a mapping with a
    ``"points"`` int (and maybe ``"count"`` × ``"each"``)."""
    out = {}
    for key, value in breakdown.items():
        if _is_int(value):
            out[key] = str(value) if value else "-"
        elif isinstance(value, Mapping) and _is_int(value.get("points")):
            how = (f"{value['count']} × {value['each']} = "
                   if _is_int(value.get("count")) and _is_int(value.get("each")) else "")
            out[key] = f"{how}{value['points']}"
    return out


def as_json(loaded: LoadedForce, report: PointsReport | None) -> dict[str, Any]:
    units, models = loaded.counts()
    if report is None:
        return {"force": loaded.name, "ruleset": loaded.ruleset.id, "points": None,
                "units": units, "models": models,
                "counts": dict(loaded.ruleset.force_counts(loaded.force)),
                "warnings": [w.located() for w in loaded.warnings]}
    return {
        "force": report.force,
        "ruleset": report.ruleset,
        "units": [{"name": u.name, "points": u.points, **u.breakdown}
                  for u in report.units],
        "command_points": report.command_points,
        "total": report.total,
        "warnings": list(report.warnings),
        "notes": list(report.notes),
    }


def _table(rows: list[list[str]]) -> list[str]:
    """Columns padded to fit in terminal cells (a wide character takes two: issue
    22), each cell one clean line; the first left-aligned, the rest right-aligned."""
    rows = [[safe_line(cell) for cell in row] for row in rows]
    widths = [max(cells(row[c]) for row in rows) for c in range(len(rows[0]))]
    return ["  ".join(fit(cell, w, right=c > 0)
                      for c, (cell, w) in enumerate(zip(row, widths, strict=True))).rstrip()
            for row in rows]


def as_text(loaded: LoadedForce, report: PointsReport | None) -> str:
    title = f"{loaded.name}  ({loaded.ruleset.title}, {loaded.source})"
    if report is None:
        units, models = loaded.counts()
        lines = [title, f"{loaded.ruleset.title} has no points system: "
                 f"{plural(units, 'unit')}, {plural(models, 'model')}."]
        counts = [[label, str(n)] for label, n in loaded.ruleset.force_counts(loaded.force)]
        if counts:
            lines += ["", "Counts:", *("  " + row for row in _table(counts))]
        return "\n".join(lines + _section("Warnings", [w.located() for w in loaded.warnings]))

    columns = list(_parts(report.units[0].breakdown)) if report.units else []
    header = ["Unit", *(c.replace("_", " ").capitalize() for c in columns), "Points"]
    rows = [header]
    for unit in report.units:
        parts = _parts(unit.breakdown)
        rows.append([unit.name, *(parts.get(c, "") for c in columns),
                     str(unit.points)])
    leaders = [f"{leader['name']} ({unit.name}) {leader['command']}"
               for unit in report.units for leader in unit.breakdown.get("leaders", ())
               if leader.get("command")]
    # A ruleset without command points (Plasmashok, Double Tap) shows no Command row.
    command = report.has_command
    blank = [""] * len(columns)
    totals = [["Command", *blank, str(report.command_points)]] if command else []
    rows += [*totals, ["Total", *blank, str(report.total)]]
    table = _table(rows)
    rule = "-" * max(cells(line) for line in table)
    foot = len(totals) + 1
    lines = [title, "", table[0], rule, *table[1:-foot], rule, *table[-foot:]]

    details = []
    for unit in report.units:
        items = unit.breakdown.get("weapons", {}).get("items", {})
        if items:
            details.append(f"{unit.name}: " + ", ".join(
                f"{i['count']} × {i['name']} at {i['each']} = {i['points']}"
                for i in items.values()))
    if leaders:
        details.append("Command ratings: " + ", ".join(leaders))
    lines += _section("Weapons and command" if command else "Weapons", details)
    lines += _section("Notes", list(report.notes))
    lines += _section("Warnings", list(report.warnings))
    return "\n".join(lines)


def _section(title: str, items: list[str]) -> list[str]:
    """A titled list, each item wrapped to 88 columns; nothing if there are no items."""
    if not items:
        return []
    return ["", f"{title}:", *(textwrap.fill(item, 88, initial_indent="  ",
                                             subsequent_indent="    ") for item in items)]

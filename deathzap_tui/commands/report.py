"""``deathzap report SAVE [--json|--markdown]``: the end-of-game report of a saved
game (finished or not): the score over time, what each unit did, and dice luck."""

from __future__ import annotations

import argparse
import json
import shutil
import sys

from deathzap_tui.reporttext import as_markdown, as_text
from deathzap_tui.rules.events import numbered
from deathzap_tui.rules.game import CorruptLog
from deathzap_tui.rules.report import build_report
from deathzap_tui.savecache import read_report, report_key
from deathzap_tui.saves import SaveError, read_unplayed
from deathzap_tui.session import Session

MIN_WIDTH = 60
MAX_WIDTH = 160
"""The text report's width follows the terminal's, within these bounds."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("save", metavar="SAVE",
                        help="save name (in the saves folder) or the path of any save file")
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="print the report as JSON")
    form.add_argument("--markdown", action="store_true", help="print the report as Markdown")


def text_width() -> int:
    """The terminal's width, kept between :data:`MIN_WIDTH` and :data:`MAX_WIDTH`."""
    return max(MIN_WIDTH, min(MAX_WIDTH, shutil.get_terminal_size().columns))


def run(args: argparse.Namespace) -> int:
    try:
        # The report is one replay of the log: the game is not replayed first to
        # load it; a finished game's report kept beside its save is read instead
        # (issue 21).
        path = Session.locate(args.save)
        game, log = read_unplayed(path)
        done = numbered(log)
        events = [e for _i, e in done]
        report = (read_report(path, report_key(game, events))
                  or build_report(game, events, [i for i, _e in done]))
    except SaveError as exc:
        print(f"deathzap report: {exc}", file=sys.stderr)
        return 1
    except CorruptLog as exc:  # names the event, as loading the save would
        print(f"deathzap report: {args.save}: the event log does not replay: {exc}",
              file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    elif args.markdown:
        print(as_markdown(report), end="")
    else:
        print(as_text(report, text_width()), end="")
    return 0

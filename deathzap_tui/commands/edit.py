"""``deathzap edit FILE [--ruleset ID]``: the force editor on one file.

An existing file opens as it is, its problems and all (the editor is where they are
fixed). It is refused only if it cannot be read as TOML (with its line, as ``deathzap
check`` says it) or if ``--ruleset`` names another ruleset than the file's. A missing
file starts an empty force of ``--ruleset``; an unknown ``--ruleset`` is refused.
"""

from __future__ import annotations

import argparse
import sys

from deathzap_tui.forcedoc import ForceDocument
from deathzap_tui.rules import registry
from deathzap_tui.rules.problems import InvalidInput


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="force file (TOML); made on save "
                        "if it does not exist")
    parser.add_argument("--ruleset", metavar="ID", default=None,
                        help="the ruleset of a new file (default deathzap3); for an "
                        "existing file it must be the file's own")
    parser.add_argument("--limit", metavar="POINTS", type=int, default=None,
                        help="the game size to build against (e.g. 1000): the editor "
                        "shows the points as used/limit (l changes it)")


def run(args: argparse.Namespace) -> int:
    try:
        if args.ruleset is not None:
            registry.get(args.ruleset)
        doc = ForceDocument.open(args.file, args.ruleset)
    except InvalidInput as e:
        for problem in e.problems:
            print(problem.located(e.source), file=sys.stderr)
        return 1
    except (registry.UnknownRuleset, ValueError) as e:  # or a file of another ruleset
        print(f"deathzap edit: {e}", file=sys.stderr)
        return 1

    from deathzap_tui.app.editor.app import EditorApp  # lazy: Textual, only to open the app

    if args.limit is not None and args.limit <= 0:
        print(f"deathzap edit: --limit {args.limit}: a number of points above 0",
              file=sys.stderr)
        return 1
    EditorApp(doc, args.limit).run()
    return 0

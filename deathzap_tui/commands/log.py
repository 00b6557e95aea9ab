"""``deathzap log SAVE``: a saved game as a readable narrative."""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("save", metavar="SAVE",
                        help="save name (in the saves folder) or the path of any save file")


def run(args: argparse.Namespace) -> int:
    from deathzap_tui.saves import SaveError
    from deathzap_tui.session import Session

    try:
        session = Session.read(args.save)
    except SaveError as exc:
        print(f"deathzap log: {exc}", file=sys.stderr)
        return 1
    game = session.game
    print(f"{game.red.name} (red) vs {game.black.name} (black) — {game.ruleset.title}, "
          f"seed {game.seed}")
    for line in session.narrative():
        print(line)
    view = game.ruleset.view(game.state)
    print()
    print(view.result or view.prompt)
    for line in view.score_lines:
        print(line)
    return 0

"""``deathzap log SAVE``: a saved game as a readable narrative, printed as the game is
replayed: the first lines come at once however long the game (issue 21)."""

from __future__ import annotations

import argparse
import sys

from deathzap_tui.rules.events import numbered
from deathzap_tui.rules.game import CorruptLog
from deathzap_tui.saves import SaveError, read_unplayed
from deathzap_tui.session import Session


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("save", metavar="SAVE",
                        help="save name (in the saves folder) or the path of any save file")


def run(args: argparse.Namespace) -> int:
    try:
        game, log = read_unplayed(Session.locate(args.save))
    except SaveError as exc:
        print(f"deathzap log: {exc}", file=sys.stderr)
        return 1
    print(f"{game.red.name} (red) vs {game.black.name} (black) — {game.ruleset.title}, "
          f"seed {game.seed}", flush=True)
    state = game.state
    done = numbered(log)
    try:
        for _event, res in game.replay([e for _i, e in done], [i for i, _e in done]):
            for note in res.ctx.notes:
                if note.to is None:  # a secret (a card drawn into a hand) is never printed
                    print(note.text)
            state = res.ctx.state
    except CorruptLog as exc:  # names the event, as loading the save would
        print(f"deathzap log: {args.save}: the event log does not replay: {exc}",
              file=sys.stderr)
        return 1
    view = game.ruleset.view(state)
    print()
    print(view.result or view.prompt)
    for line in view.score_lines:
        print(line)
    return 0

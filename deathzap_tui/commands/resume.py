"""``deathzap resume SAVE``: reopen a saved game on the battle screen."""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("save", metavar="SAVE", help="a save name in saves/ or its path")
    parser.add_argument("--dice", choices=("physical", "generated"), default="physical",
                        help="default dice mode")


def run(args: argparse.Namespace) -> int:
    from deathzap_tui.session import Session

    try:
        session = Session.resume(args.save)
    except (ValueError, OSError) as exc:  # SaveError, CorruptLog
        print(f"deathzap resume: {exc}", file=sys.stderr)
        return 1
    from deathzap_tui.app.app import DeathzapApp, Launch

    app = DeathzapApp(Launch("battle"), session=session, dice_mode=args.dice)
    app.run()
    if session.path is not None:
        print(f"saved: {session.path}")
    return 0

"""``deathzap resume SAVE``: reopen a saved game on the battle screen."""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("save", metavar="SAVE", help="a save name in saves/ or its path")
    parser.add_argument("--dice", choices=("physical", "generated"), default="physical",
                        help="default dice mode")
    parser.add_argument("--as", dest="side", choices=("red", "black"), default=None,
                        help="play by turn as this side: shows what happened since you "
                        "last looked and whose turn it is")
    parser.add_argument("--read-only", action="store_true",
                        help="if another process has the save open, watch it read only")


def known_saves() -> list[str]:
    """The saves there are, newest first, one line each (name, forces, ruleset,
    events, when), or where none were found."""
    from deathzap_tui.app.text import clean
    from deathzap_tui.paths import saves_dir
    from deathzap_tui.rules.narration import plural
    from deathzap_tui.saves import list_saves

    directory = saves_dir()
    found = list_saves(directory)
    if not found:
        return [f"  there are no saves in {directory}"]
    lines = [f"  the saves in {directory}, newest first:"]
    for info in found:
        what = (f"unreadable: {info.problem}" if info.problem else
                f"{info.red} vs {info.black}, {info.ruleset}, {plural(info.events, 'event')}")
        lines.append(f"  {clean(info.path.stem, oneline=True):<24} {clean(what, oneline=True)}"
                     f", {info.modified:%Y-%m-%d %H:%M}")
    return lines


def run(args: argparse.Namespace) -> int:
    from deathzap_tui.net import playbyturn
    from deathzap_tui.net.lock import SaveLocked

    try:
        session, lock, message = playbyturn.open_for(args.save, args.side,
                                                     read_only_ok=args.read_only)
    except SaveLocked as exc:
        print(f"deathzap resume: {exc}\n  (add --read-only to watch it)", file=sys.stderr)
        return 1
    except FileNotFoundError as exc:  # no such save: say which ones there are
        print(f"deathzap resume: {exc}", file=sys.stderr)
        for line in known_saves():
            print(line, file=sys.stderr)
        return 1
    except (ValueError, OSError) as exc:  # SaveError, CorruptLog
        print(f"deathzap resume: {exc}", file=sys.stderr)
        return 1
    if message:
        print(f"deathzap resume: {message}", file=sys.stderr)
    # Shown inside the app, over the board (Enter/Esc closes it): nothing waits here.
    greeting = None
    if args.side or message:
        lines = playbyturn.summary(session, args.side) if args.side else \
            [f"Now: {playbyturn.whose_turn(session)}"]
        title = f"{args.side}: since you last looked" if args.side else session.ruleset.title
        greeting = (title, ([message, ""] if message else []) + lines)
    from deathzap_tui.app.app import DeathzapApp, Launch

    app = DeathzapApp(Launch("battle"), session=session, dice_mode=args.dice, lock=lock,
                      greeting=greeting)
    try:
        app.run()
    finally:
        playbyturn.finish(session, args.side if lock is not None else None, lock)
    if args.side:
        print(f"Now: {playbyturn.whose_turn(session)}")
    if lock is not None and session.path is not None:
        print(f"saved: {session.path}")
    return 0

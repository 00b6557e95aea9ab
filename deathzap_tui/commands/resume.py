"""``deathzap resume [SAVE]``: reopen a saved game on the battle screen; with no name,
list the saves (ruleset, players, whose turn or the result) and ask which."""

from __future__ import annotations

import argparse
import sys

from deathzap_tui.headless.savestate import save_state
from deathzap_tui.headless.text import clean
from deathzap_tui.net import playbyturn
from deathzap_tui.net.lock import SaveLocked
from deathzap_tui.paths import saves_dir
from deathzap_tui.rules.narration import plural
from deathzap_tui.savelist import list_saves


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("save", metavar="SAVE", nargs="?", default=None,
                        help="a save name in saves/ or its path; none: pick from a list")
    parser.add_argument("--dice", choices=("physical", "generated"), default=None,
                        help="dice mode; default: as the save was last played (else "
                        "physical). Given, it wins over the save's and is kept with it")
    parser.add_argument("--as", dest="side", choices=("red", "black"), default=None,
                        help="play by turn as this side: shows what happened since you "
                        "last looked and whose turn it is")
    parser.add_argument("--read-only", action="store_true",
                        help="if another process has the save open, watch it read only")


def known_saves() -> list[str]:
    """The saves there are, newest first, one line each (name, forces, ruleset,
    events, when), or where none were found."""
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


def save_menu() -> list[tuple[str, list[str]]]:
    """Every save, newest first: its name and the lines that describe it (the name,
    the ruleset and when it was last played; the players; whose turn it is, or the
    result of a finished game). Each is read without being written."""
    out = []
    for info in list_saves():
        name = clean(info.path.stem, oneline=True)
        head, state, readable = save_state(info)
        players = f"{info.red} vs {info.black}" if readable else ""
        lines = [f"{name} ({clean(head, oneline=True)}, {info.modified:%Y-%m-%d %H:%M})"]
        lines += [clean(text, oneline=True) for text in (players, state) if text]
        out.append((info.path.stem, lines))
    return out


def pick_save() -> str | None:
    """List the saves and read which to resume (a number or a name) from stdin;
    ``None`` (said why on stderr) when there is none or none is picked."""
    menu = save_menu()
    if not menu:
        print(f"deathzap resume: there are no saves in {saves_dir()}", file=sys.stderr)
        return None
    print(f"Saves in {saves_dir()}, newest first:")
    for n, (_name, lines) in enumerate(menu, 1):
        print(f"{n:>3}. {lines[0]}")
        for line in lines[1:]:
            print(f"     {line}")
    try:
        answer = input("Resume which? (number or name; Enter: none) ").strip()
    except EOFError:
        answer = ""
    if not answer:
        print("deathzap resume: no save picked (or name one: deathzap resume SAVE)",
              file=sys.stderr)
        return None
    if answer.isdigit():
        if 1 <= int(answer) <= len(menu):
            return menu[int(answer) - 1][0]
        print(f"deathzap resume: {answer} is not one of the saves 1-{len(menu)}",
              file=sys.stderr)
        return None
    return answer


def run(args: argparse.Namespace) -> int:
    if args.save is None:
        args.save = pick_save()
        if args.save is None:
            return 1

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
    from deathzap_tui.app.app import DeathzapApp, Launch  # lazy: Textual, only to open the app

    app = DeathzapApp(Launch("battle"), session=session, dice_mode=args.dice, lock=lock,
                      greeting=greeting)
    try:
        app.run()
    finally:
        playbyturn.finish(session, args.side if lock is not None else None, lock)
    if app.return_code:  # stopped by an error (a save it could not write...), shown above
        return app.return_code
    if args.side:
        print(f"Now: {playbyturn.whose_turn(session)}")
    if lock is not None and session.path is not None:
        print(f"saved: {session.path}")
    return 0

"""``deathzap play``: start a game from two force files, skipping the start screen."""

from __future__ import annotations

import argparse
import secrets
import sys
from pathlib import Path

from deathzap_tui import saves
from deathzap_tui.commands.start import finished
from deathzap_tui.forcefile import load_force
from deathzap_tui.headless.flow import GamePlan, new_session, quick_setup, writer_lock
from deathzap_tui.headless.options import parse_options
from deathzap_tui.net.lock import SaveLocked


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--red", required=True, metavar="FILE", help="the red force file")
    parser.add_argument("--black", required=True, metavar="FILE", help="the black force file")
    parser.add_argument("--seed", type=int, default=None, metavar="N",
                        help="seed for generated dice (default: random); cards are "
                        "always shuffled from a secret seed of the game's own")
    parser.add_argument("--dice", choices=("physical", "generated"), default="physical",
                        help="default dice mode: typed in from the table, or rolled by the "
                        "app (each roll can still be either)")
    parser.add_argument("--save", metavar="PATH",
                        help="save name (default: from the forces and the date, in saves/)")
    parser.add_argument("--quick", action="store_true",
                        help="skip set-up: every set-up step with generated dice and "
                        "default answers (roll-off, objectives...)")
    parser.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a house-rule option (repeatable), e.g. --option deck=half")


def run(args: argparse.Namespace) -> int:
    from deathzap_tui.app.app import DeathzapApp, Launch  # lazy: Textual, only to open the app

    try:
        options = parse_options(args.option)
    except ValueError as exc:
        print(f"deathzap play: {exc}", file=sys.stderr)
        return 2
    seed = secrets.randbelow(2**31) if args.seed is None else args.seed
    plan = GamePlan(Path(args.red), Path(args.black), seed, options, args.save)
    session = lock = None
    try:
        if args.quick:
            session = new_session(plan)
            lock = writer_lock(session, "deathzap play")  # held until the app quits
            quick_setup(session)
        else:
            # Fail before the screen opens on bad forces, options or a taken save name.
            red, black = (load_force(path) for path in (plan.red, plan.black))
            if red.ruleset.id != black.ruleset.id:
                raise ValueError(f"the forces are for different rulesets ({red.ruleset.id} "
                                 f"and {black.ruleset.id})")
            red.ruleset.options(options)  # the forces' ruleset, not the default one
            if args.save is not None and saves.save_path(args.save).exists():
                raise ValueError(f"{saves.save_path(args.save)} already exists; "
                                 f"resume it with `deathzap resume {args.save}`")
    except (ValueError, OSError, SaveLocked) as exc:  # InvalidInput, SaveError are ValueErrors
        if lock is not None:
            lock.release()
        print(f"deathzap play: {exc}", file=sys.stderr)
        return 1
    if session is not None:
        app = DeathzapApp(Launch("battle"), session=session, dice_mode=args.dice, lock=lock)
    else:  # the set-up screen takes the new save's lock (DeathzapApp.hold)
        app = DeathzapApp(Launch("setup", plan=plan), dice_mode=args.dice)
    try:
        app.run()
    finally:
        app.release_lock()
    return finished(app)

"""``deathzap resolve``: one attack or test outside a game, in any ruleset (the kinds
each offers: shooting, melee, special combat, grenades, morale and quality tests)."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--attacker", metavar="FILE:UNIT", default="",
                        help="the acting unit: a force file and a unit name or number")
    parser.add_argument("--target", metavar="FILE:UNIT", default="",
                        help="the target unit: a force file and a unit name or number")
    parser.add_argument("--dice", choices=("physical", "generated"), default="physical",
                        help="default dice mode (generated: Enter rolls, and takes a "
                        "number question's default)")


def run(args: argparse.Namespace) -> int:
    from deathzap_tui.app.app import DeathzapApp, Launch  # lazy: Textual, only to open the app

    app = DeathzapApp(Launch("resolve", attacker=args.attacker, target=args.target),
                      dice_mode=args.dice)
    app.run()
    return 0

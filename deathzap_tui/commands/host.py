"""``deathzap host``: referee a game for players who join from other terminals.

``deathzap host SAVE`` hosts an existing save; ``deathzap host --red F --black F
--save NAME [--seed N] [--quick]`` starts a new game and hosts it. The referee is the
only writer of the save (it holds the save's lock) and listens on a Unix socket that
only the owner and group may use (``<saves>/<name>.sock`` unless ``--socket``).

This module holds the arguments (``serve-ssh`` and ``club serve`` take some of them
too); the hosting itself is :mod:`deathzap_tui.commands.serving`, imported only to
run it, so that ``deathzap host --help`` loads neither the game's modules nor asyncio.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from deathzap_tui.net.limits import Limits


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("save", nargs="?", metavar="SAVE",
                        help="the save to host (a name in saves/ or its path)")
    parser.add_argument("--socket", metavar="PATH",
                        help="the Unix socket to listen on (default: next to the save)")
    parser.add_argument("--red", metavar="FILE", help="new game: the red force file")
    parser.add_argument("--black", metavar="FILE", help="new game: the black force file")
    parser.add_argument("--seed", type=int, default=None, metavar="N",
                        help="new game: seed for generated dice (cards are shuffled from "
                        "a secret seed of the game's own)")
    parser.add_argument("--save", dest="new_save", metavar="PATH",
                        help="new game: the save name to create")
    parser.add_argument("--quick", action="store_true",
                        help="new game: skip set-up (every set-up step with generated dice "
                        "and default answers)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="new game: a house-rule option (repeatable)")
    add_watcher_limit(parser)
    add_dice_rule(parser)


def add_dice_rule(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dice", choices=("physical", "generated"), default="physical",
                        help="physical (default): players may type the dice they rolled "
                        "themselves, or have the referee roll; generated: the referee rolls "
                        "every die and refuses typed ones")


def add_watcher_limit(parser: argparse.ArgumentParser) -> None:
    default = Limits().max_watchers
    parser.add_argument("--max-watchers", type=at_least(0), default=default, metavar="N",
                        help=f"watchers at once (default {default}); each player's side "
                        "always has its own place besides")


def add_login_limits(parser: argparse.ArgumentParser) -> None:
    """The limits an SSH front door (serve-ssh, club serve) puts on connections not yet
    logged in; :func:`login_limits_problem` checks them."""
    parser.add_argument("--max-unauthenticated", type=at_least(1), default=8, metavar="N",
                        help="connections not yet logged in at once (default 8); one more "
                        "drops the one waiting longest")
    parser.add_argument("--login-timeout", type=float, default=10.0, metavar="SECONDS",
                        help="seconds a connection has to log in (default 10)")


def login_limits_problem(args: argparse.Namespace) -> str:
    """What is wrong with :func:`add_login_limits`' arguments ("" if nothing)."""
    if not 0 < args.login_timeout <= 600:
        return "--login-timeout must be above 0 and at most 600 seconds"
    return ""


def at_least(low: int) -> Callable[[str], int]:
    """An argparse type: a whole number no smaller than ``low``."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, got {value}")
        return value

    return parse


def run(args: argparse.Namespace) -> int:
    from deathzap_tui.commands import serving  # lazy: the game, its save and asyncio

    return serving.host(args)

"""``deathzap club SUBCOMMAND``: a club's store, from the host's side (issue 23).

``members``, ``add``, ``remove``, ``export``, ``import``, ``migrate`` and ``copy``
work on the club store (``--store PATH``, default
:func:`deathzap_tui.club.sqlstore.default_path`) directly
(:mod:`deathzap_tui.commands.clubstore`); other subcommands (``serve``...) live in
modules of their own. Only the chosen subcommand's module is imported.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable
from typing import Any

from deathzap_tui.commands.subparsers import ChosenSubcommands

SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "members": ("list the club's members and their keys", ""),
    "add": ("add a member with their SSH public key(s)", ""),
    "remove": ("remove a member (their games stay)", ""),
    "export": ("write a club game as a normal save (log, report, resume read it)", ""),
    "import": ("bring a save into the club as a game between two members", ""),
    "migrate": ("create the club store, or upgrade it to this deathzap's schema", ""),
    "copy": ("copy a whole club into another store (an SQLite file into PostgreSQL...)",
             ""),
    "serve": ("run the club's SSH server: one address for all its games",
              "deathzap_tui.club.server"),
    "session": ("the lobby app an SSH session of the club runs (started by serve)",
                "deathzap_tui.club.lobby"),
}
"""subcommand -> (one-line help, module). A module named here has ``add_arguments
(parser)`` and ``run(args) -> int``, as a command's module has; ``""``:
:data:`STORE_COMMANDS`' ``args_<name>`` and ``run_<name>``. Every subcommand takes
``--store``."""
STORE_COMMANDS = "deathzap_tui.commands.clubstore"
"""The module of the subcommands that work on the store directly."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    store = argparse.ArgumentParser(add_help=False)
    store.add_argument("--store", metavar="STORE",
                       help="the club store: an SQLite file (PATH or sqlite:PATH; "
                       "default: club.sqlite in the saves folder) or a PostgreSQL "
                       "database (postgresql://USER@HOST:PORT/DB)")
    sub = parser.add_subparsers(dest="club_command", metavar="SUBCOMMAND", required=True,
                                action=ChosenSubcommands, add_arguments=_add_arguments)
    for name, (summary, _module) in SUBCOMMANDS.items():
        sub.add_parser(name, help=summary, parents=[store],
                       description=summary[:1].upper() + summary[1:])


def _add_arguments(name: str, parser: argparse.ArgumentParser) -> None:
    """A module named in :data:`SUBCOMMANDS` (the SSH server, with asyncssh and
    Textual) is imported only to run it, never by another subcommand's parser."""
    _handler(name, "args")(parser)


def _handler(name: str, what: str) -> Callable[..., Any]:
    """The subcommand's ``what`` ("args" or "run") function."""
    module = SUBCOMMANDS[name][1]
    if module:
        return getattr(importlib.import_module(module),
                       "add_arguments" if what == "args" else "run")
    return getattr(importlib.import_module(STORE_COMMANDS), f"{what}_{name}")


def run(args: argparse.Namespace) -> int:
    return int(_handler(args.club_command, "run")(args) or 0)

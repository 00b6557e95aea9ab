"""The ``deathzap`` command line.

Subcommands live in :mod:`deathzap_tui.commands`, one module each with
``add_arguments(parser)`` and ``run(args) -> int``. Only the chosen command's module
is imported (:class:`~deathzap_tui.commands.subparsers.ChosenSubcommands`), so
``deathzap points`` never loads Textual, nor ``deathzap --help`` any command.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any, TextIO

from deathzap_tui.commands.subparsers import ChosenSubcommands
from deathzap_tui.headless.text import clean

COMMANDS: dict[str, str] = {
    "points": "show a force's points, unit by unit",
    "check": "validate force files",
    "log": "print a saved game as a narrative",
    "host": "referee a game for players joining from other terminals",
    "join": "play a hosted game from this terminal",
    "serve-ssh": "serve a hosted game over SSH (built-in server)",
    "play": "start a game from two force files (skips the start screen)",
    "resume": "reopen a saved game",
    "resolve": "resolve one attack or morale test outside a game (no save)",
    "odds": "exact odds of an attack or morale test",
    "edit": "edit a force file (new or existing) with live points and checks",
    "report": "the end-of-game report of a saved game: score over time, units, dice luck",
    "club": "a club's members, forces and games in one store (see `club -h`)",
}
"""subcommand -> one-line help; the module is ``deathzap_tui.commands.<name>``."""


def _module(name: str) -> ModuleType:
    return importlib.import_module(f"deathzap_tui.commands.{name.replace('-', '_')}")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="deathzap",
        description="A terminal referee for Deathzap games. "
        "With no command, opens the start screen with the demo forces.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", action=ChosenSubcommands,
                                add_arguments=_add_arguments)
    for name, summary in COMMANDS.items():
        sub.add_parser(name, help=summary, description=summary[:1].upper() + summary[1:])
    return parser


def _add_arguments(name: str, parser: argparse.ArgumentParser) -> None:
    _module(name).add_arguments(parser)


SIGPIPE_EXIT = 141
"""The status a shell shows for a process ended by SIGPIPE (128 + 13)."""


class CleanErrors:
    """``sys.stderr`` while a command runs: what is written goes through
    :func:`~deathzap_tui.headless.text.clean`. Error messages quote the user's own
    arguments (a save name, a path) and what files hold: one place keeps control
    characters and bidi overrides in them from reaching the terminal (issue 19)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        return self.stream.write(clean(text))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def main(argv: Sequence[str] | None = None) -> int:
    stderr = sys.stderr
    sys.stderr = CleanErrors(stderr)  # type: ignore[assignment]
    try:
        return _run(sys.argv[1:] if argv is None else argv)
    finally:
        sys.stderr = stderr


def _run(argv: Sequence[str]) -> int:
    args = build_parser().parse_args(argv)
    try:
        status = int(_module(args.command or "start").run(args) or 0)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (``deathzap log SAVE | head``): stop quietly. Pointing
        # stdout at devnull stops Python's final flush from complaining again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return SIGPIPE_EXIT
    return status

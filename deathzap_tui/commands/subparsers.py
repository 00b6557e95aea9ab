"""Subcommands whose own arguments are added only when one is chosen.

``deathzap``'s dispatcher (:mod:`deathzap_tui.cli`) and ``deathzap club`` name their
subcommands with a one-line help each; a subcommand's module, and what it imports, is
loaded only when that subcommand is on the command line. ``deathzap --help`` and
``deathzap check`` never import the modules of ``host`` (the referee, asyncio) or of
``play`` (Textual), so those modules import their dependencies at the top.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

AddArguments = Callable[[str, argparse.ArgumentParser], None]
"""``(name, parser)``: add subcommand ``name``'s arguments to its ``parser``."""


class ChosenSubcommands(argparse._SubParsersAction):  # type: ignore[type-arg]
    """A subparsers action (``parser.add_subparsers(action=ChosenSubcommands,
    add_arguments=...)``) that calls ``add_arguments(name, parser)`` for the chosen
    subcommand just before its parser reads the rest of the command line, once."""

    def __init__(self, *args: Any, add_arguments: AddArguments, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._add_arguments = add_arguments
        self._ready: set[str] = set()

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        name = values[0]
        chosen = self.choices.get(name)
        if chosen is not None and name not in self._ready:
            self._add_arguments(name, chosen)
            self._ready.add(name)
        super().__call__(parser, namespace, values, option_string)

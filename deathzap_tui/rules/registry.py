"""Known rulesets, imported lazily so start-up loads only the one in use."""

from __future__ import annotations

import importlib

from deathzap_tui.rules.ruleset import Ruleset

DEFAULT = "deathzap3"
_PLUGINS: dict[str, str] = {
    "deathzap3": "deathzap_tui.rules.deathzap3",
    "command-hand": "deathzap_tui.rules.commandhand",
    "classic": "deathzap_tui.rules.classic",
    "plasmashok": "deathzap_tui.rules.plasmashok",
    "double-tap": "deathzap_tui.rules.doubletap",
}
"""ruleset id -> module exposing ``RULESET``. Add a line here to add a ruleset."""


class UnknownRuleset(KeyError):
    def __str__(self) -> str:
        return f"unknown ruleset {self.args[0]!r}; known: {', '.join(_PLUGINS)}"


def ids() -> tuple[str, ...]:
    return tuple(_PLUGINS)


def get(ruleset_id: str = DEFAULT) -> Ruleset:
    try:
        module = _PLUGINS[ruleset_id]
    except KeyError:
        raise UnknownRuleset(ruleset_id) from None
    return importlib.import_module(module).RULESET

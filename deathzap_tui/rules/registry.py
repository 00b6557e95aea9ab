"""Known rulesets, imported lazily so start-up loads only the one in use.

Registering a ruleset is one line in :data:`_PLUGINS`; the first :func:`get` of it
checks the parts its plugin declares (:meth:`PackageRuleset.check_parts`), so a
misspelt or missing part fails at start-up, naming it."""

from __future__ import annotations

import importlib
from typing import Any

from deathzap_tui.rules.ruleset import PackageRuleset, Ruleset

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


def get(ruleset_id: str = DEFAULT) -> Ruleset[Any, Any]:
    try:
        module = _PLUGINS[ruleset_id]
    except KeyError:
        raise UnknownRuleset(ruleset_id) from None
    ruleset = importlib.import_module(module).RULESET
    if not isinstance(ruleset, Ruleset):
        raise TypeError(f"{module}.RULESET is a {type(ruleset).__name__}, not a Ruleset")
    if ruleset_id not in _checked:
        if ruleset.id != ruleset_id:
            raise TypeError(f"{module}.RULESET has id {ruleset.id!r}, registered as "
                            f"{ruleset_id!r}")
        if isinstance(ruleset, PackageRuleset):
            ruleset.check_parts()
        _checked.add(ruleset_id)
    return ruleset


_checked: set[str] = set()
"""Rulesets whose plugin passed the check (done once per process)."""

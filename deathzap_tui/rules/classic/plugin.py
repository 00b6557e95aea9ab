"""Deathzap Classic behind the :class:`~deathzap_tui.rules.ruleset.Ruleset` interface:
every part (force, options, state, engine, view, help, odds) is delegated to its
module by :class:`~deathzap_tui.rules.ruleset.PackageRuleset`. ``points`` too:
CL-R6, no points (no ``points`` module), so ``deathzap points`` shows the figure
counts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from deathzap_tui.rules.ruleset import PackageRuleset

if TYPE_CHECKING:
    from deathzap_tui.rules.classic.model import Force  # noqa: F401 (the base's type arguments)
    from deathzap_tui.rules.classic.state import State  # noqa: F401


class Classic(PackageRuleset["Force", "State"]):
    id = "classic"
    title = "Deathzap Classic"
    damage_counts = "failed saves, a casualty each (CL §5, §6)"
    package = "deathzap_tui.rules.classic"
    parts = frozenset({"force_counts", "force_template", "quick", "odds",
                       "odds_arguments", "odds_numbers"})

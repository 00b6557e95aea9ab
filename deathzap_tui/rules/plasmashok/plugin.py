"""Deathzap Plasmashok behind the :class:`~deathzap_tui.rules.ruleset.Ruleset`
interface: every part (force, options, state, engine, view, points, help, odds) is
delegated to its module by :class:`~deathzap_tui.rules.ruleset.PackageRuleset`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from deathzap_tui.rules.ruleset import PackageRuleset

if TYPE_CHECKING:
    from deathzap_tui.rules.plasmashok.model import Force  # noqa: F401 (the base's type arguments)
    from deathzap_tui.rules.plasmashok.state import State  # noqa: F401


class Plasmashok(PackageRuleset["Force", "State"]):
    id = "plasmashok"
    title = "Deathzap Plasmashok"
    damage_counts = ("points of damage, each then a shield save (PS §5 steps 4-5), and "
                     "special-combat wounds (PS §4)")
    package = "deathzap_tui.rules.plasmashok"
    parts = frozenset({"force_template", "points", "quick", "odds",
                       "odds_arguments", "odds_numbers"})

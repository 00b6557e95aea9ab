"""Deathzap Classic behind the :class:`~deathzap_tui.rules.ruleset.Ruleset` interface:
every part (force, options, state, engine, view, help, odds) is delegated to its
module by :class:`~deathzap_tui.rules.ruleset.PackageRuleset`."""

from __future__ import annotations

from typing import Any

from deathzap_tui.rules.ruleset import PackageRuleset, PointsReport


class Classic(PackageRuleset):
    id = "classic"
    title = "Deathzap Classic"
    package = "deathzap_tui.rules.classic"

    def points(self, force: Any) -> PointsReport | None:
        return None  # CL-R6: no points; `deathzap points` shows the figure counts

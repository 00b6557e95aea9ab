"""Deathzap Classic behind the :class:`~deathzap_tui.rules.ruleset.Ruleset` interface.
Thin: each method delegates to the module holding that part of the rules, imported on
first use; the shared delegations (force, options, state, engine, help, odds) come
from :class:`~deathzap_tui.rules.ruleset.PackageRuleset`."""

from __future__ import annotations

from typing import Any

from deathzap_tui.rules.ruleset import BoardView, IntentOption, PackageRuleset, PointsReport


class Classic(PackageRuleset):
    id = "classic"
    title = "Deathzap Classic"
    package = "deathzap_tui.rules.classic"

    def points(self, force: Any) -> PointsReport | None:
        return None  # CL-R6: no points; `deathzap points` shows the figure counts

    def intents(self, state: Any, viewer: str | None = None) -> list[IntentOption]:
        # No hidden information in Classic: every viewer sees the same offers.
        from deathzap_tui.rules.classic.engine import intents

        return intents(state)

    def view(self, state: Any, viewer: str | None = None) -> BoardView:
        from deathzap_tui.rules.classic.view import board_view

        return board_view(state, viewer)

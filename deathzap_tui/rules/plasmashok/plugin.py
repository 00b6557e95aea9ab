"""Deathzap Plasmashok behind the :class:`~deathzap_tui.rules.ruleset.Ruleset`
interface. Thin: each method delegates to the module holding that part of the rules,
imported on first use; the shared delegations (force, options, state, engine, help,
odds) come from :class:`~deathzap_tui.rules.ruleset.PackageRuleset`."""

from __future__ import annotations

from typing import Any

from deathzap_tui.rules.ruleset import BoardView, IntentOption, PackageRuleset, PointsReport


class Plasmashok(PackageRuleset):
    id = "plasmashok"
    title = "Deathzap Plasmashok"
    package = "deathzap_tui.rules.plasmashok"

    def points(self, force: Any) -> PointsReport | None:
        from deathzap_tui.rules.plasmashok.points import points_report

        return points_report(force)

    def intents(self, state: Any, viewer: str | None = None) -> list[IntentOption]:
        # No hidden information in Plasmashok: every viewer sees the same offers.
        from deathzap_tui.rules.plasmashok.engine import intents

        return intents(state)

    def view(self, state: Any, viewer: str | None = None) -> BoardView:
        from deathzap_tui.rules.plasmashok.view import board_view

        return board_view(state, viewer)

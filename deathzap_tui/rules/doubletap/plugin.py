from __future__ import annotations

from typing import Any

from deathzap_tui.rules.ruleset import BoardView, IntentOption, PackageRuleset, PointsReport


class DoubleTap(PackageRuleset):
    id = "double-tap"
    title = "Double Tap 2.1"
    package = "deathzap_tui.rules.doubletap"

    def points(self, force: Any) -> PointsReport | None:
        from deathzap_tui.rules.doubletap.points import points_report

        return points_report(force)

    def intents(self, state: Any, viewer: str | None = None) -> list[IntentOption]:
        # No hidden information in Double Tap: every viewer sees the same offers.
        from deathzap_tui.rules.doubletap.engine import intents

        return intents(state)

    def view(self, state: Any, viewer: str | None = None) -> BoardView:
        from deathzap_tui.rules.doubletap.view import board_view

        return board_view(state, viewer)

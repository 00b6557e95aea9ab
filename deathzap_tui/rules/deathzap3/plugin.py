"""Deathzap 3 behind the :class:`~deathzap_tui.rules.ruleset.Ruleset` interface.

Thin by design: each method delegates to the module that holds that part of the
rules, imported on first use.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from deathzap_tui.rules.problems import Problem
from deathzap_tui.rules.ruleset import (
    BoardView,
    IntentOption,
    OptionSpec,
    PointsReport,
    Ruleset,
)
from deathzap_tui.rules.steps import Maker, Resolution


class Deathzap3(Ruleset):
    id = "deathzap3"
    title = "Deathzap 3"

    def parse_force(self, data: Mapping[str, Any]) -> Any:
        from deathzap_tui.rules.deathzap3.force import parse_force

        return parse_force(data)

    def force_warnings(self, force: Any) -> list[Problem]:
        from deathzap_tui.rules.deathzap3.force import force_warnings

        return force_warnings(force)

    def points(self, force: Any) -> PointsReport | None:
        from deathzap_tui.rules.deathzap3.points import points_report

        return points_report(force)

    def option_specs(self) -> tuple[OptionSpec, ...]:
        from deathzap_tui.rules.deathzap3.options import OPTION_SPECS

        return OPTION_SPECS

    def new_state(self, red: Any, black: Any, options: Mapping[str, Any], seed: int) -> Any:
        from deathzap_tui.rules.deathzap3.state import new_state

        return new_state(red, black, options, seed)

    def resolution(self, state: Any, intent: Mapping[str, Any], by: str = "") -> Maker:
        from deathzap_tui.rules.deathzap3.engine import resolution

        return resolution(state, intent, by)

    def intents(self, state: Any, viewer: str | None = None) -> list[IntentOption]:
        # Deathzap 3 has no hidden information: every viewer sees the same.
        from deathzap_tui.rules.deathzap3.engine import intents

        return intents(state)

    def is_over(self, state: Any) -> bool:
        return bool(state.over)

    def view(self, state: Any, viewer: str | None = None) -> BoardView:
        from deathzap_tui.rules.deathzap3.view import board_view

        return board_view(state)

    def quick_kinds(self) -> tuple[tuple[str, str], ...]:
        from deathzap_tui.rules.deathzap3.quick import KINDS

        return KINDS

    def quick_resolution(self, kind: str, attacker: tuple[Any, int],
                         target: tuple[Any, int] | None, seed: int) -> Resolution:
        from deathzap_tui.rules.deathzap3.quick import quick_resolution

        return quick_resolution(kind, attacker, target, seed)

    def attack_odds(self, state: Any, facts: Mapping[str, Any]) -> Any | None:
        from deathzap_tui.rules.deathzap3.odds import odds_from_facts

        return odds_from_facts(facts, state.options["morale"], None)

    def odds_cli(self, attacker: tuple[Any, Any], target: tuple[Any, Any],
                 settings: Mapping[str, Any]) -> tuple[Any, list[str]] | None:
        from deathzap_tui.rules.deathzap3.odds import odds_cli

        return odds_cli(attacker, target, settings)

    def help_sections(self) -> list[tuple[str, str]]:
        from deathzap_tui.rules.deathzap3.help import HELP_SECTIONS

        return list(HELP_SECTIONS)

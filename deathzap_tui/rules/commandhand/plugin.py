"""Deathzap "Command Hand" behind the :class:`~deathzap_tui.rules.ruleset.Ruleset`
interface. Thin: each method delegates to the module holding that part of the
rules, imported on first use."""

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
from deathzap_tui.rules.steps import Maker


class CommandHand(Ruleset):
    id = "command-hand"
    title = "Deathzap Command Hand"

    def parse_force(self, data: Mapping[str, Any]) -> Any:
        from deathzap_tui.rules.commandhand.force import parse_force

        return parse_force(data)

    def force_warnings(self, force: Any) -> list[Problem]:
        from deathzap_tui.rules.commandhand.force import force_warnings

        return force_warnings(force)

    def points(self, force: Any) -> PointsReport | None:
        return None  # CH-R4: no points system; `deathzap points` shows counts instead

    def option_specs(self) -> tuple[OptionSpec, ...]:
        from deathzap_tui.rules.commandhand.options import OPTION_SPECS

        return OPTION_SPECS

    def new_state(self, red: Any, black: Any, options: Mapping[str, Any], seed: int) -> Any:
        from deathzap_tui.rules.commandhand.state import new_state

        return new_state(red, black, options, seed)

    def resolution(self, state: Any, intent: Mapping[str, Any], by: str = "") -> Maker:
        from deathzap_tui.rules.commandhand.engine import resolution

        return resolution(state, intent, by)

    def intents(self, state: Any, viewer: str | None = None) -> list[IntentOption]:
        from deathzap_tui.rules.commandhand.engine import intents

        return intents(state, viewer)

    def is_over(self, state: Any) -> bool:
        return bool(state.over)

    def view(self, state: Any, viewer: str | None = None) -> BoardView:
        from deathzap_tui.rules.commandhand.view import board_view

        return board_view(state, viewer)

    def help_sections(self) -> list[tuple[str, str]]:
        from deathzap_tui.rules.commandhand.help import HELP_SECTIONS

        return list(HELP_SECTIONS)

    def attack_odds(self, state: Any, facts: Mapping[str, Any]) -> Any | None:
        from deathzap_tui.rules.commandhand.odds import odds_from_facts

        return odds_from_facts(facts)

    def odds_cli(self, attacker: tuple[Any, Any], target: tuple[Any, Any],
                 settings: Mapping[str, Any]) -> tuple[Any, list[str]] | None:
        from deathzap_tui.rules.commandhand.odds import odds_cli

        return odds_cli(attacker, target, settings)

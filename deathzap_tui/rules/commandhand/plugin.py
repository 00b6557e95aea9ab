"""Deathzap "Command Hand" behind the :class:`~deathzap_tui.rules.ruleset.Ruleset`
interface. Thin: each method delegates to the module holding that part of the
rules, imported on first use; the delegations every Deathzap-family plugin shares
(force, options, state, engine, view, help, odds CLI) come from
:class:`~deathzap_tui.rules.ruleset.PackageRuleset`, and so does ``points``: CH-R4,
no points system (no ``points`` module), so ``deathzap points`` shows counts
instead. Its own: the intents, which depend on the viewer (hidden hands), and the
odds of an attack."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from deathzap_tui.rules.ruleset import IntentOption, PackageRuleset

if TYPE_CHECKING:
    from deathzap_tui.rules.commandhand.model import Force  # noqa: F401 (the base's type arguments)
    from deathzap_tui.rules.commandhand.state import State  # noqa: F401


class CommandHand(PackageRuleset["Force", "State"]):
    id = "command-hand"
    title = "Deathzap Command Hand"
    damage_counts = ("points of damage, each stripping a shield or, with none left, "
                     "killing a figure (CH §4, §5)")
    package = "deathzap_tui.rules.commandhand"
    parts = frozenset({"force_template", "quick", "odds", "odds_arguments"})

    def intents(self, state: Any, viewer: str | None = None) -> list[IntentOption]:
        # Hidden hands: a viewer sees only what that side may do or know of.
        return list(self.part("engine", "intents")(state, viewer))

    def attack_odds(self, state: Any, facts: Mapping[str, Any]) -> Any | None:
        return self.part("odds", "odds_from_facts")(facts)

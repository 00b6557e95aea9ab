"""Deathzap 3 behind the :class:`~deathzap_tui.rules.ruleset.Ruleset` interface.

Thin by design: each method delegates to the module that holds that part of the
rules, imported on first use; the delegations every Deathzap-family plugin shares
(force, options, state, engine and its intents, view, points, help, odds CLI) come
from :class:`~deathzap_tui.rules.ruleset.PackageRuleset`. Its own: the odds of an
attack (which read the game's morale option).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from deathzap_tui.rules.ruleset import PackageRuleset

if TYPE_CHECKING:
    from deathzap_tui.rules.deathzap3.model import Force  # noqa: F401 (the base's type arguments)
    from deathzap_tui.rules.deathzap3.state import State  # noqa: F401


class Deathzap3(PackageRuleset["Force", "State"]):
    id = "deathzap3"
    title = "Deathzap 3"
    damage_counts = ("points of damage, each stripping a shield or forcing a save: "
                     "shots that beat the shields, melee hits, explosions (DZ3 §6, §7, §9)")
    package = "deathzap_tui.rules.deathzap3"
    parts = frozenset({"force_template", "points", "quick", "odds",
                       "odds_arguments", "odds_numbers"})

    def attack_odds(self, state: Any, facts: Mapping[str, Any]) -> Any | None:
        return self.part("odds", "odds_from_facts")(facts, state.options["morale"], None)

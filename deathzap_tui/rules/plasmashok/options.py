"""Deathzap Plasmashok per-game options, each citing the rule it switches."""

from __future__ import annotations

from deathzap_tui.rules.plasmashok import tables
from deathzap_tui.rules.ruleset import OptionSpec

OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec("turns", "Turns", tables.GAME_TURNS, rule="PS §8",
               help="The game ends after this turn unless a side has been wiped out "
               "first; the side that has lost the greater points value of models loses "
               "(4 in the rules).", minimum=1, maximum=20),
)

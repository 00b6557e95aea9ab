"""Deathzap Classic per-game options, each citing the rule it switches."""

from __future__ import annotations

from deathzap_tui.rules.classic import tables
from deathzap_tui.rules.ruleset import OptionSpec

OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec("game", "Game", "advanced", ("advanced", "basic"), "CL §8",
               "advanced: two objectives rolled after the first impetus roll (one per "
               "table, both sides play for them, CL-R5); the game ends after the last "
               "turn, or once a side has no unit left, and most VP wins. basic: a side "
               "wins the moment the enemy has no unit in play that is not panicked "
               "(both at once: a draw)."),
    OptionSpec("turns", "Turns", tables.GAME_TURNS, rule="CL §8",
               help="How many turns an advanced game lasts (6 in the rules).",
               minimum=1, maximum=20),
)

"""Double Tap per-game options, each citing the rule it switches."""

from __future__ import annotations

from deathzap_tui.rules.doubletap import tables
from deathzap_tui.rules.ruleset import OptionSpec

OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec("rounds", "Rounds", tables.ROUNDS, rule="DT §2",
               help="The game ends after this round; the side holding more markers wins "
               "(4 in the rules).", minimum=1, maximum=12),
)

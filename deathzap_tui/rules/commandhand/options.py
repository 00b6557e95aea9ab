"""Command Hand per-game options, each citing the ruling it switches."""

from __future__ import annotations

from deathzap_tui.rules.ruleset import OptionSpec

OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec("distances", "Distances", "normal", ("normal", "double"), "CH-R1",
               "normal: 2'x2' board for 15-20mm figures. double: 25mm or larger figures "
               "on a 4'x4' board; every distance and range the app shows or asks about "
               "is doubled (12\" becomes 24\")."),
    OptionSpec("victory", "Victory", "elimination", ("elimination", "objectives"), "CH-R5",
               "elimination: a side wins when the other has no figures left (the deck is "
               "reshuffled when it runs out). objectives: Deathzap 3's five objectives "
               "and victory points; the game ends when the deck runs out, most VP wins."),
)

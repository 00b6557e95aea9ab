"""Deathzap "Plasmashok", the blocking-dice edition (``../shared/rules/plasmashok.md``)."""

from deathzap_tui.rules.plasmashok.plugin import Plasmashok

RULESET = Plasmashok()

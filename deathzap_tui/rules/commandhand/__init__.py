"""Deathzap "Command Hand" edition (``../shared/rules/command-hand.md``)."""

from deathzap_tui.rules.commandhand.plugin import CommandHand

RULESET = CommandHand()

"""Deathzap 3, the default ruleset (``../shared/rules/deathzap3.md``)."""

from deathzap_tui.rules.deathzap3.plugin import Deathzap3

RULESET = Deathzap3()

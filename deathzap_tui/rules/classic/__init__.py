"""Deathzap "Classic", the phase-based edition (``../shared/rules/classic.md``)."""

from deathzap_tui.rules.classic.plugin import Classic

RULESET = Classic()

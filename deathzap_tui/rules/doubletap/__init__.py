"""Double Tap v2.1, the activation-point skirmish game (``../shared/rules/double-tap.md``)."""

from deathzap_tui.rules.doubletap.plugin import DoubleTap

RULESET = DoubleTap()
"""Double Tap behind the :class:`~deathzap_tui.rules.ruleset.Ruleset` interface. Thin:
each method delegates to the module holding that part of the rules, imported on first
use; the shared delegations (force, options, state, engine, help, odds) come from
:class:`~deathzap_tui.rules.ruleset.PackageRuleset`."""

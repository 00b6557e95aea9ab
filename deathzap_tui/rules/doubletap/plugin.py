"""Double Tap v2.1 behind the :class:`~deathzap_tui.rules.ruleset.Ruleset` interface:
every part (force, options, state, engine, view, points, help, odds) is delegated to
its module by :class:`~deathzap_tui.rules.ruleset.PackageRuleset`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from deathzap_tui.rules.ruleset import PackageRuleset

if TYPE_CHECKING:
    from deathzap_tui.rules.doubletap.model import Force  # noqa: F401 (the base's type arguments)
    from deathzap_tui.rules.doubletap.state import State  # noqa: F401


class DoubleTap(PackageRuleset["Force", "State"]):
    id = "double-tap"
    title = "Double Tap 2.1"
    damage_counts = ("failed blocks (a kill, or a wound marker on a Tough model) and "
                     "failed poison tests (DT §4, §7)")
    package = "deathzap_tui.rules.doubletap"
    parts = frozenset({"force_template", "points", "quick", "odds",
                       "odds_arguments", "odds_numbers"})

"""Starting texts for a unit typed in by hand (quick resolve).

Each ruleset gives its own (``Ruleset.force_template``: a whole force file in its
shape, one weapon and one unit); a ruleset without one gets :func:`fallback`, and
its problems say the rest.
"""

from __future__ import annotations

from deathzap_tui.rules import registry


def fallback(ruleset_id: str) -> str:
    """A minimal start for a ruleset without a template: its problems say the rest."""
    return f'name = "Typed force"\nruleset = "{ruleset_id}"\n'


def template(ruleset_id: str) -> str:
    """The starting text for typing a unit of ``ruleset_id``."""
    try:
        text = registry.get(ruleset_id).force_template()
    except registry.UnknownRuleset:
        text = ""
    return text or fallback(ruleset_id)

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


def ruleset_template(ruleset_id: object) -> str:
    """The ruleset's own template force (``Ruleset.force_template``); "" for a
    ruleset without one, or for an id that names no ruleset (or is not a string: it
    may come from an untrusted file)."""
    if not isinstance(ruleset_id, str):
        return ""
    try:
        return registry.get(ruleset_id).force_template()
    except registry.UnknownRuleset:
        return ""


def template(ruleset_id: str) -> str:
    """The starting text for typing a unit of ``ruleset_id``."""
    return ruleset_template(ruleset_id) or fallback(ruleset_id)

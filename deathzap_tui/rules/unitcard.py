"""A unit's card (issue 22): the parts every ruleset's view builds the same way.

Each ruleset's ``view.unit_card`` fills :attr:`~deathzap_tui.rules.ruleset.UnitRow.card`
with sections (a heading and lines): the figures and their weapons, the weapons'
profiles in the ruleset's own terms, its protection, tokens, status and what the unit
did this turn. These helpers keep the figures and the sections alike across rulesets.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from deathzap_tui.rules.ruleset import CardSection


def figure_lines(figures: Iterable[Any], weapon_name: Callable[[str], str],
                 label: Callable[[Any], str] = lambda f: f.name) -> tuple[str, ...]:
    """One line for each kind of figure (same ``label`` and weapons), how many of them
    are left and what they carry: "Trooper 3/4: Rail Rifle, Knife"."""
    kinds: dict[tuple[str, tuple[str, ...]], list[int]] = {}
    for figure in figures:
        key = (label(figure), tuple(weapon_name(w) for w in figure.weapons))
        count = kinds.setdefault(key, [0, 0])
        count[0] += 0 if figure.removed else 1
        count[1] += 1
    return tuple(f"{name} {left}/{total}" + (f": {', '.join(weapons)}" if weapons else "")
                 for (name, weapons), (left, total) in kinds.items())


def carried(figures: Iterable[Any]) -> list[str]:
    """The weapon ids the figures carry, each once, in the order first carried."""
    return list(dict.fromkeys(w for f in figures for w in f.weapons))


def sections(*parts: tuple[str, Iterable[str]]) -> tuple[CardSection, ...]:
    """The card's sections, leaving out those with no line."""
    out = []
    for heading, lines in parts:
        kept = tuple(line for line in lines if line)
        if kept:
            out.append((heading, kept))
    return tuple(out)

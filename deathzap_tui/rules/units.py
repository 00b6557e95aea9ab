"""Unit look-ups shared by the Deathzap-family rulesets: names as narration says them,
the units still in play, and base contacts (melees).

They work on any :class:`~deathzap_tui.rules.statebase.StateBase` whose units have
``name``, ``side``, ``index`` and ``in_play``; contacts need an ``engaged`` list of
enemy unit ids, kept both ways.
"""

from __future__ import annotations

from typing import Any

from deathzap_tui.rules.narration import side_name


def uname(state: Any, unit: Any) -> str:
    """"Red Squad 1"; a name repeated within a side gets its position ("#2")."""
    same = [u for u in state.units[unit.side] if u.name == unit.name]
    suffix = f" #{same.index(unit) + 1}" if len(same) > 1 else ""
    return f"{side_name(unit.side)} {unit.name}{suffix}"


def names(state: Any, units: list[Any]) -> str:
    """"Red Squad, Black Hounds and Black Brood"."""
    words = [uname(state, u) for u in units]
    return " and ".join(filter(None, (", ".join(words[:-1]), words[-1])))


def in_play(state: Any, side: str) -> list[Any]:
    """``side``'s units still on the table."""
    return [u for u in state.units[side] if u.in_play]


def disengage(state: Any, unit: Any) -> None:
    """Forget every base contact involving ``unit``, both ways."""
    for other in state.all_units():
        if unit.id in other.engaged:
            other.engaged.remove(unit.id)
    unit.engaged.clear()


def melees(state: Any) -> list[list[Any]]:
    """Every melee under way: the groups of units joined by contacts, each in
    side-then-index order, in the order of their first unit."""
    seen: set[str] = set()
    out = []
    for unit in state.all_units():
        if unit.id in seen or not unit.engaged:
            continue
        group, todo = [], [unit.id]
        while todo:
            uid = todo.pop()
            if uid in seen:
                continue
            seen.add(uid)
            member = state.unit(uid)
            group.append(member)
            todo.extend(member.engaged)
        out.append(sorted(group, key=lambda u: (u.side != "red", u.index)))
    return out

"""Unit look-ups shared by the Deathzap-family rulesets: names as narration says them,
the units still in play, and base contacts (moving into contact, melees).

They work on any :class:`~deathzap_tui.rules.statebase.StateBase` whose units have
``name``, ``side``, ``index`` and ``in_play``; contacts need an ``engaged`` list of
enemy unit ids, kept both ways.
"""

from __future__ import annotations

from typing import Any

from deathzap_tui.rules.narration import Gen, side_name, word_list
from deathzap_tui.rules.ruleset import other_side
from deathzap_tui.rules.steps import Choice, Context, Question


def uname(state: Any, unit: Any) -> str:
    """"Red Squad 1"; a name repeated within a side gets its position ("#2")."""
    same = [u for u in state.units[unit.side] if u.name == unit.name]
    suffix = f" #{same.index(unit) + 1}" if len(same) > 1 else ""
    return f"{side_name(unit.side)} {unit.name}{suffix}"


def short_name(state: Any, unit: Any) -> str:
    """:func:`uname` without the side: "Squad #2" (a table row under its side)."""
    return uname(state, unit).split(" ", 1)[1]


def names(state: Any, units: list[Any]) -> str:
    """"Red Squad, Black Hounds and Black Brood"."""
    return word_list([uname(state, u) for u in units])


def in_play(state: Any, side: str) -> list[Any]:
    """``side``'s units still on the table."""
    return [u for u in state.units[side] if u.in_play]


def contact_target_refusal(state: Any, unit: Any, target_id: str) -> str:
    """Why ``unit`` may not move into base contact with ``target_id`` ("" if it may):
    the target must exist, be an enemy and still be in play (the ruleset checks the
    mover itself)."""
    try:
        target = state.unit(target_id)
    except KeyError:
        return f"there is no unit {target_id!r}"
    if target.side == unit.side:
        return f"{uname(state, target)} is a friendly unit"
    if not target.in_play:
        return f"{uname(state, target)} is no longer in play"
    return ""


def make_contacts(ctx: Context, unit: Any, target: Any, rule: str) -> Gen:
    """``unit`` moves into base contact with ``target`` and perhaps other enemy units
    in play in the same move (asked one at a time, keys ``also.<n>``, under ``rule``);
    the contacts are kept both ways. Returns the units touched, ``target`` first (the
    ruleset narrates)."""
    state = ctx.state
    targets = [target]
    while others := [e for e in in_play(state, other_side(unit.side)) if e not in targets]:
        more = yield Question(
            f"also.{len(targets)}", f"Does {uname(state, unit)} also touch another enemy unit?",
            (Choice("none", "No other unit"), *(Choice(e.id, uname(state, e)) for e in others)),
            rule=rule, side=unit.side, default="none")
        if more == "none":
            break
        targets.append(state.unit(more))
    for touched in targets:
        unit.engaged.append(touched.id)
        touched.engaged.append(unit.id)
    return targets


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

"""Helpers shared by the Deathzap Classic resolutions: names, look-ups, and a
resolution that asks nothing."""

from __future__ import annotations

from deathzap_tui.rules.classic.state import FigureState, State, UnitState
from deathzap_tui.rules.narration import side_name


def uname(state: State, unit: UnitState) -> str:
    """"Red Squad 1"; a name repeated within a side gets its position ("#2")."""
    same = [u for u in state.units[unit.side] if u.name == unit.name]
    suffix = f" #{same.index(unit) + 1}" if len(same) > 1 else ""
    return f"{side_name(unit.side)} {unit.name}{suffix}"


def in_play(state: State, side: str) -> list[UnitState]:
    """``side``'s units still on the table (not wiped out, not merged away)."""
    return [u for u in state.units[side] if u.in_play]


def disengage(state: State, unit: UnitState) -> None:
    """Forget every melee contact involving ``unit``, both ways."""
    for other in state.all_units():
        if unit.id in other.engaged:
            other.engaged.remove(unit.id)
    unit.engaged.clear()


def steady(state: State, side: str) -> list[UnitState]:
    """``side``'s units in play and not panicked (the basic game's measure, CL §8)."""
    return [u for u in in_play(state, side) if not u.is_panicked]


def melees(state: State) -> list[list[UnitState]]:
    """Every melee under way: the groups of units joined by contacts (CL §6), each
    in side-then-index order, in the order of their first unit."""
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


def names(state: State, units: list[UnitState]) -> str:
    """"Red Squad, Black Hounds and Black Brood"."""
    words = [uname(state, u) for u in units]
    return " and ".join(filter(None, (", ".join(words[:-1]), words[-1])))


def living_general(state: State, side: str) -> FigureState | None:
    """``side``'s general if it is alive on the table (CL §1, §8), else ``None``."""
    return next((f for u in in_play(state, side) for f in u.alive_figures if f.general),
                None)

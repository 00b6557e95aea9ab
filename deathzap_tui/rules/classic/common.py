"""Helpers shared by the Deathzap Classic resolutions: names, look-ups, and a
resolution that asks nothing."""

from __future__ import annotations

from deathzap_tui.rules.classic.state import FigureState, State, UnitState
from deathzap_tui.rules.units import disengage as disengage
from deathzap_tui.rules.units import in_play as in_play
from deathzap_tui.rules.units import melees as melees
from deathzap_tui.rules.units import names as names
from deathzap_tui.rules.units import uname as uname


def steady(state: State, side: str) -> list[UnitState]:
    """``side``'s units in play and not panicked (the basic game's measure, CL §8)."""
    return [u for u in in_play(state, side) if not u.is_panicked]


def living_general(state: State, side: str) -> FigureState | None:
    """``side``'s general if it is alive on the table (CL §1, §8), else ``None``."""
    return next((f for u in in_play(state, side) for f in u.alive_figures if f.general),
                None)

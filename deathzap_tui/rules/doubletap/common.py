"""Helpers shared by the Double Tap resolutions: the units that still count for a
side, killing one, a side's Sixth Sense units. Names, units in play and contacts are
the family's (:mod:`deathzap_tui.rules.units`)."""

from __future__ import annotations

from deathzap_tui.rules.doubletap.state import State, UnitState
from deathzap_tui.rules.units import disengage as disengage
from deathzap_tui.rules.units import in_play as in_play
from deathzap_tui.rules.units import names as names
from deathzap_tui.rules.units import uname as uname


def living(state: State, side: str) -> list[UnitState]:
    """``side``'s living units, on the table or in Ambush reserve: each is worth an
    activation point (app reading 1) and keeps the side in the game (app reading 4)."""
    return [u for u in state.units[side] if u.alive]


def sixth_sense(state: State, side: str) -> list[UnitState]:
    """``side``'s units in play with Sixth Sense: enemies within 8" of them lose their
    camo marker (DT §7)."""
    return [u for u in in_play(state, side) if u.has("sixth-sense")]


def kill(state: State, unit: UnitState) -> None:
    """Remove ``unit`` from play: dead, out of every base contact, its markers gone."""
    unit.figures[0].alive = False
    unit.poisoned = unit.stunned = unit.camo = False
    unit.poisoned_by = ""
    disengage(state, unit)

"""Helpers shared by the Deathzap Plasmashok resolutions: look-ups by bracket and the
contact rule for shooting. Names, units in play and melees are the family's
(:mod:`deathzap_tui.rules.units`)."""

from __future__ import annotations

from deathzap_tui.rules.plasmashok import tables
from deathzap_tui.rules.plasmashok.state import State, UnitState
from deathzap_tui.rules.units import disengage as disengage
from deathzap_tui.rules.units import in_play as in_play
from deathzap_tui.rules.units import melees as melees
from deathzap_tui.rules.units import names as names
from deathzap_tui.rules.units import uname as uname


def free_of_contact(state: State, unit: UnitState) -> bool:
    """PS §5: a unit may shoot and be shot unless it touches an enemy unit, or when its
    size is at least double that of every unit it touches."""
    return all(unit.size >= tables.CONTACT_SIZE_FACTOR * state.unit(e).size
               for e in unit.engaged)


def bracket_units(state: State, bracket: str) -> list[UnitState]:
    """Units in play of training ``bracket``, both sides, Red first (PS §3)."""
    return [u for u in state.all_units() if u.in_play and u.training == bracket]

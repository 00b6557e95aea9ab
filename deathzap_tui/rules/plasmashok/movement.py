"""The movement phase (PS §3) as bookkeeping: the players move the models on the
table; the app records only units moving into base contact with the enemy (app
reading 4), since contacts decide who may shoot (PS §5), who fights (PS §6) and who
may not move (PS §3).
"""

from __future__ import annotations

from deathzap_tui.rules.narration import Gen, side_name
from deathzap_tui.rules.plasmashok.common import names, uname
from deathzap_tui.rules.plasmashok.state import State
from deathzap_tui.rules.steps import Context
from deathzap_tui.rules.units import contact_target_refusal, make_contacts


def engage_refusal(state: State, unit_id: str, target_id: str, by: str = "") -> str:
    """PS §3, app reading 4: in the movement phase a unit of the side moving now, in
    play and not in base contact (units in contact cannot move), may move into contact
    with an enemy unit in play. "" if it may, else why not."""
    if state.stage != "battle":
        return "finish the set-up first (PS §1)"
    if state.step != "movement" or not state.mover:
        return "units move only in the movement phase (PS §3)"
    try:
        unit = state.unit(unit_id)
    except KeyError:
        return f"there is no unit {unit_id!r}"
    if unit.side != state.mover:
        return f"{side_name(state.mover)} is moving now, not {side_name(unit.side)} (PS §3)"
    if by and by != state.mover:
        return f"it is {side_name(state.mover)}'s move"
    if not unit.in_play:
        return f"{uname(state, unit)} is no longer in play"
    if unit.engaged:
        return f"{uname(state, unit)} is in base contact with the enemy and cannot move (PS §3)"
    return contact_target_refusal(state, unit, target_id)


def engage(ctx: Context, unit_id: str, target_id: str) -> Gen:
    """The unit moves into base contact with the target, and perhaps with other enemy
    units in the same move (the players say which): the contacts hold, both ways,
    until a melee ends with a retreat or a unit is wiped out (PS §3, §6)."""
    state: State = ctx.state
    unit = state.unit(unit_id)
    targets = yield from make_contacts(ctx, unit, state.unit(target_id), "PS §3")
    ctx.say(f"{uname(state, unit)} moves into base contact with {names(state, targets)}: "
            "they will fight in the melee phase (PS §3, §6).")

"""The movement phase (PS §3) as bookkeeping: the players move the models on the
table; the app records only units moving into base contact with the enemy (app
reading 4), since contacts decide who may shoot (PS §5), who fights (PS §6) and who
may not move (PS §3).
"""

from __future__ import annotations

from deathzap_tui.rules.narration import Gen, side_name
from deathzap_tui.rules.plasmashok.common import in_play, names, uname
from deathzap_tui.rules.plasmashok.state import State
from deathzap_tui.rules.ruleset import other_side
from deathzap_tui.rules.steps import Choice, Context, Question


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
    try:
        target = state.unit(target_id)
    except KeyError:
        return f"there is no unit {target_id!r}"
    if target.side == unit.side:
        return f"{uname(state, target)} is a friendly unit"
    if not target.in_play:
        return f"{uname(state, target)} is no longer in play"
    return ""


def engage(ctx: Context, unit_id: str, target_id: str) -> Gen:
    """The unit moves into base contact with the target, and perhaps with other enemy
    units in the same move (the players say which): the contacts hold, both ways,
    until a melee ends with a retreat or a unit is wiped out (PS §3, §6)."""
    state: State = ctx.state
    unit = state.unit(unit_id)
    targets = [state.unit(target_id)]
    while others := [e for e in in_play(state, other_side(unit.side)) if e not in targets]:
        more = yield Question(
            f"also.{len(targets)}", f"Does {uname(state, unit)} also touch another enemy unit?",
            (Choice("none", "No other unit"), *(Choice(e.id, uname(state, e)) for e in others)),
            rule="PS §3", side=unit.side, default="none")
        if more == "none":
            break
        targets.append(state.unit(more))
    for target in targets:
        if target.id not in unit.engaged:
            unit.engaged.append(target.id)
            target.engaged.append(unit.id)
    ctx.say(f"{uname(state, unit)} moves into base contact with {names(state, targets)}: "
            "they will fight in the melee phase (PS §3, §6).")

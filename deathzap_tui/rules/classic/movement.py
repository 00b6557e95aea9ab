"""The movement phase (CL §4) as bookkeeping: the players move the figures on the
table, the app records what changes the rules' state there: units moving into
contact (a melee begins), rallying by merging, and carrying the MacGuffin off
(CL §8).

Each ``..._refusal`` helper returns "" when the move is legal now, else why not; the
engine refuses with it and lists only what it allows.
"""

from __future__ import annotations

import dataclasses

from deathzap_tui.rules.classic import tables
from deathzap_tui.rules.classic.common import names, uname
from deathzap_tui.rules.classic.state import State, UnitState
from deathzap_tui.rules.classic.victory import check_victory
from deathzap_tui.rules.narration import Gen, plural, side_name
from deathzap_tui.rules.statebase import add_vp
from deathzap_tui.rules.steps import TOTAL, Context, DiceRequest, Luck
from deathzap_tui.rules.units import contact_target_refusal, make_contacts


def _mover_refusal(state: State, unit_id: str, by: str) -> tuple[UnitState | None, str]:
    """The unit if it belongs to the side moving now and is in play, else why not."""
    if state.stage != "battle":
        return None, "finish the set-up first (CL §1)"
    if state.step != "movement" or not state.mover:
        return None, "units move only in the movement phase (CL §3, §4)"
    try:
        unit = state.unit(unit_id)
    except KeyError:
        return None, f"there is no unit {unit_id!r}"
    if unit.side != state.mover:
        return None, f"{side_name(state.mover)} is moving now, not {side_name(unit.side)} (CL §4)"
    if by and by != state.mover:
        return None, f"it is {side_name(state.mover)}'s move"
    if not unit.in_play:
        return None, f"{uname(state, unit)} is no longer in play"
    if unit.engaged:
        return None, f"{uname(state, unit)} is in melee and cannot move (CL §4)"
    return unit, ""


def engage_refusal(state: State, unit_id: str, target_id: str, by: str = "") -> str:
    """CL §4: a unit not in melee and not panicked may move into contact with an
    enemy unit in play (panicked units may not move towards the enemy)."""
    unit, why = _mover_refusal(state, unit_id, by)
    if unit is None:
        return why
    if unit.is_panicked:
        return f"{uname(state, unit)} is panicked and may not move towards the enemy (CL §4)"
    return contact_target_refusal(state, unit, target_id)


def engage(ctx: Context, unit_id: str, target_id: str) -> Gen:
    """The unit moves into contact with the target, and perhaps other enemy units in
    the same move (the players say which): they are in melee with each other, both
    ways, until the melee is fought (CL §4, §6)."""
    state: State = ctx.state
    unit = state.unit(unit_id)
    targets = yield from make_contacts(ctx, unit, state.unit(target_id), "CL §6")
    ctx.say(f"{uname(state, unit)} moves into contact with {names(state, targets)}: "
            "they are in melee and will fight in the melee phase (CL §4, §6).")


def merge_refusal(state: State, unit_id: str, into_id: str, by: str = "") -> str:
    """CL §4 rallying by merging: the moving unit ``unit_id`` joins ``into_id``, a
    friendly unit of the same type, neither in melee. The mover is a steady unit and
    the unit it joins a panicked one (CL §4: a non-panicked unit joins the panicked
    one). App ruling: a lone figure (CL §7: panicked "until it joins a friendly unit
    of its type") may also join a unit of its type whether it is panicked or not."""
    unit, why = _mover_refusal(state, unit_id, by)
    if unit is None:
        return why
    try:
        into = state.unit(into_id)
    except KeyError:
        return f"there is no unit {into_id!r}"
    name = uname(state, unit)
    if into is unit or into.side != unit.side:
        return f"{name} can merge only with another friendly unit (CL §4)"
    if not into.in_play:
        return f"{uname(state, into)} is no longer in play"
    if into.engaged:
        return f"{uname(state, into)} is in melee (CL §4)"
    if into.type != unit.type:
        return (f"{name} ({unit.stats.name}) and {uname(state, into)} ({into.stats.name}) "
                "are not of the same type (CL §4)")
    if unit.alone:
        return ""
    if unit.is_panicked:
        return (f"{name} is panicked: to rally, a steady unit of its type moves to join it "
                "(CL §4)")
    if not into.is_panicked:
        return (f"neither {name} nor {uname(state, into)} is panicked: rallying by merging "
                "joins a steady unit to a panicked one (CL §4)")
    return ""


def merge(ctx: Context, unit_id: str, into_id: str) -> Gen:
    """CL §4: the figures of the moving unit ``unit_id`` join ``into_id`` (new ids at
    the end of its list; the old entries stay behind, no longer alive, marked
    ``moved_to``). Roll a D6 x the panicked figures against a D6 x the steady ones: a
    strictly higher panicked product leaves the whole unit panicked, otherwise nobody
    in it is. Then the basic game may be won at once (CL §8).

    App rulings: a lone figure joining a panicked unit rolls nothing: the new unit is
    panicked (it may recover in a later morale phase, CL §7). A still-panicked unit
    keeps the turn its panic began (so it tests normally unless that was this turn,
    CL §7); the merged unit has shot this turn if either part had."""
    state: State = ctx.state
    unit, into = state.unit(unit_id), state.unit(into_id)
    ctx.say(f"{uname(state, unit)} moves to join {uname(state, into)}: rallying by merging "
            "(CL §4).")
    panicked, calm = (unit, into) if unit.is_panicked else (into, unit)
    lone_to_panicked = calm.is_panicked
    still = lone_to_panicked or (yield from _rally_roll(ctx, panicked, calm))
    if still:
        into.panicked_turn = (into if into.is_panicked else panicked).panicked_turn
    for figure in unit.alive_figures:
        new_id = f"{into.id}.{len(into.figures)}"
        into.figures.append(dataclasses.replace(figure, id=new_id))
        figure.alive = False
        figure.moved_to = new_id
    unit.merged_into = into.id
    into.shot = into.shot or unit.shot
    into.panicked = still
    if lone_to_panicked:
        why = ("a lone figure joining a panicked unit rolls nothing: the unit stays "
               "panicked (app ruling, CL §4, §7)")
    elif still:
        why = "the panicked product is higher, the whole unit is panicked (CL §4)"
    else:
        why = "the whole unit is steady (CL §4)"
    ctx.say(f"{uname(state, into)} is now {plural(into.figures_left, 'figure')}: {why}.")
    yield from check_victory(ctx)


def _rally_roll(ctx: Context, panicked: UnitState, calm: UnitState) -> Gen:
    """CL §4: D6 x the panicked figures against D6 x the steady ones; returns whether
    the panicked product is strictly higher. Both dice are the merging side's, which
    wants the unit steady: a low panicked die and a high steady die are good for it."""
    state: State = ctx.state
    products = {}
    for key, part, high_is_good in (("panicked", panicked, False), ("steady", calm, True)):
        n = part.figures_left
        d = yield DiceRequest(
            f"merge.{key}", 1,
            f"Rally: die for {uname(state, part)} ({plural(n, key + ' figure')})", None,
            f"D6 x {n}; the panicked side must be higher to stay panicked", "CL §4",
            part.side, luck=Luck(TOTAL, more=high_is_good))
        products[key] = d.faces[0] * n
        ctx.say(f"{uname(state, part)} rolls {d.faces[0]} x {n} = {products[key]}.")
    return products["panicked"] > products["steady"]


def macguffin_refusal(state: State, unit_id: str, by: str = "") -> str:
    """CL §8 MacGuffin: only when it was rolled, once per game, by a unit that moves."""
    if "macguffin" not in state.objectives:
        return "the MacGuffin is not one of this game's objectives (CL §8)"
    if state.macguffin:
        return f"{side_name(state.macguffin)} has already carried the MacGuffin off (CL §8)"
    return _mover_refusal(state, unit_id, by)[1]


def macguffin(ctx: Context, unit_id: str) -> None:
    """CL §8: the unit carried the MacGuffin off the table: its side scores. Nothing
    to ask: the engine plays it through :func:`~deathzap_tui.rules.steps.at_once`."""
    state: State = ctx.state
    unit = state.unit(unit_id)
    state.macguffin = unit.side
    ctx.say(f"{uname(state, unit)} carries the MacGuffin off the table.")
    add_vp(ctx, unit.side, tables.MACGUFFIN_VP,
           f"MacGuffin: carried off by {unit.name} (CL §8)")

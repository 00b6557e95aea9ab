"""Activating a unit (DZ3 §3, §4, §8, §11): legality, the five actions, tokens."""

from __future__ import annotations

from deathzap_tui.rules.activations import activation_start
from deathzap_tui.rules.deathzap3 import tables
from deathzap_tui.rules.deathzap3.combat import enemies, melee, shoot
from deathzap_tui.rules.deathzap3.common import (
    Gen,
    add_vp,
    ask_yes_no,
    card_label,
    check_token_reset,
    dice_text,
    disengage,
    forfeit_if_stranded,
    plural,
    side_name,
    uname,
)
from deathzap_tui.rules.deathzap3.state import State, UnitState
from deathzap_tui.rules.steps import TOTAL, Choice, Context, DiceRequest, Luck, Question, Refused

ACTIONS = ("advance", "charge", "cover-ground", "signal", "protect")
"""DZ3 §3, in the rules' order."""
ACTION_NAMES = {"advance": "Advance", "charge": "Charge", "cover-ground": "Cover Ground",
                "signal": "Signal", "protect": "Protect"}
ACTION_WORDS = {"advance": "move, then shoot", "charge": "move, then melee",
                "cover-ground": "move Move + D6\"", "signal": "shoot and activate an objective",
                "protect": "recharge shields to full"}


def command_refusal(state: State, unit: UnitState, leader_id: str) -> str:
    """Why ``leader_id`` can't give the extra command activation now (DZ3 §11,
    DZ3-R14)."""
    try:
        lunit, leader = state.figure(leader_id)
    except (KeyError, ValueError, IndexError):
        return f"no figure {leader_id!r}"
    if lunit.side != unit.side:
        return f"{leader.name} is not a {side_name(unit.side)} leader"
    if not leader.leader:
        return f"{leader.name} is not a leader"
    if not leader.alive or not lunit.in_play:
        return f"{leader.name} is no longer in the game (DZ3-R14)"
    if leader.command <= 0:
        return f"{leader.name} has no command points left (DZ3-R14: they do not refresh)"
    if state.command_used:
        return f"the extra command activation for {card_label(state.card)} is used (DZ3 §11)"
    if not lunit.entered and lunit is not unit:
        return f"{leader.name} is not on the table yet, so no unit is within 6\" of it"
    return ""


def activation_refusal(state: State, unit_id: str, action: str, command: str = "",
                       by: str = "") -> str:
    """Why this activation is not allowed now ("" if it is)."""
    why, unit = activation_start(state, unit_id, action, ACTIONS,
                                 "finish the set-up first (roll-off, then objectives)")
    if why:
        return why
    if not state.card:
        return "draw a card first"
    if not state.card_side:
        return f"{card_label(state.card)} activates nobody: draw the next card"
    if state.card_side != unit.side:
        return (f"{card_label(state.card)} is {side_name(state.card_side)}'s card: "
                f"{uname(state, unit)} can't activate")
    if by and by != state.card_side:
        return f"it is {side_name(state.card_side)}'s card, not {side_name(by)}'s"
    if command:
        why = command_refusal(state, unit, command)
        if why:
            return why
    elif not state.remaining:
        return (f"no activations left on {card_label(state.card)}: draw a card"
                + (" (or spend a command point)" if not state.command_used else ""))
    if unit.destroyed:
        return f"{uname(state, unit)} is destroyed"
    if unit.fled:
        return f"{uname(state, unit)} has fled"
    if unit.token:
        return f"{uname(state, unit)} has an activation token (DZ3 §4)"
    if not unit.entered and action == "charge":
        # DZ3 §3: only Charge is barred on entry. A unit entering to Signal or Protect
        # is placed at its edge and acts from there.
        return (f"{uname(state, unit)} enters from its edge this activation and may not "
                "move into contact, so it can't Charge (DZ3 §3)")
    if action == "charge":
        if not enemies(state, unit):
            return "no enemy unit on the table to charge"
        if unit.immobilised and not unit.engaged:
            return f"{uname(state, unit)} is immobilised and can't move into contact (DZ3 §9)"
    if action == "cover-ground" and unit.immobilised:
        return f"{uname(state, unit)} is immobilised: it can't Cover Ground (DZ3 §9)"
    if action == "signal" and not [o for o in state.objectives if not o.token]:
        return "every objective has been activated since the last token reset (DZ3 §3)"
    return ""


def activate(ctx: Context, unit_id: str, action: str, command: str) -> Gen:
    state: State = ctx.state
    unit = state.unit(unit_id)
    name = uname(state, unit)
    side = unit.side
    if command:
        lunit, leader = state.figure(command)
        if lunit is not unit:
            near = yield from ask_yes_no(
                "command.within", f"Is {name} within {tables.LEADER_RANGE}\" of "
                f"{leader.name} ({uname(state, lunit)})?", "DZ3 §11", side)
            if not near:
                raise Refused(f"a command activation needs the unit within "
                              f"{tables.LEADER_RANGE}\" of the leader (DZ3 §11)")
        leader.command -= 1
        state.command_used = True
        ctx.say(f"{leader.name} spends a command point to activate {name} "
                f"({plural(leader.command, 'point')} left, DZ3 §11 / DZ3-R14).")
    else:
        state.used += 1
    state.activation_number += 1
    count = "" if command else f" (activation {state.used} of {state.granted})"
    ctx.say(f"{name}: {ACTION_NAMES[action]} — {ACTION_WORDS[action]}{count}.")
    entering = not unit.entered
    if entering:
        unit.entered = True
        ctx.say(f"{name} enters from {side_name(side)}'s {state.edges[side] or 'own'} edge "
                f"(DZ3 §3).")
    disengaging = False
    if unit.engaged and action in ("advance", "cover-ground") and not unit.immobilised:
        disengaging = yield from ask_yes_no(
            "disengage", f"Is {name} moving out of melee (disengaging)?", "DZ3 §3", side,
            default="no")
        if disengaging:
            disengage(state, unit)
            ctx.say(f"{name} disengages: it may not shoot or move into contact this "
                    "activation (DZ3 §3).")
    if action == "advance":
        if unit.immobilised:
            ctx.say(f"{name} is immobilised: it shoots without moving (DZ3 §9).")
        if not disengaging:
            yield from shoot(ctx, unit)
    elif action == "cover-ground":
        # the further the better for the mover: Move + D6 inches (DZ3 §3)
        d = yield DiceRequest("cover-ground", 1, f"{name}: Cover Ground extra distance", None,
                              f"Move {unit.move}\" + D6", "DZ3 §3", side, luck=Luck(TOTAL))
        extra = d.faces[0]
        ctx.say(f"{name} covers ground: {dice_text(d)}: Move {unit.move}\" + {extra}\" = "
                f"{unit.move + extra}\".")
    elif action == "charge":
        yield from melee(ctx, unit)
    elif action == "signal":
        yield from signal(ctx, unit)
    elif action == "protect":
        before = unit.shields
        unit.shields = unit.max_shields
        ctx.say(f"{name} recharges its shields: {before} -> {unit.shields} (DZ3 §8).")
    if unit.in_play:
        unit.token = True
    unit.activations += 1
    check_token_reset(ctx)
    forfeit_if_stranded(ctx)
    if not command and state.card_side and state.remaining == 0:
        ctx.say(f"{card_label(state.card)} is used up: draw the next card"
                + (" (a command activation is still possible)."
                   if not state.command_used and _has_command(state, side) else "."))


def _has_command(state: State, side: str) -> bool:
    return any(f.alive and f.leader and f.command > 0 for u in state.units[side] if u.in_play
               for f in u.figures)


def signal(ctx: Context, unit: UnitState) -> Gen:
    """Signal: choose an objective without a token and no enemy within 3", shoot,
    then the objective takes a token and scores (DZ3 §3, §12, DZ3-R15)."""
    state: State = ctx.state
    side = unit.side
    free = [o for o in state.objectives if not o.token]
    a = yield Question(
        "signal.objective", f"{uname(state, unit)} signals: which objective does it activate?",
        tuple(Choice(str(o.number), f"Objective {o.number}: {state.distance_from(side, o)}\" "
                     f"from your edge, {tables.objective_vp(state.distance_from(side, o))} VP")
              for o in free), rule="DZ3 §3 / DZ3 §12", side=side, default=str(free[0].number))
    obj = state.objective(int(a))
    clear = yield from ask_yes_no(
        "signal.clear", f"Is objective {obj.number} free of enemies within "
        f"{tables.ENEMY_NEAR_OBJECTIVE}\" (no enemy unit within {tables.ENEMY_NEAR_OBJECTIVE}\")?",
        "DZ3 §3", side)
    if not clear:
        raise Refused(f"Signal needs no enemy within {tables.ENEMY_NEAR_OBJECTIVE}\" of the "
                      f"objective (DZ3 §3): choose another objective or another action")
    yield from shoot(ctx, unit, "signal.shoot")
    obj.token = True
    dist = state.distance_from(side, obj)
    add_vp(ctx, side, tables.objective_vp(dist),
           f"objective {obj.number} at {dist}\"")

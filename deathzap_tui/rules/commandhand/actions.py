"""Activating a unit (CH §3): legality, entry and flanking, the seven actions,
tokens (CH §6)."""

from __future__ import annotations

from deathzap_tui.rules.activations import activation_start
from deathzap_tui.rules.commandhand import tables
from deathzap_tui.rules.commandhand.combat import enemies, engaged_enemies, melee, shoot
from deathzap_tui.rules.commandhand.common import (
    add_vp,
    check_token_reset,
    forfeit_if_stranded,
    inches,
    uname,
)
from deathzap_tui.rules.commandhand.state import State, UnitState
from deathzap_tui.rules.narration import Gen, ask_yes_no, card_label, dice_text, plural, side_name
from deathzap_tui.rules.steps import Choice, Context, DiceRequest, Question, Refused

ACTIONS = ("run", "charge", "fight", "walk-shoot", "aimed", "disengage", "recharge")
"""CH §3, in the rules' order."""
ACTION_NAMES = {"run": "Run", "charge": "Charge", "fight": "Fight",
                "walk-shoot": "Walk and shoot", "aimed": "Aimed shots",
                "disengage": "Disengage", "recharge": "Recharge"}
MOVING = ("run", "charge", "walk-shoot")
"""Actions that move the unit: not while in base contact (leave with Disengage)."""
CONTACT = ("fight", "disengage")
"""Actions that need the unit in base contact with an enemy."""


def action_words(state: State, unit: UnitState, action: str) -> str:
    return {
        "run": f"move up to {inches(state, unit.run)}",
        "charge": f"move up to {inches(state, unit.run)} into base contact and attack",
        "fight": "melee attacks on an enemy in base contact",
        "walk-shoot": f"move up to {inches(state, unit.walk)}, then shoot",
        "aimed": "shoot without moving, re-rolling 1s to damage",
        "disengage": "leave melee; no moving into contact and no shooting",
        "recharge": f"regain up to {plural(unit.recharge, 'shield')}",
    }[action]


def activation_refusal(state: State, unit_id: str, action: str, flank: bool = False,
                       by: str = "") -> str:
    """Why this activation is not allowed now ("" if it is)."""
    why, unit = activation_start(state, unit_id, action, ACTIONS,
                                 "finish the set-up first")
    if why:
        return why
    if state.window:
        return (f"{side_name(state.window)} may first interrupt {card_label(state.card)} "
                "with a Command Hand card, or pass (CH §2)")
    g = state.grant
    if g is None:
        return "no activations to use: flip a card"
    if g.side != unit.side:
        return (f"{card_label(g.card)} activates {side_name(g.side)}: "
                f"{uname(state, unit)} can't activate now")
    if by and by != g.side:
        return f"it is {side_name(g.side)}'s activation, not {side_name(by)}'s"
    name = uname(state, unit)
    if unit.destroyed:
        return f"{name} is destroyed"
    if unit.token:
        return f"{name} has an activation token (CH §6)"
    if flank and unit.entered:
        return f"{name} is already on the table: only an entering unit may flank (CH §3)"
    if not unit.entered:
        if action in CONTACT:
            return f"{name} is entering the table: it is not in base contact (CH §3)"
        if action == "aimed":
            return (f"{name} is entering the table: Aimed shots are taken without moving "
                    "(CH §3)")
    contact = engaged_enemies(state, unit)
    if action in CONTACT and not contact:
        return f"{name} is not in base contact with an enemy"
    if action in MOVING and contact:
        return (f"{name} is in base contact: it must Disengage before it moves away "
                "(CH §3)")
    if action == "charge" and not enemies(state, unit):
        return "no enemy unit on the table to charge"
    return ""


def activate(ctx: Context, unit_id: str, action: str, flank: bool) -> Gen:
    state: State = ctx.state
    unit = state.unit(unit_id)
    name = uname(state, unit)
    g = state.grant
    assert g is not None
    g.used += 1
    state.activation_number += 1
    ctx.say(f"{name}: {ACTION_NAMES[action]}, {action_words(state, unit, action)} "
            f"(activation {g.used} of {g.granted} from {card_label(g.card)}).")
    entered = True
    if not unit.entered:
        entered = yield from enter(ctx, unit, flank)
    if entered:
        yield from perform(ctx, unit, action)
    if unit.in_play:
        unit.token = True
    unit.activations += 1
    if state.over:
        return
    check_token_reset(ctx)
    forfeit_if_stranded(ctx)
    if g.remaining == 0:
        nxt = state.grant
        ctx.say(f"{card_label(g.card)} is used up: "
                + (f"next, {side_name(nxt.side)}'s {plural(nxt.remaining, 'activation')} "
                   f"from {card_label(nxt.card)}." if nxt else "flip the next card."))


def enter(ctx: Context, unit: UnitState, flank: bool) -> Gen:
    """CH §3: the first activation brings the unit on at its home edge, or it tries to
    flank: 4+ it enters from a side edge of the owner's choice (never the enemy's home
    edge); 1-3 it stays off the table and the activation is spent."""
    state: State = ctx.state
    name = uname(state, unit)
    if not flank:
        unit.entered = True
        unit.edge = state.edges[unit.side]
        ctx.say(f"{name} enters from its home edge ({unit.edge}) (CH §3).")
        return True
    d = yield DiceRequest("flank", 1, f"{name}: flanking", tables.FLANK_TARGET,
                          f"{tables.FLANK_TARGET}+ enters from a side edge; 1-"
                          f"{tables.FLANK_TARGET - 1}: the activation is spent",
                          "CH §3", unit.side)
    if d.count(tables.FLANK_TARGET) < 1:
        ctx.say(f"{name} tries to flank: {dice_text(d, tables.FLANK_TARGET)}: it does not "
                "come on and the activation is spent (CH §3).")
        return False
    edge = yield Question("flank.edge", f"{name} flanks: which side edge does it enter from?",
                          tuple(Choice(e, e.capitalize()) for e in tables.SIDE_EDGES),
                          rule="CH §3", side=unit.side, default=tables.SIDE_EDGES[0])
    unit.entered = True
    unit.edge = edge
    ctx.say(f"{name} tries to flank: {dice_text(d, tables.FLANK_TARGET)}: it enters from "
            f"the {edge} side edge (CH §3).")
    return True


def perform(ctx: Context, unit: UnitState, action: str) -> Gen:
    state: State = ctx.state
    name = uname(state, unit)
    if action == "run":
        ctx.say(f"{name} runs up to {inches(state, unit.run)}.")
    elif action == "charge":
        yield from melee(ctx, unit, charging=True)
    elif action == "fight":
        yield from melee(ctx, unit, charging=False)
    elif action in ("walk-shoot", "aimed"):
        yield from shoot(ctx, unit, aimed=action == "aimed")
        if state.objectives_mode and unit.in_play and not state.over:
            yield from claim_objective(ctx, unit)
    elif action == "disengage":
        for other in state.all_units():
            if unit.id in other.engaged:
                other.engaged.remove(unit.id)
        unit.engaged.clear()
        ctx.say(f"{name} disengages from melee: it may not move into contact nor shoot "
                "this activation (CH §3).")
    elif action == "recharge":
        before = unit.shields
        unit.shields = min(unit.max_shields, unit.shields + unit.recharge)
        capped = (" (never above its starting shields)"
                  if before + unit.recharge > unit.max_shields else "")
        ctx.say(f"{name} recharges its shields: {before} -> {unit.shields} of "
                f"{unit.max_shields}{capped} (CH §3).")


def claim_objective(ctx: Context, unit: UnitState) -> Gen:
    """CH-R5 objectives option: Deathzap 3's Signal (DZ3 §3) rides on the shooting
    actions, since Command Hand has no action of its own for it. A unit that shot
    may also activate one objective that has no token and no enemy within 3"."""
    state: State = ctx.state
    free = [o for o in state.objectives if not o.token]
    if not free:
        return
    side = unit.side
    a = yield Question(
        "objective", f"Does {uname(state, unit)} also activate an objective?",
        (*(Choice(str(o.number), f"Objective {o.number}: {state.distance_from(side, o)}\" "
                  f"from your edge, "
                  f"{tables.objective_vp(state.distance_from(side, o), state.factor)} VP")
           for o in free), Choice("no", "No")), rule="CH-R5 / DZ3 §3", side=side,
        default="no")
    if a == "no":
        return
    obj = state.objective(int(a))
    near = inches(state, tables.ENEMY_NEAR_OBJECTIVE)
    clear = yield from ask_yes_no(
        "objective.clear", f"Is objective {obj.number} free of enemies within {near}?",
        "CH-R5 / DZ3 §3", side)
    if not clear:
        raise Refused(f"an objective can only be activated with no enemy within {near} "
                      "(DZ3 §3): choose another or none")
    obj.token = True
    dist = state.distance_from(side, obj)
    add_vp(ctx, side, tables.objective_vp(dist, state.factor),
           f"objective {obj.number} at {dist}\"")

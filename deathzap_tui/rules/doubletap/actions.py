"""Double Tap actions (DT §3-§7; app readings 6-13): whether a unit may take one, and
the whole action with the enemy's reactions.

Every action runs the same way (:func:`perform`): the movement is narrated in inches
(the players move the models) and the action's targets are asked and its attacks
declared; then the enemy may react (:mod:`.reactions`, app reading 6); then the
dice: the action's attacks or effect, the reactions' attacks at the acting unit, and
the moves that come after the attacks. The engine spends the activation point and
rolls a poisoned unit's test before calling :func:`perform` (app reading 9).

Keys: ``weapon`` (Hold / Advance: a ranged weapon, the grenade or "none"),
``split.<target>``, ``distance.<target>``, ``cover.<target>``, ``down.<target>``,
``engineer.<shooter>``, ``doctor.<unit>``, ``sense.<unit>``, ``target`` (the one unit
a charge, grenade or special action is aimed at), ``grenade``, ``throw``,
``blast.<k>``, ``hit.<n>`` (``.second`` at 7+), ``react.<side>``,
``reaction.<unit>`` (``.weapon``, ``.distance``, ``.cover``, ``.down``),
``cancel.<unit>``, ``block.<unit>``, ``regen.<unit>``, ``morale.<unit>`` (the acting
unit's, hit by a reaction, end with ``.<reacting unit>``), ``detect.<unit>``,
``hack.<unit>``.
"""

from __future__ import annotations

from deathzap_tui.rules.doubletap import reactions, specials, tables
from deathzap_tui.rules.doubletap.attacks import (
    Plan,
    aim,
    declare,
    enemies,
    own_mods,
    pick,
    targets,
)
from deathzap_tui.rules.doubletap.common import names, uname
from deathzap_tui.rules.doubletap.reactions import melee_weapons, ranged, touching
from deathzap_tui.rules.doubletap.state import State, UnitState
from deathzap_tui.rules.doubletap.tables import WEAPONS, Weapon
from deathzap_tui.rules.narration import Gen, plural
from deathzap_tui.rules.steps import Choice, Context, Question

NONE = "none"
"""Weapon answer: the unit does not shoot."""
GRENADE = "grenade"
"""Weapon answer: the unit throws its grenade (DT §7)."""
ALL_ACTIONS = (*tables.ACTIONS, *tables.SPECIAL_ACTIONS)


def inches(unit: UnitState, action: str) -> int:
    """The action's move, with Fast's bonus (DT §3, §7)."""
    row = tables.ACTIONS[action]
    return row.move + (row.fast_bonus if unit.has("fast") else 0)


def _aimable(state: State, unit: UnitState) -> bool:
    """Some enemy may be attacked or marked: one without a camo marker, or a
    camouflaged one that Sixth Sense may reveal (DT §7)."""
    sense = any(u.in_play and u.has("sixth-sense") for u in state.units[unit.side])
    return any(not e.camo or sense for e in enemies(state, unit))


def action_refusal(state: State, unit_id: str, action: str) -> str:
    """Why ``unit_id`` may not take ``action`` now ("" if it may): unit-level reasons
    (DT §3, §5, §7); the engine adds whose turn it is and the points."""
    if action not in ALL_ACTIONS:
        return f"unknown action {action!r}; one of {', '.join(ALL_ACTIONS)}"
    try:
        unit = state.unit(unit_id)
    except KeyError:
        return f"there is no unit {unit_id!r}"
    name = uname(state, unit)
    if not unit.in_play:
        return f"{name} is not in play"
    if unit.stunned and action != "recover":
        return f"{name} is stunned: its action must be spent recovering (DT §5)"
    if action == "recover" and not unit.stunned:
        return f"{name} is not stunned: there is nothing to recover from (DT §5)"
    if action in ("advance", "rush") and touching(state, unit):
        return f"{name} is in base contact: it may leave only by dodging (DT §3)"
    if action == "charge":
        touched = touching(state, unit)
        if not (any(not u.camo for u in touched) if touched else _aimable(state, unit)):
            return (f"{name} has no enemy it may charge (camouflaged units cannot be "
                    "attacked, DT §7)")
    if action == "cloak":
        if not unit.has("camouflage"):
            return f"{name} has no Camouflage (DT §7)"
        if unit.camo:
            return f"{name} already has its camo marker (DT §7)"
    if action in ("hack", "spot"):
        rule = "hacker" if action == "hack" else "spotter"
        if not unit.has(rule):
            return f"{name} is not a {tables.SPECIAL_RULES[rule].name} (DT §7)"
        if not _aimable(state, unit):
            return f"no enemy may be {action}ped: camouflaged units cannot be seen (DT §7)"
    if action == "detect" and not any(e.camo for e in enemies(state, unit)):
        return "no camouflaged enemy is in play (DT §7)"
    return ""


def perform(ctx: Context, unit_id: str, action: str) -> Gen:
    """``unit_id`` takes ``action`` (checked by :func:`action_refusal`): declared, reacted
    to (app reading 6), then resolved (app reading 7): the acting unit always finishes
    its action, even when a reaction kills it (DT §6)."""
    state: State = ctx.state
    unit = state.unit(unit_id)
    if action == "cloak":
        specials.cloak(ctx, unit)
        return
    plan = Plan(ctx, unit, action)
    if action in ("hold", "advance"):
        yield from _shooting(plan)
    elif action == "rush":
        plan.words = f"{plan.name}'s Rush"
        ctx.say(f"{plan.name} rushes up to {inches(unit, action)}\"; it cannot shoot (DT §3).")
    elif action == "charge":
        yield from _charge(plan)
    else:
        yield from specials.declare_special(plan)
    reacting = yield from reactions.ask(plan)
    if plan.grenade:
        yield from specials.throw(plan, reacting)
    elif plan.strikes:
        yield from reactions.resolve_attacks(plan, reacting)
    elif action in tables.SPECIAL_ACTIONS:
        yield from specials.resolve_special(plan)
    yield from reactions.strike_back(plan, reacting)
    reactions.afterwards(plan, reacting)


def _shooting(plan: Plan) -> Gen:
    """Hold or Advance (DT §3, §4, app reading 10): the move, then, if the unit is not
    in base contact, one ranged weapon (or the grenade) at the enemy units it may
    attack, its attacks split among them."""
    ctx, state, unit = plan.ctx, plan.state, plan.unit
    row = tables.ACTIONS[plan.action]
    plan.words = f"{plan.name}'s {row.name}"
    if plan.action == "advance":
        ctx.say(f"{plan.name} advances up to {inches(unit, 'advance')}\"; it may shoot at any "
                "point of its move (DT §3).")
    else:
        ctx.say(f"{plan.name} holds its position (DT §3).")
    guns = ranged(unit)
    choices = [Choice(w.id, f"{w.name} ({plural(w.attacks, 'attack')}, up to "
                            f"{w.max_range}\")") for w in guns]
    if specials.grenade_ready(unit):
        choices.append(Choice(GRENADE, "Grenade (once per game)"))
    if not choices:
        return
    if touching(state, unit):
        ctx.say(f"{plan.name} is in base contact: it cannot shoot (DT §4).")
        return
    choice = yield Question("weapon", f"{plan.name}: shoot with which weapon?",
                            (*choices, Choice(NONE, "Do not shoot")), rule="DT §4",
                            side=unit.side, default=choices[0].value)
    if choice == NONE:
        ctx.say(f"{plan.name} does not shoot.")
        return
    aimed = yield from targets(plan)
    if not aimed:
        ctx.say(f"{plan.name} has no enemy it may attack: camouflaged units cannot be "
                "attacked (DT §7).")
        return
    if choice == GRENADE:
        yield from specials.declare_grenade(plan, aimed)
        return
    weapon = WEAPONS[choice]
    shares = yield from _split(plan, weapon, aimed)
    plan.attacks()
    own = own_mods(unit, attacking=True)
    for target, count in shares:
        mods = yield from aim(plan, unit, target, weapon,
                              lambda stem, t=target: f"{stem}.{t.id}")
        plan.strikes.append((yield from declare(
            plan, "shooting", unit, target, count, own + mods,
            f"{weapon.name}, {plural(count, 'attack')}")))
    shot = [s.target for s in plan.strikes]
    plan.words += f", shooting its {weapon.name} at {names(state, shot)}"
    ctx.say(f"{plan.name} shoots its {weapon.name}: " + ", ".join(
        f"{plural(s.fact['attacks'], 'attack')} at {uname(state, s.target)}"
        for s in plan.strikes) + " (DT §4).")


def _split(plan: Plan, weapon: Weapon, aimed: list[UnitState]) -> Gen:
    """DT §4: the weapon's attacks may be split among the enemies: how many at each, in
    order, until all are given (the last one takes what is left). Returns ``(target,
    attacks)`` pairs, none with 0."""
    if len(aimed) == 1:
        return [(aimed[0], weapon.attacks)]
    left, shares = weapon.attacks, []
    for i, target in enumerate(aimed):
        if not left:
            break
        count = left if i == len(aimed) - 1 else (yield Question(
            f"split.{target.id}", f"{plan.name}'s {weapon.name}: how many of its "
            f"{plural(left, 'attack')} left at {uname(plan.state, target)}? Attacks may be "
            "split among enemies in range and sight (DT §4).", minimum=0, maximum=left,
            rule="DT §4", side=plan.unit.side, default=left))
        if count:
            shares.append((target, count))
            left -= count
    return shares


def _charge(plan: Plan) -> Gen:
    """Charge (DT §3, §4, app reading 11): into base contact with one enemy (or at one
    it already touches), attacking with all its melee weapons, their attacks summed."""
    ctx, state, unit = plan.ctx, plan.state, plan.unit
    plan.words = f"{plan.name}'s Charge"
    touched = touching(state, unit)
    aimed = [u for u in touched if not u.camo] if touched else (yield from targets(plan))
    if not aimed:
        ctx.say(f"{plan.name} has no enemy it may charge: camouflaged units cannot be "
                "attacked (DT §7).")
        return
    target = yield from pick(plan, "target", f"{plan.name} charges which enemy unit?", aimed,
                             "DT §4")
    tname = uname(state, target)
    if target in touched:
        ctx.say(f"{plan.name} fights {tname}, which it already touches (DT §4).")
    else:
        unit.engaged.append(target.id)
        target.engaged.append(unit.id)
        ctx.say(f"{plan.name} charges up to {inches(unit, 'charge')}\" into base contact with "
                f"{tname} (DT §3).")
    weapons = melee_weapons(unit)
    count = sum(w.attacks for w in weapons)
    plan.attacks()
    plan.target = target
    plan.words += f" at {tname}"
    plan.strikes.append((yield from declare(
        plan, "melee", unit, target, count, own_mods(unit, attacking=True),
        f"{' + '.join(w.name for w in weapons)}, {plural(count, 'attack')}")))

"""Double Tap actions (DT §3-§7; app readings 6-13): whether a unit may take one, and
the whole action with the enemy's reactions.

Every action runs the same way (:func:`perform`): the movement is narrated in inches
(the players move the models) and the action's targets are asked and its attacks
declared; then the enemy may react (:mod:`.reactions`, app reading 6); then the
dice: detect reactions, the action's attacks or effect, the reactions' attacks at
the acting unit, and the moves that come after the attacks. :func:`.turn.act`
spends the activation point and rolls a poisoned unit's test before calling
:func:`perform` (app reading 9).

App reading: only a Charge records base contact (``engaged``, both ways); an
Advance or a Rush never ends in contact (the players stop it short), so a unit
leaves contact only by dodging (DT §3).

Keys: ``weapon`` (Hold / Advance: a ranged weapon, the grenade or "none"),
``split.<target>``, ``distance.<target>``, ``cover.<target>``, ``down.<target>``,
``engineer.<shooter>``, ``doctor.<unit>``, ``sense.<unit>``, ``target`` (the one unit
a charge, grenade or special action is aimed at), ``grenade``, ``throw``,
``blast.<k>``, ``hit.<n>`` (``.second`` at 7+), ``react.<side>``,
``reaction.<unit>`` (``.weapon``, ``.distance``, ``.cover``, ``.down``),
``detect.<actor>.<unit>`` (a detect reaction), ``cancel.<unit>``, ``block.<unit>``,
``regen.<unit>``, ``morale.<unit>`` (a reaction's hits on the acting unit end its
``block`` and ``regen`` keys with ``.<reacting unit>``, its one morale test with
``.reactions``), ``detect.<unit>``, ``hack.<unit>``.
"""

from __future__ import annotations

from deathzap_tui.rules.doubletap import reactions, specials, tables
from deathzap_tui.rules.doubletap.attacks import (
    Plan,
    aim,
    declare,
    own_mods,
    pick,
    targets,
)
from deathzap_tui.rules.doubletap.common import in_play, names, sixth_sense, uname
from deathzap_tui.rules.doubletap.reactions import melee_weapons, ranged, touching
from deathzap_tui.rules.doubletap.state import State, UnitState
from deathzap_tui.rules.doubletap.tables import WEAPONS, Weapon
from deathzap_tui.rules.narration import Gen, plural, side_name
from deathzap_tui.rules.ruleset import other_side
from deathzap_tui.rules.steps import Choice, Context, Question

NONE = "none"
"""Weapon answer: the unit does not shoot."""
GRENADE = "grenade"
"""Weapon answer: the unit throws its grenade (DT §7)."""
ALL_ACTIONS = (*tables.ACTIONS, *tables.SPECIAL_ACTIONS)
"""Every action an ``act`` intent may name (DT §3, §5, §7), in menu order."""


def _enemies(state: State, unit: UnitState) -> list[UnitState]:
    return in_play(state, other_side(unit.side))


def _aimable(state: State, unit: UnitState) -> bool:
    """Some enemy may be attacked or marked: one without a camo marker, or a
    camouflaged one that Sixth Sense may reveal (DT §7)."""
    sense = bool(sixth_sense(state, unit.side))
    return any(not e.camo or sense for e in _enemies(state, unit))


def action_refusal(state: State, unit_id: str, action: str, player: str = "") -> str:
    """Why ``unit_id`` may not take ``action`` now ("" if it may), naming the unit:
    an unknown action, a unit that is not ``player``'s (when given: the side whose
    turn it is, DT §3), then the unit-level reasons (DT §3, §5, §7). The engine adds
    whose turn it is and the points."""
    try:
        unit = state.unit(unit_id)
    except KeyError:
        return f"there is no unit {unit_id!r}"
    name = uname(state, unit)
    if action not in ALL_ACTIONS:
        return f"{name}: unknown action {action!r}; one of {', '.join(ALL_ACTIONS)}"
    if player and unit.side != player:
        return (f"{name} is {side_name(unit.side)}'s unit: it is {side_name(player)}'s "
                "turn (DT §3)")
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
            return (f"{name} has no enemy to {action}: camouflaged units cannot be seen "
                    "(DT §7)")
    if action == "detect" and not any(e.camo for e in _enemies(state, unit)):
        return f"{name} has no camouflaged enemy in play to detect (DT §7)"
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
        ctx.say(f"{plan.name} rushes up to {_inches(unit, action)}\"; it cannot shoot "
                "(DT §3).")
    elif action == "charge":
        yield from _charge(plan)
    else:
        yield from specials.declare_special(plan)
    reacting = yield from reactions.ask(plan)
    yield from reactions.detect(plan, reacting)
    if plan.grenade and plan.target is not None:
        yield from specials.throw(plan, plan.target, reacting)
    elif plan.strikes:
        yield from reactions.resolve_attacks(plan, reacting)
    elif action in tables.SPECIAL_ACTIONS:
        yield from specials.resolve_special(plan)
    yield from reactions.strike_back(plan, reacting)
    reactions.afterwards(plan, reacting)


def _inches(unit: UnitState, action: str) -> int:
    """The action's move, with Fast's bonus (DT §3, §7)."""
    return tables.ACTIONS[action].inches(unit.has("fast"))


def _shooting(plan: Plan) -> Gen:
    """Hold or Advance (DT §3, §4, app reading 10): the move, then, if the unit is not
    in base contact, one ranged weapon (or the grenade) at the enemy units it may
    attack, its attacks split among them."""
    ctx, unit = plan.ctx, plan.unit
    plan.words = f"{plan.name}'s {tables.ACTIONS[plan.action].name}"
    if plan.action == "advance":
        ctx.say(f"{plan.name} advances up to {_inches(unit, 'advance')}\"; it may shoot at "
                "any point of its move (DT §3).")
    else:
        ctx.say(f"{plan.name} holds its position (DT §3).")
    choice = yield from _weapon(plan)
    if choice == NONE:
        return
    aimed = yield from targets(plan)
    if not aimed:
        ctx.say(f"{plan.name} has no enemy it may attack: camouflaged units cannot be "
                "attacked (DT §7).")
    elif choice == GRENADE:
        yield from specials.declare_grenade(plan, aimed)
    else:
        yield from _shoot(plan, WEAPONS[choice], aimed)


def _weapon(plan: Plan) -> Gen:
    """What the unit fires (key ``weapon``): a ranged weapon, its grenade, or
    :data:`NONE` (nothing to fire, in base contact, or the player's choice)."""
    ctx, unit = plan.ctx, plan.unit
    choices = [Choice(w.id, f"{w.name} ({plural(w.attacks, 'attack')}, up to "
                            f"{w.max_range}\")") for w in ranged(unit)]
    if specials.grenade_ready(unit):
        choices.append(Choice(GRENADE, "Grenade (once per game)"))
    if not choices:
        return NONE
    if touching(plan.state, unit):
        ctx.say(f"{plan.name} is in base contact: it cannot shoot (DT §4).")
        return NONE
    choice = yield Question("weapon", f"{plan.name}: shoot with which weapon?",
                            (*choices, Choice(NONE, "Do not shoot")), rule="DT §4",
                            side=unit.side, default=choices[0].value)
    if choice == NONE:
        ctx.say(f"{plan.name} does not shoot.")
    return choice


def _shoot(plan: Plan, weapon: Weapon, aimed: list[UnitState]) -> Gen:
    """``weapon``'s attacks split among ``aimed`` and declared, each target's to-hit
    modifiers asked (DT §4, app reading 10)."""
    state, unit = plan.state, plan.unit
    shares = yield from _split(plan, weapon, aimed)
    plan.lose_camo_on_attack()
    own = own_mods(unit, attacking=True)
    for target, count in shares:
        mods = yield from aim(plan, unit, target, weapon,
                              lambda stem, t=target: f"{stem}.{t.id}")
        plan.strikes.append((yield from declare(
            plan, "shooting", unit, target, count, own + mods,
            f"{weapon.name}, {plural(count, 'attack')}", weapon.name)))
    plan.words += (f", shooting its {weapon.name} at "
                   f"{names(state, [s.target for s in plan.strikes])}")
    plan.ctx.say(f"{plan.name} shoots its {weapon.name}: " + ", ".join(
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
        ctx.say(f"{plan.name} charges up to {_inches(unit, 'charge')}\" into base contact with "
                f"{tname} (DT §3).")
    weapons = melee_weapons(unit)
    count = sum(w.attacks for w in weapons)
    blades = " + ".join(w.name for w in weapons)
    plan.lose_camo_on_attack()
    plan.target = target
    plan.words += f" at {tname}"
    plan.strikes.append((yield from declare(
        plan, "melee", unit, target, count, own_mods(unit, attacking=True),
        f"{blades}, {plural(count, 'attack')}", blades)))

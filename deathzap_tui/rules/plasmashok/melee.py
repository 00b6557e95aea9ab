"""Deathzap Plasmashok melee (PS §6, PS-R1): one unit's melee attack, resolved like
shooting through :mod:`.attack`, and the end-of-melee roll.

:func:`fight` is one unit of the bracket under way attacking one enemy unit it
touches; its wounds wait on the target's ``pending`` count until the bracket ends
(PS §3). :func:`end_of_melee` is the roll that ends one melee once every bracket has
fought (app reading 8). Whether a unit may attack is :func:`fight_refusal` alone
(unit-level reasons; the engine adds the phase, bracket and owner).
"""

from __future__ import annotations

from deathzap_tui.rules.narration import Gen, plural, side_name
from deathzap_tui.rules.plasmashok import tables
from deathzap_tui.rules.plasmashok.attack import actor, already_acted, declare, resolve, roll_faces
from deathzap_tui.rules.plasmashok.common import disengage, names, uname
from deathzap_tui.rules.plasmashok.state import State, UnitState
from deathzap_tui.rules.ruleset import SIDES
from deathzap_tui.rules.steps import TOTAL, Choice, Context, Luck, Question


def foes(state: State, unit: UnitState) -> list[UnitState]:
    """The enemy units in play ``unit`` is in base contact with (app reading 4); a unit
    wiped out in the melee phase keeps its contacts until the end of melee (see
    :func:`.casualties._kill`) but is no foe."""
    return [t for t in (state.unit(e) for e in unit.engaged) if t.in_play]


def fight_refusal(state: State, unit_id: str) -> str:
    """Why ``unit_id`` may not attack in melee now ("" if it may): unit-level reasons
    (PS §6, PS-R1)."""
    unit, why = actor(state, unit_id)
    if unit is None:
        return why
    name = uname(state, unit)
    if not foes(state, unit):
        return f"{name} is not in base contact with an enemy unit (PS §6)"
    if unit.acted:
        return already_acted(state, unit)
    if not unit.can_melee:
        return (f"{name} cannot attack in melee: the force file gives no "
                f"{', '.join(unit.melee_missing)} (PS-R1)")
    return ""


def melee_defence(target: UnitState, attacker: UnitState) -> tuple[int, str]:
    """PS §6: the target's defence dice against ``attacker`` and why (no cover or
    range; +1 when the target is bigger, +2 when at least double its size)."""
    base = target.stats.defence
    bonus = tables.melee_size_dice(target.size, attacker.size)
    why = f"{target.stats.name} defence {base}"
    if bonus == 2:
        why += f" + 2: its size {target.size} is at least double the attacker's {attacker.size}"
    elif bonus:
        why += f" + 1: its size {target.size} is greater than the attacker's {attacker.size}"
    return (tables.melee_defence_dice(base, target.size, attacker.size),
            why + " (no cover or range in melee)")


def fight(ctx: Context, unit_id: str) -> Gen:
    """One unit's melee attack (PS §6, app reading 7): its living models x attacks
    dice with the profile's strength and damage, at one enemy unit it touches (asked
    when it touches several)."""
    state: State = ctx.state
    unit = state.unit(unit_id)
    name = uname(state, unit)
    touching = foes(state, unit)
    target = touching[0]
    if len(touching) > 1:
        answer = yield Question(
            "melee.target", f"{name} attacks which of the units it touches?",
            tuple(Choice(t.id, uname(state, t)) for t in touching), rule="PS §6",
            side=unit.side, default=target.id)
        target = state.unit(answer)
    unit.acted = True
    attacks, strength, damage = unit.melee
    defence, why = melee_defence(target, unit)
    attack = declare(ctx, "melee", target, defence, why, prefix="melee.")
    models = unit.figures_left
    attack.add("melee", models * attacks, strength, damage,
               f"{plural(models, 'model')} x {plural(attacks, 'attack')}")
    ctx.say(f"{name} attacks {uname(state, target)} in melee: {plural(models, 'model')} x "
            f"{plural(attacks, 'attack')}, strength {strength}, damage {damage} (PS §6).")
    yield from resolve(ctx, unit, attack, "PS §6")


def end_of_melee(ctx: Context, group: list[UnitState]) -> Gen:
    """The end-of-melee roll of one melee (PS §6, app reading 8): each side rolls a D6
    x (its models left in the melee + the enemy models it killed this melee phase).
    The lower product retreats a full move and every contact of the melee is broken;
    equal products: the side with fewer models left retreats; still equal: returns
    True (the melee's units fight another round at once), else False.

    The dice keys are ``end.<i>.<side>``, ``i`` counting the end-of-melee rolls of the
    resolution (``ctx.facts["end_rolls"]``), so that several melees ending in one
    resolution keep distinct keys. Each side's die is judged by its face: the higher,
    the better for that side (the lower product retreats)."""
    state: State = ctx.state
    sides = {s: [u for u in group if u.side == s and u.in_play] for s in SIDES}
    present = [s for s in SIDES if sides[s]]
    if len(present) < 2:
        ctx.say(f"The melee of {names(state, group)} is over: one side is gone (PS §6).")
        for unit in group:
            disengage(state, unit)
        return False
    ctx.facts["end_rolls"] = i = ctx.facts.get("end_rolls", 0) + 1
    left = {s: sum(u.figures_left for u in sides[s]) for s in SIDES}
    killed = {s: sum(u.lost_melee for u in group if u.side != s) for s in SIDES}
    score = {}
    for s in SIDES:
        factor = left[s] + killed[s]
        faces = yield from roll_faces(
            ctx, f"end.{i}.{s}", 1, f"End of melee: {side_name(s)}'s die",
            f"D6 x ({plural(left[s], 'model')} left + {killed[s]} enemy killed = {factor}); "
            "the lower retreats", "PS §6", s, Luck(TOTAL))
        score[s] = faces[0] * factor
        ctx.say(f"End of melee: {side_name(s)} rolls {faces[0]} x {factor} = {score[s]}.")
    red, black = SIDES
    if score[red] != score[black]:
        loser = min(SIDES, key=score.__getitem__)
    elif left[red] != left[black]:
        loser = min(SIDES, key=left.__getitem__)
        ctx.say(f"Equal: {side_name(loser)} has fewer models left and retreats (PS §6).")
    else:
        ctx.say("Equal, and both sides have as many models left: another round is fought "
                "at once (PS §6).")
        return True
    for unit in sides[loser]:
        ctx.say(f"{uname(state, unit)} retreats a full move ({unit.stats.move}\") (PS §6).")
    for unit in group:
        disengage(state, unit)
    return False

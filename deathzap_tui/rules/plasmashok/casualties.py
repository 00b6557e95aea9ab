"""Deathzap Plasmashok casualties: pending wounds become removed models (PS §3, §5
step 5, §7, §8).

Wounds caused in a bracket wait on the target's ``pending`` count and come off in
:func:`end_of_bracket`, so every unit of a bracket attacks with all its models
(PS §3; app reading 1). Morale routs remove whole models through
:func:`remove_models` (PS §7). Every model death goes through :func:`_kill`, the one
place that keeps the score (PS §8, app reading 3) and the casualty counts that morale
(PS §7) and the end of melee (PS §6) read.

Harm for the end-of-game report: the damage is credited to the attacker when its
wounds are dealt (:func:`deal_wounds`); the models those wounds remove, when the
bracket ends, are credited to the unit whose wound finished each model. Models routed
(PS §7) are not harm.
"""

from __future__ import annotations

from typing import Any

from deathzap_tui.rules.casualties import credit_kills, owe, pick_casualty, settle
from deathzap_tui.rules.ids import side_of
from deathzap_tui.rules.narration import Gen, plural
from deathzap_tui.rules.plasmashok.common import disengage, uname
from deathzap_tui.rules.plasmashok.state import FigureState, State, UnitState
from deathzap_tui.rules.steps import Context


def wounded(unit: UnitState) -> int:
    """Wounds already on the unit's partly wounded model, 0 if none (app reading 1:
    at most one model of a unit is ever partly wounded)."""
    return max((f.wounds for f in unit.alive_figures), default=0)


def deal_wounds(ctx: Context, target: UnitState, by: UnitState, wounds: int,
                damage: int | None = None) -> None:
    """``wounds`` dealt to ``target`` by unit ``by`` (PS §4, §5 step 5): they wait on
    the target's ``pending`` count until the bracket ends (PS §3), each with its
    attacker in ``pending_by``. The harm is credited to ``by`` now: the ``damage``
    points of an attack (PS §5 step 4, shield saves or not), or the wounds of
    special combat, which deals no damage points (PS §4)."""
    owe(target, by.id, wounds)
    ctx.harm(target.id, by.id, damage=wounds if damage is None else damage)


def _kind(f: FigureState) -> tuple[Any, ...]:
    """Models alike in these are interchangeable casualties (PS §5: the owner picks)."""
    return f.name, f.weapons


def _label(state: State, f: FigureState) -> str:
    weapons = state.weapons[side_of(f.id)]
    guns = [weapons[w].name for w in f.weapons]
    return f"{f.name} ({', '.join(guns)}; {f.cost} pts)" if guns else f"{f.name} ({f.cost} pts)"


def _pick(ctx: Context, unit: UnitState, key: str, number: int, of: int, rule: str,
          doomed: bool | None = None) -> Gen:
    """The model the owner picks (the cheapest kind by default), ``None`` if none is
    left; no question when the unit is ``doomed`` (see :func:`pick_casualty`)."""
    state: State = ctx.state
    return (yield from pick_casualty(state, unit, key, number, of, uname(state, unit), rule,
                                     _kind, lambda f: _label(state, f), lambda f: (f.cost,),
                                     doomed))


def _kill(ctx: Context, unit: UnitState, figure: FigureState) -> None:
    """One model dies: its cost is lost to its side (PS §8, app reading 3), it counts
    as a casualty this turn (PS §7) and, in the melee phase, as a kill for the end of
    melee (PS §6, app reading 8).

    A unit wiped out leaves every melee at once, except in the melee phase: there its
    contacts stay until :func:`.melee.end_of_melee` breaks them, so that the melee
    (:func:`~deathzap_tui.rules.units.melees`) still holds it and the enemy's
    end-of-melee roll counts the models killed in it (PS §6, app reading 8). Out of
    play, it neither acts nor is targeted (:func:`.melee.foes`)."""
    state: State = ctx.state
    figure.alive = False
    state.lost[unit.side] += figure.cost
    unit.lost_turn += 1
    if state.step == "melee":
        unit.lost_melee += 1
    if not unit.in_play and state.step != "melee":
        disengage(state, unit)


def _report(ctx: Context, unit: UnitState, text: str) -> None:
    """Say ``text`` (the unit's losses), and that it is wiped out if it is."""
    if not unit.in_play:
        text += f"; {uname(ctx.state, unit)} is wiped out"
    ctx.say(text + ".")


def end_of_bracket(ctx: Context) -> Gen:
    """PS §3: the wounds pending on every unit come off, Red first, each side in force
    order. A partly wounded model takes the next wound first; otherwise the owner
    picks the model (app reading 1). Wounds beyond the unit's last model are lost."""
    state: State = ctx.state
    hit = [u for u in state.all_units() if u.pending]
    if not hit:
        ctx.say("No wounds to remove at the end of the bracket (PS §3).")
    for unit in hit:
        yield from _wound(ctx, unit, settle(unit))


def _wound(ctx: Context, unit: UnitState, sources: list[str | None]) -> Gen:
    """Put the wounds ``sources`` dealt on ``unit`` (PS §5 step 5, app reading 1),
    narrated. Each model removed is a kill for the unit whose wound finished it
    (``sources[i]`` dealt wound ``i``; ``None``, as when a state is built with
    ``pending`` alone, is nobody's)."""
    state: State = ctx.state
    per_model = unit.stats.wounds
    count = len(sources)
    left, killed, picks = count, 0, 0
    finishers: list[str | None] = []
    while left and unit.in_play:
        figure = next((f for f in unit.alive_figures if f.wounds), None)
        if figure is None:
            picks += 1
            fresh = -(-left // per_model)
            # The last model picked may only be wounded: which kind lives matters
            # unless the wounds left kill every model (PS §5 step 5).
            figure = yield from _pick(ctx, unit, f"casualty.{unit.id}.{picks}", picks,
                                      picks - 1 + min(fresh, unit.figures_left), "PS §5",
                                      doomed=left >= unit.figures_left * per_model)
        taken = min(left, per_model - figure.wounds)
        figure.wounds += taken
        left -= taken
        if figure.wounds >= per_model:
            killed += 1
            finishers.append(sources[count - left - 1])
            _kill(ctx, unit, figure)
    credit_kills(ctx, unit.id, finishers)
    text = f"{uname(state, unit)} loses {plural(killed, 'model')} ({plural(count, 'wound')})"
    part = wounded(unit)
    if part:
        text += f"; a {unit.stats.singular} model has {part} of {per_model} wounds"
    if left:
        text += f"; {plural(left, 'wound')} more than it could take"
    _report(ctx, unit, text + " (PS §5 step 5)")


def remove_models(ctx: Context, unit: UnitState, count: int, key: str, rule: str) -> Gen:
    """Remove ``count`` whole models of ``unit`` (a morale rout, PS §7), the owner
    picking them; question keys are ``<key>.<n>``. Fewer go when the unit runs out of
    models (the narration says how many)."""
    removed = 0
    for i in range(count):
        victim = yield from _pick(ctx, unit, f"{key}.{i + 1}", i + 1, count, rule)
        if victim is None:
            break
        removed += 1
        _kill(ctx, unit, victim)
    _report(ctx, unit, f"{uname(ctx.state, unit)} loses {plural(removed, 'model')} ({rule})")

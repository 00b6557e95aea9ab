"""Quick resolve in Plasmashok: one unit's special combat, shooting or melee attack,
with the wounds it causes coming off as at the end of a bracket, or a morale test,
outside any game, through the real :mod:`.combat`, :mod:`.melee`, :mod:`.casualties`
and :mod:`.morale` code on a two-unit state (see :mod:`deathzap_tui.rules.quick`).
Nothing is saved.

How the units stand is asked first: one key for two units at full strength, else
the models each has left.
"""

from __future__ import annotations

from typing import Any

from deathzap_tui.rules import quick
from deathzap_tui.rules.narration import Gen
from deathzap_tui.rules.plasmashok import casualties, combat, melee, morale, tables
from deathzap_tui.rules.plasmashok.state import State, new_state
from deathzap_tui.rules.steps import Context, Question, Resolution, refuse_if

KINDS: tuple[tuple[str, str], ...] = (
    ("shoot", "Shooting attack"),
    ("melee", "Melee (both units, bracket by bracket, then the end-of-melee roll)"),
    ("special", "Special combat (psychic, hacking...)"),
    ("morale", "Morale test after casualties"),
)
PHASES = {"shoot": "shooting", "melee": "melee", "special": "special", "morale": "morale"}
"""The phase (PS §3) the quick state stands in, by kind."""
KNOWN = quick.at_target("target.", "special.target")
"""Every weapon group fires at (and a special attack aims at) the target picked
(PS §4, §5); each unit of a melee touches only the other."""
REFUSALS = {"shoot": combat.shoot_refusal, "special": combat.special_refusal,
            "melee": melee.fight_refusal}


def quick_resolution(kind: str, attacker: tuple[Any, int],
                     target: tuple[Any, int] | None, seed: int) -> Resolution:
    """A resolution of ``kind`` (see :data:`KINDS`): the attacker's unit attacks the
    target's; for ``morale`` the attacker's unit tests alone."""
    red, black = quick.pair(kind, KINDS, attacker, target, alone_kinds=("morale",))
    state = new_state(red, black, {}, seed)
    state.stage, state.turn, state.step = "battle", 1, PHASES[kind]
    state.bracket = state.unit(quick.ACTING).training
    state.edges = {"red": "south", "black": "north"}
    if kind == "melee":
        state.unit(quick.ACTING).engaged = [quick.OTHER]
        state.unit(quick.OTHER).engaged = [quick.ACTING]
    if kind in REFUSALS:
        refuse_if(REFUSALS[kind](state, quick.ACTING))

    def versus(ctx: Context, unit: Any, other: Any) -> Gen:
        yield from standing(ctx, unit, other)
        if kind == "melee":
            yield from _melee(ctx, unit, other)
            return
        attack = (combat.shoot if kind == "shoot" else combat.special)(ctx, unit.id)
        yield from quick.preset(attack, KNOWN)
        yield from casualties.end_of_bracket(ctx)

    return quick.resolution(state, kind, versus, {"morale": _morale_only})


def _melee(ctx: Context, unit: Any, other: Any) -> Gen:
    """PS §3, §6: both units attack, bracket by bracket (elite, regular, recruit), the
    wounds of a bracket coming off before the next one fights; then the end-of-melee
    roll, and another round at once while it is tied twice (app reading 8). A unit
    that may not attack (PS-R1: no melee profile) says why."""
    state: State = ctx.state
    state.melee_round = 1
    while True:
        for bracket in tables.BRACKETS:
            fighters = [u for u in (unit, other) if u.training == bracket and u.in_play]
            if not fighters:
                continue
            state.bracket = bracket
            for fighter in fighters:
                why = melee.fight_refusal(state, fighter.id)
                if why:
                    ctx.say(f"{why}.")
                    continue
                yield from quick.preset(melee.fight(ctx, fighter.id), KNOWN)
            yield from casualties.end_of_bracket(ctx)
        if not (yield from melee.end_of_melee(ctx, [unit, other])):
            return
        state.melee_round += 1
        unit.acted = other.acted = False
        ctx.say(f"Round {state.melee_round} of the melee is fought at once (PS §6).")


def standing(ctx: Context, acting: Any, target: Any) -> Gen:
    """The models each unit has left (PS §2: a unit's size follows them) and the
    wounds a model of several wounds has taken already (PS §5 step 5: it takes the
    next wound first)."""
    asks: list[tuple[Question | None, quick.Setter]] = []
    for role, unit in (("acting", acting), ("target", target)):
        asks.append((quick.figures_left(unit, f"quick.{role}.figures", "PS §2", "models"),
                     lambda n, u=unit: quick.keep_first(u, n)))
        if unit.stats.wounds > 1:
            asks.append((Question(f"quick.{role}.wounds", f"How many wounds has a "
                                  f"{unit.stats.singular} model of {unit.name} taken "
                                  f"already (of {unit.stats.wounds})?", minimum=0,
                                  maximum=unit.stats.wounds - 1, rule="PS §5 step 5",
                                  side=unit.side, default=0),
                         lambda n, u=unit: setattr(u.alive_figures[0], "wounds", n)))
    yield from quick.as_they_stand(asks)
    ctx.say(f"As they stand: {_words(acting)}; {_words(target)}.")


def _words(unit: Any) -> str:
    said = f"{unit.name} {unit.figures_left}/{len(unit.figures)} models"
    wounded = casualties.wounded(unit)
    return said + (f", a model with {wounded} of {unit.stats.wounds} wounds" if wounded
                   else "")


def _morale_only(ctx: Context, unit: Any) -> Gen:
    """PS §7 on its own: the models left and the casualties this turn, then the
    test."""
    total = len(unit.figures)
    if total > 1:
        left = yield Question("morale.figures", f"How many models of {unit.name} are left "
                              f"(of {total})? The first ones in its force file are kept.",
                              minimum=1, maximum=total - 1, rule="PS §7", side=unit.side,
                              default=total - 1)
        quick.keep_first(unit, left)
    lost = total - unit.figures_left
    unit.lost_turn = yield Question(
        "morale.lost", f"How many models has {unit.name} lost this turn?", minimum=1,
        maximum=max(lost, 1), rule="PS §7", side=unit.side, default=max(lost, 1))
    yield from morale.morale_phase(ctx)

"""Casualties and the objectives they score (CL §8), and the end of the game.

:func:`casualty` is the one way a figure dies: shooting (CL §5, CL-R2) and melee
(CL §6) call it for every figure removed, and it keeps the kill counts and scores the
advanced game's kill objectives at once.
"""

from __future__ import annotations

from deathzap_tui.rules.classic import tables
from deathzap_tui.rules.classic.common import disengage, in_play, living_general, steady, uname
from deathzap_tui.rules.classic.state import State
from deathzap_tui.rules.narration import Gen, ask_yes_no, plural, side_name
from deathzap_tui.rules.ruleset import SIDES, other_side
from deathzap_tui.rules.statebase import add_vp
from deathzap_tui.rules.steps import Context, Question
from deathzap_tui.rules.victory import ahead, declare

HARD_HITTERS_BATCH = "hard-hitters"
"""``ctx.facts`` key: the sides that scored Hard Hitters in this resolution."""


def casualty(ctx: Context, figure_id: str, by: str) -> None:
    """Figure ``figure_id`` dies, killed by side ``by``.

    The kill counts of ``by`` go up (a vehicle or monster is worth
    :data:`tables.BIG_FIGURE_WORTH` figures, CL §8) and, when the advanced game rolled
    them, the kill objectives score at once:

    - Assassinate: the enemy general is killed (CL §8).
    - Hard Hitters: the first side to kill half the enemy force's worth (CL §8). A
      resolution removes its casualties all together (shooting is simultaneous,
      CL-R2, and so are the two sides' blows in a melee), so when both sides reach
      half within the same resolution both score: app ruling, neither was first.
    - Extermination: 1 VP per 5 enemy figures killed that are not vehicles or
      monsters, and 1 VP per vehicle or monster (CL §8).

    A unit left a lone Infantry, Heavy Infantry or Beast figure is panicked from now on
    (CL §4); if it was steady it became panicked this turn (CL §7). A unit left
    without figures is wiped out: every melee contact with it ends.
    """
    state: State = ctx.state
    unit, figure = state.figure(figure_id)
    if not figure.alive:
        raise ValueError(f"{figure_id} is already dead")
    was_panicked = unit.is_panicked
    figure.alive = False
    if unit.alone and not was_panicked:
        unit.panicked_turn = state.turn
    big = unit.type in tables.BIG_TYPES
    state.killed[by] += 1
    state.killed_worth[by] += tables.BIG_FIGURE_WORTH if big else 1
    state.killed_big[by] += int(big)
    name = uname(state, unit)
    left = unit.figures_left
    ctx.say(f"{name} loses {figure.name}" + (f": {plural(left, 'figure')} left." if left
                                             else "."))
    if "assassinate" in state.objectives and figure.general:
        add_vp(ctx, by, tables.ASSASSINATE_VP,
               f"Assassinate: the enemy general {figure.name} is dead (CL §8)")
    if "hard-hitters" in state.objectives:
        _hard_hitters(ctx, by)
    if "extermination" in state.objectives:
        if big:
            add_vp(ctx, by, 1, f"Extermination: {figure.name} of {name} destroyed (CL §8)")
        elif (state.killed[by] - state.killed_big[by]) % tables.EXTERMINATION_STEP == 0:
            add_vp(ctx, by, 1, f"Extermination: {state.killed[by] - state.killed_big[by]} "
                   "enemy casualties besides vehicles and monsters (CL §8)")
    if not left:
        disengage(state, unit)
        ctx.say(f"{name} is wiped out.")


def _hard_hitters(ctx: Context, by: str) -> None:
    """CL §8 Hard Hitters, first to half; both when in one resolution (see
    :func:`casualty`)."""
    state: State = ctx.state
    enemy = other_side(by)
    if state.killed_worth[by] * 2 < state.worth[enemy]:
        return
    batch: list[str] = ctx.facts.setdefault(HARD_HITTERS_BATCH, [])
    if by in batch or (state.hard_hitters and state.hard_hitters not in batch):
        return
    if state.hard_hitters:
        ctx.say(f"{side_name(by)} reaches half of the enemy force in the same casualties "
                f"as {side_name(state.hard_hitters)}: both score Hard Hitters (app ruling).")
    else:
        state.hard_hitters = by
    batch.append(by)
    add_vp(ctx, by, tables.HARD_HITTERS_VP,
           f"Hard Hitters: half of the {state.names[enemy]} force destroyed (CL §8)")


# --- the end of the game (CL §8) ---------------------------------------------------


def advanced(state: State) -> bool:
    return bool(state.options["game"] == "advanced")


def _end_by_vp(ctx: Context, reason: str) -> Gen:
    """The advanced game ends for ``reason`` (CL §8): the app asks what it cannot know
    about the end-of-game objectives, then most VP wins (equal VP: a draw)."""
    state: State = ctx.state
    yield from _final_objectives(ctx)
    red, black = state.vp["red"], state.vp["black"]
    _declare(ctx, ahead(red, black), reason, f". Final score Red {red} VP, Black {black} VP")


def _declare(ctx: Context, winner: str, reason: str, score: str = "") -> None:
    """The game is over (CL §8): the family's
    :func:`~deathzap_tui.rules.victory.declare`, and no phase or side moving is under
    way any more."""
    state: State = ctx.state
    state.step = ""
    state.mover = ""
    declare(ctx, winner, reason, "CL §8", score)


def _final_objectives(ctx: Context) -> Gen:
    """CL §8 Hold and Push, scored when the game ends: the players say where their
    figures stand. A side with nothing on the table holds nothing, and a dead general
    pushes nowhere, so those are not asked."""
    state: State = ctx.state
    if "hold" in state.objectives:
        for side in SIDES:
            if not in_play(state, side):
                continue
            held = yield Question(
                f"hold.{side}", f"Hold: in how many of the {tables.HOLD_QUARTERS} table "
                f"quarters does {side_name(side)} have figures?", minimum=0,
                maximum=tables.HOLD_QUARTERS, rule="CL §8", side=side, default=0)
            if held:
                add_vp(ctx, side, held, f"Hold: {plural(held, 'table quarter')} (CL §8)")
            else:
                ctx.say(f"Hold: {side_name(side)} holds no table quarter (CL §8).")
    if "push" in state.objectives:
        for side in SIDES:
            general = living_general(state, side)
            if general is None:
                continue
            enemy = other_side(side)
            pushed = yield from ask_yes_no(
                f"push.{side}", f"Push: is {side_name(side)}'s general {general.name} in "
                f"{side_name(enemy)}'s deployment zone (within {tables.DEPLOYMENT_ZONE}\" of "
                f"the {state.edges[enemy]} edge)?", "CL §8", side, default="no")
            if pushed:
                add_vp(ctx, side, tables.PUSH_VP,
                       f"Push: {general.name} in the enemy deployment zone (CL §8)")
            else:
                ctx.say(f"Push: {side_name(side)}'s general {general.name} is not in the "
                        "enemy deployment zone (CL §8).")


def check_victory(ctx: Context) -> Gen:
    """CL §8, checked when set-up ends and after every resolution that can kill or
    panic a unit (the end of shooting, a melee, a merge):

    - advanced game: once a side has no unit in play the game ends, most VP wins;
    - basic game: the moment a side has no unit in play that is not panicked (none
      at all included), the other side wins; both at once is a draw.

    The morale phase only ever ends panics, so it cannot end the game. Returns whether
    the game ended."""
    state: State = ctx.state
    if advanced(state):
        beaten = [s for s in SIDES if not in_play(state, s)]
        if beaten:
            yield from _end_by_vp(ctx, _beaten_reason(state, beaten))
    else:
        beaten = [s for s in SIDES if not steady(state, s)]
        if beaten:
            _declare(ctx, "draw" if len(beaten) == 2 else other_side(beaten[0]),
                     _beaten_reason(state, beaten))
    return bool(beaten)


def _beaten_reason(state: State, beaten: list[str]) -> str:
    """"Black has no unit left in play", "neither side has a unit in play that is not
    panicked"..."""
    lack = {s: "unit in play that is not panicked" if in_play(state, s)
            else "unit left in play" for s in beaten}
    if len(beaten) == 2 and lack["red"] == lack["black"]:
        return f"neither side has a {lack['red']}"
    return " and ".join(f"{side_name(s)} has no {lack[s]}" for s in beaten)


def end_of_turn(ctx: Context) -> Gen:
    """CL §8 after the morale phase: the advanced game ends after its last turn
    (option ``turns``, 6 by the rules)."""
    state: State = ctx.state
    last = state.options["turns"]
    if advanced(state) and state.turn >= last:
        yield from _end_by_vp(ctx, f"turn {state.turn} of {last} is over")


def agreement_rule(state: State) -> str:
    """How a game ended by agreement is decided, in words (app ruling for the basic
    game, which has no score: its measure, steady units, decides)."""
    if advanced(state):
        return "most VP wins, after scoring the end-of-game objectives"
    return "more units in play and not panicked wins"


def end_refusal(state: State) -> str:
    """Why the game cannot be ended by agreement now ("" if it can): not while
    shooting casualties wait to come off (CL-R2), so that they count."""
    if any(u.pending for u in state.all_units()):
        return "end the shooting first: casualties are waiting to come off (CL-R2)"
    return ""


def end_by_agreement(ctx: Context) -> Gen:
    """The players end the game now (see :func:`agreement_rule`)."""
    state: State = ctx.state
    reason = f"the players agree to end it ({agreement_rule(state)})"
    if advanced(state):
        yield from _end_by_vp(ctx, reason)
        return
    _declare(ctx, ahead(len(steady(state, "red")), len(steady(state, "black"))), reason)

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

    A unit left without figures is wiped out: every melee contact with it ends.
    """
    state: State = ctx.state
    unit, figure = state.figure(figure_id)
    if not figure.alive:
        raise ValueError(f"{figure_id} is already dead")
    figure.alive = False
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
    return state.options["game"] == "advanced"


def end_game(ctx: Context, reason: str, basic_winner: str) -> Gen:
    """The game ends now for ``reason`` (CL §8). The advanced game first asks what the
    app cannot know about the end-of-game objectives, then most VP wins (equal VP is
    a draw); the basic game's result is ``basic_winner`` ("red", "black", "draw")."""
    state: State = ctx.state
    if advanced(state):
        yield from _final_objectives(ctx)
        red, black = state.vp["red"], state.vp["black"]
        winner = "red" if red > black else "black" if black > red else "draw"
        score = f". Final score Red {red} VP, Black {black} VP"
    else:
        winner, score = basic_winner, ""
    state.over = True
    state.winner = winner
    state.end_reason = reason
    state.step = ""
    state.mover = ""
    result = "a draw" if winner == "draw" else f"{side_name(winner)} wins"
    ctx.say(f"Game over: {reason}{score}: {result} (CL §8).")


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


def check_wiped_out(ctx: Context) -> Gen:
    """CL §8, any game: the moment a side has no unit in play the game ends (both at
    once: a draw in the basic game). Returns whether it ended."""
    state: State = ctx.state
    gone = [s for s in SIDES if not in_play(state, s)]
    if not gone:
        return False
    if len(gone) == 2:
        yield from end_game(ctx, "neither side has a unit left in play", "draw")
    else:
        yield from end_game(ctx, f"{side_name(gone[0])} has no unit left in play",
                            other_side(gone[0]))
    return True


def end_of_turn(ctx: Context) -> Gen:
    """CL §8 after the morale phase: in the basic game a side whose enemy has no
    unit in play, or only panicked ones, wins (both such: a draw); the advanced game
    ends after its last turn (option ``turns``, 6 by the rules)."""
    state: State = ctx.state
    if advanced(state):
        last = state.options["turns"]
        if state.turn >= last:
            yield from end_game(ctx, f"turn {state.turn} of {last} is over", "")
        return
    beaten = [s for s in SIDES if not steady(state, s)]
    if len(beaten) == 2:
        yield from end_game(ctx, "neither side has a unit in play that is not panicked",
                            "draw")
    elif beaten:
        yield from end_game(ctx, f"{side_name(beaten[0])} has no unit in play that is not "
                            "panicked", other_side(beaten[0]))


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
    red, black = len(steady(state, "red")), len(steady(state, "black"))
    winner = "red" if red > black else "black" if black > red else "draw"
    yield from end_game(ctx, f"the players agree to end it ({agreement_rule(state)})",
                        winner)

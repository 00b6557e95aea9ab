"""Helpers shared by the Command Hand resolutions: names, distances, tokens, the end
of the game."""

from __future__ import annotations

from deathzap_tui.rules import activations
from deathzap_tui.rules.commandhand import tables
from deathzap_tui.rules.commandhand.state import State, UnitState
from deathzap_tui.rules.narration import card_label, plural, side_name
from deathzap_tui.rules.quick import OUTSIDE
from deathzap_tui.rules.ruleset import SIDES, other_side
from deathzap_tui.rules.statebase import add_vp as add_vp
from deathzap_tui.rules.steps import Context
from deathzap_tui.rules.units import in_play as in_play
from deathzap_tui.rules.units import uname as uname


def inches(state: State, n: int) -> str:
    """A distance as the players measure it: doubled with CH-R1."""
    return f'{n * state.factor}"'


def reset_tokens(state: State) -> None:
    activations.clear_tokens(state.all_units(), state.objectives)


def check_token_reset(ctx: Context) -> bool:
    """CH §6, as DZ3 §4 / DZ3-R4: once every unit in play on one side carries a token,
    all tokens come off (both sides, and objectives with the CH-R5 option)."""
    state: State = ctx.state
    side = activations.side_to_reset(state.units)
    if not side:
        return False
    reset_tokens(state)
    ctx.say(f"Every {side_name(side)} unit in play has a token: all activation tokens are "
            "removed (CH §6).")
    return True


def forfeit_if_stranded(ctx: Context) -> None:
    """As DZ3-R3: a side with no unit in play spends the activations it is granted."""
    state: State = ctx.state
    for g in state.grants:
        if g.remaining and not in_play(state, g.side):
            n = g.remaining
            g.forfeited += n
            ctx.say(f"{side_name(g.side)} has no unit in play: {plural(n, 'activation')} of "
                    f"{card_label(g.card)} {'is' if n == 1 else 'are'} spent (as DZ3-R3).")


def finish(ctx: Context, reason: str, winner: str = "") -> None:
    """End the game: ``winner`` given (CH-R5 elimination), or by VP (objectives)."""
    state: State = ctx.state
    state.over = True
    state.end_reason = reason
    state.window = ""
    if not winner:
        red, black = state.vp["red"], state.vp["black"]
        winner = "red" if red > black else "black" if black > red else "draw"
    state.winner = winner
    result = "a draw" if winner == "draw" else f"{side_name(winner)} wins"
    score = (f" Final score Red {state.vp['red']} VP, Black {state.vp['black']} VP."
             if state.objectives_mode else "")
    ctx.say(f"Game over: {reason}.{score} {result.capitalize()} (CH-R5).")


def check_elimination(ctx: Context) -> None:
    """CH-R5 default: a side with no figures left loses at once (not in a quick
    resolution: there is no game to end)."""
    state: State = ctx.state
    if state.over or state.objectives_mode or ctx.facts.get(OUTSIDE):
        return
    for side in SIDES:
        if not in_play(state, side):
            finish(ctx, f"{side_name(side)} has no figures left",
                   other_side(side))
            return


def unit_destroyed(ctx: Context, unit: UnitState) -> None:
    """The last figure is gone (CH §4): the unit leaves play. With the CH-R5
    objectives option the enemy scores 3 VP, as DZ3 §12."""
    state: State = ctx.state
    unit.destroyed = True
    unit.token = False
    for other in state.all_units():
        if unit.id in other.engaged:
            other.engaged.remove(unit.id)
    unit.engaged.clear()
    ctx.say(f"{uname(state, unit)} is wiped out.")
    if state.objectives_mode:
        add_vp(ctx, other_side(unit.side), tables.VP_DESTROYED, f"{uname(state, unit)} destroyed")
    check_elimination(ctx)

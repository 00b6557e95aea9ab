"""Helpers shared by the Deathzap 3 resolutions: names, VP, tokens, game end."""

from __future__ import annotations

from deathzap_tui.rules import activations
from deathzap_tui.rules.deathzap3 import tables
from deathzap_tui.rules.deathzap3.state import State, UnitState
from deathzap_tui.rules.narration import (  # shared words, re-exported for DZ3 modules
    YES_NO as YES_NO,
)
from deathzap_tui.rules.narration import Gen as Gen
from deathzap_tui.rules.narration import ask_yes_no as ask_yes_no
from deathzap_tui.rules.narration import card_label as card_label
from deathzap_tui.rules.narration import dice_text as dice_text
from deathzap_tui.rules.narration import faces_text as faces_text
from deathzap_tui.rules.narration import is_are as is_are
from deathzap_tui.rules.narration import plural as plural
from deathzap_tui.rules.narration import side_name as side_name
from deathzap_tui.rules.ruleset import other_side
from deathzap_tui.rules.statebase import add_vp as add_vp
from deathzap_tui.rules.steps import Context
from deathzap_tui.rules.units import disengage as disengage
from deathzap_tui.rules.units import in_play as in_play
from deathzap_tui.rules.units import uname as uname


def unit_gone(ctx: Context, unit: UnitState, how: str) -> None:
    """Mark a unit destroyed (``how`` = "destroyed") or fled, and give the enemy its
    3 VP (DZ3 §10, §12). Its leaders take their command points with them (DZ3-R14)."""
    state: State = ctx.state
    if how == "fled":
        unit.fled = True
    else:
        unit.destroyed = True
    unit.token = False
    for f in unit.figures:
        if f.alive and f.leader and f.command:
            ctx.say(f"{f.name}'s {plural(f.command, 'command point')} "
                    f"{is_are(f.command)} lost with the "
                    f"unit (DZ3-R14).")
        f.command = 0 if f.leader else f.command
    disengage(state, unit)
    word = "fled" if how == "fled" else "destroyed"
    add_vp(ctx, other_side(unit.side), tables.VP_DESTROYED, f"{uname(state, unit)} {word}")


def reset_tokens(state: State) -> None:
    activations.clear_tokens(state.all_units(), state.objectives)


def check_token_reset(ctx: Context) -> bool:
    """DZ3 §4, DZ3-R4: once every unit in play on one side carries a token, every
    token (both sides, objectives) is removed. A side with no unit in play at all
    never triggers it (nothing "has activated")."""
    state: State = ctx.state
    side = activations.side_to_reset(state.units)
    if side:
        reset_tokens(state)
        ctx.say(f"Every {side_name(side)} unit in play has a token: all activation "
                f"tokens are removed, units and objectives (DZ3 §4).")
        return True
    return False


def forfeit_if_stranded(ctx: Context) -> None:
    """DZ3-R3: if the card's side has no unit in play, its remaining activations are
    spent."""
    state: State = ctx.state
    if state.card_side and state.remaining and not in_play(state, state.card_side):
        n = state.remaining
        state.forfeited += n
        ctx.say(f"{side_name(state.card_side)} has no unit in play: "
                f"{plural(n, 'activation')} of {card_label(state.card)} "
                f"{'is' if n == 1 else 'are'} spent (DZ3-R3).")


def finish(ctx: Context, reason: str) -> None:
    """End the game (DZ3 §12): most VP wins, equal VP is a draw."""
    state: State = ctx.state
    state.over = True
    state.end_reason = reason
    red, black = state.vp["red"], state.vp["black"]
    state.winner = "red" if red > black else "black" if black > red else "draw"
    result = "a draw" if state.winner == "draw" else f"{side_name(state.winner)} wins"
    ctx.say(f"Game over: {reason}. Final score Red {red} VP, Black {black} VP: "
            f"{result} (DZ3 §12).")

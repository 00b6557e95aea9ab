"""Helpers shared by the Deathzap 3 resolutions: names, VP, tokens, game end."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from deathzap_tui.rules.cards import Card
from deathzap_tui.rules.deathzap3 import tables
from deathzap_tui.rules.deathzap3.state import State, UnitState
from deathzap_tui.rules.ruleset import SIDES, other_side
from deathzap_tui.rules.steps import Choice, Context, Question, Step

Gen = Generator[Step, Any, Any]
"""A resolution fragment: ``yield from`` it; it may return a value."""

YES_NO = (Choice("yes", "Yes"), Choice("no", "No"))


def side_name(side: str) -> str:
    return side.capitalize()


def uname(state: State, unit: UnitState) -> str:
    """"Red Squad 1"; a name repeated within a side gets its position ("#2")."""
    same = [u for u in state.units[unit.side] if u.name == unit.name]
    suffix = f" #{same.index(unit) + 1}" if len(same) > 1 else ""
    return f"{side_name(unit.side)} {unit.name}{suffix}"


def card_label(code: str) -> str:
    return Card.parse(code).label if code else ""


def plural(n: int, word: str, many: str = "") -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


def faces_text(faces: tuple[int, ...]) -> str:
    return " ".join(str(f) for f in faces)


def dice_text(dice: Any, target: int | None = None) -> str:
    """"rolled 3 5 6 1 (2 successes on 5+)" or "2 successes on 5+" (count only)."""
    if dice.successes is not None:
        return f"{plural(dice.successes, 'success', 'successes')} on {target}+ (count given)"
    text = f"rolled {faces_text(dice.faces)}"
    if target is not None:
        n = dice.count(target)
        text += f" ({plural(n, 'success', 'successes')} on {target}+)"
    return text


def ask_yes_no(key: str, prompt: str, rule: str, side: str, default: str = "yes") -> Gen:
    answer = yield Question(key, prompt, YES_NO, rule=rule, side=side, default=default)
    return answer == "yes"


def add_vp(ctx: Context, side: str, vp: int, reason: str) -> None:
    from deathzap_tui.rules.deathzap3.state import ScoreEntry

    state: State = ctx.state
    state.vp[side] += vp
    state.score.append(ScoreEntry(side, vp, reason))
    ctx.say(f"{side_name(side)} scores {vp} VP for {reason} "
            f"(Red {state.vp['red']}, Black {state.vp['black']}).")


def disengage_all(state: State, unit: UnitState) -> None:
    """Forget every base contact involving ``unit``."""
    for other in state.all_units():
        if unit.id in other.engaged:
            other.engaged.remove(unit.id)
    unit.engaged.clear()


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
            ctx.say(f"{f.name}'s {plural(f.command, 'command point')} are lost with the "
                    f"unit (DZ3-R14).")
        f.command = 0 if f.leader else f.command
    disengage_all(state, unit)
    word = "fled" if how == "fled" else "destroyed"
    add_vp(ctx, other_side(unit.side), tables.VP_DESTROYED, f"{uname(state, unit)} {word}")


def in_play(state: State, side: str) -> list[UnitState]:
    return [u for u in state.units[side] if u.in_play]


def reset_tokens(state: State) -> None:
    for u in state.all_units():
        u.token = False
    for o in state.objectives:
        o.token = False


def check_token_reset(ctx: Context) -> bool:
    """DZ3 §4, DZ3-R4: once every unit in play on one side carries a token, every
    token (both sides, objectives) is removed. A side with no unit in play at all
    never triggers it (nothing "has activated")."""
    state: State = ctx.state
    for side in SIDES:
        units = in_play(state, side)
        if units and all(u.token for u in units):
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

"""The end of a game, shared by the Deathzap-family rulesets: the state records the
result and the narration says it in one shape ("Game over: <reason>: Red wins (CL §8).");
the battle screen says it in another ("Red wins (<reason>)").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from deathzap_tui.rules.narration import side_name
from deathzap_tui.rules.quick import OUTSIDE
from deathzap_tui.rules.ruleset import SIDES, other_side
from deathzap_tui.rules.steps import Context


def declare(ctx: Context, winner: str, reason: str, rule: str, score: str = "") -> None:
    """The game is over for ``reason``: ``winner`` is "red", "black" or "draw".
    Only ``over``, ``winner`` and ``end_reason`` are set: a ruleset clears its own
    turn fields (the phase under way, the side moving) in its own wrapper. ``score``
    (". Final score ...") is said after the reason but not kept in ``end_reason``.
    A quick resolution (:data:`.quick.OUTSIDE`) has no game to end: nothing happens."""
    if ctx.facts.get(OUTSIDE):
        return
    state = ctx.state
    state.over = True
    state.winner = winner
    state.end_reason = reason
    ctx.say(f"Game over: {reason}{score}: {result_text(winner)} ({rule}).")


def result_text(winner: str, draw: str = "a draw") -> str:
    """"a draw" (or ``draw``'s words), "Red wins"."""
    return draw if winner == "draw" else f"{side_name(winner)} wins"


def wiped_out(state: Any, alive: Callable[[Any, str], object]) -> tuple[str, str] | None:
    """A side with no unit left (``alive(state, side)`` false) loses at once, both
    at once is a draw: ``(reason, winner)`` for :func:`declare`, or ``None`` while
    both sides have a unit."""
    beaten = [s for s in SIDES if not alive(state, s)]
    if len(beaten) == 2:
        return "neither side has a unit left", "draw"
    if beaten:
        return f"{side_name(beaten[0])} has no unit left", other_side(beaten[0])
    return None


def ahead(red: int, black: int) -> str:
    """The side with the larger count ("red" or "black"), or "draw"."""
    return "red" if red > black else "black" if black > red else "draw"


def final_score(score: Mapping[str, int], winner: str, unit: str = "") -> str:
    """" 9-5 VP" for :func:`result_words`: the winner's score first, as a result is
    read ("Black wins 9-5"); red's first in a draw. ``unit`` ("VP") follows."""
    first = winner if winner in SIDES else "red"
    return f" {score[first]}-{score[other_side(first)]}" + (f" {unit}" if unit else "")


def result_words(state: Any, score: str = "") -> str:
    """The result line of the battle screen, "Red wins 5-3 VP (<reason>)" (``score``
    after the result), "" while the game goes on."""
    if not state.over:
        return ""
    return f"{result_text(state.winner, 'Draw')}{score} ({state.end_reason})"

"""Winning (DT §2, app reading 4): a side with no living unit (on the table or in
reserve) loses at once, both at once is a draw; after the last round (option
``rounds``, 4 by the rules) the side holding more objective markers wins, equal
holdings draw. Ending the game by agreement is decided on markers the same way."""

from __future__ import annotations

from deathzap_tui.rules.doubletap.common import living
from deathzap_tui.rules.doubletap.state import MarkerState, State
from deathzap_tui.rules.narration import plural, side_name
from deathzap_tui.rules.ruleset import SIDES
from deathzap_tui.rules.steps import Context
from deathzap_tui.rules.victory import ahead, declare, wiped_out

MARKERS_RULE = "the side holding more markers wins, equal holdings draw"
"""DT §2 in words, for reasons and the objectives line."""


def held(state: State, side: str) -> int:
    """How many markers ``side`` holds (seized, DT §2)."""
    return sum(1 for m in state.markers if m.holder == side)


def holding(marker: MarkerState) -> str:
    """"held by Red", "neutral" (DT §2: markers start neutral)."""
    return f"held by {side_name(marker.holder)}" if marker.holder else "neutral"


def held_words(state: State) -> str:
    """"Red holds 2 markers, Black 1"."""
    return f"Red holds {plural(held(state, 'red'), 'marker')}, Black {held(state, 'black')}"


def _declare(ctx: Context, reason: str, winner: str) -> None:
    """The game is over for ``reason`` (DT §2): the family's
    :func:`~deathzap_tui.rules.victory.declare`, and no side is playing a turn."""
    state: State = ctx.state
    state.player = ""
    state.points = {s: 0 for s in SIDES}
    declare(ctx, winner, reason, "DT §2")


def _more_markers(state: State) -> str:
    return ahead(held(state, "red"), held(state, "black"))


def check_victory(ctx: Context) -> bool:
    """App reading 4: a side with no living unit loses at once; both is a draw.
    Returns whether the game ended."""
    state: State = ctx.state
    ended = wiped_out(state, living)
    if ended:
        _declare(ctx, *ended)
    return ended is not None


def end_of_round(ctx: Context) -> bool:
    """DT §2: after the last round (option ``rounds``) the side holding more markers
    wins, equal draw (app reading 4). Returns whether the game ended."""
    state: State = ctx.state
    last = state.options["rounds"]
    if state.round < last:
        return False
    _declare(ctx, f"round {state.round} of {last} is over; {held_words(state)}",
             _more_markers(state))
    return True


def end_by_agreement(ctx: Context) -> None:
    """The players end the game now, decided on markers as after the last round
    (DT §2, app reading 4)."""
    state: State = ctx.state
    _declare(ctx, f"the players agree to end it ({MARKERS_RULE}); {held_words(state)}",
             _more_markers(state))

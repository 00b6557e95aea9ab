"""Winning (PS §8): a side with no unit left loses at once; after the last turn the
side that has lost the greater points value of models loses; and ending the game by
agreement, decided the same way.

App reading 3: the points a side has lost are the ``cost`` of each of its models
removed (``state.lost``, kept by :mod:`.casualties`); the wipe-out check runs after
every bracket's casualties and after the morale phase.
"""

from __future__ import annotations

from deathzap_tui.rules.narration import side_name
from deathzap_tui.rules.plasmashok.common import in_play
from deathzap_tui.rules.plasmashok.state import State
from deathzap_tui.rules.ruleset import SIDES
from deathzap_tui.rules.steps import Context
from deathzap_tui.rules.victory import ahead, declare, wiped_out

POINTS_RULE = "the side that has lost more points of models loses, equal losses draw"
"""PS §8 in words, for reasons and the objectives line."""


def lost_words(state: State) -> str:
    """"Red lost 24 points of models, Black 40"."""
    red, black = SIDES
    return (f"{side_name(red)} lost {state.lost[red]} points of models, "
            f"{side_name(black)} {state.lost[black]}")


def _declare(ctx: Context, reason: str, winner: str) -> None:
    """The game is over for ``reason`` (PS §8): the family's
    :func:`~deathzap_tui.rules.victory.declare`, and no phase, side moving, bracket
    or extra melee round is under way any more."""
    state: State = ctx.state
    state.step = ""
    state.mover = ""
    state.bracket = ""
    state.again = []
    declare(ctx, winner, reason, "PS §8")


def _fewer_lost(state: State) -> str:
    """The side that lost fewer points (the other lost more and loses), or "draw"."""
    # ``ahead`` names the side with the larger count: Black's losses put Red ahead.
    return ahead(state.lost["black"], state.lost["red"])


def check_victory(ctx: Context) -> bool:
    """PS §8: a side with no unit left loses; both at once is a draw (app reading 3).
    Returns whether the game ended."""
    state: State = ctx.state
    ended = wiped_out(state, in_play)
    if ended:
        _declare(ctx, *ended)
    return ended is not None


def end_of_turn(ctx: Context) -> None:
    """PS §8: after the last turn (option ``turns``, 4 by the rules) the side that
    has lost the greater points value of models loses; equal losses draw (app
    reading 3)."""
    state: State = ctx.state
    last = state.options["turns"]
    if state.turn >= last:
        _declare(ctx, f"turn {state.turn} of {last} is over; {lost_words(state)}",
                 _fewer_lost(state))


def end_refusal(state: State) -> str:
    """Why the game cannot be ended by agreement now ("" if it can): not while wounds
    wait to come off at the end of a bracket (PS §3), so that they count."""
    if any(u.pending for u in state.all_units()):
        return "end the bracket first: wounds are waiting to come off (PS §3)"
    return ""


def end_by_agreement(ctx: Context) -> None:
    """The players end the game now; as after the last turn, the side that has lost
    more points of models loses (PS §8, app reading 3)."""
    state: State = ctx.state
    _declare(ctx, f"the players agree to end it ({POINTS_RULE}); {lost_words(state)}",
             _fewer_lost(state))

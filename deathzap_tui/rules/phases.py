"""What the phase-based turns share (Classic CL §3-§4, Plasmashok PS §3): a movement
phase in which the two sides move one after the other, each saying when it has
finished. Pure stdlib.

The rest of each turn is its ruleset's own (``docs/architecture.md``, "The turn
machines"): the order of the phases, what starts and ends each, and Double Tap has
no phases at all.
"""

from __future__ import annotations

from typing import Protocol

from deathzap_tui.rules.narration import side_name
from deathzap_tui.rules.ruleset import other_side
from deathzap_tui.rules.steps import Context

MOVEMENT = "movement"


class MovingState(Protocol):
    """The part of a phase-based state the movement phase reads and writes."""

    step: str
    """The phase under way (:data:`MOVEMENT`, ...; "" between turns)."""
    mover: str
    """The side moving now ("" outside the movement phase)."""


def moving_label(state: MovingState) -> str:
    """The ``next`` intent's menu entry in the movement phase."""
    return f"{side_name(state.mover)} has finished moving"


def moving_refusal(state: MovingState, by: str, rule: str) -> str:
    """Why ``by`` may not end the movement phase's turn to move ("" if they may, or
    if the movement phase is not under way): only the side moving says it has
    finished (``rule``: the ruleset's section)."""
    if state.step == MOVEMENT and by and by != state.mover:
        return (f"{side_name(state.mover)} is moving: only {side_name(state.mover)} can say "
                f"it has finished ({rule})")
    return ""


def finish_moving(ctx: Context, first: str, rule: str) -> bool:
    """The side moving has finished: ``first`` (the side that moved first) hands over
    to the other, and the movement phase goes on (``True``); the other ends it
    (``False``), no side moving any more."""
    state: MovingState = ctx.state
    if state.mover == first:
        state.mover = other_side(first)
        ctx.say(f"{side_name(first)} has finished moving: {side_name(state.mover)} moves "
                f"({rule}).")
        return True
    ctx.say(f"{side_name(state.mover)} has finished moving ({rule}).")
    state.mover = ""
    return False

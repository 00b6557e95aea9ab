"""Set-up (CL §1): the roll-off for base lines, then naming the generals."""

from __future__ import annotations

from deathzap_tui.rules.classic import tables
from deathzap_tui.rules.classic.state import FigureState, State
from deathzap_tui.rules.classic.victory import check_victory
from deathzap_tui.rules.narration import Gen, side_name
from deathzap_tui.rules.ruleset import SIDES
from deathzap_tui.rules.setup import base_line_rolloff
from deathzap_tui.rules.steps import Choice, Context, Question


def rolloff(ctx: Context) -> Gen:
    """CL §1: each side rolls a die (ties roll again); the winner picks its base-line
    edge and deploys first, the other side takes the opposite edge. Then the generals
    are named."""
    yield from base_line_rolloff(ctx, tables.EDGES, tables.DEPLOYMENT_ZONE, "figure",
                                 "CL §1")
    ctx.state.stage = "general"


def general_choices(state: State, side: str) -> tuple[Choice, ...]:
    """Every figure of ``side`` as "Unit: Figure" (CL §1: any figure may lead)."""
    return tuple(Choice(f.id, f"{u.name}: {f.name}") for u in state.units[side]
                 for f in u.figures)


def default_general(state: State, side: str) -> FigureState:
    """The figure the force file marks general, or else the first figure (CL §1);
    ``side`` has at least one figure."""
    figures = [f for u in state.units[side] for f in u.figures]
    return next((f for f in figures if f.general), figures[0])


def generals(ctx: Context) -> Gen:
    """CL §1: each side names one figure its general (it matters only for the
    objectives, CL §8); then the battle begins. A force file always has a figure
    (``validation.read_units``); a side built without one has no general to name, and
    the game is decided at once (CL §8, :func:`.victory.check_victory`)."""
    state: State = ctx.state
    for side in SIDES:
        choices = general_choices(state, side)
        if not choices:
            ctx.say(f"{side_name(side)} has no figure to name as its general (CL §1).")
            continue
        chosen = yield Question(
            f"general.{side}", f"{side_name(side)}: which figure is your general?",
            choices, rule="CL §1", side=side,
            default=default_general(state, side).id)
        for u in state.units[side]:
            for f in u.figures:
                f.general = f.id == chosen
        unit, figure = state.figure(chosen)
        ctx.say(f"{side_name(side)}'s general is {figure.name} of {unit.name} (CL §1).")
    state.stage = "battle"
    if not (yield from check_victory(ctx)):
        ctx.say("Set-up done: roll for impetus to begin turn 1 (CL §3).")

"""Set-up (DT §2, §7): the deployment roll-off, alternate deployment (Ambush reserve,
Infiltrate, Scouts last), the objective markers; then round 1 begins.

The app knows no positions: a placement is the placing side naming the unit it puts
down, the narration saying where it may go (app readings 2 and 3)."""

from __future__ import annotations

from deathzap_tui.rules.dice import D3, d3_request
from deathzap_tui.rules.doubletap import tables
from deathzap_tui.rules.doubletap.common import uname
from deathzap_tui.rules.doubletap.state import MarkerState, State, UnitState
from deathzap_tui.rules.doubletap.turn import begin_battle
from deathzap_tui.rules.narration import Gen, plural, side_name
from deathzap_tui.rules.ruleset import SIDES, other_side
from deathzap_tui.rules.setup import base_line_rolloff, roll_off
from deathzap_tui.rules.steps import Choice, Context, Question

RESERVE = "reserve:"
"""A deployment answer ``"reserve:red.2"``: the Ambush unit is kept in reserve."""


def rolloff(ctx: Context) -> Gen:
    """DT §2: each side rolls a die (ties roll again); the winner picks its edge and
    deploys first (and plays first every round, DT §3), the other side takes the
    opposite edge; units are placed within 12" of their own edge."""
    yield from base_line_rolloff(ctx, tables.EDGES, tables.DEPLOY_ZONE, "unit", "DT §2")
    ctx.state.stage = "deploy"


def waiting(state: State, side: str, scouts: bool) -> list[UnitState]:
    """``side``'s units not yet placed nor kept in reserve: without Scout
    (``scouts`` False) or with it (DT §7: Scouts deploy after all others)."""
    return [u for u in state.units[side]
            if u.alive and not u.placed and not u.reserve and u.has("scout") == scouts]


def deploy(ctx: Context) -> Gen:
    """DT §2, app reading 2: the sides place one unit at a time, the roll-off winner
    first, a side with nothing left to place skipped; then the Scouts the same way,
    after a roll-off if both sides have some (DT §7). Then the markers."""
    state: State = ctx.state
    count = 0
    for scouts in (False, True):
        first = state.first
        if scouts and all(waiting(state, s, True) for s in SIDES):
            first = yield from roll_off(ctx, "the higher roll places the first Scout",
                                        "DT §7")
        order = (first, other_side(first))
        left = {s: len(waiting(state, s, scouts)) for s in order}
        for i in range(max(left.values())):
            for side in (s for s in order if i < left[s]):
                count += 1
                yield from _place(ctx, side, count, scouts)
    state.stage = "markers"
    ctx.say("Every unit is deployed: now the objective markers (DT §2).")


def _place(ctx: Context, side: str, n: int, scouts: bool) -> Gen:
    """One placement: ``side`` names which of its waiting units goes down (or, for an
    Ambush unit, is kept in reserve, DT §7)."""
    state: State = ctx.state
    units = waiting(state, side, scouts)
    zone, rule = (tables.SCOUT_ZONE, "DT §7") if scouts else (tables.DEPLOY_ZONE, "DT §2")
    edge = state.edges[side]
    choices = []
    for u in units:
        choices.append(Choice(u.id, uname(state, u)))
        if u.has("ambush"):
            choices.append(Choice(RESERVE + u.id, f"{uname(state, u)}: keep in reserve"))
    answer = yield Question(
        f"deploy.{n}", f"{side_name(side)}: which unit do you place within {zone}\" of the "
        f"{edge} edge?", tuple(choices), rule=rule, side=side, default=choices[0].value)
    unit = state.unit(answer.removeprefix(RESERVE))
    name = uname(state, unit)
    if answer.startswith(RESERVE):
        unit.reserve = True
        ctx.say(f"{name} is kept in reserve: from round 2 it may arrive anywhere over "
                f"{tables.AMBUSH_DISTANCE}\" from enemy units (DT §7 Ambush).")
        return
    unit.placed = True
    ctx.say(f"{name} is placed within {zone}\" of the {edge} edge "
            f"({'DT §7 Scout' if scouts else rule}).")
    if unit.has("infiltrate"):
        ctx.say(f"{name} may move up to {tables.INFILTRATE_MOVE}\" now "
                "(DT §7 Infiltrate).")


def markers(ctx: Context) -> Gen:
    """DT §2, app reading 3: D3 markers (one die: 1-2 one, 3-4 two, 5-6 three); a
    roll-off says who places the first; the sides alternate, outside the deployment
    zones and over 9" apart. They start neutral. Then round 1 begins."""
    state: State = ctx.state
    d = yield d3_request("markers", "Objective markers: one die read as D3", "DT §2")
    count = D3[d.faces[0]]
    ctx.say(f"Rolled {d.faces[0]}: {plural(count, 'objective marker')} (DT §2).")
    first = yield from roll_off(ctx, "the higher roll places the first marker", "DT §2")
    order = (first, other_side(first))
    later = "".join(f", then {side_name(order[i % 2])} marker {i + 1}" for i in range(1, count))
    ctx.say(f"{side_name(first)} places marker 1{later}: each outside the deployment zones "
            f"and over {tables.MARKER_SPACING}\" from the others; they start neutral "
            "(DT §2).")
    state.markers = [MarkerState(i + 1) for i in range(count)]
    state.stage = "battle"
    yield from begin_battle(ctx)

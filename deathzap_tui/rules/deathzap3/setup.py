"""Set-up resolutions (DZ3 §1): the roll-off for entry edges, then the objectives."""

from __future__ import annotations

from deathzap_tui.rules.deathzap3 import tables
from deathzap_tui.rules.deathzap3.common import Gen, side_name
from deathzap_tui.rules.deathzap3.state import EDGES, State
from deathzap_tui.rules.ruleset import other_side
from deathzap_tui.rules.setup import ask_objectives, roll_off
from deathzap_tui.rules.steps import Choice, Context, Question

MAX_DEPTH = 120


def rolloff(ctx: Context) -> Gen:
    """Each side rolls a die; ties roll again; the higher picks its long edge and the
    other side takes the opposite one (DZ3 §1)."""
    state: State = ctx.state
    winner = yield from roll_off(ctx, "highest roll picks the entry edge", "DZ3 §1")
    edge = yield Question(
        "edge", f"{side_name(winner)} won the roll-off: which long edge do they enter from?",
        tuple(Choice(e, e.capitalize()) for e in EDGES), rule="DZ3 §1", side=winner,
        default="south")
    state.rolloff_winner = winner
    state.edges[winner] = edge
    state.edges[other_side(winner)] = EDGES[1 - EDGES.index(edge)]
    state.phase = "objectives"
    ctx.say(f"{side_name(winner)} enters from the {edge} edge, "
            f"{side_name(other_side(winner))} from the {state.edges[other_side(winner)]} edge.")


def default_distances(depth: int) -> list[int]:
    """Objective 1 in the centre, the rest spread 6" apart on a 30" board (the
    defaults the UI's --quick uses)."""
    raw = [depth // 2, 6, 12, depth - 12, depth - 6]
    return [min(max(d, 0), depth) for d in raw]


def objectives(ctx: Context) -> Gen:
    """Board depth, then each objective's distance from RED's edge (DZ3 §1, §12).
    Objective 1 is the centre one; the players place the other four, at least 6"
    from each other (the app cannot see that, DZ3 §3: players measure)."""
    state: State = ctx.state
    depth = yield Question("depth", "Distance between the two entry edges, in inches",
                           minimum=1, maximum=MAX_DEPTH, rule="DZ3 §1",
                           default=tables.BOARD_DEPTH)
    state.board_depth = depth
    objs = yield from ask_objectives(tables.OBJECTIVES, depth, default_distances(depth),
                                     "Red's edge", "DZ3 §1 / DZ3 §12")
    state.objectives = objs
    state.phase = "battle"
    ctx.say(f"Board depth {depth}\".")
    for o in objs:
        r, b = o.red_distance, depth - o.red_distance
        ctx.say(f"Objective {o.number}: {r}\" from Red's edge ({tables.objective_vp(r)} VP to "
                f"Red), {b}\" from Black's edge ({tables.objective_vp(b)} VP to Black).")
    ctx.say("Set-up done: draw the first card.")

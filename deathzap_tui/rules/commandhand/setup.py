"""Set-up (CH §1): the roll-off for home edges; with the CH-R5 objectives option,
Deathzap 3's five objectives (DZ3 §1)."""

from __future__ import annotations

from deathzap_tui.rules.commandhand import tables
from deathzap_tui.rules.commandhand.common import inches
from deathzap_tui.rules.commandhand.state import State
from deathzap_tui.rules.narration import Gen, side_name
from deathzap_tui.rules.ruleset import other_side
from deathzap_tui.rules.setup import ask_objectives, roll_off
from deathzap_tui.rules.steps import Choice, Context, Question

MAX_DEPTH = 240


def rolloff(ctx: Context) -> Gen:
    """Each side rolls a die, ties roll again; the winner picks a home edge and the
    opponent takes the opposite one (CH §1). No figure starts on the board."""
    state: State = ctx.state
    winner = yield from roll_off(ctx, "highest roll picks the home edge", "CH §1")
    edges = tables.HOME_EDGES
    edge = yield Question(
        "edge", f"{side_name(winner)} won the roll-off: which edge is their home edge?",
        tuple(Choice(e, e.capitalize()) for e in edges), rule="CH §1", side=winner,
        default="south")
    loser = other_side(winner)
    state.rolloff_winner = winner
    state.edges[winner] = edge
    state.edges[loser] = edges[1 - edges.index(edge)]
    ctx.say(f"{side_name(winner)}'s home edge is {edge}, {side_name(loser)}'s is "
            f"{state.edges[loser]} (CH §1).")
    if state.objectives_mode:
        state.phase = "objectives"
    else:
        state.phase = "battle"
        ctx.say("Set-up done: flip the first card.")


def default_distances(depth: int) -> list[int]:
    """Objective 1 in the centre, the others a quarter and an eighth in from each
    edge (suggestions only: the players place them)."""
    raw = [depth // 2, depth // 8, depth // 4, depth - depth // 4, depth - depth // 8]
    return [min(max(d, 0), depth) for d in raw]


def objectives(ctx: Context) -> Gen:
    """CH-R5 objectives option, as DZ3 §1: the board depth, then each objective's
    distance from Red's home edge (the players place them; objective 1 central)."""
    state: State = ctx.state
    standard = tables.BOARD_DEPTH * state.factor
    depth = yield Question("depth", "Distance between the two home edges, in inches "
                           f"(standard {inches(state, tables.BOARD_DEPTH)})", minimum=1,
                           maximum=MAX_DEPTH, rule="CH §1 / CH-R1", default=standard)
    state.board_depth = depth
    objs = yield from ask_objectives(tables.OBJECTIVES, depth, default_distances(depth),
                                     "Red's home edge", "CH-R5 / DZ3 §1")
    state.objectives = objs
    state.phase = "battle"
    ctx.say(f"Board depth {depth}\".")
    for o in objs:
        r, b = o.red_distance, depth - o.red_distance
        ctx.say(f"Objective {o.number}: {r}\" from Red's edge "
                f"({tables.objective_vp(r, state.factor)} VP to Red), {b}\" from Black's "
                f"({tables.objective_vp(b, state.factor)} VP to Black).")
    ctx.say("Set-up done: flip the first card.")

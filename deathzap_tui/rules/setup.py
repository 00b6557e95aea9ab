"""Set-up pieces shared by the Deathzap-family rulesets: the roll-off (DZ3 §1 / CH §1)
and the five objectives (DZ3 §1; CH-R5 objectives option, as DZ3 §1).

These ask and narrate only what both rulesets ask and narrate alike; each ruleset
words its own edge question and its own summary, and cites its own rule ids.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from deathzap_tui.rules.narration import Gen, side_name
from deathzap_tui.rules.statebase import ObjectiveState
from deathzap_tui.rules.steps import Context, DiceRequest, Question


def roll_off(ctx: Context, why: str, rule: str) -> Gen:
    """Each side rolls a die, ties roll again (DZ3 §1 / CH §1). Returns the winner.
    ``why`` says what the roll decides, ``rule`` cites it."""
    n = 1
    while True:
        rolls = {}
        for side in ("red", "black"):
            d = yield DiceRequest(f"rolloff.{n}.{side}", 1, f"Roll-off: {side_name(side)}'s die",
                                  None, why, rule, side)
            rolls[side] = d.faces[0]
        ctx.say(f"Roll-off: Red rolled {rolls['red']}, Black rolled {rolls['black']}.")
        if rolls["red"] != rolls["black"]:
            break
        ctx.say("A tie: roll again.")
        n += 1
    return "red" if rolls["red"] > rolls["black"] else "black"


def ask_objectives(count: int, depth: int, defaults: Sequence[int], edge: str,
                   rule: str) -> Gen:
    """Each objective's distance from Red's ``edge`` (e.g. "Red's edge"), 0 to
    ``depth`` inches; objective 1 is the centre one, the players place the others
    (DZ3 §1). Returns the :class:`ObjectiveState` list."""
    objs = []
    for i in range(1, count + 1):
        where = "the centre one" if i == 1 else "placed by the players"
        d = yield Question(
            f"objective.{i}", f"Objective {i} ({where}): distance from {edge}, in inches "
            f"(0-{depth})", minimum=0, maximum=depth, rule=rule, default=defaults[i - 1])
        objs.append(ObjectiveState(i, d))
    return objs


def objective_lines(state: Any, vp: Callable[[int], int]) -> tuple[str, ...]:
    """The placed objectives for a view: each side's distance and ``vp(distance)``,
    objective 1 marked as the centre, ``●`` for a token."""
    out = []
    for o in state.objectives:
        r, b = o.red_distance, state.board_depth - o.red_distance
        out.append(f"Objective {o.number}{' (centre)' if o.number == 1 else ''}: "
                   f"Red {r}\" ({vp(r)} VP), Black {b}\" "
                   f"({vp(b)} VP){'  ●' if o.token else ''}")
    return tuple(out)

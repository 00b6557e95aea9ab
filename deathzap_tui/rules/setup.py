"""Set-up pieces shared by the Deathzap-family rulesets: the order of the pre-game
steps (:class:`SetupSequence`), the roll-off (DZ3 §1 / CH §1 / CL §1 / PS §1), the
base-line roll-off (CL §1 / PS §1) and the five objectives (DZ3 §1; CH-R5 objectives
option, as DZ3 §1).

These ask and narrate only what the rulesets using them ask and narrate alike; DZ3 and
CH word their own edge question and summary, and each ruleset cites its own rule ids.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from deathzap_tui.rules.narration import Gen, side_name
from deathzap_tui.rules.ruleset import SETUP, IntentOption, other_side
from deathzap_tui.rules.statebase import ObjectiveState
from deathzap_tui.rules.steps import (
    TOTAL,
    Choice,
    Context,
    DiceRequest,
    Luck,
    Maker,
    Question,
    Refused,
)


def roll_off(ctx: Context, why: str, rule: str) -> Gen:
    """Each side rolls a die, ties roll again (DZ3 §1 / CH §1). Returns the winner.
    ``why`` says what the roll decides, ``rule`` cites it."""
    n = 1
    while True:
        rolls = {}
        for side in ("red", "black"):
            d = yield DiceRequest(f"rolloff.{n}.{side}", 1, f"Roll-off: {side_name(side)}'s die",
                                  None, why, rule, side, Luck(TOTAL))
            rolls[side] = d.faces[0]
        ctx.say(f"Roll-off: Red rolled {rolls['red']}, Black rolled {rolls['black']}.")
        if rolls["red"] != rolls["black"]:
            break
        ctx.say("A tie: roll again.")
        n += 1
    return "red" if rolls["red"] > rolls["black"] else "black"


def base_line_rolloff(ctx: Context, edges: Sequence[str], zone: int, pieces: str,
                      rule: str) -> Gen:
    """CL §1 / PS §1: each side rolls a die (ties roll again); the winner picks its
    base-line edge among the two ``edges`` and deploys first, the other side takes the
    opposite edge; every one of its ``pieces`` ("figure", "model") starts within
    ``zone`` inches of it. Sets the state's ``first`` and ``edges``; returns the
    winner."""
    state = ctx.state
    winner = yield from roll_off(ctx, "the higher roll picks a base-line edge and "
                                 "deploys first", rule)
    edge = yield Question(
        "edge", f"{side_name(winner)} won the roll-off: which edge is their base line?",
        tuple(Choice(e, e.capitalize()) for e in edges), rule=rule, side=winner,
        default=edges[1])
    loser = other_side(winner)
    state.first = winner
    state.edges[winner] = edge
    state.edges[loser] = next(e for e in edges if e != edge)
    ctx.say(f"{side_name(winner)}'s base line is the {edge} edge, {side_name(loser)}'s the "
            f"{state.edges[loser]} edge. {side_name(winner)} deploys first, then "
            f"{side_name(loser)}; every {pieces} starts within {zone}\" of its own edge "
            f"({rule}).")
    return winner


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


@dataclass(frozen=True)
class SetupStep:
    """One pre-game step: it runs while the state's stage is ``stage``, as the intent
    ``{"type": intent}``; ``label`` says what it does ("Roll off for entry edges"),
    ``done`` what is said once it is ("the roll-off is done")."""

    stage: str
    intent: str
    label: str
    done: str
    rule: str
    make: Maker


@dataclass(frozen=True)
class SetupSequence:
    """A ruleset's pre-game steps in order, then play (stage ``"battle"``): which one
    may be taken now, what to say of the others, and how to offer and prompt it."""

    steps: tuple[SetupStep, ...]

    def _index(self, stage: str) -> int:
        """The step under way (``len(steps)`` once play has begun)."""
        return next((i for i, s in enumerate(self.steps) if s.stage == stage),
                    len(self.steps))

    def resolution(self, stage: str, kind: str) -> Maker | None:
        """The step intent ``kind``'s resolution if it is the step under way;
        :class:`Refused` saying why for a step out of turn, or for any other intent
        before play; ``None`` for another intent once play has begun."""
        now = self._index(stage)
        wanted = next((i for i, s in enumerate(self.steps) if s.intent == kind), None)
        if wanted is None:
            if now < len(self.steps):
                step = self.steps[now]
                raise Refused(f"finish the set-up first: {step.label.lower()} ({step.rule})")
            return None
        if wanted < now:
            raise Refused(self.steps[wanted].done)
        if wanted > now:
            step = self.steps[now]
            raise Refused(f"{step.label.lower()} first ({step.rule})")
        return self.steps[wanted].make

    def intents(self, stage: str) -> list[IntentOption]:
        """The step under way as a menu entry (none once play has begun)."""
        now = self._index(stage)
        if now == len(self.steps):
            return []
        step = self.steps[now]
        return [IntentOption({"type": step.intent}, step.label, rule=step.rule, group=SETUP)]

    def prompt(self, stage: str) -> str:
        """"Set-up: roll off for entry edges", or "" once play has begun."""
        now = self._index(stage)
        return f"Set-up: {self.steps[now].label.lower()}" if now < len(self.steps) else ""

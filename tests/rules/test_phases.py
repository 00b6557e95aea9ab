"""The movement phase the phase-based turns share (rules/phases.py, issue 20 part 6):
the side that moved first hands over, the other ends the phase; only the side moving
may say it has finished (CL §4, PS §3)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from deathzap_tui.rules.phases import MOVEMENT, finish_moving, moving_label, moving_refusal


@dataclass
class Moving:
    step: str = MOVEMENT
    mover: str = "black"


@dataclass
class Ctx:
    state: Any
    said: list[str] = field(default_factory=list)

    def say(self, line: str) -> None:
        self.said.append(line)


def test_the_first_mover_hands_over_then_the_other_ends_the_phase() -> None:
    ctx = Ctx(Moving())
    assert finish_moving(ctx, "black", "PS §3") is True
    assert ctx.state.mover == "red"
    assert ctx.said == ["Black has finished moving: Red moves (PS §3)."]
    assert moving_label(ctx.state) == "Red has finished moving"
    assert finish_moving(ctx, "black", "PS §3") is False
    assert ctx.state.mover == ""
    assert ctx.said[-1] == "Red has finished moving (PS §3)."


def test_only_the_side_moving_says_it_has_finished() -> None:
    state = Moving(mover="red")
    assert moving_refusal(state, "black", "CL §4") == (
        "Red is moving: only Red can say it has finished (CL §4)")
    assert moving_refusal(state, "red", "CL §4") == ""
    assert moving_refusal(state, "", "CL §4") == ""  # hot-seat: anyone at the table
    assert moving_refusal(Moving(step="shooting"), "black", "CL §4") == ""

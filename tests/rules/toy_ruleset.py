"""A minimal ruleset used to test the shared machinery without Deathzap 3.

"Coins": each side has a pool of points; an intent ``{"type": "hit", "side": s}``
rolls two dice needing 4+ and takes one point from the other side per success,
after asking for a (pointless) cover answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from deathzap_tui.rules.dice import Rng
from deathzap_tui.rules.problems import Problem
from deathzap_tui.rules.ruleset import (
    BoardView,
    DeckView,
    IntentOption,
    OptionSpec,
    PointsReport,
    Ruleset,
    other_side,
)
from deathzap_tui.rules.steps import Choice, DiceRequest, Question, Refused


@dataclass
class ToyState:
    rng: Rng
    points: dict[str, int] = field(default_factory=lambda: {"red": 5, "black": 5})


class Toy(Ruleset):
    id = "toy"
    title = "Toy"

    def parse_force(self, data: Any) -> Any:
        return data

    def force_warnings(self, force: Any) -> list[Problem]:
        return []

    def points(self, force: Any) -> PointsReport | None:
        return None

    def option_specs(self) -> tuple[OptionSpec, ...]:
        return (OptionSpec("dice", "Dice per hit", 2, minimum=1, maximum=6),)

    def new_state(self, red: Any, black: Any, options: Any, seed: int,
                  deal_seed: int | None = None) -> ToyState:
        """No cards: ``deal_seed`` is not used."""
        return ToyState(Rng.from_seed(seed))

    def resolution(self, state: ToyState, intent: Any, by: str = ""):
        side = intent.get("side")
        if intent.get("type") != "hit" or side not in ("red", "black"):
            raise Refused("unknown intent")
        if by and by != side:
            raise Refused(f"{by} cannot act for {side}")

        def make(ctx):
            cover = yield Question("cover", "Cover?", (Choice("open", "Open"),
                                                       Choice("hard", "Hard")))
            if cover == "hard":
                raise Refused("no shooting into hard cover in the toy game")
            dice = yield DiceRequest("hit", 2, "to hit", target=4, side=side)
            n = dice.count(4)
            foe = other_side(side)
            ctx.state.points[foe] = max(0, ctx.state.points[foe] - n)
            ctx.say(f"{side} hits {n}: {foe} has {ctx.state.points[foe]}")

        return make

    def intents(self, state: ToyState, viewer: str | None = None) -> list[IntentOption]:
        return [IntentOption({"type": "hit", "side": s}, f"{s} hits") for s in ("red", "black")]

    def is_over(self, state: ToyState) -> bool:
        return 0 in state.points.values()

    def view(self, state: ToyState, viewer: str | None = None) -> BoardView:
        return BoardView((), {}, DeckView(), dict(state.points), (), (), "")

    def help_sections(self) -> list[tuple[str, str]]:
        return [("Toy", "Roll two dice.")]

"""A toy turn-based ruleset for the app tests: the app must carry a turn structure
it has never heard of, keyed on intent groups and the board view alone.

"Drill": no cards. Set-up (SETUP intents) is a roll-off, then the winner names a
general (a question whose choices are the figures: a step neither card edition
has). Play is in turns of three phases (Move, Shoot, Rally), at most three turns;
``next`` (ADVANCE, "Next phase") moves on; in the Shoot phase the acting side's unit
may ``shoot`` (UNIT: a cover question, then two dice needing 4+, each success one
kill); ``rally`` (OTHER) in the Rally phase; ``concede`` (END) at any time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deathzap_tui.rules.dice import Rng
from deathzap_tui.rules.problems import Problem
from deathzap_tui.rules.ruleset import (
    ADVANCE,
    END,
    OTHER,
    SETUP,
    UNIT,
    BoardView,
    IntentOption,
    OptionSpec,
    PointsReport,
    Ruleset,
    TurnClock,
    UnitRow,
    other_side,
)
from deathzap_tui.rules.steps import Choice, DiceRequest, Question, Refused

ID = "turntoy"
PHASES = ("Move", "Shoot", "Rally")
TURNS = 3


@dataclass
class Force:
    name: str
    figures: tuple[str, ...]
    source: dict[str, Any]
    """The file's table, embedded in saves."""

    @property
    def units(self) -> tuple[str, ...]:
        return (self.name,)


@dataclass
class DrillState:
    rng: Rng
    figures: dict[str, tuple[str, ...]]
    stage: str = "rolloff"
    """rolloff | general | battle"""
    first: str = ""
    general: str = ""
    turn: int = 0
    phase: int = 0
    shot: bool = False
    kills: dict[str, int] = field(default_factory=lambda: {"red": 0, "black": 0})
    over: bool = False

    @property
    def active(self) -> str:
        """The side acting in this phase: the roll-off winner in odd phases."""
        return self.first if self.phase % 2 == 0 else other_side(self.first)


class Drill(Ruleset):
    id = ID
    title = "Drill (test)"

    def parse_force(self, data: Any) -> Force:
        return Force(str(data.get("name", "?")), tuple(data.get("figures", ("Trooper",))),
                     dict(data))

    def force_warnings(self, force: Any) -> list[Problem]:
        return []

    def points(self, force: Any) -> PointsReport | None:
        return None

    def option_specs(self) -> tuple[OptionSpec, ...]:
        return ()

    def new_state(self, red: Force, black: Force, options: Any, seed: int,
                  deal_seed: int | None = None) -> DrillState:
        return DrillState(Rng.from_seed(seed), {"red": red.figures, "black": black.figures})

    def is_over(self, state: DrillState) -> bool:
        return state.over

    def intents(self, state: DrillState, viewer: str | None = None) -> list[IntentOption]:
        if state.over:
            return []
        if state.stage == "rolloff":
            return [IntentOption({"type": "rolloff"}, "Roll off", group=SETUP)]
        if state.stage == "general":
            return [IntentOption({"type": "general"}, "Name the general", state.first,
                                 group=SETUP)]
        side = state.active
        out = [IntentOption({"type": "next"}, "Next phase", group=ADVANCE)]
        if PHASES[state.phase] == "Shoot" and not state.shot:
            out.append(IntentOption({"type": "shoot", "unit": f"{side}.0"},
                                    f"{side} squad: shoot", side, group=UNIT))
        if PHASES[state.phase] == "Rally":
            out.append(IntentOption({"type": "rally"}, "Sound the rally", side, group=OTHER))
        out.append(IntentOption({"type": "concede"}, "Concede the drill", group=END))
        return out

    def resolution(self, state: DrillState, intent: Any, by: str = ""):
        kind = intent.get("type")
        if not any(o.intent == intent for o in self.intents(state)):
            raise Refused(f"{kind} is not possible now")

        def rolloff(ctx):
            dice = yield DiceRequest("rolloff", 2, "Roll off (red, black)", side=None)
            red, black = dice.faces
            ctx.state.first = "red" if red >= black else "black"
            ctx.state.stage = "general"
            ctx.say(f"{ctx.state.first} won the roll-off")

        def general(ctx):
            side = ctx.state.first
            choices = tuple(Choice(str(i), name)
                            for i, name in enumerate(ctx.state.figures[side]))
            pick = yield Question("general", f"Which figure is {side}'s general?", choices,
                                  side=side, rule="DRILL §1")
            ctx.state.general = ctx.state.figures[side][int(pick)]
            ctx.state.stage, ctx.state.turn = "battle", 1
            ctx.say(f"{side} names {ctx.state.general} general")

        def next_phase(ctx):
            s = ctx.state
            s.phase, s.shot = (s.phase + 1) % len(PHASES), False
            if s.phase == 0:
                s.turn += 1
                s.over = s.turn > TURNS
            ctx.say(f"Turn {s.turn}: {PHASES[s.phase]}")
            yield from ()  # asks nothing

        def shoot(ctx):
            side = ctx.state.active
            yield Question("cover", "Cover?", (Choice("open", "Open"), Choice("hard", "Hard")))
            dice = yield DiceRequest("hit", 2, "to hit", target=4, side=side)
            ctx.state.kills[side] += dice.count(4)
            ctx.state.shot = True
            ctx.say(f"{side} kills {dice.count(4)}")

        def rally(ctx):
            ctx.say("The rally sounds")
            yield from ()

        def concede(ctx):
            ctx.state.over = True
            ctx.say("The drill ends")
            yield from ()

        makers = {"rolloff": rolloff, "general": general, "next": next_phase,
                  "shoot": shoot, "rally": rally, "concede": concede}
        return makers[kind]

    def view(self, state: DrillState, viewer: str | None = None) -> BoardView:
        rows = {s: (UnitRow(f"{s}.0", s, f"{s} squad", (f"{s} squad",
                                                       str(len(state.figures[s])))),)
                for s in ("red", "black")}
        battle = state.stage == "battle"
        clock = TurnClock(state.turn, TURNS, "Turn", PHASES,
                          PHASES[state.phase] if battle else "",
                          state.active if battle else "",
                          f"General: {state.general}" if state.general else "")
        return BoardView(("Unit", "Figures"), rows, None, dict(state.kills),
                         (), (), f"{state.active} to act" if battle else "Set-up",
                         over=state.over, result="Drill over" if state.over else "",
                         clock=clock, score_label="kills", advance_label="Next phase")

    def help_sections(self) -> list[tuple[str, str]]:
        return [("Drill", "Move, shoot, rally.")]


RULESET = Drill()


def write_forces(directory: Path) -> tuple[Path, Path]:
    red, black = directory / "drill-red.toml", directory / "drill-black.toml"
    red.write_text(f'ruleset = "{ID}"\nname = "Reds"\nfigures = ["Ada", "Bo", "Cy"]\n')
    black.write_text(f'ruleset = "{ID}"\nname = "Blacks"\nfigures = ["Dee", "Eve"]\n')
    return red, black

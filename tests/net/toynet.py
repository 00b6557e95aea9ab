"""A toy ruleset for the network tests: turns, a save rolled by the target's owner,
and a secret hand per side (the hidden information the referee must not leak).

"Duel": sides take turns. ``{"type": "hit", "side": s}`` (offered only to the side
whose turn it is) asks the attacker for cover, rolls two dice to hit (4+, attacker's
roll), then the target's owner rolls one save per hit (5+); each unsaved hit takes a
point. Each side holds a secret card; the attacker's narrative includes a note only
the attacker may see, quoting their card.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toy_ruleset import Toy

from deathzap_tui.rules.dice import Rng
from deathzap_tui.rules.ruleset import (
    BoardView,
    DeckView,
    IntentOption,
    OptionSpec,
    UnitRow,
    other_side,
)
from deathzap_tui.rules.steps import Choice, DiceRequest, Question, Refused

ID = "nettoy"


def secret(side: str, seed: int) -> str:
    """The secret card of a side: a string that must never reach the other side."""
    return f"{side.upper()}SECRET{seed:x}Q"


@dataclass
class Force:
    name: str
    source: dict[str, Any]


@dataclass
class DuelState:
    rng: Rng
    seed: int
    points: dict[str, int] = field(default_factory=lambda: {"red": 6, "black": 6})
    turn: str = "red"
    hands: dict[str, str] = field(default_factory=dict)


class Duel(Toy):
    """The toy ruleset's hit, with turns, the target's saves and secret hands."""

    id = ID
    title = "Duel (test)"

    def parse_force(self, data: Any) -> Force:
        return Force(str(data.get("name", "?")), dict(data))

    def option_specs(self) -> tuple[OptionSpec, ...]:
        return ()

    def new_state(self, red: Any, black: Any, options: Any, seed: int,
                  deal_seed: int | None = None) -> DuelState:
        return DuelState(Rng.from_seed(seed), seed,
                         hands={s: secret(s, seed) for s in ("red", "black")})

    def resolution(self, state: DuelState, intent: Any, by: str = ""):
        super().resolution(state, intent, by)  # refuses what no side may do
        side = intent["side"]
        if side != state.turn:
            raise Refused(f"it is {state.turn}'s turn")
        foe = other_side(side)

        def make(ctx):
            cover = yield Question("cover", "Cover?", (Choice("open", "Open"),
                                                       Choice("hard", "Hard")))
            if cover == "hard":
                raise Refused("no shooting into hard cover in the duel")
            ctx.say(f"{side} eyes {ctx.state.hands[side]}", to=side)
            dice = yield DiceRequest("hit", 2, "to hit", target=4, side=side)
            hits = dice.count(4)
            ctx.say(f"{side} hits {hits} time(s)")
            saved = 0
            if hits:
                saves = yield DiceRequest("save", hits, "saves", target=5, side=foe)
                saved = saves.count(5)
            lost = hits - saved
            ctx.state.points[foe] = max(0, ctx.state.points[foe] - lost)
            ctx.say(f"{foe} saves {saved}, loses {lost}: {ctx.state.points[foe]} left")
            ctx.state.turn = foe

        return make

    def intents(self, state: DuelState, viewer: str | None = None) -> list[IntentOption]:
        if self.is_over(state):
            return []
        s = state.turn
        return [IntentOption({"type": "hit", "side": s}, f"{s} hits", side=s)]

    def view(self, state: DuelState, viewer: str | None = None) -> BoardView:
        rows = {s: (UnitRow(f"{s}.0", s, f"{s} duellist", (str(state.points[s]),)),)
                for s in ("red", "black")}
        hand = (f"your card: {state.hands[viewer]}",) if viewer in state.hands else ()
        return BoardView(("points",), rows, DeckView(), dict(state.points), hand, (),
                         f"{state.turn} to hit", over=self.is_over(state))

    def help_sections(self) -> list[tuple[str, str]]:
        return [("Duel", "Hit, save, repeat.")]


RULESET = Duel()


def install() -> None:
    """Make the ruleset known (``ruleset = "nettoy"`` in force files)."""
    from deathzap_tui.rules import registry

    sys.modules.setdefault("toynet", sys.modules[__name__])
    registry._PLUGINS[ID] = "toynet"


def long_duels() -> None:
    """Duels of a million points a side (a game outlasts a benchmark's run); installs
    the ruleset (:func:`install`)."""
    install()
    new_state = RULESET.new_state

    def longer(*args: Any, **kw: Any) -> Any:
        state = new_state(*args, **kw)
        state.points = {"red": 10**6, "black": 10**6}
        return state

    RULESET.new_state = longer  # type: ignore[method-assign]


def write_forces(directory: Path) -> tuple[Path, Path]:
    red, black = directory / "red.toml", directory / "black.toml"
    red.write_text(f'ruleset = "{ID}"\nname = "Reds"\n')
    black.write_text(f'ruleset = "{ID}"\nname = "Blacks"\n')
    return red, black

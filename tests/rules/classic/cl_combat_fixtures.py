"""Deathzap Classic combat test helpers: small forces built from the model, a state
in battle, and a driver feeding one resolution fragment its answers by key."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from fixtures_common import answer_all

from deathzap_tui.rules.classic.force import CLASS_WEAPONS
from deathzap_tui.rules.classic.model import Figure, Force, Unit, Weapon
from deathzap_tui.rules.classic.state import State, new_state
from deathzap_tui.rules.steps import ROLL, Context, DiceRequest, Resolution, Step

WEAPONS: dict[str, Weapon] = {**CLASS_WEAPONS, "rifle": Weapon("rifle", "Rifle", "basic")}
"""The five classes by id, and a named Basic gun."""


def figures(n: int, name: str = "Trooper", *weapons: str, general: bool = False
            ) -> tuple[Figure, ...]:
    return tuple(Figure(name, tuple(weapons), general) for _ in range(n))


def unit(name: str, type_: str = "infantry", n: int = 5, *weapons: str,
         extra: tuple[Figure, ...] = ()) -> Unit:
    """``n`` figures of ``type_`` each carrying ``weapons`` (Basic by default)."""
    return Unit(name, type_, (*figures(n, "Trooper", *(weapons or ("basic",))), *extra))


def state_of(red: list[Unit], black: list[Unit], step: str = "shooting",
             impetus: str = "red", turn: int = 2) -> State:
    """Both forces on the table in the battle stage (no objectives: the basic game)."""
    s = new_state(Force("Red", WEAPONS, tuple(red)), Force("Black", WEAPONS, tuple(black)),
                  {"game": "basic"}, seed=7)
    s.stage, s.turn, s.step, s.impetus = "battle", turn, step, impetus
    s.edges = {"red": "south", "black": "north"}
    return s


def engage(state: State, a: str, b: str) -> None:
    state.unit(a).engaged.append(b)
    state.unit(b).engaged.append(a)


class Run:
    """A fragment driven to its end: the steps seen, the final state and narration."""

    def __init__(self, res: Resolution, steps: list[Step]) -> None:
        self.res = res
        self.steps = steps
        self.ctx: Context = res.ctx
        self.state: State = res.ctx.state
        self.text = "\n".join(n.text for n in res.ctx.notes)

    def step(self, key: str) -> Step:
        return next(s for s in self.steps if s.key == key)

    @property
    def asked(self) -> list[str]:
        """The keys of the steps seen, in order."""
        return [s.key for s in self.steps]

    def dice(self) -> list[DiceRequest]:
        return [s for s in self.steps if isinstance(s, DiceRequest)]


def drive(state: State, make: Callable[[Context], Any], answers: Mapping[str, Any] = (),
          dice: Any = None, defaults: bool = True) -> Run:
    """Run ``make`` on a copy of ``state`` answering each step by its key; questions
    not listed take their default (``defaults``), dice not listed take ``dice`` (e.g.
    ROLL). Every listed answer must be used."""
    res = Resolution(state, make)
    return Run(res, answer_all(res, answers, dice, defaults))


def roll_all(state: State, make: Callable[[Context], Any]) -> Run:
    """Every question at its default, every die generated from the game's RNG."""
    return drive(state, make, dice=ROLL)

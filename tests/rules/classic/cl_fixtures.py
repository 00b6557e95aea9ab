"""Deathzap Classic test helpers: the demo forces, small forces built from the model,
games, set-up and turn driving with scripted dice."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

# shared with the other rulesets' fixtures; re-exported for the tests
from fixtures_common import (  # noqa: F401
    DiceSource,
    act,
    notes,
    random_answer,
    roll_for_me,
)

from deathzap_tui.forcefile import load_force
from deathzap_tui.rules.classic import RULESET
from deathzap_tui.rules.classic.force import CLASS_WEAPONS
from deathzap_tui.rules.classic.model import Figure, Force, Unit
from deathzap_tui.rules.game import Game
from deathzap_tui.rules.ruleset import ADVANCE, END
from deathzap_tui.rules.steps import Dice, Question

FORCES = Path(__file__).resolve().parents[3] / "forces"


def irregulars() -> Force:
    return load_force(FORCES / "cl-red-dawn-irregulars.toml").force


def brood() -> Force:
    return load_force(FORCES / "cl-black-maw-brood.toml").force


def unit(name: str = "Squad", n: int = 5, type: str = "infantry",
         weapons: Sequence[str] = ("basic",), general: bool = False) -> Unit:
    """``n`` figures of one type; the first is the general if ``general``."""
    figs = tuple(Figure(f"{name} {i + 1}", tuple(weapons), general=general and i == 0)
                 for i in range(n))
    return Unit(name, type, figs)


def force(name: str, *units: Unit) -> Force:
    return Force(name, dict(CLASS_WEAPONS), tuple(units))


def small_forces() -> tuple[Force, Force]:
    """Red: two infantry squads and a tank; Black: two infantry squads and beasts."""
    red = force("Reds", unit("Alpha", 5, general=True), unit("Bravo", 5),
                unit("Tank", 1, "vehicles", ("heavy",)))
    black = force("Blacks", unit("Xray", 5), unit("Yankee", 5, general=True),
                  unit("Hounds", 4, "beasts", ()))
    return red, black


def new_game(red: Force | None = None, black: Force | None = None,
             options: Mapping[str, Any] | None = None, seed: int = 1) -> Game:
    if red is None or black is None:
        red, black = small_forces()
    return Game(RULESET, red, black, RULESET.options(options), seed)


def setup(game: Game, red_roll: str = "6", black_roll: str = "1",
          edge: str = "south") -> Game:
    """Roll-off won by the higher of the two rolls, default generals."""
    game.play({"type": "rolloff"}, [red_roll, black_roll, edge])
    act(game, {"type": "generals"})
    return game


def ready_game(**kw: Any) -> Game:
    return setup(new_game(**kw))


def face(n: int) -> Dice:
    return Dice(faces=(n,))


def impetus(game: Game, red: int = 5, black: int = 2, order: str = "movement,shooting,melee",
            objectives: tuple[int, int] = (1, 1)) -> None:
    """Start the next turn: the impetus dice, the objective dice in the advanced game's
    first turn, the order."""
    answers: dict[str, Any] = {"impetus.1.red": face(red), "impetus.1.black": face(black),
                               "order": order}
    if game.state.turn == 0 and game.state.options["game"] == "advanced":
        answers.update({"objective.1": face(objectives[0]),
                        "objective.2": face(objectives[1])})
    act(game, {"type": "next"}, answers)


def next_phase(game: Game, answers: Mapping[str, Any] | None = None,
               dice: Any = None) -> list[Any]:
    return act(game, {"type": "next"}, answers, dice=dice)


def to_phase(game: Game, phase: str) -> None:
    """Press ``next`` until ``phase`` is under way (no unit acting; dice rolled)."""
    for _ in range(12):
        if game.state.step == phase:
            return
        next_phase(game, dice=roll_for_me(None))
    raise AssertionError(f"never reached {phase}")


def play_random_action(game: Game, rnd: random.Random, dice: DiceSource = roll_for_me,
                       next_rate: float = 0.25, allow_end: bool = False,
                       defaults: float = 0.0) -> bool:
    """Play one random legal intent, answering every step at random (``dice`` for
    dice), or a question by its default with probability ``defaults``. Units act
    more often than the game moves on (``next_rate``); ending by agreement only with
    ``allow_end``. Returns False if nothing is legal."""
    options = [o for o in RULESET.intents(game.state) if allow_end or o.group != END]
    if not options:
        return False
    advance = [o for o in options if o.group == ADVANCE]
    others = [o for o in options if o.group != ADVANCE]
    pick = advance if advance and (not others or rnd.random() < next_rate) else others
    action = game.begin(rnd.choice(pick).intent)
    res = action.resolution
    while not res.done:
        step = res.step
        usual = isinstance(step, Question) and rnd.random() < defaults
        res.answer(step.default if usual else random_answer(step, rnd, dice))
    game.commit(action)
    return True


def play_random_game(game: Game, rnd: random.Random, max_actions: int = 600,
                     dice: DiceSource = roll_for_me, defaults: float = 0.0) -> Game:
    for _ in range(max_actions):
        if game.state.over or not play_random_action(game, rnd, dice, defaults=defaults):
            break
    return game

"""Command Hand test helpers: the demo forces, games, scripted answers, a random
player. Forces come from the force files in ``forces/`` (they are part of the issue)
or are built directly from the model."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

# shared with dz3_fixtures; re-exported for the tests
from fixtures_common import (  # noqa: F401 (re-exported for the tests)
    act,
    draw,
    given_dice,
    notes,
    play_random_action,
    random_answer,
    roll_for_me,
)

from deathzap_tui.forcefile import load_force
from deathzap_tui.rules.commandhand import RULESET
from deathzap_tui.rules.commandhand.model import Figure, Force, Unit, Weapon
from deathzap_tui.rules.events import effective
from deathzap_tui.rules.game import Game
from deathzap_tui.rules.steps import DiceRequest

FORCES = Path(__file__).resolve().parents[3] / "forces"

WEAPONS = {
    "rifle": Weapon("rifle", "Rifle", 1, 1, {"open": 4, "soft": 5, "hard": 6}),
    "spitter": Weapon("spitter", "Spitter", 3, 0, {"open": 3, "soft": 4, "hard": 6}),
    "lobber": Weapon("lobber", "Lobber", 0, 2, {"open": 4, "soft": 4, "hard": 5},
                     frozenset({"explosive"})),
}


def rangers() -> Force:
    return load_force(FORCES / "ch-ironbark-rangers.toml").force


def cinders() -> Force:
    return load_force(FORCES / "ch-cinder-collective.toml").force


def unit(name: str = "Squad", n: int = 4, weapon: str = "rifle", shields: int = 2,
         recharge: int = 1, ma: int = 1, md: int = 4, run: int = 8, walk: int = 4,
         extra: Sequence[Figure] = ()) -> Unit:
    figs = tuple(Figure("Trooper", (weapon,) if weapon else ()) for _ in range(n))
    return Unit(name, run, walk, ma, md, shields, recharge, figs + tuple(extra))


def force(name: str, rating: int, *units: Unit) -> Force:
    return Force(name, rating, dict(WEAPONS), tuple(units))


def new_game(red: Force | None = None, black: Force | None = None,
             options: Mapping[str, Any] | None = None, seed: int = 1, log=()) -> Game:
    red = red or rangers()
    black = black or cinders()
    return Game(RULESET, red, black, RULESET.options(options), seed, log)


def setup(game: Game, red_roll: str = "6", black_roll: str = "1",
          edge: str = "south") -> Game:
    game.play({"type": "rolloff"}, [red_roll, black_roll, edge])
    if game.state.phase == "objectives":
        game.play({"type": "objectives"}, [24, 12, 3, 6, 18, 21])
    return game


def ready_game(**kw: Any) -> Game:
    return setup(new_game(**kw))


def activate(game: Game, unit_id: str, action: str, answers: Mapping[str, Any] | None = None,
             flank: bool = False, **kw: Any) -> list[Any]:
    intent: dict[str, Any] = {"type": "activate", "unit": unit_id, "action": action}
    if flank:
        intent["flank"] = True
    return act(game, intent, answers, **kw)


def pass_window(game: Game) -> None:
    if game.state.window:
        game.play({"type": "pass"})


def narrative(game: Game) -> list[str]:
    """Every ``ctx.say`` line of every effective event, in order."""
    return [n.text for _e, res in game.replay(effective(game.log)) for n in res.ctx.notes]


def play_random_game(game: Game, rnd: random.Random, max_actions: int = 3000,
                     dice: Callable[[DiceRequest], Any] = roll_for_me) -> Game:
    for _ in range(max_actions):
        if game.state.over or not play_random_action(game, rnd, dice=dice):
            break
    return game

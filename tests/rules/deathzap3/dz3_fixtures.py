"""Deathzap 3 test helpers: forces built from the model, games, a random player.

Forces are built directly from :mod:`deathzap_tui.rules.deathzap3.model` so the
engine tests do not depend on the force-file parser.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

# shared with ch_fixtures; re-exported for the tests
from fixtures_common import DiceSource, act, draw, notes, random_answer, roll_for_me  # noqa: F401

from deathzap_tui.rules.deathzap3 import RULESET
from deathzap_tui.rules.deathzap3.model import Figure, Force, Profile, Unit, Weapon
from deathzap_tui.rules.game import Game
from deathzap_tui.rules.steps import (
    ROLL,  # noqa: F401 (re-exported)
    Question,
    Refused,
)

WEAPONS = {
    "small-arms": Weapon("small-arms", "Small Arms", (Profile("Small Arms", 1, "light"),)),
    "repeater": Weapon("repeater", "Repeater", (Profile("Repeater", 4, "light"),)),
    "destroyer": Weapon("destroyer", "Destroyer", (
        Profile("Destroyer", 1, "heavy", frozenset({"strike"})),
        Profile("Destroyer (light)", 2, "light"))),
    "grenades": Weapon("grenades", "Grenades", (
        Profile("Grenades", 6, "light", frozenset({"short-range"})),)),
    "cannon": Weapon("cannon", "Cannon", (Profile("Cannon", 2, "heavy"),)),
}


def figs(n: int, name: str = "Trooper", *weapons: str) -> tuple[Figure, ...]:
    return tuple(Figure(name, tuple(weapons) or ("small-arms",)) for _ in range(n))


def squad(name: str = "Squad", n: int = 5, skill: str = "basic", shields: int = 3,
          strength: str = "light", ma: int = 1, move: int = 6,
          extra: Sequence[Figure] = (), leader_cp: int = 0,
          weapon: str = "small-arms") -> Unit:
    f = list(figs(n, "Trooper", weapon))
    if leader_cp:
        f.insert(0, Figure("Leader", ("small-arms",), leader=True, command=leader_cp))
    f.extend(extra)
    return Unit(name, skill, move, ma, strength, shields, False, tuple(f))


def vehicle(name: str = "Tank", skill: str = "regular", shields: int = 2,
            strength: str = "heavy", ma: int = 1) -> Unit:
    return Unit(name, skill, 8, ma, strength, shields, True, (Figure(name, ("cannon",)),))


def force(name: str, *units: Unit) -> Force:
    return Force(name, dict(WEAPONS), tuple(units))


def mortans_men() -> Force:
    """The seed's Mortan's Men (DZ3 §13/§14 statline: Basic, 6, 1, Light, 6)."""
    s1 = (Figure("Platoon Leader", ("grenades",), leader=True, command=6),
          *figs(5, "Cultist", "small-arms"), Figure("Cultist", ("destroyer",)))
    others = (*figs(6, "Cultist", "small-arms"), Figure("Cultist", ("repeater",)))
    units = [Unit("Squad 1", "basic", 6, 1, "light", 6, False, s1)]
    units += [Unit(f"Squad {i}", "basic", 6, 1, "light", 6, False, others) for i in (2, 3, 4)]
    return force("Mortan's Men", *units)


def small_forces() -> tuple[Force, Force]:
    red = force("Red Raiders",
                squad("Alpha", 5, "regular", 3, leader_cp=2,
                      extra=(Figure("Gunner", ("destroyer",)),)),
                squad("Bravo", 4, "basic", 2, extra=(Figure("Grenadier", ("grenades",)),)),
                vehicle("Tank"))
    black = force("Black Guard",
                  squad("Lancers", 5, "elite", 2, strength="medium", leader_cp=1),
                  squad("Pickets", 4, "basic", 4, weapon="repeater"),
                  vehicle("Walker", "basic", 3, "medium", 2))
    return red, black


def new_game(red: Force | None = None, black: Force | None = None,
             options: Mapping[str, Any] | None = None, seed: int = 1, log=()) -> Game:
    if red is None or black is None:
        red, black = small_forces()
    return Game(RULESET, red, black, RULESET.options(options), seed, log)


def setup(game: Game, red_roll: str = "6", black_roll: str = "1", edge: str = "south",
          distances: Sequence[int] = (15, 6, 12, 18, 24), depth: int = 30) -> Game:
    """Roll-off (red wins by default) and objectives."""
    game.play({"type": "rolloff"}, [red_roll, black_roll, edge])
    game.play({"type": "objectives"}, [depth, *distances])
    return game


def ready_game(**kw: Any) -> Game:
    return setup(new_game(**kw))


def play_random_action(game: Game, rnd: random.Random, by: str = "",
                       dice: DiceSource = roll_for_me, skip: Sequence[str] = ()) -> bool:
    """Pick a random legal intent (none of the types in ``skip``) and answer every
    step at random (``dice`` for dice, another choice when an answer is refused).
    Returns False if nothing is legal."""
    options = [o for o in RULESET.intents(game.state) if o.intent.get("type") not in skip]
    if not options:
        return False
    rnd.shuffle(options := list(options))
    for opt in options:
        action = game.begin(opt.intent, by)
        res = action.resolution
        stuck = False
        while not res.done and not stuck:
            step = res.step
            tried: set[Any] = set()
            for _ in range(20):
                ans = random_answer(step, rnd, dice)
                if ans in tried and isinstance(step, Question) and step.choices:
                    continue
                tried.add(ans)
                try:
                    res.answer(ans)
                    break
                except Refused:
                    if isinstance(step, Question) and step.choices and \
                            len(tried) >= len(step.choices):
                        stuck = True
                        break
            else:
                stuck = True
        if res.done:
            game.commit(action)
            return True
    return False


def play_random_game(game: Game, rnd: random.Random, max_actions: int = 400,
                     undo_rate: float = 0.0, dice: DiceSource = roll_for_me) -> Game:
    """Play until the game is over (or ``max_actions``), optionally undoing at
    random."""
    for _ in range(max_actions):
        if game.state.over:
            break
        if undo_rate and game.can_undo and rnd.random() < undo_rate:
            game.undo()
            if game.can_redo and rnd.random() < 0.5:
                game.redo()
            continue
        if not play_random_action(game, rnd, dice=dice):
            break
    return game


def enter(game: Game, unit_id: str, card: str) -> None:
    """Draw ``card`` and bring ``unit_id`` on with an Advance, holding fire."""
    draw(game, card)
    act(game, {"type": "activate", "unit": unit_id, "action": "advance"},
        {"shoot.target": "hold"} if _has_targets(game, unit_id) else {})


def _has_targets(game: Game, unit_id: str) -> bool:
    from deathzap_tui.rules.deathzap3.combat import enemies

    unit = game.state.unit(unit_id)
    return bool(enemies(game.state, unit))


def battle(walker: bool = False, **kw: Any) -> Game:
    """Lancers (black.0), Pickets (black.1), Alpha (red.0) and Bravo (red.1) on the
    table (and the Walker, black.2, with ``walker``), no tokens, and red's Ace up
    (3 activations)."""
    g = ready_game(**kw)
    enter(g, "black.0", "2C")
    enter(g, "black.1", "3C")
    if walker:
        enter(g, "black.2", "4C")
    enter(g, "red.0", "2H")
    enter(g, "red.1", "3H")
    draw(g, "JOKER1")
    draw(g, "AH")
    return g

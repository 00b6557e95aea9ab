"""Deathzap Plasmashok test helpers: small forces built from the model, games, set-up
and turn driving with scripted dice."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

# shared with the other rulesets' fixtures; re-exported for the tests
from fixtures_common import (  # noqa: F401
    DiceSource,
    act,
    notes,
    roll_for_me,
)

from deathzap_tui.rules.game import Game
from deathzap_tui.rules.plasmashok import RULESET, tables
from deathzap_tui.rules.plasmashok.model import Force, Model, Unit
from deathzap_tui.rules.plasmashok.tables import Melee, WeaponProfile
from deathzap_tui.rules.ruleset import ADVANCE, SETUP, UNIT
from deathzap_tui.rules.steps import Dice, DiceRequest

FORCES = Path(__file__).resolve().parents[3] / "forces"
NO_MELEE = ("melee.attacks", "melee.strength", "melee.damage")
MELEE_TABLE = {"attacks": 1, "strength": 1, "damage": 1}
"""A force file's melee table (PS §6, PS-R1)."""


def force_data() -> dict[str, Any]:
    """The test force file, parsed TOML (PS §9 prices in ``test_ps_points``): Rifles
    (infantry, with a spike, PS-R2), Hounds (beasts), Skiffs (light vehicles): 2 force
    points unlocked, 1 used (PS §9)."""
    return {
        "name": "Test Force", "ruleset": "plasmashok",
        "weapons": {"spike": {"name": "Spike", "shots": 1, "strength": 2, "damage": 1,
                              "points": 2, "range": 6}},
        "units": [
            {"name": "Rifles", "type": "infantry", "training": "regular", "base_cost": 5,
             "shields": 1, "special": 1, "melee": dict(MELEE_TABLE),
             "figures": [{"name": "Sergeant", "weapons": ["advanced-rifle", "spike"]},
                         {"name": "Trooper", "count": 4, "weapons": ["basic-rifle"]}]},
            {"name": "Hounds", "type": "beasts", "training": "recruit", "base_cost": 3,
             "melee": dict(MELEE_TABLE), "figures": [{"name": "Hound", "count": 3}]},
            {"name": "Skiffs", "type": "light-vehicles", "training": "elite",
             "figures": [{"name": "Skiff", "count": 2,
                          "weapons": ["heavy-repeater", "arc-weapon"]}]},
        ],
    }


def make_unit(name: str, type_: str, models: Sequence[Model], *,
              training: str = "regular", melee: Melee | None = None,
              missing: tuple[str, ...] = NO_MELEE, shields: int = 0, special: int = 0,
              base_cost: int = 5) -> Unit:
    """The one unit builder of the Plasmashok tests: ``models`` of ``type_``; ``melee``
    ``None`` keeps the type's PS-R1 profile if it has one, else leaves it unknown
    (``missing`` naming the fields the file lacks)."""
    profile = melee or tables.TYPES[type_].melee
    return Unit(name, type_, training, base_cost, tuple(models), profile,
                () if profile else missing, shields, special)


def unit(name: str = "Squad", n: int = 5, type: str = "infantry",
         training: str = "regular", weapons: Sequence[str] = ("basic-rifle",),
         melee: tuple[int, int, int] | None = (1, 1, 1), special: int = 0,
         shields: int = 0, base_cost: int = 5) -> Unit:
    """``n`` models of one type named "<name> <i>", each with ``weapons``;
    ``melee=None`` keeps the type's profile if it has one (PS-R1), else leaves it
    unknown."""
    models = tuple(Model(f"{name} {i + 1}", tuple(weapons)) for i in range(n))
    return make_unit(name, type, models, training=training,
                     melee=Melee(*melee) if melee else None, special=special,
                     shields=shields, base_cost=base_cost)


def force(name: str, *units: Unit, weapons: Mapping[str, WeaponProfile] = tables.WEAPONS
          ) -> Force:
    return Force(name, dict(weapons), tuple(units))


def new_game(red: Force, black: Force, options: Mapping[str, Any] | None = None,
             seed: int = 1) -> Game:
    return Game(RULESET, red, black, RULESET.options(options), seed)


def setup(game: Game, red_roll: str = "6", black_roll: str = "1",
          edge: str = "south") -> Game:
    """The set-up roll-off (PS §1), won by the higher of the two rolls."""
    game.play({"type": "rolloff"}, [red_roll, black_roll, edge])
    return game


def ready_game(red: Force, black: Force, **kw: Any) -> Game:
    return setup(new_game(red, black, **kw))


def face(n: int) -> Dice:
    return Dice(faces=(n,))


def faces(*n: int) -> Dice:
    return Dice(faces=tuple(n))


def start_turn(game: Game, red: int = 6, black: int = 1) -> list[Any]:
    """The next turn's movement roll-off (PS §3)."""
    return act(game, {"type": "next"}, {"rolloff.1.red": face(red),
                                        "rolloff.1.black": face(black)})


def next_phase(game: Game, answers: Mapping[str, Any] | None = None,
               dice: Any = None, by: str = "") -> list[Any]:
    return act(game, {"type": "next"}, answers, by=by, dice=dice)


def through_movement(game: Game) -> None:
    """Both sides finish moving."""
    next_phase(game)
    next_phase(game)


def advance_labels(game: Game) -> list[str]:
    return [o.label for o in RULESET.intents(game.state) if o.group == ADVANCE]


def unit_intents(game: Game) -> list[tuple[str, str]]:
    return [(o.intent["type"], o.intent["unit"]) for o in RULESET.intents(game.state)
            if "unit" in o.intent and o.intent["type"] != "engage"]


def play_script(game: Game, dice: DiceSource,
                moves: Mapping[tuple[int, str], Sequence[tuple[str, str]]] = {},
                max_actions: int = 1000) -> Game:
    """Play the game out by a fixed policy: in each movement phase the mover makes the
    contacts ``moves[(turn, side)]`` lists (unit, target) that are still legal, then
    says it has finished; in the other phases the first unit offered acts until none
    is left, then ``next``. Questions take their defaults, dice come from ``dice``."""
    for _ in range(max_actions):
        state = game.state
        if state.over:
            break
        offers = RULESET.intents(state)
        wanted = [{"type": "engage", "unit": u, "target": t}
                  for u, t in moves.get((state.turn, state.mover), ())]
        acts = [o.intent for o in offers if o.group == UNIT and (
            o.intent["type"] != "engage" or o.intent in wanted)]
        intent = acts[0] if acts else next(o.intent for o in offers
                                           if o.group in (ADVANCE, SETUP))
        action = game.begin(intent)
        res = action.resolution
        while not res.done:
            step = res.step
            res.answer(dice(step) if isinstance(step, DiceRequest) else step.default)
        game.commit(action)
    return game

"""Deathzap Plasmashok combat test helpers: small forces built straight from the
model (no force files), a state in battle, and the Classic driver feeding one
resolution fragment its answers by key."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from cl_combat_fixtures import Run, drive, engage, roll_all
from ps_fixtures import NO_MELEE, force, make_unit

from deathzap_tui.rules.plasmashok import tables
from deathzap_tui.rules.plasmashok.model import Model, Unit
from deathzap_tui.rules.plasmashok.state import State, new_state
from deathzap_tui.rules.plasmashok.tables import Melee, WeaponProfile
from deathzap_tui.rules.steps import Context, Step

__all__ = ["SPIKE", "WEAPONS", "Run", "drive", "engage", "faces", "keep", "roll_all", "state_of",
           "unit"]

SPIKE = WeaponProfile("spike", "Spike", 1, 2, 1, 2, "heavy", range=6)
"""PS-R2: a custom weapon with a 6" reach."""
WEAPONS: dict[str, WeaponProfile] = {**tables.WEAPONS, SPIKE.id: SPIKE}
TEST_PROFILE = Melee(1, 2, 1)
"""A melee profile for the types PS-R1 leaves to the force file."""


def unit(name: str, type_: str = "infantry", n: int = 5, *weapons: str,
         training: str = "regular", melee: Melee | None = TEST_PROFILE,
         missing: tuple[str, ...] = NO_MELEE, shields: int = 0, special: int = 0,
         base_cost: int = 5, extra: tuple[Model, ...] = ()) -> Unit:
    """``n`` "Trooper" models of ``type_``, each carrying ``weapons``, then ``extra``
    (:func:`ps_fixtures.make_unit`). The melee profile is the type's own (PS-R1) when
    it has one, else ``melee``; ``None`` leaves it unknown, ``missing`` naming the
    fields the file lacks."""
    models = (*(Model("Trooper", tuple(weapons)) for _ in range(n)), *extra)
    return make_unit(name, type_, models, training=training,
                     melee=tables.TYPES[type_].melee or melee, missing=missing,
                     shields=shields, special=special, base_cost=base_cost)


def state_of(red: list[Unit], black: list[Unit], step: str = "shooting",
             bracket: str = "regular", seed: int = 7) -> State:
    """Both forces in the battle stage, turn 1, in ``step`` and ``bracket``."""
    s = new_state(force("Red", *red, weapons=WEAPONS), force("Black", *black, weapons=WEAPONS),
                  {}, seed=seed)
    s.stage, s.turn, s.step, s.bracket = "battle", 1, step, bracket
    s.edges = {"red": "south", "black": "north"}
    return s


def faces(*values: int) -> str:
    return " ".join(str(v) for v in values)


def keep(make: Any) -> Any:
    """A maker running the fragment ``make(ctx)`` and keeping its return value in
    ``ctx.facts["result"]`` (the driver drops it)."""

    def run(ctx: Context) -> Generator[Step, Any, None]:
        ctx.facts["result"] = yield from make(ctx)

    return run

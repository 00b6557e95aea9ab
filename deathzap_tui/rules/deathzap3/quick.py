"""Quick resolve: one shooting attack, melee or morale test outside any game.

For rules questions at the table: the players pick two units of any forces and the
real combat code (:mod:`.combat`) runs on a two-unit state, with the same steps,
dice and narration as in a game. Nothing is saved.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from deathzap_tui.rules.deathzap3 import combat
from deathzap_tui.rules.deathzap3.model import Force
from deathzap_tui.rules.deathzap3.state import State, new_state
from deathzap_tui.rules.narration import Gen
from deathzap_tui.rules.steps import Context, Question, Refused, Resolution

KINDS: tuple[tuple[str, str], ...] = (
    ("shoot", "Shooting attack"),
    ("melee", "Melee attack"),
    ("morale", "Morale test"),
)


def _alone(force: Force, index: int) -> Force:
    try:
        unit = force.units[index]
    except (IndexError, TypeError):
        raise Refused(f"{force.name} has no unit {index!r}") from None
    return replace(force, units=(unit,))


def quick_resolution(kind: str, attacker: tuple[Force, int],
                     target: tuple[Force, int] | None, seed: int,
                     options: Mapping[str, Any] | None = None) -> Resolution:
    """A resolution of ``kind`` (see :data:`KINDS`): the attacker's unit acts on the
    target's; for ``morale`` the attacker's unit tests and there is no target."""
    if kind not in dict(KINDS):
        raise Refused(f"unknown kind {kind!r}; known: {', '.join(dict(KINDS))}")
    if attacker is None:
        raise Refused("pick the unit that acts")
    red = _alone(*attacker)
    if kind == "morale":
        black = red
    elif target is None:
        raise Refused("pick the target unit")
    else:
        black = _alone(*target)
    state = new_state(red, black, options or {}, seed, None)  # no hidden cards outside a game
    state.phase = "battle"
    state.quick = True
    for side in ("red", "black"):
        state.units[side][0].entered = True
    if kind == "melee":
        state.units["red"][0].engaged = ["black.0"]
        state.units["black"][0].engaged = ["red.0"]

    def make(ctx: Context) -> Gen:
        st: State = ctx.state
        unit = st.units["red"][0]
        if kind == "shoot":
            yield from combat.shoot(ctx, unit)
        elif kind == "melee":
            yield from combat.melee(ctx, unit)
        else:
            yield from _morale_only(ctx, unit)

    return Resolution(state, make)


def _morale_only(ctx: Context, unit: Any) -> Gen:
    """DZ3 §10 on its own: how many figures are left, then the test as after an
    attack that caused one casualty."""
    total = len(unit.figures)
    left = yield Question("morale.figures", f"How many figures of {unit.name} are left?",
                          minimum=1, maximum=total, rule="DZ3 §10", side=unit.side,
                          default=total)
    for f in unit.figures[left:]:
        f.alive = False
    fact = combat.new_fact("morale", unit)
    ctx.facts["attack"] = fact
    yield from combat.morale(ctx, unit, 1, "morale", fact)

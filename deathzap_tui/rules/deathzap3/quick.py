"""Quick resolve: one shooting attack, melee or morale test outside any game.

For rules questions at the table: the players pick two units of any forces and the
real combat code (:mod:`.combat`) runs on a two-unit state, with the same steps,
dice and narration as in a game. Nothing is saved.

The app knows nothing of the game around the two units, so the resolution first asks
how they stand now (:func:`as_they_stand`): figures left, shields left and vehicle
damage, each defaulting to a unit at full strength.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from deathzap_tui.rules.deathzap3 import combat
from deathzap_tui.rules.deathzap3.model import Force
from deathzap_tui.rules.deathzap3.state import State, new_state
from deathzap_tui.rules.narration import Gen, ask_yes_no
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
        if kind == "morale":
            yield from _morale_only(ctx, unit)
            return
        yield from as_they_stand(ctx, unit, st.units["black"][0], kind)
        if kind == "shoot":
            yield from combat.shoot(ctx, unit)
        else:
            yield from combat.melee(ctx, unit)

    return Resolution(state, make)


def as_they_stand(ctx: Context, acting: Any, target: Any, kind: str) -> Gen:
    """Ask what has already happened to the two units (figures lost, shields used,
    vehicle damage that matters here) and set the state so. A figure count keeps the
    first figures of the file and takes the rest as lost."""
    yield from _figures_left(acting, "quick.acting.figures")
    crippled = "gun_crippled" if kind == "shoot" else "weapon_crippled"
    if acting.vehicle:
        what = "gun" if kind == "shoot" else "melee weapon"
        setattr(acting, crippled, (yield from ask_yes_no(
            f"quick.acting.{crippled}", f"Is {acting.name}'s {what} crippled (it then hits "
            "only on a 6)?", "DZ3 §9", acting.side, default="no")))
    target.shields = yield Question(
        "quick.target.shields", f"How many shields has {target.name} left (of "
        f"{target.max_shields})?", minimum=0, maximum=target.max_shields, rule="DZ3 §6",
        side=target.side, default=target.max_shields)
    yield from _figures_left(target, "quick.target.figures")
    said = f"{acting.name} {acting.figures_left}/{len(acting.figures)} figures"
    if getattr(acting, crippled):
        said += f" ({crippled.replace('_', ' ')})"
    ctx.say(f"As they stand: {said}; {target.name} {target.figures_left}/"
            f"{len(target.figures)} figures, {target.shields}/{target.max_shields} shields.")


def _figures_left(unit: Any, key: str) -> Gen:
    """How many of ``unit``'s figures are left (a vehicle is one model: not asked)."""
    total = len(unit.figures)
    if total == 1:
        return
    left = yield Question(key, f"How many figures of {unit.name} are left (of {total})? "
                          "The first ones in its force file are kept.", minimum=1,
                          maximum=total, rule="DZ3 §6", side=unit.side, default=total)
    for f in unit.figures[left:]:
        f.alive = False


def _morale_only(ctx: Context, unit: Any) -> Gen:
    """DZ3 §10 on its own: how many figures are left, then the test as after an
    attack that caused one casualty."""
    yield from _figures_left(unit, "morale.figures")
    fact = combat.new_fact("morale", unit)
    ctx.facts["attack"] = fact
    yield from combat.morale(ctx, unit, 1, "morale", fact)

"""Quick resolve: one shooting attack, melee or morale test outside any game.

For rules questions at the table: the players pick two units of any forces and the
real combat code (:mod:`.combat`) runs on a two-unit state, with the same steps,
dice and narration as in a game. Nothing is saved.

The app knows nothing of the game around the two units, so the resolution first asks
how they stand now (:func:`standing`): one key for two units at full strength, else
figures left, shields left and vehicle damage.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from deathzap_tui.rules import quick
from deathzap_tui.rules.deathzap3 import combat
from deathzap_tui.rules.deathzap3.state import new_state
from deathzap_tui.rules.narration import YES_NO, Gen
from deathzap_tui.rules.steps import Context, Question, Resolution

KINDS: tuple[tuple[str, str], ...] = (
    ("shoot", "Shooting attack"),
    ("melee", "Melee attack"),
    ("morale", "Morale test"),
)
KNOWN = quick.at_target("shoot.target", "melee.target")
"""Questions answered for the players: the target is the unit picked."""


def quick_resolution(kind: str, attacker: tuple[Any, int],
                     target: tuple[Any, int] | None, seed: int,
                     options: Mapping[str, Any] | None = None) -> Resolution:
    """A resolution of ``kind`` (see :data:`KINDS`): the attacker's unit acts on the
    target's; for ``morale`` the attacker's unit tests and there is no target."""
    red, black = quick.pair(kind, KINDS, attacker, target, alone_kinds=("morale",))
    state = new_state(red, black, options or {}, seed, None)  # no hidden cards outside a game
    state.phase = "battle"
    state.quick = True
    for side in ("red", "black"):
        state.units[side][0].entered = True
    if kind == "melee":
        state.units["red"][0].engaged = [quick.OTHER]
        state.units["black"][0].engaged = [quick.ACTING]

    def versus(ctx: Context, unit: Any, other: Any) -> Gen:
        yield from standing(ctx, unit, other, kind)
        fight = combat.shoot(ctx, unit) if kind == "shoot" else combat.melee(ctx, unit)
        yield from quick.preset(fight, KNOWN)

    return quick.resolution(state, kind, versus, {"morale": _morale_only})


def standing(ctx: Context, acting: Any, target: Any, kind: str) -> Gen:
    """Ask what has already happened to the two units (figures lost, shields used,
    vehicle damage that matters here) and set the state so. A figure count keeps the
    first figures of the file and takes the rest as lost."""
    crippled = "gun_crippled" if kind == "shoot" else "weapon_crippled"
    what = "gun" if kind == "shoot" else "melee weapon"
    asks: list[tuple[Question | None, quick.Setter]] = [
        (quick.figures_left(acting, "quick.acting.figures", "DZ3 §6"),
         lambda n: quick.keep_first(acting, n)),
        (Question(f"quick.acting.{crippled}", f"Is {acting.name}'s {what} crippled (it then "
                  "hits only on a 6)?", YES_NO, rule="DZ3 §9", side=acting.side,
                  default="no") if acting.vehicle else None,
         lambda a: setattr(acting, crippled, a == "yes")),
        quick.shields_left(target, "DZ3 §6"),
        (quick.figures_left(target, "quick.target.figures", "DZ3 §6"),
         lambda n: quick.keep_first(target, n)),
    ]
    yield from quick.as_they_stand(asks)
    said = f"{acting.name} {acting.figures_left}/{len(acting.figures)} figures"
    if getattr(acting, crippled):
        said += f" ({crippled.replace('_', ' ')})"
    ctx.say(f"As they stand: {said}; {target.name} {target.figures_left}/"
            f"{len(target.figures)} figures, {target.shields}/{target.max_shields} shields.")


def _morale_only(ctx: Context, unit: Any) -> Gen:
    """DZ3 §10 on its own: how many figures are left, then the test as after an
    attack that caused one casualty."""
    left = quick.figures_left(unit, "morale.figures", "DZ3 §6")
    if left is not None:
        quick.keep_first(unit, (yield left))
    fact = combat.new_fact("morale", unit)
    ctx.facts["attack"] = fact
    yield from combat.morale(ctx, unit, 1, "morale", fact)

"""Quick resolve in Command Hand: one Walk and shoot, Aimed shots or melee attack
outside any game, through the real :mod:`.combat` code on a two-unit state (see
:mod:`deathzap_tui.rules.quick`). Nothing is saved.

Command Hand has no morale (CH §4: damage strips shields, then kills figures), so
every kind is an attack; the questions of how the units stand come first: one key
for two units at full strength, else figures left and the target's shields.
"""

from __future__ import annotations

from typing import Any

from deathzap_tui.rules import quick
from deathzap_tui.rules.commandhand import combat
from deathzap_tui.rules.commandhand.state import new_state
from deathzap_tui.rules.narration import Gen
from deathzap_tui.rules.steps import Context, Resolution

KINDS: tuple[tuple[str, str], ...] = (
    ("shoot", "Shooting attack (Walk and shoot)"),
    ("aimed", "Aimed shots (re-roll 1s)"),
    ("melee", "Melee attack (Charge or Fight)"),
)
KNOWN = quick.at_target("shoot.target", "melee.target")
"""Questions answered for the players: the target is the unit picked."""
NO_DEAL = 0
"""The deal seed: hands are dealt from their own generator, so the dice come from the
seed given alone (no hand is played outside a game)."""


def quick_resolution(kind: str, attacker: tuple[Any, int],
                     target: tuple[Any, int] | None, seed: int) -> Resolution:
    """A resolution of ``kind`` (see :data:`KINDS`): the attacker's unit attacks the
    target's (CH §3-§5)."""
    red, black = quick.pair(kind, KINDS, attacker, target)
    state = new_state(red, black, {}, seed, NO_DEAL)
    state.phase = "battle"
    for side in ("red", "black"):
        state.units[side][0].entered = True
    if kind == "melee":
        state.unit(quick.ACTING).engaged = [quick.OTHER]
        state.unit(quick.OTHER).engaged = [quick.ACTING]

    def versus(ctx: Context, unit: Any, other: Any) -> Gen:
        yield from standing(ctx, unit, other)
        attack = combat.melee(ctx, unit, charging=False) if kind == "melee" else \
            combat.shoot(ctx, unit, aimed=kind == "aimed")
        yield from quick.preset(attack, KNOWN)

    return quick.resolution(state, kind, versus)


def standing(ctx: Context, acting: Any, target: Any) -> Gen:
    """Figures lost by both units and the shields the target has left (CH §4)."""
    yield from quick.as_they_stand([
        (quick.figures_left(acting, "quick.acting.figures", "CH §4"),
         lambda n: quick.keep_first(acting, n)),
        quick.shields_left(target, "CH §4"),
        (quick.figures_left(target, "quick.target.figures", "CH §4"),
         lambda n: quick.keep_first(target, n)),
    ])
    ctx.say(f"As they stand: {acting.name} {acting.figures_left}/{len(acting.figures)} "
            f"figures; {target.name} {target.figures_left}/{len(target.figures)} figures, "
            f"{target.shields}/{target.max_shields} shields.")

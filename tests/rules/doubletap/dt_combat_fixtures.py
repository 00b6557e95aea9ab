"""Double Tap combat test helpers: units built straight from the model (no force
files), a state in battle with every unit on the table, and the Classic driver
feeding one action its answers by key."""

from __future__ import annotations

from collections.abc import Generator, Mapping
from typing import Any

from cl_combat_fixtures import Run, drive, engage

from deathzap_tui.rules.doubletap.actions import perform
from deathzap_tui.rules.doubletap.model import Force, Unit
from deathzap_tui.rules.doubletap.state import State, new_state
from deathzap_tui.rules.doubletap.tables import WEAPONS
from deathzap_tui.rules.steps import Context, Dice, DiceRequest, Maker, Resolution, Step

__all__ = ["Run", "act", "engage", "hits", "keep", "play", "stages", "state_of", "unit"]


def unit(name: str, *weapons: str, rules: tuple[str, ...] = (), poison: str = "") -> Unit:
    """One model with ``weapons`` (and a Knife when none of them is a melee weapon:
    DT-R2) and special ``rules``."""
    melee = any(WEAPONS[w].melee for w in weapons)
    return Unit(name, (*weapons, *(() if melee else ("knife",))), tuple(rules), poison)


def state_of(red: list[Unit], black: list[Unit], player: str = "red", seed: int = 7) -> State:
    """Both forces placed, round 1, ``player``'s turn with one point per unit."""
    s = new_state(Force("Red", tuple(red)), Force("Black", tuple(black)), {}, seed=seed)
    s.stage, s.round, s.first, s.player = "battle", 1, "red", player
    s.edges = {"red": "south", "black": "north"}
    s.points[player] = len(s.units[player])
    for u in s.all_units():
        u.placed = True
    return s


def act(unit_id: str, action: str) -> Maker:
    return lambda ctx: perform(ctx, unit_id, action)


def play(state: State, unit_id: str, action: str, answers: Mapping[str, Any] = (),
         dice: Any = None) -> Run:
    """``unit_id`` takes ``action``, each step answered by its key (questions not
    listed take their default, dice not listed ``dice``)."""
    return drive(state, act(unit_id, action), answers, dice)


def hits(n: int) -> Dice:
    """Dice given as a count of successes (accepted where a target is set)."""
    return Dice(successes=n)


def keep(make: Any) -> Maker:
    """A maker running the fragment ``make(ctx)`` and keeping its return value in
    ``ctx.facts["result"]`` (the driver drops it)."""

    def run(ctx: Context) -> Generator[Step, Any, None]:
        ctx.facts["result"] = yield from make(ctx)

    return run


def stages(state: State, unit_id: str, action: str, answers: Mapping[str, Any],
           dice: Any = None) -> list[tuple[str, str, str]]:
    """Play the action like :func:`play`, noting before each dice request its key, the
    attacked unit and the ``stage`` of ``ctx.facts["attack"]`` at that moment."""
    res = Resolution(state, act(unit_id, action))
    seen: list[tuple[str, str, str]] = []
    left = dict(answers)
    while res.step is not None:
        step = res.step
        if isinstance(step, DiceRequest):
            fact = res.ctx.facts.get("attack", {})
            seen.append((step.key, fact.get("target", ""), fact.get("stage", "")))
            res.answer(left.pop(step.key) if step.key in left else dice)
        else:
            res.answer(left.pop(step.key) if step.key in left else step.default)
    assert not left, f"unused answers: {sorted(left)}"
    return seen

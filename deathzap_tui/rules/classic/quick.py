"""Quick resolve in Deathzap Classic: one unit's shooting (with the casualties and
the suppression test after it), a whole melee, a suppression test on its own, or a
panicked unit's morale test, outside any game, through the real :mod:`.combat` and
:mod:`.morale` code on a two-unit state (see :mod:`deathzap_tui.rules.quick`).
Nothing is saved.

The state stands in the middle of a game (turn 2, the acting side with the impetus),
so that a unit panicked before now tests as in a morale phase (CL §7). How the units
stand is asked first: one key for two steady units at full strength, else figures
left and whether each is panicked.
"""

from __future__ import annotations

from typing import Any

from deathzap_tui.rules import quick
from deathzap_tui.rules.classic import combat, morale
from deathzap_tui.rules.classic.state import new_state
from deathzap_tui.rules.narration import YES_NO, Gen
from deathzap_tui.rules.steps import Context, Question, Refused, Resolution, refuse_if

KINDS: tuple[tuple[str, str], ...] = (
    ("shoot", "Shooting (then casualties and suppression)"),
    ("melee", "Melee (both sides, then the end-of-melee roll)"),
    ("suppression", "Suppression test after casualties"),
    ("morale", "Morale test of a panicked unit"),
)
KNOWN = quick.at_target("target.")
"""Every weapon group fires at the target picked (CL §5)."""
TESTS = ("suppression", "morale")
"""Tests the unit takes on its own."""
TURN = 2
"""The turn the quick state stands in: a unit panicked before it tests (CL §7)."""


def quick_resolution(kind: str, attacker: tuple[Any, int],
                     target: tuple[Any, int] | None, seed: int) -> Resolution:
    """A resolution of ``kind`` (see :data:`KINDS`): the attacker's unit shoots at or
    fights the target's; in the :data:`TESTS` the attacker's unit tests alone."""
    red, black = quick.pair(kind, KINDS, attacker, target, alone_kinds=TESTS)
    state = new_state(red, black, {"game": "basic"}, seed)
    state.stage, state.turn, state.impetus = "battle", TURN, "red"
    state.step = {"morale": "morale", "melee": "melee"}.get(kind, "shooting")
    state.edges = {"red": "south", "black": "north"}
    acting, other = state.unit(quick.ACTING), state.unit(quick.OTHER)
    if kind == "melee":
        acting.engaged, other.engaged = [quick.OTHER], [quick.ACTING]
        refuse_if(combat.fight_refusal(state, quick.ACTING))
    elif kind == "shoot":
        refuse_if(combat.shoot_refusal(state, quick.ACTING))
    elif kind == "suppression" and len(acting.figures) < 2:
        raise Refused(f"{acting.name} has one figure: none would be left to test after a "
                      "casualty (CL §5)")

    def versus(ctx: Context, unit: Any, other: Any) -> Gen:
        yield from standing(ctx, unit, other, kind)
        if kind == "shoot":
            yield from quick.preset(combat.shoot(ctx, unit.id), KNOWN)
            yield from combat.end_of_shooting(ctx)
        else:
            yield from combat.fight(ctx, unit.id)

    return quick.resolution(state, kind, versus,
                            {"morale": _morale_only, "suppression": _suppression_only})


def _panicked(unit: Any) -> tuple[Question, quick.Setter]:
    """Whether ``unit`` is panicked already (panic began in an earlier turn)."""

    def mark(answer: str) -> None:
        if answer == "yes":
            unit.panic(TURN - 1)

    return (Question(f"quick.{unit.side}.panicked", f"Is {unit.name} panicked?", YES_NO,
                     rule="CL §5", side=unit.side, default="no"), mark)


def standing(ctx: Context, acting: Any, target: Any, kind: str) -> Gen:
    """Figures lost by both units; whether the acting unit (and in melee the target)
    is panicked (CL §2, §5); when shooting, the casualties already pending on the
    target from earlier fire (CL-R2)."""
    asks = [(quick.figures_left(acting, "quick.acting.figures", "CL §5"),
             lambda n: quick.keep_first(acting, n)), _panicked(acting),
            (quick.figures_left(target, "quick.target.figures", "CL §5"),
             lambda n: quick.keep_first(target, n))]
    if kind == "melee":
        asks.append(_panicked(target))
    elif target.figures_left > 1:
        asks.append((Question("quick.target.pending", f"How many casualties are pending on "
                              f"{target.name} from the shooting before this (they come off "
                              "once everyone has fired)?", minimum=0,
                              maximum=len(target.figures) - 1, rule="CL-R2",
                              side=target.side, default=0),
                     lambda n: setattr(target, "pending", n)))
    yield from quick.as_they_stand(asks)
    ctx.say(f"As they stand: {_words(acting)}; {_words(target)}.")


def _words(unit: Any) -> str:
    said = f"{unit.name} {unit.figures_left}/{len(unit.figures)} figures"
    if unit.pending:
        said += f", {unit.pending} pending"
    return said + (", panicked" if unit.is_panicked else "")


def _suppression_only(ctx: Context, unit: Any) -> Gen:
    """CL §5 on its own: the figures the unit has left after its casualties and how
    many were killed, then the test."""
    total = len(unit.figures)
    left = yield Question("suppression.figures", f"How many figures of {unit.name} are "
                          f"left after the casualties (of {total})? The first ones in its "
                          "force file are kept.", minimum=1, maximum=total - 1,
                          rule="CL §5", side=unit.side, default=total - 1)
    quick.keep_first(unit, left)
    killed = yield Question("suppression.killed", f"How many figures of {unit.name} were "
                            "killed by the shooting?", minimum=1, maximum=total - left,
                            rule="CL §5", side=unit.side, default=total - left)
    yield from combat.suppression(ctx, unit, killed)


def _morale_only(ctx: Context, unit: Any) -> Gen:
    """CL §7 on its own: how many figures are left, then the test of a unit panicked
    in an earlier turn."""
    left = quick.figures_left(unit, "morale.figures", "CL §7")
    if left is not None:
        quick.keep_first(unit, (yield left))
    unit.panic(TURN - 1)
    yield from morale.morale_phase(ctx)

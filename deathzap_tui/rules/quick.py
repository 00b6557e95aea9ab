"""Quick resolution outside a game: what every ruleset's ``quick.py`` shares.

A plugin offers quick resolution with a ``quick`` module holding ``KINDS`` (``(kind,
label)`` pairs, the first the most asked for) and ``quick_resolution(kind, attacker,
target, seed)`` (see :meth:`.ruleset.Ruleset.quick_resolution`). It builds a state
of two one-unit forces, the acting unit :data:`ACTING` and the other :data:`OTHER`,
and runs the ruleset's own combat code on it: the same steps, dice and narration as
in a game, nothing saved.

Quick means few keys: :func:`as_they_stand` asks in one key whether both units are
at full strength (the usual case) before the numbers, and :func:`preset` answers for
the players the questions whose answer is already known (the target is the one
picked; there is no other to split fire with).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from deathzap_tui.rules.narration import Gen
from deathzap_tui.rules.steps import (
    Answer,
    Choice,
    Context,
    Question,
    Refused,
    Resolution,
    Step,
    check_answer,
)

ACTING = "red.0"
"""The acting unit's id in a quick resolution's state (the attacker, or the unit
testing)."""
OTHER = "black.0"
"""The other unit's id (the target)."""

FULL = "full"
SET = "set"
OUTSIDE = "outside a game"
"""The key of ``ctx.facts`` that marks a quick resolution: there is no game to end
(:func:`deathzap_tui.rules.victory.declare` says nothing when a side is wiped out)."""


Test = Callable[[Context, Any], Gen]
"""A test the acting unit takes on its own: ``test(ctx, acting)``."""
Versus = Callable[[Context, Any, Any], Gen]
"""What the acting unit does to the other: ``versus(ctx, acting, other)``."""


def resolution(state: Any, kind: str, versus: Versus,
               tests: Mapping[str, Test] | None = None) -> Resolution:
    """The quick resolution of ``kind`` on ``state``, marked :data:`OUTSIDE`: the
    acting unit's own test ``tests[kind]`` where ``kind`` is one, else ``versus``
    the other unit."""

    def outside(ctx: Context) -> Gen:
        ctx.facts[OUTSIDE] = True
        acting = ctx.state.unit(ACTING)
        test = (tests or {}).get(kind)
        if test is not None:
            yield from test(ctx, acting)
        else:
            yield from versus(ctx, acting, ctx.state.unit(OTHER))

    return Resolution(state, outside)


def alone(force: Any, index: Any) -> Any:
    """``force`` with only its unit ``index`` (0-based); :class:`Refused` naming the
    force when it has no such unit."""
    try:
        unit = force.units[index]
    except (IndexError, TypeError):
        raise Refused(f"{force.name} has no unit {index!r}") from None
    return replace(force, units=(unit,))


def pair(kind: str, kinds: Sequence[tuple[str, str]], attacker: tuple[Any, Any] | None,
         target: tuple[Any, Any] | None, alone_kinds: Sequence[str] = ()
         ) -> tuple[Any, Any]:
    """The two one-unit forces of a quick resolution of ``kind``: the attacker's and
    the target's. A kind in ``alone_kinds`` (a test the unit takes on its own) needs
    no target: the acting unit's force stands in for it. :class:`Refused` says what
    is missing or unknown."""
    if kind not in dict(kinds):
        raise Refused(f"unknown kind {kind!r}; known: {', '.join(dict(kinds))}")
    if attacker is None:
        raise Refused("pick the unit that acts")
    red = alone(*attacker)
    if kind in alone_kinds:
        return red, red
    if target is None:
        raise Refused("pick the target unit")
    return red, alone(*target)


def keep_first(unit: Any, left: int) -> None:
    """``unit`` keeps its first ``left`` figures; the others are lost."""
    for figure in unit.figures[left:]:
        figure.alive = False


def figures_left(unit: Any, key: str, rule: str, word: str = "figures") -> Question | None:
    """The question how many of ``unit``'s figures are left (``None`` for a unit of
    one: nothing to ask)."""
    total = len(unit.figures)
    if total <= 1:
        return None
    return Question(key, f"How many {word} of {unit.name} are left (of {total})? The first "
                    "ones in its force file are kept.", minimum=1, maximum=total, rule=rule,
                    side=unit.side, default=total)


Setter = Callable[[Any], None]


def shields_left(unit: Any, rule: str) -> tuple[Question | None, Setter]:
    """The ask how many of ``unit``'s shields are left, and its setter (no question
    for a unit without shields)."""
    top = unit.max_shields
    question = Question("quick.target.shields", f"How many shields has {unit.name} left "
                        f"(of {top})?", minimum=0, maximum=top, rule=rule, side=unit.side,
                        default=top) if top else None
    return question, lambda n: setattr(unit, "shields", n)


def as_they_stand(asks: Sequence[tuple[Question | None, Setter]]) -> Gen:
    """What has already happened to the units at the table. One key says both are at
    full strength; otherwise each question of ``asks`` is put and its setter given
    the answer. Returns True when something was set."""
    asked = [(q, s) for q, s in asks if q is not None]
    if not asked:
        return False
    how = yield Question(
        "quick.standing", "Are both units as in their force files (nothing lost or used "
        "yet)?",
        (Choice(FULL, "Yes: both at full strength"),
         Choice(SET, "No: say what each has lost")), default=FULL)
    if how == FULL:
        return False
    for question, setter in asked:
        setter((yield question))
    return True


Known = Callable[[Question], Answer | None]
"""The answer already known to a question, or ``None``: the players are asked."""


def at_target(*keys: str) -> Known:
    """Answers the questions with one of ``keys`` (a key ending in "." stands for every
    key it begins) with the target picked: :data:`OTHER`."""

    def known(question: Question) -> Answer | None:
        hit = any(question.key == k or (k.endswith(".") and question.key.startswith(k))
                  for k in keys)
        return OTHER if hit else None

    return known


def preset(gen: Generator[Step, Answer, Any], known: Known) -> Gen:
    """Run ``gen``, answering each question whose answer is ``known`` at once (if the
    answer is one it allows; else the players are asked), and passing every other
    step on. Returns what ``gen`` returns."""
    try:
        step = next(gen)
        while True:
            answer = known(step) if isinstance(step, Question) else None
            if answer is not None:
                try:
                    answer = check_answer(step, answer)
                except Refused:
                    answer = None
            step = gen.send(answer if answer is not None else (yield step))
    except StopIteration as stop:
        return stop.value

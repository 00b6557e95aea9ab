"""Casualties, shared by the Deathzap-family rulesets: choosing which figure one
removes (DZ3 §6 / CH §4 / CL §5: the owner picks when the figures differ), the
casualties a unit owes until they come off together (CL-R2, PS §3), and crediting
them to the units that caused them (the end-of-game report, ``ctx.harm``)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any, Protocol

from deathzap_tui.rules.narration import Gen
from deathzap_tui.rules.revision import DOOMED_NOT_ASKED, at_least
from deathzap_tui.rules.steps import Choice, Context, Question


class Owing(Protocol):
    """A unit whose casualties wait to come off together (CL-R2, PS §3): ``pending``
    of them, ``pending_by`` the attacker of each in the order owed (shorter when a
    state is built with ``pending`` alone)."""

    pending: int
    pending_by: list[str]


def owe(unit: Owing, by: str, n: int) -> None:
    """``n`` more casualties (or wounds) owed by ``unit``, each caused by unit ``by``."""
    unit.pending += n
    unit.pending_by += [by] * n


def settle(unit: Owing) -> list[str | None]:
    """Clear what ``unit`` owes and return the attacker of each owed casualty, in
    order: one entry per ``pending``, ``None`` (nobody's) where no attacker was
    recorded."""
    count, by = unit.pending, unit.pending_by
    unit.pending, unit.pending_by = 0, []
    return [by[i] if i < len(by) else None for i in range(count)]


def credit(ctx: Context, harms: Iterable[tuple[str, str | None, int, int]]) -> None:
    """Record ``(to, by, damage, kills)`` harms (see :meth:`Context.harm`) summed per
    ``(to, by)`` pair, one ``ctx.harm`` per pair in the order the pairs first come."""
    totals: dict[tuple[str, str | None], list[int]] = {}
    for to, by, damage, kills in harms:
        row = totals.setdefault((to, by), [0, 0])
        row[0] += damage
        row[1] += kills
    for (to, by), (damage, kills) in totals.items():
        ctx.harm(to, by, damage=damage, kills=kills)


def credit_kills(ctx: Context, to: str, finishers: Iterable[str | None]) -> None:
    """Each of unit ``to``'s figures removed is a kill for the unit that finished it
    (``finishers``, one per figure; ``None``: nobody's)."""
    credit(ctx, ((to, by, 0, 1) for by in finishers))


def pick_casualty(state: Any, unit: Any, key: str, number: int, of: int, name: str,
                  rule: str, kind: Callable[[Any], Hashable], label: Callable[[Any], str],
                  cost: Callable[[Any], tuple[int, ...]], doomed: bool | None = None) -> Gen:
    """The figure of ``unit`` that casualty ``number`` of ``of`` removes (``None``
    when no figure is left). Figures of the same ``kind`` are interchangeable: when
    all living ones are alike the last is taken without a question, otherwise the
    owner picks one of each kind (shown by ``label``). Nor is there a choice when
    the unit is ``doomed``, every living figure to go whichever goes first (by
    default: when the casualties still to come, this one included, are as many as
    the living figures), unless the game plays by a rules revision from before that
    (:data:`~.revision.DOOMED_NOT_ASKED`: its log holds the answer). ``name`` is the
    unit's name in the question, ``key`` the question's key.

    The question's default (what Enter answers) is the kind whose loss ``cost``
    rates lowest, the first in force order on a tie. Each ruleset's ``cost`` ranks
    its leaders or general above every other figure, so accepting the default never
    removes one while another figure is left."""
    living = unit.alive_figures
    if not living:
        return None
    kinds: dict[Hashable, Any] = {}
    for f in living:
        kinds.setdefault(kind(f), f)
    if len(kinds) == 1:
        return living[-1]
    default = min(kinds.values(), key=cost)
    if doomed is None:
        doomed = of - number + 1 >= len(living)
    if doomed and at_least(state, DOOMED_NOT_ASKED):
        # All go: in the order the defaults would have taken them.
        return default
    choice = yield Question(
        key, f"{name} loses a figure ({number} of {of}): which one?",
        tuple(Choice(f.id, label(f)) for f in kinds.values()),
        rule=rule, side=unit.side, default=default.id)
    return state.figure(choice)[1]

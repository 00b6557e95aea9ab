"""Choosing which figure a casualty removes, shared by the Deathzap-family rulesets
(DZ3 §6 / CH §4 / CL §5: the owner picks when the figures differ)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from deathzap_tui.rules.narration import Gen
from deathzap_tui.rules.steps import Choice, Question


def pick_casualty(state: Any, unit: Any, key: str, number: int, of: int, name: str,
                  rule: str, kind: Callable[[Any], Hashable], label: Callable[[Any], str],
                  cost: Callable[[Any], tuple[int, ...]]) -> Gen:
    """The figure of ``unit`` that casualty ``number`` of ``of`` removes (``None``
    when no figure is left). Figures of the same ``kind`` are interchangeable: when
    all living ones are alike the last is taken without a question, otherwise the
    owner picks one of each kind (shown by ``label``). ``name`` is the unit's name
    in the question, ``key`` the question's key.

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
    choice = yield Question(
        key, f"{name} loses a figure ({number} of {of}): which one?",
        tuple(Choice(f.id, label(f)) for f in kinds.values()),
        rule=rule, side=unit.side, default=min(kinds.values(), key=cost).id)
    return state.figure(choice)[1]

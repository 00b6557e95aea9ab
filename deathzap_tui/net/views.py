"""What one player may see: every per-viewer decision of the referee is here.

``viewer`` is ``"red"``, ``"black"``, or ``None`` (a spectator, or anyone who is not
the owner of a secret). The referee sends a client only what these functions return
for that client's side:

- the board comes from ``ruleset.view(state, viewer)`` (spectators are
  :data:`~deathzap_tui.rules.ruleset.WATCH`), which holds secrets only for their
  owner;
- a narrative note said with ``ctx.say(text, to=side)`` is shown only to that side;
- intents come from ``ruleset.intents(state, viewer)``, and options with a ``side``
  are offered only to that side;
- a pending step is shown in full only to the player who answers it; others get a
  :class:`~.wire.Waiting` (who, and the dice purpose or question prompt, never the
  choices);
- once answered, a step and its answer are public, as said aloud at a table (the
  distance, the cover, how attacks were split, the dice): everyone may check them
  as they are given; but the answer to a ``private`` question (a card from a secret
  hand) is shown only to who gave it, the same rule as a note said ``to`` a side.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Any

from deathzap_tui.net.wire import Waiting
from deathzap_tui.rules.ruleset import WATCH, BoardView, IntentOption, Ruleset
from deathzap_tui.rules.steps import Answer, DiceRequest, Note, Question, Step


def board_view(ruleset: Ruleset, state: Any, viewer: str | None) -> BoardView:
    return ruleset.view(state, viewer or WATCH)


def intents_for(ruleset: Ruleset, state: Any, viewer: str | None) -> list[IntentOption]:
    """The options this viewer may take: their own and the unowned ones."""
    if viewer is None:
        return []
    return [o for o in ruleset.intents(state, viewer) if o.side in (None, "", viewer)]


def note_visible(note: Note, viewer: str | None) -> bool:
    return note.to is None or note.to == viewer


def notes_for(notes: Iterable[Note], viewer: str | None) -> list[Note]:
    return [n for n in notes if note_visible(n, viewer)]


def step_for(step: Step | None, answerer: str, viewer: str | None) -> Step | Waiting | None:
    if step is None or viewer == answerer:
        return step
    text = step.purpose if isinstance(step, DiceRequest) else step.prompt
    return Waiting(answerer, text, step.key)


def answer_visible(step: Step, answerer: str, viewer: str | None) -> bool:
    """Whether ``viewer`` may see the answer ``answerer`` gave to ``step``."""
    return not (isinstance(step, Question) and step.private) or viewer == answerer


def answered_for(asked: Sequence[Step], answers: Sequence[Answer], answerers: Sequence[str],
                 viewer: str | None) -> list[tuple[Step, Answer] | None]:
    """Each answered step with its answer, or ``None`` where this viewer may not see
    them (:func:`answer_visible`). A question keeps only the choice taken: the others
    were offered to the one who answered, not said aloud."""
    return [(_as_said(step, a), a) if answer_visible(step, who, viewer) else None
            for step, a, who in zip(asked, answers, answerers, strict=True)]


def _as_said(step: Step, answer: Answer) -> Step:
    if not isinstance(step, Question) or not step.choices:
        return step
    return dataclasses.replace(step, choices=tuple(
        c for c in step.choices if c.value == str(answer)))

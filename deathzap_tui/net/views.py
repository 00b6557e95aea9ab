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
  choices); answers to questions are shown only to who gave them (dice are rolled at
  the table and are public).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from deathzap_tui.net.wire import Waiting
from deathzap_tui.rules.ruleset import WATCH, BoardView, IntentOption, Ruleset
from deathzap_tui.rules.steps import Answer, Dice, DiceRequest, Note, Step


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


def answers_for(answers: Sequence[Answer], answerers: Sequence[str],
                viewer: str | None) -> list[Answer | None]:
    """Each answer, or ``None`` where this viewer may not see it."""
    return [a if isinstance(a, Dice) or who == viewer else None
            for a, who in zip(answers, answerers, strict=True)]

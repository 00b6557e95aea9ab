"""Words shared by the rulesets' narration and questions: names, plurals, dice."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from deathzap_tui.rules.cards import Card
from deathzap_tui.rules.steps import Choice, Question, Step

Gen = Generator[Step, Any, Any]
"""A resolution fragment: ``yield from`` it; it may return a value."""

YES_NO = (Choice("yes", "Yes"), Choice("no", "No"))


def side_name(side: str) -> str:
    return side.capitalize()


def card_label(code: str) -> str:
    return Card.parse(code).label if code else ""


def plural(n: int, word: str, many: str = "") -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


def faces_text(faces: tuple[int, ...]) -> str:
    return " ".join(str(f) for f in faces)


def dice_text(dice: Any, target: int | None = None) -> str:
    """"rolled 3 5 6 1 (2 successes on 5+)" or "2 successes on 5+" (count only)."""
    if dice.successes is not None:
        return f"{plural(dice.successes, 'success', 'successes')} on {target}+ (count given)"
    text = f"rolled {faces_text(dice.faces)}"
    if target is not None:
        n = dice.count(target)
        text += f" ({plural(n, 'success', 'successes')} on {target}+)"
    return text


def ask_yes_no(key: str, prompt: str, rule: str, side: str, default: str = "yes") -> Gen:
    answer = yield Question(key, prompt, YES_NO, rule=rule, side=side, default=default)
    return answer == "yes"

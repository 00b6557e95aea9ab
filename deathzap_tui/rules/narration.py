"""Words shared by the rulesets' narration, questions and help: names, plurals, lists,
dice, help-text columns."""

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


def is_are(n: int) -> str:
    """The verb after :func:`plural`: "1 point is", "2 points are"."""
    return "is" if n == 1 else "are"


def possessive(name: str) -> str:
    """"Red Squad's", "Red Wardens'": a name ending in s takes the apostrophe alone."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def word_list(words: list[str]) -> str:
    """"a, b and c" ("" for no words)."""
    if not words:
        return ""
    return " and ".join(filter(None, (", ".join(words[:-1]), words[-1])))


def columns(rows: list[list[str]]) -> str:
    """Rows as text columns for the help screens: the first left-aligned, the others
    right-aligned, each line indented by two spaces."""
    widths = [max(len(row[c]) for row in rows) for c in range(len(rows[0]))]
    return "\n".join("  " + "  ".join(cell.ljust(w) if c == 0 else cell.rjust(w)
                                      for c, (cell, w) in enumerate(zip(row, widths,
                                                                        strict=True)))
                     for row in rows)


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

"""Turning engine steps and answers into words. Presentation only: every number
shown here (target, count, rule id) is the engine's, never computed by the app."""

from __future__ import annotations

from deathzap_tui.headless.setup import auto_answer as auto_answer
from deathzap_tui.headless.text import clean
from deathzap_tui.rules.steps import (
    Answer,
    Dice,
    DiceRequest,
    Question,
    Refused,
    Step,
    check_answer,
    parse_dice,
)

SIDE_LABEL = {"red": "RED", "black": "BLACK"}


def side_label(side: str | None) -> str:
    return SIDE_LABEL.get(side or "", clean(side or "", oneline=True).upper())


def dice_word(n: int) -> str:
    return "1 die" if n == 1 else f"{n} dice"


def step_headline(step: Step) -> str:
    """"Hit on 5+" / "Which weapon?": the line that says what is asked."""
    if isinstance(step, DiceRequest):
        purpose = clean(step.purpose, oneline=True) or "Roll"
        if step.target is not None:
            return f"{purpose} on {step.target}+ — roll {dice_word(step.count)}"
        return f"{purpose} — roll {dice_word(step.count)}"
    return clean(step.prompt, oneline=True)


def step_reason(step: Step) -> str:
    """Why and which rule: "Basic shooter, target in soft cover — DZ3 §6"."""
    why = clean(getattr(step, "why", "") or "", oneline=True)
    rule = clean(step.rule or "", oneline=True)
    return " — ".join(p for p in (why, rule) if p)


def who(step: Step) -> str:
    side = getattr(step, "side", None)
    if not side:
        return ""
    verb = "rolls" if isinstance(step, DiceRequest) else "answers"
    return f"{side_label(side)} {verb}"


def faces_text(faces: tuple[int, ...]) -> str:
    return " ".join(str(f) for f in faces)


def answer_line(step: Step, answer: Answer) -> str:
    """What was answered, in words: "rolled for you: 3 5 6 — 2 succeed on 5+"."""
    if isinstance(step, DiceRequest) and isinstance(answer, Dice):
        how = "rolled for you" if answer.generated else "entered"
        if answer.successes is not None:
            return f"{how}: {answer.successes} of {step.count} succeeded"
        return f"{how}: {faces_text(answer.faces)}"
    if isinstance(step, Question) and step.choices:
        for c in step.choices:
            if c.value == str(answer):
                return clean(c.label, oneline=True)
    return clean(answer, oneline=True)


def asks_roll(text: str) -> bool:
    """Whether what was typed in a dice field asks the app to roll: "roll", or "r"
    however many times it was pressed (issue 22: "r" typed twice is no error)."""
    t = text.strip().lower()
    return t == "roll" or (bool(t) and set(t) == {"r"})


def dice_feedback(text: str, step: DiceRequest) -> tuple[bool | None, str]:
    """Live feedback while typing dice: (acceptable, message); ``None`` means "fine
    so far, more to come" (fewer valid faces than dice rolled)."""
    t = text.strip().lower()
    if not t:
        if step.successes_only:
            return False, (f"type {dice_word(step.count)} (e.g. 3 5 6 or 356), "
                           "or how many succeeded (e.g. 2s)")
        return False, f"type {dice_word(step.count)} (e.g. 3 5 6 or 356)"
    if asks_roll(t):
        return True, "Enter: roll for me"
    try:
        dice = parse_dice(text, step)
    except Refused as exc:
        return (None if _partial(t, step) else False), str(exc)
    if dice.successes is not None:
        return True, f"{dice.successes} of {step.count} succeed — Enter to confirm"
    msg = f"{dice_word(step.count)}: {faces_text(dice.faces)}"
    if step.target is not None:
        msg += f" — {dice.count(step.target)} succeed on {step.target}+"
    return True, msg + " — Enter to confirm"


def _partial(text: str, step: DiceRequest) -> bool:
    """Faces 1-6 typed so far, fewer than the dice rolled."""
    digits = [c for c in text if not c.isspace() and c not in ",;"]
    return (bool(digits) and all(c in "123456" for c in digits)
            and len(digits) < step.count and all(len(tok) == 1 for tok in text.split()
                                                 if len(text.split()) > 1))


def number_feedback(text: str, step: Question) -> tuple[bool, str]:
    """Live feedback while typing a number; an empty Enter takes the engine's default
    (with generated dice too, issue 26)."""
    t = text.strip()
    if not t:
        if step.default is not None:
            return True, f"Enter for {step.default}"
        return False, number_range(step) or "type a whole number"
    try:
        value = check_answer(step, t)
    except Refused as exc:
        return False, str(exc)
    return True, f"{value} — Enter to confirm"


def number_range(step: Question) -> str:
    lo, hi = step.minimum, step.maximum
    if lo is not None and hi is not None:
        return f"a whole number from {lo} to {hi}"
    if lo is not None:
        return f"a whole number, at least {lo}"
    if hi is not None:
        return f"a whole number, at most {hi}"
    return ""

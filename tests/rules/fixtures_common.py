"""Test helpers shared by every ruleset's fixtures (``dz3_fixtures``,
``ch_fixtures``): playing an intent with scripted answers, drawing a named card,
reading the narration, and random answers for the random players."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from deathzap_tui.rules.events import effective
from deathzap_tui.rules.game import Game
from deathzap_tui.rules.steps import ROLL, Dice, DiceRequest, Question, Refused, Resolution

DiceSource = Callable[[DiceRequest], Any]
"""Answers a dice request: ``lambda step: ROLL`` or faces from a fixed sequence."""


def given_dice(seed: int) -> DiceSource:
    """Dice typed at the table, from a fixed sequence of faces (golden games)."""
    faces = random.Random(seed)

    def dice(step: DiceRequest) -> Dice:
        return Dice(faces=tuple(faces.randint(1, 6) for _ in range(step.count)))

    return dice


def draw(game: Game, card: str) -> None:
    game.play({"type": "draw", "card": card})


def act(game: Game, intent: Mapping[str, Any], answers: Mapping[str, Any] | None = None,
        by: str = "", dice: Any = None, defaults: bool = True) -> list[Any]:
    """Play ``intent`` answering each step by its key from ``answers``; a question not
    listed takes its default (``defaults``), dice not listed take ``dice`` (e.g.
    ROLL). Returns the steps seen, in order. Raises KeyError naming a step it can't
    answer."""
    action = game.begin(intent, by)
    seen = answer_all(action.resolution, answers or {}, dice, defaults)
    game.commit(action)
    return seen


def answer_all(res: Resolution, answers: Mapping[str, Any], dice: Any = None,
               defaults: bool = True) -> list[Any]:
    """Drive ``res`` to its end answering each step by its key from ``answers``; a
    question not listed takes its default (``defaults``), dice not listed take
    ``dice`` (e.g. ROLL). Returns the steps seen, in order. Raises KeyError naming a
    step it can't answer, or the answers left unused."""
    answers = dict(answers)
    seen: list[Any] = []
    while not res.done:
        step = res.step
        seen.append(step)
        if step.key in answers:
            ans = answers.pop(step.key)
        elif isinstance(step, DiceRequest) and dice is not None:
            ans = dice
        elif isinstance(step, Question) and defaults and step.default is not None:
            ans = step.default
        else:
            raise KeyError(f"no answer for step {step.key!r}: {step}")
        res.answer(ans)
    if answers:
        raise KeyError(f"unused answers: {sorted(answers)}")
    return seen


def notes(game: Game, last: int = 1) -> list[str]:
    """Narration of the last ``last`` effective events."""
    events = effective(game.log)
    out: list[str] = []
    for i, (_e, res) in enumerate(game.replay(events)):
        if i >= len(events) - last:
            out.extend(n.text for n in res.ctx.notes)
    return out


def roll_for_me(step: DiceRequest) -> Any:
    return ROLL


def random_answer(step: Any, rnd: random.Random, dice: DiceSource = roll_for_me) -> Any:
    """A random answer to ``step``: ``dice`` for dice, a random choice, or a random
    number in range (a board depth between 12 and 48 inches)."""
    if isinstance(step, DiceRequest):
        return dice(step)
    assert isinstance(step, Question)
    if step.choices:
        return rnd.choice(step.choices).value
    lo = step.minimum if step.minimum is not None else 0
    hi = step.maximum if step.maximum is not None else lo + 10
    if step.key == "depth":
        lo, hi = max(lo, 12), min(hi, 48)
    return rnd.randint(lo, hi)


def roll_out(res: Resolution, answers: Mapping[str, Any] | None = None,
             dice: DiceSource = roll_for_me) -> dict[str, Any]:
    """Drive ``res`` to its end for a Monte Carlo run of the odds: every die from
    ``dice`` (the state's RNG by default), each question answered by its key from
    ``answers`` or with its default. Returns ``ctx.facts["attack"]`` as it stood at
    the first dice request: the attack as declared, what the odds panel reads first;
    ``{}`` when the resolution asks for no dice at all."""
    first: dict[str, Any] = {}
    while not res.done:
        step = res.step
        if isinstance(step, DiceRequest):
            if not first:
                first = dict(res.ctx.facts["attack"])
            res.answer(dice(step))
        else:
            res.answer((answers or {}).get(step.key, step.default))
    return first


def resolve(game: Game, intent: Mapping[str, Any], answers: Mapping[str, Any]) -> Resolution:
    """Play ``intent`` with scripted ``answers`` (questions not listed take their
    default) and return its resolution, committed."""
    action = game.begin(intent)
    answer_all(action.resolution, answers)
    game.commit(action)
    return action.resolution


def rolled(res: Resolution, key: str) -> tuple[DiceRequest, Dice]:
    """The dice request ``key`` the resolution asked, and the dice that answered it."""
    for step, answer in zip(res.asked, res.answers, strict=True):
        if step.key == key:
            assert isinstance(step, DiceRequest) and isinstance(answer, Dice)
            return step, answer
    raise KeyError(key)


def play_random_action(game: Game, rnd: random.Random, by_side: bool = False,
                       dice: Callable[[DiceRequest], Any] = roll_for_me,
                       skip: tuple[str, ...] = (),
                       watch: Callable[[Any, Any], None] | None = None) -> bool:
    """A random legal intent of any ruleset (none of the intent groups in ``skip``),
    every step answered at random (``dice`` for dice), each shown to ``watch`` first
    with the resolution's state. With ``by_side`` the intent is played ``by`` its
    side, as a networked player would. False when nothing could be played."""
    options = [o for o in game.ruleset.intents(game.state) if o.group not in skip]
    rnd.shuffle(options)
    for opt in options:
        action = game.begin(opt.intent, (opt.side or "") if by_side else "")
        res = action.resolution
        for _ in range(200):
            if res.done:
                break
            step = res.step
            if watch is not None:
                watch(res.ctx.state, step)
            try:
                res.answer(dice(step) if isinstance(step, DiceRequest)
                           else random_answer(step, rnd))
            except Refused:
                continue
        if res.done:
            game.commit(action)
            return True
    return False

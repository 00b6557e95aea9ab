"""An action in flight in any ruleset: a game of the ruleset's shipped forces, played
at random up to an intent that asks several steps, and the answers that take it to
its last step (typed answers and generated dice both), for the in-flight tests of
the engine (tests/rules) and of the app (tests/app)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fixtures_common import play_random_action

from deathzap_tui.headless.describe import auto_answer
from deathzap_tui.headless.forcelist import pair_for
from deathzap_tui.rules.ruleset import SETUP, IntentOption
from deathzap_tui.rules.steps import ROLL, Answer, Dice, DiceRequest, Refused
from deathzap_tui.session import Session

FORCES = sorted((Path(__file__).resolve().parents[2] / "forces").glob("*.toml"))


def new_game(ruleset_id: str, save: str, seed: int = 11) -> Session:
    """A saved game of ``ruleset_id`` between the pair of shipped forces the start
    screen offers for it."""
    red, black = pair_for(FORCES, ruleset_id)
    assert red is not None and black is not None
    return Session.new(red, black, seed=seed, save_path=save, ruleset_id=ruleset_id)


def typed(step: DiceRequest) -> Dice:
    """Dice typed at the table: all sixes (keys "6" per die, then Enter)."""
    return Dice(faces=(6,) * step.count)


@dataclass
class Plan:
    """An intent and the answers that take it to its last step, unanswered."""

    option: IntentOption
    answers: list[Answer]
    steps: list[Any]
    """The steps those answers answer, in order."""


def plan_for(session: Session, option: IntentOption) -> Plan | None:
    """Answer ``option`` on a private copy (nothing is committed): dice alternately
    generated (first) and typed, questions by their default or first choice. A plan
    if it asks at least three steps and the answers before its last step hold both
    generated dice and a typed answer; else ``None``."""
    try:
        action = session.begin(option.intent)  # by no one: a shared terminal's way
    except Refused:
        return None
    res = action.resolution
    answers: list[Answer] = []
    steps: list[Any] = []
    rolls = 0
    while not res.done and len(steps) < 60:
        step = res.step
        if isinstance(step, DiceRequest):
            answer: Answer = ROLL if rolls % 2 == 0 else typed(step)
            rolls += 1
        else:
            answer = auto_answer(step)  # type: ignore[arg-type]
        try:
            res.answer(answer)
        except Refused:
            return None
        answers.append(answer)
        steps.append(step)
    if not res.done or len(steps) < 3:
        return None
    before = answers[:-1]
    if ROLL not in before or all(a == ROLL for a in before):
        return None
    return Plan(option, before, steps[:-1])


def play_to_action(session: Session, seed: int, *, setup: bool) -> Plan:
    """Play ``session`` at random (generated dice, never ending the game early)
    until an action of the set-up (``setup``) or of the game after it can be
    planned (:func:`plan_for`)."""
    rnd = random.Random(seed)
    for _ in range(400):
        options = session.intents()
        in_setup = any(o.group == SETUP for o in options)
        assert in_setup or not setup, "the set-up ended before an action could be planned"
        if in_setup == setup:
            for option in options:
                if plan := plan_for(session, option):
                    return plan
        assert play_random_action(session.game, rnd, skip=("end",)), "nothing to play"
        assert not session.over, "the game ended before an action could be planned"
    raise AssertionError("no action with several steps came up")


def answer_plan(session: Session, plan: Plan) -> Any:
    """Begin the plan's intent and answer it to its last step, keeping it in flight
    after every answer as the wizard does; the action."""
    action = session.begin(plan.option.intent)
    session.keep_action(action)
    for answer in plan.answers:
        action.resolution.answer(answer)
        session.keep_action(action)
    return action

"""Walking a new game's pre-game steps (roll-off, objectives, generals...) with
nobody asked: the app's quick set-up and ``deathzap host --quick``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from deathzap_tui.rules.ruleset import SETUP, IntentOption
from deathzap_tui.rules.steps import ROLL, Answer, DiceRequest, Refused, Step

if TYPE_CHECKING:
    from deathzap_tui.session import Session


def auto_answer(step: Step) -> Answer:
    """The answer used when nobody is asked (quick set-up): roll dice, take the
    engine's default, else the first choice, else the minimum."""
    if isinstance(step, DiceRequest):
        return ROLL
    if step.default is not None:
        return step.default
    if step.choices:
        return step.choices[0].value
    if step.minimum is not None:
        return step.minimum
    raise Refused(f"{step.prompt}: no default answer")


def in_group(options: Iterable[IntentOption], *groups: str) -> list[IntentOption]:
    """The options of the given intent groups (``ruleset.SETUP``, ``ADVANCE``...)."""
    return [o for o in options if o.group in groups]


def setup_steps(session: Session) -> list[IntentOption]:
    """The pre-game steps the ruleset offers now (roll-off, objectives, generals...)."""
    return in_group(session.intents(), SETUP)


def quick_setup(session: Session) -> None:
    """Play every pre-game step with generated dice and the engine's defaults (the
    first choice where a question has no default)."""
    for _ in range(20):
        steps = setup_steps(session)
        if not steps:
            return
        action = session.begin(steps[0].intent)
        res = action.resolution
        for _ in range(200):
            if res.step is None:
                break
            res.answer(auto_answer(res.step))
        session.commit(action)

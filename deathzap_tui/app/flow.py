"""Starting games and walking the pre-game steps, shared by screens and commands."""

from __future__ import annotations

from typing import TYPE_CHECKING

from deathzap_tui.app.describe import auto_answer

if TYPE_CHECKING:
    from deathzap_tui.app.app import GamePlan
    from deathzap_tui.rules.ruleset import IntentOption
    from deathzap_tui.session import Session

SETUP_TYPES = ("rolloff", "objectives")
"""Intent types of the pre-game steps (the engine's contract, like "draw")."""


def new_session(plan: GamePlan) -> Session:
    """Create (and first-save) the session; raises InvalidInput / SaveError / OSError."""
    from deathzap_tui.session import Session

    return Session.new(plan.red, plan.black, seed=plan.seed, options=plan.options,
                       save_path=plan.save, ruleset_id=plan.ruleset_id)


def setup_steps(session: Session) -> list[IntentOption]:
    return [o for o in session.intents() if o.intent.get("type") in SETUP_TYPES]


def quick_setup(session: Session) -> None:
    """Play every pre-game step with generated dice and the engine's defaults."""
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

"""Starting games and walking the pre-game steps, shared by screens and commands."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from deathzap_tui.app.describe import auto_answer
from deathzap_tui.rules.ruleset import SETUP

if TYPE_CHECKING:
    from collections.abc import Iterable

    from deathzap_tui.app.app import GamePlan
    from deathzap_tui.net.lock import SaveLock
    from deathzap_tui.rules.ruleset import IntentOption
    from deathzap_tui.session import Session


def new_session(plan: GamePlan) -> Session:
    """Create (and first-save) the session; raises InvalidInput / SaveError / OSError."""
    from deathzap_tui.session import Session

    return Session.new(plan.red, plan.black, seed=plan.seed, options=plan.options,
                       save_path=plan.save, ruleset_id=plan.ruleset_id)


def writer_lock(session: Any, what: str = "deathzap") -> SaveLock | None:
    """The writer's lock on ``session``'s save, or ``None`` for a session that never
    writes (read only, remote, unsaved). Raises :class:`SaveLocked` naming the
    holder. Every local writer takes it through here (``DeathzapApp.hold``)."""
    from deathzap_tui.net.lock import SaveLock
    from deathzap_tui.session import Session

    path = getattr(session, "path", None)
    if (not isinstance(session, Session) or path is None
            or getattr(session, "read_only", False)):
        return None
    lock = SaveLock.acquire(path, what)
    session.keep_cache()  # the one writer now: the next resume starts from here
    return lock


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

"""Starting games, shared by screens and commands; walking the pre-game steps is
:mod:`deathzap_tui.headless.setup` (no Textual: ``deathzap host`` uses it too)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deathzap_tui.headless.setup import in_group as in_group
from deathzap_tui.headless.setup import quick_setup as quick_setup
from deathzap_tui.headless.setup import setup_steps as setup_steps

if TYPE_CHECKING:
    from deathzap_tui.net.lock import SaveLock
    from deathzap_tui.session import Session


@dataclass
class GamePlan:
    """A new game as chosen on the start screen or the command line."""

    red: Path
    black: Path
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    save: str | None = None
    ruleset_id: str | None = None


def new_session(plan: GamePlan) -> Session:
    """Create (and first-save) the session; raises InvalidInput / SaveError / OSError."""
    from deathzap_tui.session import Session  # lazy: ~25 ms off the app's first frame

    return Session.new(plan.red, plan.black, seed=plan.seed, options=plan.options,
                       save_path=plan.save, ruleset_id=plan.ruleset_id)


def writer_lock(session: Any, what: str = "deathzap") -> SaveLock | None:
    """The writer's lock on ``session``'s save, or ``None`` for a session that never
    writes (read only, remote, unsaved). Raises :class:`SaveLocked` naming the
    holder. Every local writer takes it through here (``DeathzapApp.hold``)."""
    from deathzap_tui.net.lock import SaveLock  # lazy: ~25 ms off the app's first frame
    from deathzap_tui.session import Session  # lazy: ~25 ms off the app's first frame

    path = getattr(session, "path", None)
    if (not isinstance(session, Session) or path is None
            or getattr(session, "read_only", False)):
        return None
    lock = SaveLock.acquire(path, what)
    session.keep_cache()  # the one writer now: the next resume starts from here
    return lock

"""How a saved game stands, read without writing it: ``deathzap resume``'s list and
the start screen's saves both say it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from deathzap_tui.net import playbyturn
from deathzap_tui.session import Session

if TYPE_CHECKING:
    from deathzap_tui.saves import SaveInfo


def save_state(info: SaveInfo) -> tuple[str, str, bool]:
    """A save's ruleset title, how its game stands ("in progress: Red to activate",
    "finished: Red wins...") and True, read without writing; for a save that cannot
    be read, its ruleset id, why ("unreadable: ...") and False."""
    try:
        session = Session.read(info.path)
        now = playbyturn.whose_turn(session)
    except (ValueError, OSError) as exc:  # SaveError, CorruptLog
        return info.ruleset, f"unreadable: {info.problem or exc}", False
    return (session.ruleset.title, f"finished: {now}" if session.over else
            f"in progress: {now}", True)

"""How a saved game stands, read without writing it: ``deathzap resume``'s list and
the start screen's saves both say it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from deathzap_tui.standing import Standing

if TYPE_CHECKING:
    from deathzap_tui.savelist import SaveInfo


def save_state(info: SaveInfo) -> tuple[str, str, bool]:
    """A save's ruleset title, how its game stands ("in progress: Red to activate",
    "finished: Red wins...") and True, read without writing: from the save's summary
    where it holds the save as listed (:attr:`SaveInfo.standing`), else from the game
    loaded; for a save that cannot be read, its ruleset id, why ("unreadable: ...")
    and False."""
    standing = info.standing
    if standing is None:
        from deathzap_tui.session import Session  # lazy: only without a summary (issue 21)

        try:
            standing = Standing.of(Session.read(info.path).game)
        except (ValueError, OSError) as exc:  # SaveError, CorruptLog
            return info.ruleset, f"unreadable: {info.problem or exc}", False
    return standing.title, standing.text, True

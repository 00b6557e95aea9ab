"""Hidden information on screen, for any ruleset: who may see ``BoardView.private``
and which options are a secret decision.

Ruleset-agnostic by construction: it reads only :attr:`BoardView.private`,
:attr:`BoardView.secret_turn` and the ``side`` of each
:class:`~deathzap_tui.rules.ruleset.IntentOption`.

- A **shared terminal** (hot-seat: a local session, viewer ``None``) receives every
  side's private lines. The battle screen never shows them; while a side has a
  secret decision to make (``secret_turn``), that side's options are taken off the
  board (keys, the "other actions" menu, the command palette) and offered only on
  the cover screen, after "pass the terminal to ...".
- A terminal that **plays one side** (a joined game: the session has a ``side``)
  receives only its own private lines (the referee sends nothing else): they are
  shown on the battle screen, and its secret decisions are offered at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from deathzap_tui.rules.ruleset import SIDES, BoardView, IntentOption

if TYPE_CHECKING:
    from deathzap_tui.session import GameSession


def terminal_side(session: GameSession[Any]) -> str | None:
    """The one side this terminal plays (``"red"``/``"black"``, ``"watch"`` for a
    spectator), or ``None`` for a shared terminal (a local session, hot-seat)."""
    side = getattr(session, "side", None)
    return side if isinstance(side, str) and side else None


def shared(session: GameSession[Any]) -> bool:
    """True for a hot-seat terminal: both players read the same screen."""
    return terminal_side(session) is None


def secret_options(view: BoardView | None, options: Iterable[IntentOption]) -> list[IntentOption]:
    """The options of the side that must now decide in secret (none if nobody must)."""
    side = view.secret_turn if view is not None else ""
    if not side:
        return []
    return [o for o in options if o.side == side]


def open_options(view: BoardView | None, options: Iterable[IntentOption]) -> list[IntentOption]:
    """Every option but the secret decision's: what a shared screen may list."""
    side = view.secret_turn if view is not None else ""
    if not side:
        return list(options)
    return [o for o in options if o.side != side]


def hand_lines(view: BoardView | None, side: str) -> tuple[str, ...]:
    if view is None:
        return ()
    return tuple(view.private.get(side, ()))


def sides_with_secrets(view: BoardView | None) -> list[str]:
    """Sides whose private lines this view holds, in table order."""
    if view is None:
        return []
    return [s for s in SIDES if view.private.get(s)]


def board_options(session: GameSession[Any], view: BoardView | None,
                  options: Sequence[IntentOption]) -> list[IntentOption]:
    """What the battle screen itself may offer: on a shared terminal everything but
    the secret decision; on a one-side terminal everything it was sent."""
    return open_options(view, options) if shared(session) else list(options)

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


class HiddenHands:
    """The battle screen's side of hidden information.

    The screen calls :meth:`refresh` after each change of its view and
    :meth:`open` for the "hand" key; this class decides what may be shown where:

    - shared terminal: the screen's ``#hand`` widget stays empty; when a side starts
      a secret decision the cover screen is pushed for it (once per decision: Esc
      on the cover leaves the board up, the "hand" key brings the cover back);
    - one-side terminal: its own private lines go in ``#hand`` and its secret
      decisions open at once, without a cover.
    """

    def __init__(self, screen: Any) -> None:
        self.screen = screen
        self._offered = ""

    @property
    def session(self) -> Any:
        return self.screen.session

    def _view(self) -> BoardView | None:
        return getattr(self.screen, "view", None)

    def refresh(self, view: BoardView) -> None:
        from deathzap_tui.app.widgets.hand import HandWidget

        me = terminal_side(self.session)
        for hand in self.screen.query(HandWidget):
            if me in SIDES and view.private.get(me):
                hand.show(me, view.private[me])
            else:
                hand.clear()
        turn = "" if view.over else view.secret_turn
        if not turn or (me is not None and turn != me):
            self._offered = ""
            return
        if self._offered != turn:
            self._offered = turn
            self.screen.call_after_refresh(self.open, True)

    def available(self) -> bool:
        """Is there anything for the "hand" key to show?"""
        view = self._view()
        me = terminal_side(self.session)
        if me is None:
            return bool(sides_with_secrets(view))
        return me in SIDES and bool(hand_lines(view, me))

    def open(self, auto: bool = False) -> None:
        """Show the secret lines (behind a cover on a shared terminal) and, during a
        secret decision, its options. ``auto``: only if the board is on top."""
        from deathzap_tui.app.screens.cover import CoverScreen

        app = self.screen.app
        if auto and app.screen is not self.screen:
            return
        if isinstance(app.screen, CoverScreen):
            return
        view = self._view()
        if view is None:
            return
        me = terminal_side(self.session)
        turn = "" if view.over else view.secret_turn
        if me is None:
            sides = sides_with_secrets(view)
            side = turn or (sides[0] if sides else "")
        else:
            side = me
        if side not in SIDES:
            return
        options = secret_options(view, self.session.intents()) if turn == side else []
        game = getattr(self.session, "game", None)
        names = {s: str(getattr(getattr(game, s, None), "name", "") or "") for s in SIDES}
        app.push_screen(
            CoverScreen(side, hand_lines(view, side), options, prompt=view.prompt,
                        covered=me is None, switch=me is None and not options,
                        lines_for=lambda s: hand_lines(self._view(), s), names=names),
            self._chosen)

    def _chosen(self, option: IntentOption | None) -> None:
        if option is not None:
            self.screen.run_intent(option)

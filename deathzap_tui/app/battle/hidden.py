"""The battle screen's side of hidden information: what may be shown where, by
the rules of :mod:`deathzap_tui.headless.hidden` (which holds the decisions, without
Textual)."""

from __future__ import annotations

from typing import Any

from deathzap_tui.app.battle.cover import CoverScreen
from deathzap_tui.app.battle.hand import HandWidget
from deathzap_tui.headless.hidden import (
    hand_lines,
    secret_options,
    sides_with_secrets,
    terminal_side,
)
from deathzap_tui.rules.ruleset import SIDES, BoardView, IntentOption


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

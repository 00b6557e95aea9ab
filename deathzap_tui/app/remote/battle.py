"""The battle screen at a shared table: it follows what the referee pushes."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.screen import ModalScreen
from textual.widgets import Static

from deathzap_tui.app.battle.battle import BattleScreen
from deathzap_tui.app.common.text import clean
from deathzap_tui.app.remote.status import said, status_text
from deathzap_tui.app.remote.wizard import FOREIGN, JoinedWizardScreen, cancel_at_table
from deathzap_tui.headless.describe import side_label
from deathzap_tui.rules.ruleset import other_side
from deathzap_tui.rules.steps import Refused


class JoinedBattleScreen(BattleScreen):

    def __init__(self) -> None:
        super().__init__()
        self._shown_narrative: list[str] = []
        self._shown_update = -1
        """The session's narrative update the logs show (``narrative_since``)."""
        self._live: list[str] = []
        """The lines of the action in progress at the end of the logs (:meth:`_live_lines`)."""
        self._status: Text | None = None
        self._stale = False
        """Pushes came while another screen hid this one (:meth:`remote_changed`)."""
        self._drawn = -1
        """The session's ``changes`` the table was last drawn for."""
        self._board: tuple[Any, ...] = ()
        """The session's board as :meth:`refresh_board` last drew it (:meth:`_board_data`)."""

    def compose(self) -> ComposeResult:
        yield Static(id="net-status")
        yield from super().compose()

    def on_mount(self) -> None:
        self._follow_log()
        self.show_status()

    def on_screen_resume(self) -> None:
        if self._stale:
            self._draw_table()

    def _seen(self) -> bool:
        """On the terminal: the top screen, or under dialogs only."""
        stack = self.app.screen_stack
        return self in stack and all(isinstance(s, ModalScreen)
                                     for s in stack[stack.index(self) + 1:])

    def remote_changed(self, *, covered: bool = False) -> None:
        """Show what the table pushed. Behind another whole screen (the wizard, a
        unit card), or ``covered`` by a wizard about to open, none of it is seen: it
        is shown when this screen is again, once for all the pushes meanwhile (the
        wizard of a move gets several); an open unit card follows its unit (issue
        22). But the end of the game is shown at once, over whatever is open."""
        self._stale = (covered or not self._seen()) and not self.session.over
        if self._stale:
            self.follow_cards()
            return
        if self._drawn != self.session.changes:  # else drawn already, as a wizard closed
            self._draw_table()

    def _draw_table(self) -> None:
        """The table as the session has it now."""
        self._stale = False
        self._drawn = self.session.changes  # first: a change meanwhile is drawn next time
        self._follow_log()
        if self._board_data() != self._board:  # an answer elsewhere changes the log only
            self.refresh_board()
        self.show_status()

    def refresh_board(self) -> None:
        self._board = self._board_data()
        super().refresh_board()

    def _board_data(self) -> tuple[Any, ...]:
        """What :meth:`refresh_board` shows of the session (the rest is this
        terminal's own: the dice mode, the selected row)."""
        session = self.session
        return session.view(), session.intents(), session.can_undo, session.can_redo

    def _follow_log(self) -> None:
        """Bring the logs up to the session's narrative, then the action in progress
        (:meth:`_live_lines`), writing only what changed, in one edit of each log."""
        update, keep, add = self.session.narrative_since(self._shown_update)
        live = self._live_lines()
        same = 0  # the live lines shown already: an answer adds to the end
        if update != self._shown_update:
            self._shown_update = update
            del self._shown_narrative[keep:]
            self._shown_narrative += add  # the live lines go with the rest after ``keep``
        elif live != self._live:
            keep, add = len(self._shown_narrative), []
            while same < min(len(live), len(self._live)) and live[same] == self._live[same]:
                same += 1
        else:
            return
        lines = [*(Text(clean(line)) for line in add),
                 *(Text(clean(line), style="italic") for line in live[same:])]
        for log in self.logs():
            log.splice(keep + same, lines)
        self._live = live

    def _live_lines(self) -> list[str]:
        """The action in progress (anyone's), as it is answered, after the narrative:
        who is doing what, its narrative so far and every answer this terminal may
        see; none once it is confirmed (its narrative follows) or dropped."""
        action = self.session.pending_action()
        if action is None or action.discarded:
            return []
        label = clean(action.label, oneline=True)
        return [f"… {side_label(action.by)}: {label}, in progress",
                *(text for _kind, text in said(action.resolution, self.session.side))]

    def show_status(self) -> None:
        text = status_text(self.session)
        if text != self._status:
            self._status = text
            self.query_one("#net-status", Static).update(text, layout=False)

    # --- acting on a shared table ------------------------------------------------------
    def wizard(self, **kw: Any) -> JoinedWizardScreen:
        return JoinedWizardScreen(side=self.session.side, **kw)

    def open_action(self, action: Any) -> None:
        """A wizard for the action in progress at the table: the step of another
        player's action that this player answers, or this player's own action at the
        step it is at (kept by the referee over a dropped link or a new terminal)."""
        label = clean(action.label, oneline=True)
        if not action.mine:  # whoever answers its steps: not "RED's" while Black answers
            label = f"{label} (begun by {side_label(action.by)})"
        self.open_wizard(started=(action, action.resolution), label=label, side=action.by or None)

    def _wizard_done(self, action: Any) -> None:
        if action is None:
            pending = self.session.pending_action()
            if pending is not None and pending.mine and not pending.committed:
                cancel_at_table(pending)
        if action is not FOREIGN:
            super()._wizard_done(action)
        if self._stale:  # still covered by the wizard, about to close (WizardScreen.close):
            self._draw_table()  # drawn with the board as it shows, in one frame

    def committed(self, action: Any) -> None:
        self._draw_table()  # from the wizard as it closes, or on this screen

    def action_undo(self) -> None:
        self._ask("undo")

    def action_redo(self) -> None:
        self._ask("redo")

    def _ask(self, kind: str) -> None:
        try:
            (self.session.undo if kind == "undo" else self.session.redo)()
        except Refused as exc:
            self._error(str(exc))
            return
        self.app.notify(f"Asked {other_side(self.session.side)} to agree to {kind}.",
                        markup=False, timeout=3)
        self.show_status()

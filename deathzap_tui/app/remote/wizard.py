"""The wizard at a shared table: other players' steps show as waiting."""

from __future__ import annotations

import contextlib
from typing import Any

from rich.text import Text
from textual.widgets import Static

from deathzap_tui.app.common.paint import repaint
from deathzap_tui.app.common.text import clean
from deathzap_tui.app.remote.status import ANSWER, LATEST, NOTE, gone_message, said
from deathzap_tui.app.wizard.wizard import WizardScreen
from deathzap_tui.headless.describe import side_label
from deathzap_tui.net.wire import Waiting
from deathzap_tui.rules.steps import Refused

FOREIGN = object()
"""What a wizard opened for another player's action dismisses with: nothing to do."""

class JoinedWizardScreen(WizardScreen):
    """The wizard on a shared table: other players' steps show as waiting."""

    HAND_OVER = False  # each player answers at its own terminal

    def __init__(self, *, side: str, **kw: Any) -> None:
        super().__init__(**kw)
        self.side = side

    def start(self, **kw: Any) -> None:
        self._seen: tuple[Any, ...] = ()
        super().start(**kw)

    # --- who may do what -------------------------------------------------------
    def _mine(self) -> bool:
        return bool(getattr(self.token, "mine", True))

    def kept_where(self) -> str:
        return f"The table keeps it: join again as {self.side} to go on from this step."

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "confirm" and not self._mine():
            return False
        return super().check_action(action, parameters)

    # --- following the table ---------------------------------------------------
    def _signature(self) -> tuple[Any, ...]:
        res = self.resolution
        if res is None:
            return ()
        return (res.step, len(res.answers), len(res.ctx.notes))

    def remote_changed(self) -> None:
        """Re-render if the action moved on; close if it left the table (committed or
        cancelled at another terminal, or dropped) or, for another player's action,
        once nothing more is asked of this player."""
        token = self.token
        if token is None or not self.is_current or not self.is_mounted:
            return  # not drawn yet: mounting draws the step as it is then
        if getattr(token, "discarded", False) or getattr(token, "committed", False):
            message = gone_message(token)  # not this terminal's doing: it closed already
            if message:
                self.app.notify(message, markup=False, timeout=3)
            self.close(FOREIGN)  # gone at the table: nothing to cancel there
            return
        step = self.resolution.step if self.resolution else None
        if not self._mine() and (step is None or isinstance(step, Waiting)):
            self.close(FOREIGN)
            return
        if self._signature() != self._seen:
            self._redraw()

    def _redraw(self) -> None:
        self._seen = self._signature()
        super()._redraw()

    def _redraw_other(self, step: Any) -> bool:
        """Another player's step (or another player's action at its end) is drawn as
        "waiting for ...", never as a step to answer here."""
        if self.resolution is not None and (
                isinstance(step, Waiting) or (step is None and not self._mine())):
            self._redraw_waiting(step)
            return True
        return False

    def _redraw_waiting(self, step: Waiting | None) -> None:
        who = step.side if step is not None else getattr(self.token, "by", "")
        what = clean(step.text, oneline=True) if step is not None else "confirm"
        title = " — ".join(p for p in (self.wizard_title, self.intent_label) if p)
        repaint(self.query_one("#wiz-title", Static), Text(title))
        self._state(done=False, picking=False)
        self._feedback("")
        self._render_history()
        repaint(self.query_one("#wiz-who", Static),
                Text(f"{side_label(who)} to answer", style="bold reverse"))
        repaint(self.query_one("#wiz-headline", Static),
                Text(f"waiting for {who}: {what}", style="bold"))
        repaint(self.query_one("#wiz-reason", Static),
                Text("Their answer appears here as soon as they give it.", style="dim"))
        for wid in ("#wiz-choices", "#wiz-input", "#wiz-confirm"):
            self.query_one(wid).display = False
        self.set_focus(None)
        self._sync_bindings()

    def _render_history(self) -> None:
        res = self.resolution
        if res is None:
            super()._render_history()
            return
        styles = {NOTE: "", LATEST: "bold", ANSWER: "dim"}
        self._show_history([Text(text, style=styles[kind])
                            for kind, text in said(res, self.side)])

    # --- backing out ----------------------------------------------------------------
    def action_back(self) -> None:
        token = self.token
        try:
            super().action_back()
        except Refused as exc:
            self._feedback(str(exc), error=True)
            return
        if token is not None and self.token is None and getattr(token, "mine", False):
            cancel_at_table(token)  # backed out to the choice of action: drop it at the table

    def action_cancel(self) -> None:
        if not self._mine():
            self.close(FOREIGN)
            return
        super().action_cancel()

def cancel_at_table(action: Any) -> None:
    with contextlib.suppress(Refused):  # already gone (disconnected, or dropped)
        action.cancel()

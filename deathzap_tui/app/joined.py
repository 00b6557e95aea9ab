"""The app in a joined game: one player's terminal on a referee's table.

``run_app(session, side=..., joined=True)`` runs :class:`JoinedApp` on a
:class:`~deathzap_tui.net.client.RemoteSession`. The screens are the hot-seat ones
with what a shared table adds:

- every change the referee pushes (the other player's move, their answers, presence,
  whose turn it is, an undo request, a dropped connection) re-renders the battle
  screen and any open wizard: the session's notifier thread posts one
  :class:`RemoteChanged` message (coalesced) and the app re-reads the facade;
- a status line says who is connected, whose move it is and the connection;
- the wizard shows "waiting for black: saves" while another player must answer,
  offers confirm only to the player who began the action, cancels the action at the
  referee when backed out of, and closes when the referee drops it;
- when the action in progress (anyone's) asks *this* player something (saving
  throws for their unit, a cover question), a wizard opens for it;
- undo/redo are requests: "asked black"; the opponent's request is a yes/no prompt;
- no screenshot command (the app removes it everywhere), no mouse.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Mapping
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from deathzap_tui.app.app import DeathzapApp, Launch
from deathzap_tui.app.describe import side_label
from deathzap_tui.app.screens.battle import BattleScreen
from deathzap_tui.app.screens.wizard import WizardScreen
from deathzap_tui.app.text import clean
from deathzap_tui.app.widgets.log import EventLog
from deathzap_tui.app.widgets.paint import repaint
from deathzap_tui.net.wire import Waiting
from deathzap_tui.rules.steps import Dice, DiceRequest, Question, Refused

FOREIGN = object()
"""What a wizard opened for another player's action dismisses with: nothing to do."""


class RemoteChanged(Message):
    """The referee pushed something new (posted from the notifier thread)."""


def status_text(session: Any) -> Text:
    """"you: RED · red ● black ○ watching 1 · black: saves" (plain, public facts)."""
    t = Text()
    side = getattr(session, "side", "")
    t.append(f" {'watching' if side == 'watch' else 'you: ' + side_label(side)} ",
             style="bold reverse")
    presence = session.presence
    for s in ("red", "black"):
        here = presence.get(s, 0) > 0
        t.append(f"  {s} {'●' if here else '○'}", style="" if here else "dim")
    if presence.get("watch"):
        t.append(f"  watching {presence['watch']}", style="dim")
    if not session.connected:
        word = "disconnected" if session.closed else "reconnecting…"
        reason = f" ({clean(session.error, oneline=True)})" if session.error else ""
        t.append(f"   {word}{reason}", style="bold")
        return t
    turn = session.turn
    text = clean(turn.get("text", ""), oneline=True)
    if text:
        mine = turn.get("side") == side
        t.append("   " + ("▶ " if mine else "") + text, style="bold" if mine else "")
    req = session.request
    if req:
        who = "you" if req["by"] == side else req["by"]
        t.append(f"   {who} asked to {req['kind']}", style="italic")
    return t


class RequestScreen(ModalScreen[bool]):
    """The opponent asks to undo/redo: y agrees, n declines."""

    BINDINGS: ClassVar[list[Any]] = [
        Binding("y", "answer(True)", "Agree"),
        Binding("n,escape", "answer(False)", "Decline"),
    ]
    DEFAULT_CSS = """
    RequestScreen { align: center middle; }
    RequestScreen > Vertical { width: 60; height: auto; border: thick $warning;
                               background: $surface; padding: 1 2; }
    """

    def __init__(self, request: Mapping[str, str]) -> None:
        super().__init__()
        self.request = dict(request)

    def compose(self) -> ComposeResult:
        by, kind = self.request["by"], self.request["kind"]
        what = "take back the last thing recorded" if kind == "undo" else \
            "bring back what was undone"
        with Vertical():
            yield Static(Text(f"{side_label(by)} asks to {kind}", style="bold"))
            yield Static(f"They want to {what}. Agree?  y = yes, n = no")

    def action_answer(self, accept: bool) -> None:
        self.dismiss(accept)


class JoinedWizardScreen(WizardScreen):
    """The wizard on a shared table: other players' steps show as waiting."""

    HAND_OVER = False  # each player answers at its own terminal

    def __init__(self, *, side: str, **kw: Any) -> None:
        super().__init__(**kw)
        self.side = side

    def start(self, **kw: Any) -> None:
        self.asked_at: dict[int, Any] = {}
        self._seen: tuple[Any, ...] = ()
        super().start(**kw)

    # --- who may do what -------------------------------------------------------
    def _mine(self) -> bool:
        return bool(getattr(self.token, "mine", True))

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
        """Re-render if the action moved on; close if it was dropped or, for another
        player's action, once nothing more is asked of this player."""
        token = self.token
        if token is None or not self.is_current:
            return
        if getattr(token, "discarded", False):
            self.app.notify("The action was dropped at the table.", markup=False, timeout=3)
            self.close(FOREIGN if not self._mine() else None)
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
        self.query_one("#wiz-title", Static).update(Text(title), layout=False)
        self.set_class(False, "-done", "-picking")
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
        from deathzap_tui.app import describe as d
        from deathzap_tui.app.widgets.log import TailLog

        res = self.resolution
        if res is None:
            super()._render_history()
            return
        history = self.query_one("#wiz-history", TailLog)
        history.display = True
        answers = list(res.answers)
        answerers = list(getattr(res, "answerers", [self.side] * len(answers)))
        lines: list[Text] = []
        n = len(answers)
        for k in range(n + 1):
            latest = k == n and n > 0
            for note in res.ctx.notes:
                if note.after == k:
                    lines.append(Text(("▶ " if latest else "  ") + clean(note.text),
                                      style="bold" if latest else ""))
            if k < n:
                who = answerers[k] if k < len(answerers) else ""
                ans, step = answers[k], self.asked_at.get(k)
                if ans is None:
                    text = f"{side_label(who)} answered"
                elif step is not None:
                    text = d.answer_line(step, ans)
                elif isinstance(ans, Dice):
                    text = f"{side_label(who)} rolled " + (
                        " ".join(map(str, ans.faces)) if ans.successes is None
                        else f"{ans.successes} successes")
                else:
                    text = f"{side_label(who)}: {clean(ans, oneline=True)}"
                lines.append(Text(f"  ✓ {text}", style="dim"))
        if not lines:
            lines.append(Text("Nothing asked yet.", style="dim"))
        history.set_lines(lines)

    # --- answering and backing out -------------------------------------------------
    def answer(self, answer: Any) -> bool:
        res = self.resolution
        index = len(res.answers) if res is not None else 0
        step = res.step if res is not None else None
        if isinstance(step, Question | DiceRequest):
            self.asked_at[index] = step  # before the answer redraws the history
        ok = super().answer(answer)
        if not ok:
            self.asked_at.pop(index, None)
        return ok

    def action_back(self) -> None:
        token = self.token
        try:
            super().action_back()
        except Refused as exc:
            self._feedback(str(exc), error=True)
            return
        res = self.resolution
        if res is not None:
            self.asked_at = {k: v for k, v in self.asked_at.items() if k < len(res.answers)}
        if token is not None and self.token is None and getattr(token, "mine", False):
            _cancel(token)  # backed out to the choice of action: drop it at the table

    def action_cancel(self) -> None:
        if not self._mine():
            self.close(FOREIGN)
            return
        super().action_cancel()


def _cancel(action: Any) -> None:
    with contextlib.suppress(Refused):  # already gone (disconnected, or dropped)
        action.cancel()


class JoinedBattleScreen(BattleScreen):
    DEFAULT_CSS = """
    JoinedBattleScreen #net-status { height: 1; background: $boost; padding: 0 0; }
    """

    def __init__(self) -> None:
        super().__init__()
        self._shown_narrative: list[str] = []
        self._shown_update = -1
        """The session's narrative update the logs show (``narrative_since``)."""
        self._status: Text | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="net-status")
        yield from super().compose()

    def on_mount(self) -> None:
        self._follow_narrative()
        self.show_status()

    def remote_changed(self) -> None:
        self._follow_narrative()
        self.refresh_board()
        self.show_status()

    def _follow_narrative(self) -> None:
        """Bring the logs up to the session's narrative, writing only what changed."""
        update, keep, add = self.session.narrative_since(self._shown_update)
        if update == self._shown_update:
            return
        self._shown_update = update
        del self._shown_narrative[keep:]
        self._shown_narrative += add
        for log in self.query(EventLog):
            log.drop_lines(len(log.lines) - keep)
            log.add(add)

    def show_status(self) -> None:
        text = status_text(self.session)
        if text != self._status:
            self._status = text
            self.query_one("#net-status", Static).update(text, layout=False)

    # --- acting on a shared table ------------------------------------------------------
    def wizard(self, **kw: Any) -> JoinedWizardScreen:
        return JoinedWizardScreen(side=self.session.side, **kw)

    def open_foreign(self, action: Any) -> None:
        """A wizard for the step of another player's action that this player answers."""
        label = f"{side_label(action.by)}'s {clean(action.label, oneline=True)}"
        self.open_wizard(started=(action, action.resolution), label=label, side=action.by or None)

    def _wizard_done(self, action: Any) -> None:
        if action is FOREIGN:
            return
        if action is None:
            pending = self.session.pending_action()
            if pending is not None and pending.mine and not pending.committed:
                _cancel(pending)
        super()._wizard_done(action)

    def committed(self, action: Any) -> None:
        self.remote_changed()

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
        from deathzap_tui.rules.ruleset import other_side

        self.app.notify(f"Asked {other_side(self.session.side)} to agree to {kind}.",
                        markup=False, timeout=3)
        self.show_status()


class JoinedApp(DeathzapApp):
    """The app on a :class:`~deathzap_tui.net.client.RemoteSession`."""

    def __init__(self, session: Any, *, side: str | None, dice_mode: str = "physical") -> None:
        super().__init__(Launch("battle"), session=session, dice_mode=dice_mode)
        self.joined = True
        self.side = side
        self.sub_title = f"{session.side} at {session.socket_path.name}"
        self._posted = threading.Event()
        self._notices_shown = len(session.notices)
        self._request_open: RequestScreen | None = None
        session.subscribe(self._from_notifier)

    def first_screen(self) -> Screen:
        return JoinedBattleScreen()

    # --- the notifier thread's side --------------------------------------------------
    def _from_notifier(self, session: Any) -> None:
        """Called on the session's notifier thread: post one message at a time."""
        if not self._posted.is_set():
            self._posted.set()
            if not self.post_message(RemoteChanged()):
                self._posted.clear()

    # --- the app thread's side -----------------------------------------------------
    def on_remote_changed(self, message: RemoteChanged) -> None:
        self._posted.clear()  # later changes post again; this handler reads them all
        self.remote_changed()

    def remote_changed(self) -> None:
        session = self.session
        assert session is not None
        for notice in session.notices[self._notices_shown:]:
            self.notify(clean(notice, oneline=True), markup=False, timeout=4)
        self._notices_shown = len(session.notices)
        battle = next((s for s in self.screen_stack if isinstance(s, JoinedBattleScreen)), None)
        if battle is None:
            return
        battle.remote_changed()
        screen = self.screen
        if isinstance(screen, JoinedWizardScreen):
            screen.remote_changed()
        self._follow_request(battle)
        screen = self.screen
        if screen is battle:
            action = session.pending_action()
            if (action is not None and not action.mine and not action.discarded
                    and isinstance(action.resolution.step, Question | DiceRequest)):
                battle.open_foreign(action)

    def _follow_request(self, battle: JoinedBattleScreen) -> None:
        session = self.session
        req = session.request  # type: ignore[union-attr]
        asking = req is not None and req["by"] != session.side and session.side != "watch"  # type: ignore[union-attr]
        if asking and self._request_open is None and self.screen is battle:
            screen = RequestScreen(req)  # type: ignore[arg-type]
            self._request_open = screen

            def answered(accept: bool | None) -> None:
                self._request_open = None
                try:
                    session.reply(bool(accept))  # type: ignore[union-attr]
                except Refused as exc:
                    battle._error(str(exc))

            self.push_screen(screen, answered)
        elif not asking and self._request_open is not None:
            screen, self._request_open = self._request_open, None
            if screen.is_current:
                self.pop_screen()  # withdrawn (the asker left)

    # --- what a joined terminal may not do ---------------------------------------------
    def action_start_screen(self) -> None:
        self.notify("This terminal is joined to a hosted game; quit with ctrl+q.",
                    markup=False, timeout=3)


def run_app(session: Any, *, side: str | None, joined: bool = True,
            dice_mode: str = "generated") -> None:
    """Run the app on a joined session until the player quits (no mouse: on a slow
    link mouse-move reports are most of the traffic)."""
    if not joined:
        DeathzapApp(Launch("battle"), session=session, dice_mode=dice_mode).run()
        return
    JoinedApp(session, side=side, dice_mode=dice_mode).run(mouse=False)

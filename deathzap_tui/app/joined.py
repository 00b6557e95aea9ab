"""The app in a joined game: one player's terminal on a referee's table.

``run_app(session, side=..., joined=True)`` runs :class:`JoinedApp` on a
:class:`~deathzap_tui.net.client.RemoteSession`. The screens are the hot-seat ones
with what a shared table adds:

- every change the referee pushes (the other player's move, their answers, presence,
  whose turn it is, an undo request, a dropped connection) re-renders the battle
  screen and any open wizard: the session's notifier thread posts one
  :class:`RemoteChanged` message (coalesced) and the app re-reads the facade, once
  per burst of pushes (:data:`BURST`); a battle screen hidden by another screen is
  brought up to date when it shows again;
- a status line says who is connected, whose move it is and the connection;
- the wizard shows "waiting for black: saves" while another player must answer,
  offers confirm only to the player who began the action, cancels the action at the
  referee when backed out of, and closes when the referee drops it;
- every answer is shown as it is given, the other player's with the question or the
  dice it answered ("BLACK: Distance to the target? — 14"), in the wizard's history
  and, while the action is in progress, at the end of the battle log (but for a
  private answer: "BLACK answered"; see :mod:`deathzap_tui.net.views`);
- when the action in progress (anyone's) asks *this* player something (saving
  throws for their unit, a cover question), a wizard opens for it;
- undo/redo are requests: "asked black"; the opponent's request is a yes/no prompt;
- no screenshot command (the app removes it everywhere), no mouse.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Mapping
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widgets import Static

from deathzap_tui.app import describe as d
from deathzap_tui.app.app import DeathzapApp, Launch
from deathzap_tui.app.describe import side_label
from deathzap_tui.app.screens.battle import BattleScreen
from deathzap_tui.app.screens.wizard import WizardScreen
from deathzap_tui.app.text import clean
from deathzap_tui.app.widgets.log import EventLog
from deathzap_tui.app.widgets.paint import repaint
from deathzap_tui.net.wire import Waiting
from deathzap_tui.rules.ruleset import other_side
from deathzap_tui.rules.steps import Answer, Dice, DiceRequest, Question, Refused, Step

FOREIGN = object()
"""What a wizard opened for another player's action dismisses with: nothing to do."""


class RemoteChanged(Message):
    """The referee pushed something new (posted from the notifier thread)."""


BURST = 0.04
"""Seconds within which pushes are drawn as one (:meth:`JoinedApp.on_remote_changed`):
a push after a quiet spell is drawn at once; one right behind it waits until this
long after that drawing and is drawn with everything else that arrived meanwhile.
The steps of an action answered at other terminals (a player's hands on another
session, a bot) come a few milliseconds apart: without this each would re-render the
screens, opening and closing a wizard for a question already answered, the most
costly redraw there is (a screen switch restyles and repaints the whole terminal)."""


def status_text(session: Any) -> Text:
    """"you: RED · red ● black ○ watching 1 · black: saves" (plain, public facts),
    then an undo/redo request, or its answer until the game moves on ("black
    declined your undo")."""
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
    elif (answer := session.answered) is not None:
        asker = answer["by"]
        whose = "your" if asker == side else f"{asker}'s"
        who = "you" if other_side(asker) == side else other_side(asker)
        t.append(f"   {who} {answer['answer']} {whose} {answer['kind']}",
                 style="bold" if asker == side else "italic")
    return t


class RequestScreen(ModalScreen[bool]):
    """The opponent asks to undo/redo: y agrees, n declines."""

    BINDINGS: ClassVar[list[Any]] = [
        Binding("y", "answer(True)", "Agree"),
        Binding("n,escape", "answer(False)", "Decline"),
    ]
    CSS = """
    RequestScreen { align: left bottom; background: $background 30%; }
    RequestScreen > Vertical { width: 60; height: auto; border: thick $warning;
                               background: $surface; padding: 0 2; margin-bottom: 1; }
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


NOTE, LATEST, ANSWER = "note", "latest", "answer"
"""The kinds of :func:`said` lines: narrative, narrative of the latest answer, an
answer."""


def said(res: Any, side: str) -> list[tuple[str, str]]:
    """What an action in progress has said and been answered so far, in order, as
    ``side``'s terminal shows it: (kind, text), the notes of the latest answer
    marked ▶ (what that step did)."""
    answers, asked, answerers = res.answers, res.asked, res.answerers
    lines: list[tuple[str, str]] = []
    n = len(answers)
    for k in range(n + 1):
        latest = k == n and n > 0
        lines += [(LATEST, "▶ " + clean(note.text)) if latest else (NOTE, "  " + clean(note.text))
                  for note in res.ctx.notes if note.after == k]
        if k < n:
            lines.append((ANSWER, "  ✓ " + given(asked[k], answers[k], answerers[k], side)))
    return lines


def given(step: Step | None, answer: Answer | None, by: str, side: str) -> str:
    """One answer in words: this terminal's own as the wizard says it ("rolled for
    you: 3 5 6"); another player's with what it answered ("BLACK, saves: rolled 5 2",
    "BLACK: Is the target in cover? — Yes"); "BLACK answered" where it is private."""
    if step is None or answer is None:
        return f"{side_label(by)} answered"
    if by == side:
        return d.answer_line(step, answer)
    if isinstance(step, DiceRequest) and isinstance(answer, Dice):
        what = clean(step.purpose, oneline=True) or "dice"
        if answer.successes is not None:
            return f"{side_label(by)}, {what}: {answer.successes} of {step.count} succeeded"
        how = "rolled" if answer.generated else "entered"
        return f"{side_label(by)}, {what}: {how} {d.faces_text(answer.faces)}"
    return f"{side_label(by)}: {clean(step.prompt, oneline=True)} — {d.answer_line(step, answer)}"


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
        """Re-render if the action moved on; close if it was dropped or, for another
        player's action, once nothing more is asked of this player."""
        token = self.token
        if token is None or not self.is_current or not self.is_mounted:
            return  # not drawn yet: mounting draws the step as it is then
        if getattr(token, "discarded", False):
            self.app.notify("The action was dropped at the table.", markup=False, timeout=3)
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
        self._live: list[str] = []
        """The lines of the action in progress at the end of the logs (:meth:`_follow_live`)."""
        self._status: Text | None = None
        self._stale = False
        """Pushes came while another screen hid this one (:meth:`remote_changed`)."""

    def compose(self) -> ComposeResult:
        yield Static(id="net-status")
        yield from super().compose()

    def on_mount(self) -> None:
        self._follow_narrative()
        self._follow_live()
        self.show_status()

    def on_screen_resume(self) -> None:
        if self._stale:
            self.remote_changed()

    def _seen(self) -> bool:
        """On the terminal: the top screen, or under dialogs only."""
        stack = self.app.screen_stack
        return self in stack and all(isinstance(s, ModalScreen)
                                     for s in stack[stack.index(self) + 1:])

    def remote_changed(self) -> None:
        """Show what the table pushed. Behind another whole screen (the wizard, a
        unit card) none of it is seen: it is shown when this screen is again, once
        for all the pushes meanwhile (the wizard of a move gets several); an open
        unit card follows its unit (issue 22). But the end of the game is shown at
        once, over whatever is open."""
        self._stale = not self._seen() and not self.session.over
        if self._stale:
            self.follow_cards()
            return
        self._follow_narrative()
        self._follow_live()
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
        self._live = []  # dropped with the rest after ``keep``
        for log in self.query(EventLog):
            log.drop_lines(len(log.lines) - keep)
            log.add(add)

    def _follow_live(self) -> None:
        """The action in progress (anyone's), as it is answered, after the narrative:
        who is doing what, its narrative so far and every answer this terminal may
        see; gone when it is confirmed (its narrative follows) or dropped."""
        action = self.session.pending_action()
        lines: list[str] = []
        if action is not None and not action.discarded:
            label = clean(action.label, oneline=True)
            lines = [f"… {side_label(action.by)}: {label}, in progress",
                     *(text for _kind, text in said(action.resolution, self.session.side))]
        if lines == self._live:
            return
        for log in self.query(EventLog):
            log.drop_lines(len(self._live))
            log.add(lines, style="italic")
        self._live = lines

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
        self.app.notify(f"Asked {other_side(self.session.side)} to agree to {kind}.",
                        markup=False, timeout=3)
        self.show_status()


class JoinedApp(DeathzapApp):
    """The app on a :class:`~deathzap_tui.net.client.RemoteSession`."""

    def __init__(self, session: Any | None, *, side: str | None,
                 dice_mode: str = "physical") -> None:
        super().__init__(Launch("battle"), session=session, dice_mode=dice_mode)
        self.joined = True
        self.side = side
        self._posted = threading.Event()
        self._drawn_at = -BURST
        """When the pushes were last drawn (``time.monotonic``)."""
        self._held: Timer | None = None
        """The drawing of pushes held back to join a burst (:data:`BURST`)."""
        self._notices_shown = 0
        self._request_open: RequestScreen | None = None
        if session is not None:
            self.attach(session)

    def attach(self, session: Any) -> None:
        """Make ``session`` (a RemoteSession) the app's and follow what its referee
        pushes; the club's lobby attaches each game it opens."""
        self.session = session
        self.sub_title = f"{session.side} at {session.socket_path.name}"
        self._notices_shown = len(session.notices)
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
        if self._held is not None:
            return  # drawn with the burst it joins
        wait = self._drawn_at + BURST - time.monotonic()
        if wait > 0:
            self._held = self.set_timer(wait, self._draw_held)
            return
        self._draw_pushes()

    def _draw_held(self) -> None:
        self._held = None
        self._draw_pushes()

    def _draw_pushes(self) -> None:
        self._drawn_at = time.monotonic()
        self.remote_changed()

    def remote_changed(self) -> None:
        session = self.session
        assert session is not None
        for notice in session.notices[self._notices_shown:]:
            self.notify(clean(notice, oneline=True), markup=False, timeout=4)
        self._notices_shown = len(session.notices)
        battle = next((s for s in self.screen_stack if isinstance(s, JoinedBattleScreen)), None)
        if battle is None or not battle.is_mounted:
            return  # not drawn yet: mounting draws the table as it is then
        battle.remote_changed()
        screen = self.screen
        if isinstance(screen, JoinedWizardScreen):
            screen.remote_changed()
        self._follow_request(battle)
        if self.screen is battle:
            self.reopen_action(battle)

    def reopen_action(self, screen: Screen) -> None:
        """On the battle screen, open the wizard on the table's action in progress
        where this terminal has a part in it: this player's own (begun before a
        dropped link, a quit or a referee restart: the referee kept it), or another
        player's that asks this player something now."""
        action = self.session.pending_action()  # type: ignore[union-attr]
        if not isinstance(screen, JoinedBattleScreen) or action is None \
                or action.discarded or action.committed:
            return
        if action.mine or isinstance(action.resolution.step, Question | DiceRequest):
            screen.open_action(action)

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

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

import threading
import time
from typing import Any

from textual.driver import Driver
from textual.drivers.linux_driver import LinuxDriver
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer

from deathzap_tui.app.app import DeathzapApp, Launch
from deathzap_tui.app.common.text import clean
from deathzap_tui.app.frames import QuietLinuxDriver
from deathzap_tui.app.remote.battle import JoinedBattleScreen
from deathzap_tui.app.remote.request import RequestScreen
from deathzap_tui.app.remote.wizard import JoinedWizardScreen
from deathzap_tui.rules.steps import DiceRequest, Question, Refused


class RemoteChanged(Message):
    """The referee pushed something new (posted from the notifier thread)."""

BURST = 0.07
"""Seconds within which pushes are drawn as one (:meth:`JoinedApp.on_remote_changed`):
a push after a quiet spell is drawn at once; one right behind it waits until this
long after that drawing and is drawn with everything else that arrived meanwhile
(the newest state only). So a burst costs at most one drawing per ``BURST``, and an
isolated change (the opponent's move after a quiet spell) is never held. Only
pushes: what this terminal's own keys change is drawn by the screen that took them.
The steps of an action answered at other terminals (a player's hands on another
session, a bot) come a few milliseconds apart on a quiet machine, tens of
milliseconds on a busy one: without this each would re-render the screens, opening
and closing a wizard for a question already answered, the most costly redraw there
is (a screen switch restyles and repaints the whole terminal). At 40 ms a loaded
machine split a move into 7.6 frames of both apps against 6.5 at 70 ms
(docs/club-scale.md); kept under the 80 ms of quiet after which the benchmarks send
the change they time."""

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

    def get_driver_class(self) -> type[Driver]:
        """Textual's, but on a terminal an input thread that sleeps until a key comes:
        a club server runs an app per session, most of them idle at any moment."""
        driver = super().get_driver_class()
        return QuietLinuxDriver if driver is LinuxDriver else driver

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
        if wait <= 0 and self._opens_own_action():
            wait = BURST  # its answers come right behind it: open the wizard on them, once
        if wait > 0:
            self._held = self.set_timer(wait, self._draw_held)
            return
        self._draw_pushes()

    def _opens_own_action(self) -> bool:
        """Drawing the pushes now would open the wizard on this player's own action,
        begun at another of their terminals (one begun here has its wizard open
        already). That terminal answers its first steps right behind the push that
        began it: drawn at once, the wizard would open on a step already answered and
        be drawn again for the answers (issue 24, ``benchmarks/joined_move.py``: the
        mover's app drew 3.2-3.5 frames a move for 35-41 ms of CPU, 2 frames and 18-23
        ms held)."""
        stack = self.screen_stack
        if not stack or not isinstance(stack[-1], JoinedBattleScreen) or self.session is None:
            return False  # no wizard opens there (the club's lobby, between games)
        action = self._action_to_open(stack[-1])
        return action is not None and action.mine

    def _draw_held(self) -> None:
        self._held = None
        self._draw_pushes()

    def _draw_pushes(self) -> None:
        self._drawn_at = time.monotonic()
        self.remote_changed()

    def remote_changed(self) -> None:
        stack = self.screen_stack
        if not (self.is_running and stack and stack[-1].is_attached and stack[-1].is_running):
            return  # the app is exiting (its screens closed one by one): nothing to draw
        session = self.session
        assert session is not None
        for notice in session.notices[self._notices_shown:]:
            self.notify(clean(notice, oneline=True), markup=False, timeout=4)
        self._notices_shown = len(session.notices)
        battle = next((s for s in self.screen_stack if isinstance(s, JoinedBattleScreen)), None)
        if battle is None or not battle.is_mounted:
            return  # not drawn yet: mounting draws the table as it is then
        screen = self.screen
        if isinstance(screen, JoinedWizardScreen):
            screen.remote_changed()  # closing, it brings the board up to date first
        self._follow_request(battle)
        action = self._action_to_open(self.screen)
        # A board a wizard is about to cover is drawn when it shows again, once.
        battle.remote_changed(covered=action is not None)
        if action is not None:
            battle.open_action(action)

    def reopen_action(self, screen: Screen) -> None:
        """On the battle screen, open the wizard on the table's action in progress
        where this terminal has a part in it: this player's own (begun before a
        dropped link, a quit or a referee restart: the referee kept it), or another
        player's that asks this player something now."""
        action = self._action_to_open(screen)
        if action is not None:
            screen.open_action(action)  # type: ignore[attr-defined]

    def _action_to_open(self, screen: Screen) -> Any | None:
        """The action :meth:`reopen_action` opens the wizard on, if any."""
        action = self.session.pending_action()  # type: ignore[union-attr]
        if not isinstance(screen, JoinedBattleScreen) or action is None \
                or action.discarded or action.committed:
            return None
        if action.mine or isinstance(action.resolution.step, Question | DiceRequest):
            return action
        return None

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

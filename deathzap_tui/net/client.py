"""A client of a referee, behind the same facade as :class:`~deathzap_tui.session.Session`.

Threading: the connection runs on its own thread with its own asyncio loop, so the
facade stays synchronous like the local session: ``begin``, ``answer``, ``back``,
``commit`` ... send a request and block for the referee's reply (well under a
millisecond on this machine), raising :class:`Refused` with the referee's reason.
``view()``, ``intents()``, ``narrative()``, ``over``... read the last snapshot the
referee pushed and never block.

Change notifications: :meth:`RemoteSession.subscribe` registers ``callback(session)``,
called on a notifier thread (never the app's, never the network's) after each pushed
snapshot has been applied. From a Textual app use ``app.call_from_thread(...)`` or
``app.post_message(...)`` inside it; both are safe here because the notifier thread
is neither the app's thread nor the network thread a facade call waits on.

A dropped connection is retried (``reconnect`` seconds, default 600); while it is
down facade calls raise :class:`Disconnected` (a :class:`Refused`). The referee
keeps an action its player had not finished when the connection dropped: after the
reconnect the same :class:`RemoteAction` goes on at the step it was at; one the
referee no longer has (a restarted referee resumes it as a new action) is marked
``discarded``. An action that leaves the table says how it ended
(:attr:`RemoteAction.ended`): committed or cancelled, wherever that was done (another
terminal of the same player, issue 23).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import itertools
import queue
import threading
import time
import traceback
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deathzap_tui.net import protocol
from deathzap_tui.net.wire import (
    COMMITTED,
    Ended,
    Waiting,
    answer_out,
    ended_from_data,
    intent_from_data,
    step_from_data,
    view_from_data,
)
from deathzap_tui.rules import registry
from deathzap_tui.rules.events import RESOLVE, Event
from deathzap_tui.rules.reportdata import report_from_json
from deathzap_tui.rules.ruleset import BoardView, IntentOption, Ruleset
from deathzap_tui.rules.steps import Answer, Note, Refused, Step, answer_from_data

if TYPE_CHECKING:
    from deathzap_tui.rules.report import GameReport


class Disconnected(Refused):
    """Not connected to the referee (yet, or any more)."""


class _Notes:
    """Stands in for ``Resolution.ctx``: only ``notes`` is meaningful remotely. A
    client holds no game state (it may be hidden), so ``state`` is ``None`` and
    ``facts`` empty: the wizard's odds panel shows nothing for a remote action."""

    def __init__(self) -> None:
        self.notes: list[Note] = []
        self.state: Any = None
        self.facts: dict[str, Any] = {}


class _ForceName:
    def __init__(self, name: str) -> None:
        self.name = name


class _RemoteGame:
    """Stands in for ``Session.game`` where the app only reads the forces' names
    (``game.red.name``); a remote session holds no game, seed or hidden state."""

    def __init__(self) -> None:
        self.red = _ForceName("")
        self.black = _ForceName("")


class RemoteResolution:
    """Quacks like :class:`~deathzap_tui.rules.steps.Resolution` for the app.

    ``step`` is a :class:`Question` / :class:`DiceRequest` when this player must
    answer it, a :class:`~.wire.Waiting` when another player must (it updates live),
    ``None`` when finished. ``answers`` holds each answer as it is given, and
    ``asked`` the step it answered (as :class:`~deathzap_tui.rules.steps.Resolution`'s,
    with only the choice taken); both are ``None`` for an answer this player may not
    see. ``answerers`` says who gave each.
    """

    def __init__(self, action: RemoteAction) -> None:
        self._action = action
        self.step: Step | Waiting | None = None
        self.answers: list[Answer | None] = []
        self.asked: list[Step | None] = []
        self.answerers: list[str] = []
        self.ctx = _Notes()

    @property
    def done(self) -> bool:
        return self.step is None

    @property
    def waiting(self) -> bool:
        """The pending step is another player's to answer."""
        return isinstance(self.step, Waiting)

    def answer(self, answer: Answer) -> Step | Waiting | None:
        if isinstance(self.step, Waiting):
            raise Refused(f"this is for {self.step.side} to answer")
        try:
            data = answer_out(answer)
        except ValueError as exc:
            raise Refused(str(exc)) from None
        self._action._request("answer", answer=data)
        return self.step

    def back(self) -> Step | Waiting | None:
        self._action._request("back")
        return self.step

    def _apply(self, p: Mapping[str, Any]) -> None:
        self.step = step_from_data(p["step"])
        self.answers = [None if a is None else answer_from_data(a) for a in p["answers"]]
        self.asked = [step_from_data(s) for s in p["asked"]]
        self.answerers = list(p["answerers"])
        self.ctx.notes = [Note(after, text) for after, text in p["notes"]]


class RemoteAction:
    """Stands in for :class:`~deathzap_tui.rules.game.Action`."""

    def __init__(self, session: RemoteSession, aid: int, by: str,
                 intent: Mapping[str, Any]) -> None:
        self.session = session
        self.aid = aid
        self.by = by
        self.intent = dict(intent)
        self.label = str(intent.get("type", ""))
        self.resolution = RemoteResolution(self)
        self.discarded = False
        self.committed = False
        self.ended: Ended | None = None
        """How it ended at the table, as the referee said (committed: ``committed``
        is set; cancelled: ``discarded``); ``None`` while in progress, or when it was
        dropped without a word (a referee restarted, or too old to say)."""

    @property
    def mine(self) -> bool:
        """Begun by this player (who alone may confirm or cancel it)."""
        return self.by == self.session.side

    def cancel(self) -> None:
        """Drop the action (the acting player only); nothing is written."""
        if not self.discarded and not self.committed:
            self._request("cancel")
            self.discarded = True

    def _request(self, t: str, **fields: Any) -> dict[str, Any]:
        if self.discarded:
            raise Refused("this action was discarded")
        return self.session._call(t, aid=self.aid, **fields)

    def _apply(self, p: Mapping[str, Any]) -> None:
        self.intent = dict(p["intent"]) if self.mine else self.intent
        self.label = p.get("label", self.label)
        self.resolution._apply(p)


KEPT_UPDATES = 256
"""Narrative updates remembered for :meth:`RemoteSession.narrative_since`; a reader
further behind is sent the whole narrative again."""


class RemoteSession:
    """The facade of :class:`~deathzap_tui.session.Session` over a referee connection.

    Besides the facade: ``side``, ``presence`` ({"red": n, "black": n, "watch": n}),
    ``turn`` ({"side", "text"}: whose move it is), ``request`` (an undo/redo the
    opponent asked for, or ``None``) and :meth:`reply`, :meth:`pending_action`,
    :attr:`notices`, :meth:`subscribe`, :attr:`connected`, :meth:`close`.
    """

    def __init__(self, socket_path: str | Path, side: str, *, name: str = "",
                 timeout: float = 10.0, reconnect: float = 600.0) -> None:
        if side not in protocol.ROLES:
            raise ValueError(f"side must be one of {', '.join(protocol.ROLES)}")
        self.socket_path = Path(socket_path)
        self.side = side
        self.name = name
        self.timeout = timeout
        self.reconnect = reconnect
        self.connected = False
        self.closed = False
        self.error = ""
        """Why the last connection attempt failed or ended ("" if fine)."""
        self.notices: list[str] = []
        self.seq = 0
        self.changes = 0
        """How many changes the referee has made to what this session shows (states,
        presence, notices, the connection): a reader that has shown this many has
        nothing new to show."""
        self._snap: dict[str, Any] = {}
        self._view: BoardView | None = None
        self._intents: list[IntentOption] = []
        self._narrative: list[str] = []
        self._told = 0
        """How many narrative updates have been applied (see :meth:`narrative_since`)."""
        self._keeps: collections.deque[int] = collections.deque(maxlen=KEPT_UPDATES)
        """The lines each recent update kept, newest last."""
        self._ruleset: Ruleset[Any, Any] | None = None
        self.game = _RemoteGame()
        """Only ``game.red.name`` / ``game.black.name`` (the forces' names)."""
        self._action: RemoteAction | None = None
        self._ids = itertools.count(1)
        self._waiters: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._listeners: list[Callable[[RemoteSession], None]] = []
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._events: queue.SimpleQueue[RemoteSession | None] = queue.SimpleQueue()
        self._loop = asyncio.new_event_loop()
        self._writer: asyncio.StreamWriter | None = None
        self._thread = threading.Thread(target=self._run, name="deathzap-net", daemon=True)
        self._notifier = threading.Thread(target=self._notify_loop, name="deathzap-notify",
                                          daemon=True)

    # --- life cycle ------------------------------------------------------------------
    @classmethod
    def connect(cls, socket_path: str | Path, side: str, **kw: Any) -> RemoteSession:
        """Connect and wait for the first snapshot; raise :class:`Disconnected` with
        the referee's reason (or the socket error) if that fails."""
        session = cls(socket_path, side, **kw)
        session.start()
        return session

    def start(self) -> None:
        self._first = threading.Event()
        self._thread.start()
        self._notifier.start()
        if not self._first.wait(self.timeout) or not self._snap:
            self.close()
            raise Disconnected(self.error or f"no answer from the referee at {self.socket_path}")

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        if self._loop.is_running():
            self._loop.call_soon_threadsafe(self._shutdown)
        self._thread.join(5)
        self._events.put(None)

    def _shutdown(self) -> None:
        for task in asyncio.all_tasks(self._loop):
            task.cancel()

    def subscribe(self, callback: Callable[[RemoteSession], None]) -> None:
        self._listeners.append(callback)

    def wait_for(self, predicate: Callable[[RemoteSession], bool], timeout: float = 5.0) -> bool:
        """Block until ``predicate(self)`` holds after a push (tests, scripts)."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while not predicate(self):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(left)
        return True

    # --- the facade ---------------------------------------------------------------
    @property
    def ruleset(self) -> Ruleset[Any, Any]:
        assert self._ruleset is not None
        return self._ruleset

    def view(self) -> BoardView:
        assert self._view is not None
        return self._view

    def intents(self) -> list[IntentOption]:
        return list(self._intents)

    def begin(self, intent: Mapping[str, Any], by: str = "") -> RemoteAction:
        self._check_by(by)
        p = self._call("begin", intent=dict(intent))["pending"]
        with self._lock:
            action = self._action  # the reply's pending was applied as it arrived
            if action is None or action.aid != p["aid"]:  # a later push dropped it
                action = RemoteAction(self, p["aid"], p["by"], intent)
                action._apply(p)
                action.discarded = True
        return action

    def commit(self, action: RemoteAction) -> Event:
        action.committed = True  # before the referee's push can arrive
        try:
            action._request("commit")
        except Refused:
            action.committed = False
            raise
        return Event(RESOLVE, {"intent": dict(action.intent)}, action.by)

    def undo(self, by: str = "") -> None:
        """Ask the opponent to agree to an undo; the answer arrives as a notice and a
        new snapshot. Returns ``None`` (the local session returns the event)."""
        self._check_by(by)
        self._call("undo")

    def redo(self, by: str = "") -> None:
        self._check_by(by)
        self._call("redo")

    @property
    def can_undo(self) -> bool:
        return bool(self._snap.get("can_undo")) and self.side != "watch"

    @property
    def can_redo(self) -> bool:
        return bool(self._snap.get("can_redo")) and self.side != "watch"

    @property
    def over(self) -> bool:
        return bool(self._snap.get("over"))

    def narrative(self, last: int | None = None) -> list[str]:
        """The narrative the referee sent this player (always the whole of it: the
        referee counts lines, not events, so ``last`` is accepted and ignored)."""
        return list(self._narrative)

    def narrative_since(self, seen: int) -> tuple[int, int, list[str]]:
        """What changed in the narrative for a reader who has seen it as of update
        ``seen`` (-1: nothing yet): ``(update now, lines to keep, lines to add)``.
        Costs only the change, so a terminal follows a long game at no growing cost."""
        with self._lock:
            back = self._told - seen
            if back == 0:
                return self._told, len(self._narrative), []
            keep = min(list(self._keeps)[-back:]) if 0 < back <= len(self._keeps) else 0
            return self._told, keep, self._narrative[keep:]

    # --- beyond the local facade -----------------------------------------------------
    @property
    def presence(self) -> dict[str, int]:
        return dict(self._snap.get("presence", {}))

    @property
    def turn(self) -> dict[str, str]:
        return dict(self._snap.get("turn", {"side": "", "text": ""}))

    @property
    def request(self) -> dict[str, str] | None:
        """The undo/redo request waiting at the table, ``{"kind", "by"}``."""
        return self._snap.get("request")

    @property
    def answered(self) -> dict[str, Any] | None:
        """The answer to the last undo/redo request, ``{"kind", "by", "answer"}``
        ("agreed to" or "declined"), until the game moves on."""
        return self._snap.get("answered")

    @property
    def events(self) -> int:
        """How many events the game's log holds (for "seen" marks)."""
        return int(self._snap.get("events", 0))

    def report(self) -> GameReport:
        """The end-of-game report of the referee's game (same as a local
        ``Session.report()``); refused (:class:`Refused`) until the game is over.
        Blocks for the referee's replay of the game: call it off the app's thread."""
        data = self._call("report").get("report")
        try:
            return report_from_json(data)
        except ValueError as exc:
            raise Refused(f"the referee sent a report this terminal cannot read ({exc})") \
                from None

    def reply(self, accept: bool) -> None:
        """Agree to (or decline) the opponent's undo/redo request."""
        self._call("reply", accept=accept)

    def pending_action(self) -> RemoteAction | None:
        """The action in progress at the table (anyone's), kept up to date; its
        ``resolution.step`` is a :class:`Waiting` unless this player must answer."""
        return self._action

    # --- plumbing -----------------------------------------------------------------
    def _check_by(self, by: str) -> None:
        if by and by != self.side:
            raise Refused(f"you play {self.side}, not {by}")

    def _call(self, t: str, **fields: Any) -> dict[str, Any]:
        if self.closed:
            raise Disconnected("the connection is closed")
        if threading.current_thread() in (self._thread, self._notifier):
            raise RuntimeError("RemoteSession calls cannot be made from its own threads")
        try:
            fut = asyncio.run_coroutine_threadsafe(self._send_request(t, fields), self._loop)
        except RuntimeError:  # the loop has ended
            raise Disconnected(f"not connected to the referee ({self.error})") from None
        try:
            reply = fut.result(self.timeout)
        except TimeoutError:
            fut.cancel()
            raise Disconnected("the referee did not answer in time") from None
        if reply.get("t") == "error":
            raise Refused(reply.get("message", "refused"))
        return reply

    async def _send_request(self, t: str, fields: dict[str, Any]) -> dict[str, Any]:
        if self._writer is None or not self.connected:
            raise Disconnected(f"not connected to the referee ({self.error or 'reconnecting'})")
        rid = next(self._ids)
        fut: asyncio.Future[dict[str, Any]] = self._loop.create_future()
        self._waiters[rid] = fut
        try:
            self._writer.write(protocol.encode({"t": t, "id": rid, **fields}))
            return await fut
        finally:
            self._waiters.pop(rid, None)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        with contextlib.suppress(asyncio.CancelledError):
            self._loop.run_until_complete(self._main())
        self.closed = True  # no more requests; let those already queued fail now
        with contextlib.suppress(asyncio.CancelledError):
            self._loop.run_until_complete(asyncio.sleep(0))
            rest = asyncio.all_tasks(self._loop)
            self._loop.run_until_complete(asyncio.gather(*rest, return_exceptions=True))
        self._loop.close()
        with self._lock:
            self._changed.notify_all()

    async def _main(self) -> None:
        started = time.monotonic()
        delay = 0.05
        while not self.closed:
            try:
                await self._session()
                delay = 0.05
                started = time.monotonic()
            except (OSError, protocol.ProtocolError, protocol.BadMessage, KeyError,
                    TypeError) as exc:
                self.error = str(exc) or type(exc).__name__
            finally:
                self._lost()
            if not self._first.is_set() or self.closed:
                self._first.set()  # the first connection failed: start() reports it
                return
            if time.monotonic() - started > self.reconnect:
                return
            await asyncio.sleep(delay)
            delay = min(delay * 2, 1.0)

    async def _session(self) -> None:
        sock = await asyncio.to_thread(protocol.connect_unix, str(self.socket_path),
                                       self.timeout)
        reader, writer = await asyncio.open_unix_connection(sock=sock)
        self._writer = writer
        try:
            writer.write(protocol.encode({"t": "hello", "v": protocol.VERSION,
                                          "side": self.side, "name": self.name}))
            while True:
                body = await protocol.read_frame(reader, protocol.MAX_SERVER_FRAME)
                if body is None:
                    if not self.error:
                        self.error = "the referee closed the connection"
                    return
                self._received(protocol.decode(body))
        finally:
            writer.close()

    def _received(self, msg: dict[str, Any]) -> None:
        t = msg["t"]
        if t == "welcome":
            self._ruleset = registry.get(msg["ruleset"])
            names = msg.get("names") or {}
            for side in ("red", "black"):
                getattr(self.game, side).name = str(names.get(side, ""))[:200]
            self.connected = True
            self.error = ""
        elif t == "state":
            self._apply_state(msg)
            self._first.set()
        elif t in ("ok", "error") and msg.get("id") in self._waiters:
            if "pending" in msg:
                # Applied here, in the order the referee sent it, never by the caller
                # once it wakes: by then a newer push (the other player's answer) may
                # have arrived, and the reply's older state would overwrite it.
                with self._lock:
                    self._apply_pending(msg["pending"])
                    self._note_change()
            fut = self._waiters[msg["id"]]
            if not fut.done():
                fut.set_result(msg)
        elif t in ("error", "bye"):
            self.error = msg.get("message", "")
            if t == "error" and not self.connected:
                self.closed = True  # refused at hello: retrying will not help
        elif t == "presence":  # only who is connected changed
            with self._lock:
                self._snap = {**self._snap, "presence": dict(msg["presence"])}
                self._note_change()
            self._events.put(self)
        elif t == "notice":
            with self._lock:
                self.notices.append(msg.get("message", ""))
                self.changes += 1
            self._events.put(self)

    def _apply_state(self, msg: dict[str, Any]) -> None:
        # Most pushes (an answer given, who is connected) leave the board as it was:
        # its objects are kept, so that a terminal sees at once it need not redraw it.
        last = self._snap
        view = self._view if self._view is not None and msg["view"] == last.get("view") \
            else view_from_data(msg["view"])
        intents = self._intents if msg["intents"] == last.get("intents") \
            else [intent_from_data(o) for o in msg["intents"]]
        p = msg.get("pending")
        with self._lock:
            self._apply_narrative(msg["narrative"]["keep"], msg["narrative"]["add"])
            self._view, self._intents, self._snap, self.seq = view, intents, msg, msg["seq"]
            self._apply_pending(p, ended_from_data(msg.get("ended")))
            self._note_change()
        self._events.put(self)

    def _apply_narrative(self, keep: int, add: list[str]) -> None:
        """The referee's narrative update (under the lock): keep ``keep`` lines, add
        ``add``."""
        del self._narrative[keep:]
        self._narrative.extend(add)
        self._keeps.append(keep)
        self._told += 1

    def _apply_pending(self, p: Mapping[str, Any] | None, ended: Ended | None = None) -> None:
        """The action in progress as the referee last described it (under the lock):
        ``None`` drops ours; another id replaces it. ``ended``: how the table's last
        action ended (a push's; a reply's says nothing: its push came first)."""
        action = self._action
        if action is not None and (p is None or action.aid != p["aid"]):
            self._leave(action, ended)
        if p is None:
            self._action = None
            return
        if action is None or action.aid != p["aid"]:
            action = RemoteAction(self, p["aid"], p["by"], p["intent"])
            self._action = action
        action._apply(p)

    @staticmethod
    def _leave(action: RemoteAction, ended: Ended | None) -> None:
        """``action`` left the table: committed, or else dropped (cancelled, or with
        no word of how); ``ended`` says which, if it is about this action."""
        if ended is not None and (ended.aid, ended.by) == (action.aid, action.by):
            action.ended = ended
            if ended.how == COMMITTED:
                action.committed = True
        if not action.committed:
            action.discarded = True

    def _note_change(self) -> None:
        """(Under the lock.) Something this session shows changed: count it for
        readers (:attr:`changes`) and wake whoever waits for a state."""
        self.changes += 1
        self._changed.notify_all()

    def _lost(self) -> None:
        was = self.connected
        self.connected = False
        self._writer = None
        for fut in self._waiters.values():
            if not fut.done():
                fut.set_exception(Disconnected(f"connection lost: {self.error}"))
        with self._lock:  # the action in progress stays: the referee keeps it for us
            self._note_change()
        if was:
            self._events.put(self)

    def _notify_loop(self) -> None:
        while (item := self._events.get()) is not None:
            for callback in list(self._listeners):
                try:
                    callback(item)
                except Exception:  # a listener's bug must not stop the notifications

                    traceback.print_exc()

"""The referee: the only writer of a hosted game.

:class:`Table` is the game logic of hosting (who may do what, one action at a time,
undo by agreement, per-viewer snapshots); it is synchronous and knows no sockets.
:class:`Referee` serves a table on a Unix socket with asyncio: one task per client,
every change pushed to every client as a snapshot built for that client's side (the
players' first; :class:`Limits` keeps floods of connections from starving them).

Durability: the table's :class:`~deathzap_tui.session.Session` saves atomically (with
fsync) inside ``commit``/``undo``/``redo``, before the call returns, so the ``ok``
for a commit is only sent once the event is on disk. The action in progress is kept
with the save the same way at every begin, answer and step back
(``Session.keep_action``), and stays when its player's connection drops. A referee
killed at any moment restarts from the save at the same step of the action in
progress, with at most the unacknowledged request lost.

A club's referee (issue 24) serves many games on one event loop: its game's store
lets the writes wait while a request is applied, makes them on a writer thread, and
the referee tells the terminals (the new state, then ``ok``) once they are kept
(:class:`~deathzap_tui.gamestore.WriteBehind`); the table's :class:`Turn` keeps
every change of it in order meanwhile, and other games go on.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import itertools
import os
import socket
import struct
import sys
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deathzap_tui.gamestore import Conflict, StoreError, WriteBehind
from deathzap_tui.net import protocol, views
from deathzap_tui.net.limits import FairQueue, Limits, Lobby, Rate
from deathzap_tui.net.protocol import BadMessage, ProtocolError
from deathzap_tui.net.wire import CANCELLED, COMMITTED, answer_in, step_to_data, to_data
from deathzap_tui.rules.events import RESOLVE, Event
from deathzap_tui.rules.game import Action
from deathzap_tui.rules.narration import side_name
from deathzap_tui.rules.ruleset import SIDES, WATCH, other_side
from deathzap_tui.rules.steps import Answer, Dice, Note, Refused, answer_to_data

MAX_BAD_MESSAGES = 20
MAX_BUFFERED = 4 * 1024 * 1024
BACKLOG = 4096
"""Connections the kernel queues for the referee (capped by the system's somaxconn)."""
ACCEPT_BATCH = 64
"""Connections taken from the kernel's queue at most per turn of the event loop."""
READ_ONLY = frozenset({"ping", "report"})
"""Requests that change nothing at the table, so push no new snapshot."""


@dataclass
class Pending:
    """The one action being resolved at the table."""

    aid: int
    action: Action
    answerers: list[str] = field(default_factory=list)
    """Who gave each answer so far (same length as the resolution's answers)."""
    logged: int = 0
    """The game's log length when this table took the action on (:meth:`Table.follow`
    tells its commit by another front-end from what follows it)."""

    @property
    def answerer(self) -> str:
        """Who must act next: the step's side, else the acting player (who also
        commits a finished resolution)."""
        step = self.action.resolution.step
        return (step.side if step is not None and step.side else "") or self.action.by


class Table:
    """A hosted game: a session and the rules of sharing it. Not thread-safe; the
    referee calls it from its event loop only."""

    def __init__(self, session: Any, seen: Callable[[str, int], None] | None = None, *,
                 typed_dice: bool = True) -> None:
        self.session = session
        self.typed_dice = typed_dice
        """Whether a player may type the faces of dice they rolled themselves; a table
        hosted with ``--dice generated`` rolls every die itself and refuses them."""
        self.game = session.game
        self.ruleset = session.ruleset
        self.request: dict[str, str] | None = None
        self.answered: dict[str, Any] | None = None
        """The last request's answer (``kind``, ``by``, ``answer``: "agreed to" or
        "declined", and the log's length then), shown until the log moves on."""
        self.connected: dict[str, int] = {"red": 0, "black": 0, "watch": 0}
        self.elsewhere: dict[str, int] = {"red": 0, "black": 0, "watch": 0}
        """Who is at this game's table on a club's other front-ends (issue 24), as
        they said (:attr:`share`)."""
        self.share: Callable[[str], None] | None = None
        """Told ``"seat"`` (who is connected here changed), ``"ask"`` (a request made
        here), ``"reply"`` (a request answered here: :attr:`answered`) and
        ``"withdraw"`` (the asker left): a club's front-ends pass these on to the
        others' tables of the game (:mod:`deathzap_tui.club.across`)."""
        self._aids = itertools.count(1)
        self.notice = ""
        """What became of the action kept in progress by the last referee of this
        save (resumed, or dropped and why); "" if there was none."""
        self.pending: Pending | None = self._resume()
        self.ended: tuple[int, str, str, list[Note]] | None = None
        """How the last action ended, until the next begins: its id, who began it,
        :data:`~.wire.COMMITTED` or :data:`~.wire.CANCELLED`, and its event's notes
        (a commit's; else none). Pushed to every terminal (:meth:`ended_for`), so
        that another terminal of the same player can tell a commit from a cancel."""
        self._seen = seen
        self._report: tuple[int, asyncio.Future[dict[str, Any]]] | None = None
        """The last report asked for: (length of the log then, its JSON to come)."""

    # --- actions ----------------------------------------------------------------
    def begin(self, side: str, intent: Mapping[str, Any]) -> int:
        self._player(side)
        if self.pending is not None:
            p = self.pending
            raise Refused(f"{p.action.by} is in the middle of "
                          f"{self._label(p.action.intent)}; wait for it to finish")
        if self.request is not None:
            raise Refused(f"{self.request['by']} asked to {self.request['kind']}; "
                          "that must be answered first")
        self._check_turn(side, intent)
        try:
            action = self.session.begin(intent, side)
        except Refused:
            raise
        except Exception as exc:  # a malformed intent the ruleset did not expect
            raise Refused(f"not a valid intent ({type(exc).__name__})") from None
        self.pending = Pending(next(self._aids), action, logged=len(self.game.log))
        self.ended = None
        self.session.keep_action(action)
        return self.pending.aid

    def answer(self, side: str, aid: int, data: Any) -> None:
        p = self._pending(side, aid)
        if p.action.resolution.step is None:
            raise Refused("the action is complete; it only needs confirming")
        if p.answerer != side:
            raise Refused(f"this is for {p.answerer} to answer")
        answer: Answer = answer_in(data)
        if isinstance(answer, Dice) and answer.generated and answer.faces:
            # Only the referee rolls: whether it took a client's faces would tell the
            # dice to come before they are rolled.
            raise Refused('generated dice are rolled by the referee: answer {"roll": true}')
        if isinstance(answer, Dice) and not answer.generated and not self.typed_dice:
            raise Refused("this table rolls every die itself (hosted with --dice generated): "
                          'answer {"roll": true} (ctrl+r)')
        res = p.action.resolution
        try:
            res.answer(answer)
        except Refused:
            raise
        except Exception as exc:  # a rules bug must not take the table down
            with contextlib.suppress(Exception):
                res.replay(list(res.answers))
            raise Refused(f"the rules could not take that answer ({type(exc).__name__})") \
                from None
        p.answerers.append(side)
        self.session.keep_action(p.action)

    def back(self, side: str, aid: int) -> None:
        p = self._pending(side, aid)
        if not p.answerers:
            raise Refused("nothing to take back")
        if p.answerers[-1] != side:
            raise Refused(f"the last answer was {p.answerers[-1]}'s to take back")
        p.action.resolution.back()
        p.answerers.pop()
        self.session.keep_action(p.action)

    def cancel(self, side: str, aid: int) -> Event | None:
        """Drop the action in progress. What it showed stays spent, as at a table
        (:meth:`~deathzap_tui.rules.game.Game.cancel`): dice rolled stay rolled, a
        turned card stays turned (the draw stands). The event that records it, if any."""
        p = self._pending(side, aid)
        if p.action.by != side:
            raise Refused(f"only {p.action.by} can cancel this")
        event = self.session.cancel(p.action)  # saved (fsync) before this returns
        self.pending = None
        self._end(p, CANCELLED)
        self.session.keep_action(None)
        return event

    def commit(self, side: str, aid: int) -> Event:
        p = self._pending(side, aid)
        if p.action.by != side:
            raise Refused(f"only {p.action.by} can confirm this")
        if not p.action.resolution.done:
            raise Refused("the action is not finished")
        event = self.session.commit(p.action)  # saved (fsync) before this returns
        self.pending = None
        self._end(p, COMMITTED)
        return event

    def _end(self, p: Pending, how: str) -> None:
        """Record how ``p`` ended (:attr:`ended`): its commit's notes are those of the
        event it took first, the log's ``p.logged``-th (events another front-end kept
        after it may have come with it, :meth:`follow`)."""
        notes: list[Note] = []
        if how == COMMITTED and len(self.game.log) > p.logged:
            event = self.game.log[p.logged]
            notes = next((n for e, n in self.game.history(len(self.game.log) - p.logged)
                          if e is event), [])
        self.ended = (p.aid, p.action.by, how, notes)

    # --- undo / redo by agreement ---------------------------------------------------
    def ask(self, side: str, kind: str) -> None:
        self._player(side)
        if self.pending is not None:
            raise Refused("finish or cancel the action in progress first")
        if self.request is not None:
            raise Refused(f"{self.request['by']} already asked to {self.request['kind']}")
        if not (self.session.can_undo if kind == "undo" else self.session.can_redo):
            raise Refused(f"nothing to {kind}")
        if not self.presence()[other_side(side)]:
            raise Refused(f"{other_side(side)} is not at the table to agree; ask again "
                          "when they are back")
        self.request, self.answered = {"kind": kind, "by": side}, None
        self._share("ask")

    def reply(self, side: str, accept: bool) -> tuple[dict[str, str], Event | None]:
        self._player(side)
        req = self.request
        if req is None or req["by"] == side:
            raise Refused("there is no request to answer")
        self.request = None
        event = None
        if accept:
            event = (self.session.undo if req["kind"] == "undo" else self.session.redo)(
                req["by"])
        self.answered = {**req, "answer": "agreed to" if accept else "declined",
                         "events": len(self.game.log)}
        self._share("reply")
        return req, event

    # --- presence ----------------------------------------------------------------
    def presence(self) -> dict[str, int]:
        """Who is at the table: connected here and on a club's other front-ends."""
        return {role: n + self.elsewhere.get(role, 0) for role, n in self.connected.items()}

    def _share(self, what: str) -> None:
        if self.share is not None:
            self.share(what)

    def joined(self, role: str) -> None:
        self.connected[role] += 1
        self._share("seat")

    def left(self, role: str) -> bool:
        """A client went away; drop its undo/redo request. True if it had one. Its
        action in progress stays, kept with the save, for it to go on with when it
        joins again (a dropped link, a closed terminal: issue 26)."""
        self.connected[role] -= 1
        self.mark_seen(role)
        self._share("seat")
        if role not in SIDES or self.connected[role]:
            return False
        if self.request is not None and self.request["by"] == role:
            self._share("withdraw")
            self.request = None
            return True
        return False

    def follow(self, session: Any | None = None) -> None:
        """The game's store changed under this table (issue 24: another front-end of
        a club wrote to it; its new events are applied to :attr:`game` already): take
        the action in flight as the store has it now. ``session``: the game loaded
        again, whole (after a :class:`~deathzap_tui.gamestore.Conflict`, when this
        table's own game had taken an event the store refused)."""
        if session is not None:
            self.session, self.game = session, session.game
            self.request, self._report = None, None
        before, self.pending = self.pending, self._resume()
        if before is None:
            return
        if self.pending is not None and (before.action.by, before.action.intent) == \
                (self.pending.action.by, self.pending.action.intent):
            self.pending.aid = before.aid  # the same action, answered further
            self.pending.logged = before.logged
            return
        if session is not None:  # loaded again: this table cannot tell how it ended
            self.ended = None
            return
        log = self.game.log  # ended on another front-end: committed, if its event came
        first = log[before.logged] if len(log) > before.logged else None
        committed = first is not None and first.kind == RESOLVE \
            and first.by == before.action.by and first.data.get("intent") == before.action.intent
        self._end(before, COMMITTED if committed else CANCELLED)

    def _resume(self) -> Pending | None:
        """The action a player had in progress when this save's referee last stopped
        (killed, restarted), at the same step (``Session.kept_action``); sets
        :attr:`notice`. An action kept by a shared terminal (by no side) stays for
        that terminal: no player here could confirm or cancel it."""
        action, self.notice = self.session.kept_action()
        if action is None or action.by not in SIDES:
            return None
        by = action.by
        self.notice = (f"{by}'s {self._label(action.intent)} was in progress: it goes on "
                       f"where it was ({len(action.resolution.answers)} answers given)")
        return Pending(next(self._aids), action, [s.side or by for s in action.resolution.asked],
                       len(self.game.log))

    def mark_seen(self, role: str) -> None:
        """Record that ``role`` has seen the whole log (when it leaves, or the referee
        stops: not per event, to keep fsyncs off the hot path; a mark lost to a crash
        only repeats a summary)."""
        if self._seen is not None and role in SIDES:
            self._seen(role, len(self.game.log))

    # --- what each viewer sees --------------------------------------------------
    def narrative(self, viewer: str | None) -> list[str]:
        return [n.text for _e, notes in self.game.history()
                for n in views.notes_for(notes, viewer)]

    def tell(self, told: Told, viewer: str | None) -> tuple[int, list[str]]:
        """What ``viewer``, who has been told ``told``, must be sent now: how many of
        its lines to keep and the lines to add after them; ``told`` is brought up to
        date. The events in force change only at their end (new events, undo, redo),
        so only the events since the last both share are narrated again: a push
        costs about the same at event 10 and 10,000."""
        game = self.game
        shared = min(len(told.ids), game.in_force)
        while shared and id(game.history(game.in_force - shared + 1)[0][0]) \
                != told.ids[shared - 1]:
            shared -= 1  # undone since: walk back to the last event both share
        keep = told.lines[shared - 1] if shared else 0
        del told.ids[shared:], told.lines[shared:]
        add: list[str] = []
        for event, notes in game.history(game.in_force - shared):
            add += [n.text for n in views.notes_for(notes, viewer)]
            told.ids.append(id(event))
            told.lines.append(keep + len(add))
        return keep, add

    def turn(self) -> dict[str, str]:
        p = self.pending
        if p is not None:
            step = p.action.resolution.step
            who = p.answerer
            if step is None:
                return {"side": who, "text": f"{side_name(who)} to confirm: "
                                             f"{self._label(p.action.intent)}"}
            what = views.step_for(step, who, None)
            return {"side": who,
                    "text": f"{side_name(who)}: {what.text}"}  # type: ignore[union-attr]
        if self.request is not None:
            who = other_side(self.request["by"])
            return {"side": who, "text": f"{side_name(who)} to answer "
                                         f"{side_name(self.request['by'])}'s "
                                         f"{self.request['kind']} request"}
        sides = {o.side for o in self.ruleset.intents(self.game.state) if o.side}
        public = views.board_view(self.ruleset, self.game.state, None)
        return {"side": sides.pop() if len(sides) == 1 else "",
                "text": public.result or public.prompt}

    def pending_for(self, viewer: str | None) -> dict[str, Any] | None:
        p = self.pending
        if p is None:
            return None
        res = p.action.resolution
        mine = viewer == p.action.by
        return {
            "aid": p.aid,
            "by": p.action.by,
            "intent": dict(p.action.intent) if mine else {"type": p.action.intent.get("type")},
            "label": self._label(p.action.intent),
            "step": step_to_data(views.step_for(res.step, p.answerer, viewer)),
            **_answered_data(views.answered_for(res.asked, res.answers, p.answerers, viewer)),
            "answerers": list(p.answerers),
            "notes": [[n.after, n.text] for n in views.notes_for(res.ctx.notes, viewer)],
            "yours": p.answerer == viewer,
        }

    def snapshot(self, viewer: str | None) -> dict[str, Any]:
        state = self.game.state
        return {
            "view": to_data(views.board_view(self.ruleset, state, viewer)),
            "intents": to_data(views.intents_for(self.ruleset, state, viewer)),
            "can_undo": self.session.can_undo,
            "can_redo": self.session.can_redo,
            "over": self.session.over,
            "presence": self.presence(),
            "turn": self.turn(),
            "pending": self.pending_for(viewer),
            "request": dict(self.request) if self.request else None,
            "answered": self.answered if self.answered and
            self.answered["events"] == len(self.game.log) else None,
            "events": len(self.game.log),
            "ended": self.ended_for(viewer),
        }

    def ended_for(self, viewer: str | None) -> dict[str, Any] | None:
        """:attr:`ended` as ``viewer`` may read it: the commit's last line they may read."""
        if self.ended is None:
            return None
        aid, by, how, notes = self.ended
        lines = views.notes_for(notes, viewer)
        return {"aid": aid, "by": by, "how": how, "line": lines[-1].text if lines else ""}

    def report(self) -> Awaitable[dict[str, Any]]:
        """The end-of-game report as JSON, for anyone at the table (players and
        watchers alike) once the game is over: it is public then (dice, harm and
        score, never a hidden card), but while the game is on it would tell a player
        what the log knows and the board does not show.

        Built once per length of the log (terminals asking together share one build),
        in a thread from the events in force taken now (a club's referee calls this
        in the table's turn, :meth:`Referee.report`: the game as kept); a long
        game's replay takes a second or so, and the other terminals must not wait on
        it. It carries no list of every roll (``rolls`` is empty): the game-over
        screen shows each side's luck, luckiest and unluckiest roll, which the luck
        summary holds, and a long game's rolls would be a big message."""
        if not self.session.over:
            raise Refused("the report is ready when the game is over")
        size = len(self.game.log)
        if self._report is None or self._report[0] != size:
            self._report = (size, asyncio.ensure_future(
                asyncio.to_thread(self._report_json, self.game.events())))
        # Shielded: one terminal going away must not cancel the build the others share.
        return asyncio.shield(self._report[1])

    def _report_json(self, events: list[Event]) -> dict[str, Any]:
        report = self.session.report(events)
        return {**report.to_json(), "rolls": []}

    def force_names(self) -> dict[str, str]:
        """The two forces' names (public: both players see them on the board)."""
        return {s: str(getattr(getattr(self.game, s), "name", "") or "") for s in SIDES}

    # --- helpers -------------------------------------------------------------------
    def _player(self, side: str) -> None:
        if side not in SIDES:
            raise Refused("spectators watch; they cannot act")

    def _pending(self, side: str, aid: int) -> Pending:
        self._player(side)
        if self.pending is None or self.pending.aid != aid:
            raise Refused("that action is no longer in progress")
        return self.pending

    def _check_turn(self, side: str, intent: Mapping[str, Any]) -> None:
        """Refuse an intent that the rules offer, but only to the other side.

        Ruleset-agnostic: options whose intent is contained in this one are the
        matching offers; if every one of them belongs to the other side, it is not
        this side's move. Intents the rules do not offer are left to the ruleset.
        Only offers this side may know of count (its own, and the public ones): the
        other side's secret offers (a Command Hand's cards) would tell its secrets
        apart by this refusal.
        """
        state = self.game.state
        known = self.ruleset.intents(state, side) + self.ruleset.intents(state, WATCH)
        matching = [o for o in known if all(intent.get(k) == v for k, v in o.intent.items())]
        if matching and all(o.side and o.side != side for o in matching):
            raise Refused(f"it is {matching[0].side}'s move")

    def _label(self, intent: Mapping[str, Any]) -> str:
        """The action in words every viewer may read: the rules' own label of an
        intent that is its type alone ("Roll off for base lines"), else its type, as
        the others are told of it (issue 22: not "rolloff")."""
        kind = str(intent.get("type", "an action"))
        if set(intent) == {"type"}:
            for option in self.ruleset.intents(self.game.state):
                if option.intent == intent:
                    return option.label
        return kind.replace("_", " ")


def _answer_data(answer: Answer) -> Any:
    return answer_to_data(answer)


def _answered_data(answered: list[tuple[Any, Answer] | None]) -> dict[str, list[Any]]:
    """``answers`` and the steps they answered (``asked``) as sent to one viewer:
    ``None`` in both where the viewer may not see them."""
    return {"answers": [None if a is None else to_data(_answer_data(a[1])) for a in answered],
            "asked": [None if a is None else step_to_data(a[0]) for a in answered]}


# --- the server -------------------------------------------------------------------

class Turn:
    """One change of a table at a time, across the awaits of its store's writes
    (:class:`~deathzap_tui.gamestore.WriteBehind`), in the order they came: a game's
    requests, the notices of other front-ends and what its terminals are told keep
    their order, and other games go on meanwhile. ``async with turn:`` takes a place
    in line on entering; :meth:`place` takes one at once, for a change made later."""

    def __init__(self, log: Callable[[str], None]) -> None:
        self._line: collections.deque[asyncio.Future[None]] = collections.deque()
        """Who has the turn (the first: its ticket done) and who waits, in order."""
        self._tasks: set[asyncio.Task[None]] = set()
        """Changes queued in line (:meth:`later`), until they have run."""
        self._log = log

    @property
    def idle(self) -> bool:
        """Nobody has the turn or waits for it: what would take it may run at once."""
        return not self._line

    def place(self) -> Place:
        """A place in line, taken now: a change queued as a task (not started yet)
        keeps its place ahead of whatever asks after it. ``async with place:``; a
        place never entered (its task cancelled first) is :meth:`Place.forget`-ed."""
        ticket = asyncio.get_running_loop().create_future()
        if not self._line:
            ticket.set_result(None)
        self._line.append(ticket)
        return Place(self, ticket)

    def soon(self, change: Callable[[], None]) -> None:
        """Make ``change`` in this turn: at once if nobody has it or waits for it,
        else in its place in line, taken now (:meth:`later`)."""
        if self.idle:
            change()
            return

        async def in_turn() -> None:
            change()

        self.later(in_turn)

    def later(self, work: Callable[[], Awaitable[None]]) -> None:
        """Run ``work()`` as a task in its place in line, taken now; a failure is
        logged; :meth:`cancel` drops those not done."""
        place = self.place()

        async def in_turn() -> None:
            async with place:
                await work()

        def done(task: asyncio.Task[None]) -> None:
            self._tasks.discard(task)
            place.forget()  # a task cancelled before it started never entered it
            if not task.cancelled() and (exc := task.exception()) is not None:
                self._log(f"a change in the table's turn failed: {exc!r}")

        task = asyncio.ensure_future(in_turn())
        self._tasks.add(task)
        task.add_done_callback(done)

    def cancel(self) -> None:
        """Drop the changes queued by :meth:`later` that are not done."""
        for task in list(self._tasks):
            task.cancel()

    async def __aenter__(self) -> None:
        await self.place().__aenter__()

    async def __aexit__(self, *exc: object) -> None:
        self._leave(self._line[0])  # the holder is first in line

    def _leave(self, ticket: asyncio.Future[None]) -> None:
        if self._line and self._line[0] is ticket:
            self._line.popleft()
            if self._line and not self._line[0].done():
                self._line[0].set_result(None)  # the next in line's turn
        else:
            with contextlib.suppress(ValueError):  # left already
                self._line.remove(ticket)


class Place:
    """A place in a :class:`Turn`'s line (:meth:`Turn.place`)."""

    def __init__(self, turn: Turn, ticket: asyncio.Future[None]) -> None:
        self._turn, self._ticket = turn, ticket

    async def __aenter__(self) -> None:
        try:
            await self._ticket
        except BaseException:  # gave up waiting (cancelled): no longer in line
            self._turn._leave(self._ticket)
            raise

    async def __aexit__(self, *exc: object) -> None:
        self._turn._leave(self._ticket)

    def forget(self) -> None:
        """Leave the line if still in it (the change's task ended without it)."""
        self._turn._leave(self._ticket)


Frames = dict[tuple[int, int, tuple[str, ...]], bytes]
"""The state frames of one push: (the snapshot's identity, the narrative lines kept,
those added) -> the encoded frame (:meth:`Referee._send_state`)."""


@dataclass
class Told:
    """What a client has been told of the narrative: the events in force it knows
    (by identity) and, for each, how many lines it has been sent up to and including
    that event."""

    ids: list[int] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)


@dataclass(eq=False)
class Client:
    role: str
    writer: asyncio.StreamWriter
    peer: str
    requests: Rate
    """This connection's pace of requests."""
    told: Told = field(default_factory=lambda: Told())

    @property
    def viewer(self) -> str | None:
        return self.role if self.role in SIDES else None

    def send(self, message: Mapping[str, Any]) -> None:
        self.send_bytes(protocol.encode(message))

    def send_bytes(self, frame: bytes) -> None:
        """Queue an encoded frame (the same bytes may go to many clients)."""
        if self.writer.is_closing():
            return
        transport = self.writer.transport
        if transport.get_write_buffer_size() > MAX_BUFFERED:
            self.writer.close()  # a client that does not read loses its seat
            return
        self.writer.write(frame)


class Referee:
    """Serve a :class:`Table` on a Unix socket.

    The players come first. A watcher joining or leaving changes only who is
    connected: that goes to everyone as one small ``presence`` message, at most
    every ``presence_every`` s, never as a snapshot. A change at the table goes to
    each player at once, before the reply, and to the watchers just after (one public
    snapshot for all). New connections are taken on at a pace, in turn from each
    process; each connection's requests are paced; watchers have their own slots and
    pace of joining (:class:`Limits`).
    """

    def __init__(self, table: Table, socket_path: Path, *,
                 log: Callable[[str], None] | None = None,
                 limits: Limits | None = None,
                 conflict: Callable[[str], str] | None = None,
                 writes: WriteBehind | None = None) -> None:
        """``conflict(side)``: another writer kept an event of the game first (a club
        with several front-ends): the hook brings :attr:`table` up to date and says
        what changed, for ``side``'s terminal; without one, as any store error, the
        referee stops. ``writes``: the game's store, if its writes may wait off the
        event loop while the table changes (a club's, issue 24); without one, each is
        made as the table asks (a save's: one game per referee)."""
        self.table = table
        self.conflict = conflict
        self.writes = writes
        self.socket_path = Path(socket_path)
        self.clients: list[Client] = []
        self.seq = 0
        self.log = log or (lambda text: print(text, file=sys.stderr, flush=True))
        self.turn = Turn(self.log)
        """Held by whatever changes :attr:`table` or tells its terminals of it while
        its writes may be waiting (:meth:`_answer`)."""
        if table.notice:
            self.log(table.notice)
        self.limits = limits or Limits()
        self._listener: socket.socket | None = None
        self._accepting: asyncio.Task[None] | None = None
        self._serving: set[asyncio.Task[None]] = set()
        self._fatal = asyncio.Event()
        self.failure: OSError | StoreError | None = None
        """Why the save could not be written, once it could not (the referee stops)."""
        self._greeting: Lobby[asyncio.StreamWriter] = Lobby(self.limits.greeting,
                                                             lambda w: w.close())
        self._joins = Rate(*self.limits.watcher_joins)
        self._later: dict[str, asyncio.TimerHandle] = {}
        self._last: dict[str, float] = {}

    async def start(self) -> None:
        path = self.socket_path
        if len(os.fsencode(path)) > 100:
            raise OSError(f"socket path too long for a Unix socket: {path} "
                          "(use --socket with a shorter path)")
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists() or path.is_symlink():
            if _socket_alive(path):
                raise OSError(f"a referee is already listening on {path}")
            path.unlink()  # left by a referee that died
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old = os.umask(0o117)  # the socket is created rw for owner and group only
        try:
            listener.bind(str(path))
        except OSError:
            listener.close()
            raise
        finally:
            os.umask(old)
        os.chmod(path, 0o660)
        listener.listen(BACKLOG)
        listener.setblocking(False)
        self._listener = listener
        self._accepting = asyncio.ensure_future(self._accept(listener))

    async def _accept(self, listener: socket.socket) -> None:
        """Take on new connections at the pace of ``limits.accepts``, in turn from
        each process. The kernel's queue is emptied as fast as connections come, so a
        player's connect never finds it full, into a :class:`FairQueue` by the peer's
        process: a process that floods the referee waits behind itself, and the
        connections in play are served meanwhile."""
        loop = asyncio.get_running_loop()
        fd = listener.fileno()
        waiting: FairQueue[int, socket.socket] = FairQueue(*self.limits.queued,
                                                           drop=socket.socket.close)
        arrived = asyncio.Event()
        paused: asyncio.TimerHandle | None = None

        def take_all() -> None:
            nonlocal paused
            for _ in range(ACCEPT_BATCH):
                try:
                    conn, _addr = listener.accept()
                except (BlockingIOError, InterruptedError):
                    break
                except OSError as exc:  # e.g. out of file descriptors: pause, do not spin
                    self.log(f"cannot take a connection: {exc}")
                    loop.remove_reader(fd)
                    paused = loop.call_later(0.5, loop.add_reader, fd, take_all)
                    break
                conn.setblocking(False)
                creds = _creds(conn)
                waiting.put(creds[0] if creds else -1, conn)
            arrived.set()

        loop.add_reader(fd, take_all)
        pace = Rate(*self.limits.accepts)
        try:
            while True:
                conn = waiting.take()
                if conn is None:
                    arrived.clear()
                    await arrived.wait()
                    continue
                try:
                    reader, writer = await asyncio.open_unix_connection(sock=conn)
                except OSError:
                    conn.close()
                    continue
                task = asyncio.ensure_future(self._serve(reader, writer))
                self._serving.add(task)
                task.add_done_callback(self._serving.discard)
                wait = pace.spend()
                if wait:
                    await asyncio.sleep(wait)
        finally:
            if paused is not None:
                paused.cancel()
            loop.remove_reader(fd)
            waiting.clear()

    async def serve_until_closed(self) -> None:
        """Serve until the save cannot be written, then raise ``OSError`` saying why
        (the command exits non-zero with it: the game was not saved)."""
        await self._fatal.wait()
        raise OSError(f"the referee stopped: cannot write the save ({self.failure})")

    async def close(self) -> None:
        if self._accepting is not None:
            self._accepting.cancel()
            await asyncio.wait([self._accepting])  # it lets go of the listener first
        if self._listener is not None:
            self._listener.close()
        for c in list(self.clients):
            self.table.mark_seen(c.role)
            c.send({"t": "bye", "message": "the referee is shutting down"})
            c.writer.close()
        for task in self._serving:
            task.cancel()
        if self._serving:
            await asyncio.wait(self._serving, timeout=2)
        for timer in self._later.values():
            timer.cancel()
        self._later.clear()
        self.turn.cancel()
        with contextlib.suppress(FileNotFoundError):
            self.socket_path.unlink()

    # --- one client ----------------------------------------------------------------
    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = _peer(writer)
        client: Client | None = None
        self._greeting.enter(writer)
        try:
            try:
                client = await self._hello(reader, writer, peer)
            finally:
                self._greeting.leave(writer)
            if client is None:
                return
            await self._loop(client, reader)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the terminal went away without a word: it has left (logged below)
        except (ConnectionError, ProtocolError) as exc:
            if client is not None:
                client.send({"t": "bye", "message": str(exc)})
            self.log(f"client {client.role if client else '?'} {peer}: {exc}")
        finally:
            if client is not None and client in self.clients:
                async with self.turn:
                    self._leave(client, peer)
            writer.close()

    def _leave(self, client: Client, peer: str) -> None:
        self.clients.remove(client)
        dropped = self.table.left(client.role)
        self.log(f"{client.role} left ({peer})"
                 + ("; their undo/redo request was withdrawn" if dropped else ""))
        if dropped:
            self._push()
        else:
            self.presence_changed()

    async def _hello(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                     peer: str) -> Client | None:
        def refuse(message: str) -> None:
            writer.write(protocol.encode({"t": "error", "message": message}))

        try:
            body = await asyncio.wait_for(protocol.read_frame(reader, protocol.MAX_CLIENT_FRAME),
                                          self.limits.hello_timeout)
            if body is None:
                return None
            msg = protocol.check_client(protocol.decode(body))
            if msg["t"] != "hello":
                raise BadMessage("the first message must be hello")
        except (BadMessage, ProtocolError, TimeoutError) as exc:
            refuse(f"bad hello: {exc or 'timed out'}")
            return None
        if msg["v"] != protocol.VERSION:
            refuse(f"protocol version {msg['v']}; this referee speaks {protocol.VERSION}")
            return None
        role = msg["side"]
        if role in SIDES and self.table.connected[role] >= self.limits.player_terminals:
            refuse(f"{role} is already connected; close that terminal first")
            return None
        if role not in SIDES:
            if self.table.connected[role] >= self.limits.max_watchers:
                refuse(f"no room for another watcher (at most {self.limits.max_watchers}); "
                       "try again later")
                return None
            if not self._joins.allow():
                refuse("too many watchers joining at once; try again in a moment")
                return None
        pace = self.limits.player_requests if role in SIDES else self.limits.watcher_requests
        client = Client(role, writer, peer, Rate(*pace))
        async with self.turn:  # not a state whose writes are still waiting
            self.clients.append(client)
            self.table.joined(role)
            client.send({"t": "welcome", "v": protocol.VERSION, "side": role,
                         "ruleset": self.table.ruleset.id, "title": self.table.ruleset.title,
                         "names": self.table.force_names()})
            self._send_state(client, self.table.snapshot(client.viewer))
        self.log(f"{role} joined ({peer})")
        self.presence_changed()
        return client

    async def _loop(self, client: Client, reader: asyncio.StreamReader) -> None:
        bad = 0
        while True:
            body = await protocol.read_frame(reader, protocol.MAX_CLIENT_FRAME,
                                             self.limits.stall_timeout)
            if body is None:
                return
            wait = client.requests.spend()
            if wait:
                await asyncio.sleep(wait)  # over its pace: this connection waits, no other
            rid = None
            try:
                msg = protocol.decode(body)
                rid = msg.get("id") if type(msg.get("id")) is int else None
                msg = protocol.check_client(msg)
                if msg["t"] == "report":  # the one request that waits (on a thread)
                    reply = {"report": await self.report()}
                    client.send({"t": "ok", "id": rid, **reply})
                    continue
                async with self.turn:
                    if not await self._answer(client, msg, rid):
                        return
            except BadMessage as exc:
                bad += 1
                client.send({"t": "error", "id": rid, "message": f"bad message: {exc}"})
                if bad >= MAX_BAD_MESSAGES:
                    raise ProtocolError("too many bad messages") from None
            except Refused as exc:
                client.send({"t": "error", "id": rid, "message": str(exc)})

    async def _answer(self, client: Client, msg: dict[str, Any], rid: int | None) -> bool:
        """Apply a request to the table, keep what it wrote, then tell the terminals
        (a notice to another terminal, the new state, then the reply); with
        :attr:`turn` held. False once the game cannot be kept (the referee stops);
        :class:`BadMessage` (a hello again) for the caller to count."""
        notices: list[tuple[str, str]] = []
        try:
            try:
                if self.writes is not None:
                    self.writes.defer()
                reply = self._dispatch(client, msg, notices)
            finally:
                if self.writes is not None:
                    await self.writes.settle()  # kept before any terminal is told
        except Refused as exc:
            client.send({"t": "error", "id": rid, "message": str(exc)})
            return True
        except (OSError, StoreError) as exc:
            if isinstance(exc, Conflict) and self.conflict is not None:
                message = self.conflict(client.role)  # another front-end was first
                self.changed(anew=True)
                client.send({"t": "error", "id": rid, "message": message})
                return True
            # The game could not be kept: stop, lose nothing (a save file, or a
            # club's store: issue 23).
            self.log(f"cannot write the save: {exc}; stopping")
            client.send({"t": "error", "id": rid, "message": f"cannot save: {exc}"})
            self.failure = exc
            self._fatal.set()
            return False
        for role, message in notices:
            self.notice(role, message)
        # The new snapshot goes out before the reply, so a client's facade call
        # returns with the change already applied (read-your-writes).
        if msg["t"] not in READ_ONLY:
            self._push()
        if reply is not None:
            client.send({"t": "ok", "id": rid, **reply})
        return True

    def _dispatch(self, client: Client, msg: dict[str, Any],
                  notices: list[tuple[str, str]]) -> dict[str, Any] | None:
        """Apply ``msg`` to the table; the reply, and in ``notices`` (role, message)
        what other terminals are to be told once the change is kept."""
        t, side, table = msg["t"], client.role, self.table
        if t == "ping":
            return {}
        if t == "hello":
            raise BadMessage("hello was already said; the side of a connection is fixed")
        if t == "begin":
            table.begin(side, msg["intent"])
        elif t == "answer":
            table.answer(side, msg["aid"], msg["answer"])
        elif t == "back":
            table.back(side, msg["aid"])
        elif t == "cancel":
            table.cancel(side, msg["aid"])
        elif t == "commit":
            event = table.commit(side, msg["aid"])
            self.log(f"{side}: {event.data.get('intent', {}).get('type', event.kind)} "
                     f"(event {len(table.game.log)})")
            return {"events": len(table.game.log)}
        elif t in ("undo", "redo"):
            table.ask(side, t)
        elif t == "reply":
            req, event = table.reply(side, msg["accept"])
            word = "agreed to" if event else "declined"
            notices.append((req["by"], f"{side} {word} your {req['kind']}"))
            return {}
        return {"pending": table.pending_for(client.viewer)}

    async def report(self) -> dict[str, Any]:
        """The table's end-of-game report (:meth:`Table.report`), of the game as kept:
        asked in the table's turn, so never of a change whose writes still wait (a
        last move the store may yet refuse) nor of a game being caught up; built
        after the turn is let go, so the game's other changes do not wait for it."""
        async with self.turn:
            building = self.table.report()
        return await building

    # --- what goes out -------------------------------------------------------------
    def changed(self, *, anew: bool = False) -> None:
        """The table changed from outside its terminals (another front-end of a club
        wrote to the game, :meth:`Table.follow`): everyone gets the state now.
        ``anew``: the game was loaded again, so each narrative is sent whole."""
        if anew:
            for c in self.clients:
                c.told = Told()
        self._push()

    def _push(self) -> None:
        """The table changed: each player gets its own snapshot now, the watchers
        theirs soon after. A side's snapshot is built once, whatever the number of
        its terminals (each is told its own narrative, :meth:`Table.tell`)."""
        self.seq += 1
        built: dict[str, dict[str, Any]] = {}
        frames: Frames = {}
        for c in self.clients:
            if c.viewer is not None:
                if c.viewer not in built:
                    built[c.viewer] = self.table.snapshot(c.viewer)
                self._send_state(c, built[c.viewer], frames)
        self._soon("watchers", 0.0, self._push_watchers)

    def _push_watchers(self) -> None:
        self.turn.soon(self._send_watchers)  # not before a change's writes are kept

    def _send_watchers(self) -> None:
        watchers = [c for c in self.clients if c.viewer is None]
        if watchers:
            public = self.table.snapshot(None)  # the same for every watcher
            frames: Frames = {}
            for c in watchers:
                self._send_state(c, public, frames)

    def _send_state(self, client: Client, snapshot: dict[str, Any],
                    frames: Frames | None = None) -> None:
        """Send ``client`` the state: ``snapshot`` and what it has not been told of
        the narrative. ``frames``: the frames encoded for this push, by snapshot and
        narrative, so that terminals told the same (a side's, the watchers') share
        one encoding."""
        keep, add = self.table.tell(client.told, client.viewer)
        key = (id(snapshot), keep, tuple(add))
        frame = frames.get(key) if frames is not None else None
        if frame is None:
            frame = protocol.encode({"t": "state", "seq": self.seq, **snapshot,
                                     "narrative": {"keep": keep, "add": add}})
            if frames is not None:
                frames[key] = frame
        client.send_bytes(frame)

    def presence_changed(self) -> None:
        """Who is at the table changed: everyone hears of it soon."""
        self._soon("presence", self.limits.presence_every, self._send_presence)

    def notice(self, role: str, message: str) -> None:
        """A one-line notice to every terminal of ``role``."""
        for c in self.clients:
            if c.role == role:
                c.send({"t": "notice", "message": message})

    def _send_presence(self) -> None:
        frame = protocol.encode({"t": "presence", "presence": self.table.presence()})
        for c in self.clients:
            c.send_bytes(frame)

    def _soon(self, what: str, every: float, send: Callable[[], None]) -> None:
        """Call ``send`` soon, but not within ``every`` s of its last call; what is
        asked for meanwhile is that same call (it sends the state as it is then)."""
        if what in self._later:
            return
        loop = asyncio.get_running_loop()

        def run() -> None:
            del self._later[what]
            self._last[what] = loop.time()
            send()

        wait = self._last.get(what, float("-inf")) + every - loop.time()
        self._later[what] = loop.call_later(max(0.0, wait), run)


def _creds(sock: Any) -> tuple[int, int] | None:
    """The peer's process and user ids, if the socket tells them."""
    try:
        creds = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    except (OSError, AttributeError):
        return None
    pid, uid, _gid = struct.unpack("3i", creds)
    return pid, uid


def _peer(writer: asyncio.StreamWriter) -> str:
    creds = _creds(writer.get_extra_info("socket"))
    return f"pid {creds[0]}, uid {creds[1]}" if creds else "unknown peer"


def _socket_alive(path: Path) -> bool:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(1)
        try:
            s.connect(str(path))
        except OSError:
            return False
        return True


async def serve(table: Table, socket_path: Path, *, ready: Callable[[], None] | None = None,
                log: Callable[[str], None] | None = None,
                limits: Limits | None = None) -> None:
    """Run a referee until cancelled (or until the save cannot be written)."""
    referee = Referee(table, socket_path, log=log, limits=limits)
    await referee.start()
    if ready is not None:
        ready()
    try:
        await referee.serve_until_closed()
    finally:
        await referee.close()

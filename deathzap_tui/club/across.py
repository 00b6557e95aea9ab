"""What one game's tables on a club's several front-ends tell each other (issue 24).

A game whose players sit at different front-ends has a table
(:class:`~deathzap_tui.net.referee.Table`) on each. Its events and its action in
flight go through the store, and each table is caught up from there
(:meth:`deathzap_tui.club.hosting.Club.catch_up`). Who is at the table and an
undo/redo request by agreement are not kept: the tables tell each other through the
store's notices (:meth:`~deathzap_tui.club.store.ClubStore.tell`), one word each:

- ``seat:FRONT:RED,BLACK,WATCH``: the terminals at front-end FRONT's table; each
  table shows everyone wherever they sit, and a player may ask one at another
  front-end to agree to an undo. ``who``: a table just loaded asks the others to say
  theirs (and a request made there) again.
- ``ask:KIND:SIDE:FRONT``: SIDE asked at FRONT to undo or redo;
  ``reply:KIND:SIDE:ANSWER``: the
  other player answered it (``agreed``: the undo is an event, caught up as any other;
  or ``declined``); ``withdraw:SIDE``: the asker left before an answer.

A notice is a hint between live front-ends: a request lasts as long as its asker is
at the table, and a front-end that reconnects to the store asks again (``who``).
Seats are a lease: each front-end says its own again every little while
(:meth:`Across.refresh`), and one not heard for :attr:`Across.ttl` seconds (a
front-end killed without a word) is nobody, and a request its asker made there goes.
"""

from __future__ import annotations

import contextlib
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from deathzap_tui.club.gamestore import ClubGameStore
from deathzap_tui.gamestore import StoreError
from deathzap_tui.rules.ruleset import SIDES, other_side

if TYPE_CHECKING:
    from deathzap_tui.club.store import ClubStore
    from deathzap_tui.net.referee import Referee, Table

ROLES = ("red", "black", "watch")
KINDS = ("undo", "redo")
ANSWERS = {"agreed to": "agreed", "declined": "declined"}
"""A request's answer as the table says it -> its word in a notice."""


class Across:
    """One front-end's side of the conversation, for every game it hosts."""

    def __init__(self, store: ClubStore, ttl: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.ttl = ttl
        """Seconds a front-end's seats count without being said again."""
        self.clock = clock
        self.me = secrets.token_hex(4)
        """This front-end in ``seat`` notices."""
        self._seats: dict[int, dict[str, tuple[dict[str, int], float]]] = {}
        """Game -> front-end -> who is at its table there (none: nobody), and when
        that was heard."""
        self._asked: dict[int, str] = {}
        """Game -> the front-end its request (at the table here) was made at."""

    def attach(self, game_id: int, table: Table) -> None:
        """Share ``table``, just loaded here, with the game's tables elsewhere."""
        table.share = lambda what: self._share(game_id, table, what)
        self._tell(game_id, "who")

    def detach(self, game_id: int) -> None:
        self._seats.pop(game_id, None)
        self._asked.pop(game_id, None)

    def resync(self, game_id: int, table: Table) -> None:
        """Notices may have been missed: forget who was elsewhere, and ask again."""
        self._seats.pop(game_id, None)
        table.elsewhere = dict.fromkeys(ROLES, 0)
        self._share(game_id, table, "seat")
        self._tell(game_id, "who")

    def refresh(self, game_id: int, table: Table, referee: Referee) -> None:
        """Say again who is at the table here (if anyone is), and forget the seats of
        front-ends not heard from for :attr:`ttl` seconds."""
        if any(table.connected.values()):
            self._share(game_id, table, "seat")
        seats = self._seats.get(game_id, {})
        now = self.clock()
        for front in [f for f, (_, at) in seats.items() if now - at > self.ttl]:
            del seats[front]
        if self._count(game_id, table):
            referee.presence_changed()
        if table.request is not None and not table.connected[table.request["by"]] \
                and self._asked.get(game_id) not in seats:
            table.request = None  # asked at a front-end gone since
            referee.changed()

    def heard(self, game_id: int, what: str, table: Table, referee: Referee,
              catch_up: Callable[[], None]) -> bool:
        """Take another front-end's notice ``what`` about the game of ``table``
        (served by ``referee``); ``catch_up()`` brings the table up to the store.
        False if ``what`` is not one of these notices (an event, an action)."""
        word, _, rest = what.partition(":")
        parts = rest.split(":") if rest else []
        if word == "who":
            self._share(game_id, table, "seat")
            if table.request is not None and table.connected[table.request["by"]]:
                self._share(game_id, table, "ask")  # asked here: say so again
        elif word == "seat" and len(parts) == 2:
            self._seated(game_id, table, parts[0], parts[1])
            referee.presence_changed()
        elif word == "ask" and len(parts) == 3 and parts[0] in KINDS and parts[1] in SIDES:
            if table.request is None and table.pending is None:
                table.request, table.answered = {"kind": parts[0], "by": parts[1]}, None
                self._asked[game_id] = parts[2]
                referee.changed()
        elif word == "reply" and len(parts) == 3 and parts[2] in ANSWERS.values():
            catch_up()  # an undo agreed to is an event: the table has it first
            request = {"kind": parts[0], "by": parts[1]}
            if table.request == request:
                answer = next(k for k, v in ANSWERS.items() if v == parts[2])
                table.request = None
                table.answered = {**request, "answer": answer,
                                  "events": len(table.game.log)}
                referee.notice(request["by"], f"{other_side(request['by'])} {answer} "
                               f"your {request['kind']}")
                referee.changed()
        elif word == "withdraw" and len(parts) == 1:
            if table.request is not None and table.request["by"] == parts[0] \
                    and not table.connected[parts[0]]:
                table.request = None
                referee.changed()
        else:
            return word in ("who", "seat", "ask", "reply", "withdraw")
        return True

    def _seated(self, game_id: int, table: Table, front: str, counts: str) -> None:
        numbers = counts.split(",")
        if len(numbers) != len(ROLES) or not all(n.isdigit() for n in numbers):
            return
        seats = self._seats.setdefault(game_id, {})
        seats[front] = (dict(zip(ROLES, map(int, numbers), strict=True)), self.clock())
        if not any(seats[front][0].values()):
            del seats[front]
        self._count(game_id, table)

    def _count(self, game_id: int, table: Table) -> bool:
        """Set who sits at the other front-ends' tables; True if that changed."""
        seats = self._seats.get(game_id, {}).values()
        elsewhere = {r: sum(s[r] for s, _ in seats) for r in ROLES}
        changed, table.elsewhere = elsewhere != table.elsewhere, elsewhere
        return changed

    def _share(self, game_id: int, table: Table, what: str) -> None:
        """The table changed what the others must hear of (:attr:`Table.share`): told
        in turn with the game's writes (a reply after the undo it agreed to)."""
        word = ""
        if what == "seat":
            counts = ",".join(str(table.connected[r]) for r in ROLES)
            word = f"seat:{self.me}:{counts}"
        elif what in ("ask", "withdraw") and table.request is not None:
            req = table.request
            word = f"ask:{req['kind']}:{req['by']}:{self.me}" if what == "ask" \
                else f"withdraw:{req['by']}"
        elif what == "reply" and table.answered is not None:
            ans = table.answered
            word = f"reply:{ans['kind']}:{ans['by']}:{ANSWERS[ans['answer']]}"
        if word:
            store = table.session.store
            assert isinstance(store, ClubGameStore)  # a hosted club game's
            store.later(self._tell, game_id, word)

    def _tell(self, game_id: int, what: str) -> None:
        with contextlib.suppress(StoreError):  # the store gone: said again on resync
            self.store.tell(game_id, what)

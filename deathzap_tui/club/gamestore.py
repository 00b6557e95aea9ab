"""One club game as a :class:`~deathzap_tui.gamestore.GameStore`, so that a
:class:`~deathzap_tui.session.Session` plays it exactly as it plays a save.

The header is the save's table without its events (:func:`deathzap_tui.saves.game_to_data`)
and each event a row in the JSON of a save journal's line: a game is read back by
the same code that reads a save (:func:`deathzap_tui.saves.game_from_data`), so it
checks the same things and an export is a plain save.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

from deathzap_tui.gamestore import StoreError
from deathzap_tui.inflight import InFlight, InFlightError
from deathzap_tui.rules.events import Event
from deathzap_tui.rules.game import Game
from deathzap_tui.saves import game_from_data

if TYPE_CHECKING:
    from deathzap_tui.club.store import ClubStore


class ClubInFlight:
    """The action in flight of one club game (:class:`~deathzap_tui.inflight.InFlightStore`)."""

    def __init__(self, games: ClubGameStore) -> None:
        self.games = games
        self._read: tuple[str | None] | None = None
        """The record as :meth:`read_with` was given it, while its block runs."""
        self.gone = False
        """The store holds no record of the game as far as this front-end knows: the
        last change kept here was an event (whose commit removed it) or a clear, and
        no record was read since (so :meth:`clear` has nothing to do)."""

    @contextlib.contextmanager
    def read_with(self, raw: str | None) -> Iterator[None]:
        """Within the block, :meth:`load` gives ``raw``, the record read together
        with the events just applied (:meth:`ClubGameStore.since`), rather than
        reading the store again: a record another writer kept a moment later would
        not fit those events, and would be dropped as stale."""
        self._read = (raw,)
        self.gone = False
        try:
            yield
        finally:
            self._read = None

    def load(self) -> InFlight | None:
        raw = self._read[0] if self._read is not None else \
            self.games.club.load_in_flight(self.games.game_id_or_fail())
        if raw is None:
            return None
        try:
            return InFlight.from_data(json.loads(raw))
        except (ValueError, RecursionError) as exc:
            raise InFlightError(f"{self.games.label}: {exc}") from None

    def store(self, record: InFlight) -> None:
        self.games.in_step = self.gone = False
        self.games.later(self.games.club.store_in_flight, self.games.game_id_or_fail(),
                         json.dumps(record.to_data(), ensure_ascii=False))

    def clear(self) -> None:
        if self.games.game_id is not None and not self.gone:
            self.games.in_step = False
            self.games.later(self.games.club.clear_in_flight, self.games.game_id)
            self.gone = True

    @staticmethod
    def fits(raw: str, log: Sequence[Event]) -> bool:
        """Whether the record ``raw`` (JSON; ``null``: none) belongs to a game with
        ``log``, so that taking it drops nothing (:meth:`read_with`)."""
        try:
            data = json.loads(raw)
            return data is None or not InFlight.from_data(data).stale_for(log)
        except (ValueError, RecursionError, InFlightError):
            return False


class ClubGameStore:
    """Game ``game_id`` of ``club``; ``None`` until :meth:`create` keeps a new one
    (between ``red`` and ``black``, members by name).

    A :class:`~deathzap_tui.gamestore.WriteBehind`: a hosted game's referee lets
    its writes (events, the action in flight, the notices its table sends) wait
    while it applies a request, then makes them in order on a writer thread of the
    club's store (:meth:`settle`) before it tells any terminal. What this object
    knows of the store (:attr:`in_step`, ``in_flight.gone``) is set as each write
    is asked, as it was when writes were made at once."""

    def __init__(self, club: ClubStore, game_id: int | None, *, red: str | None = None,
                 black: str | None = None, public: bool = False) -> None:
        self.club = club
        self.game_id = game_id
        self._players = (red, black, public)
        self.in_flight = ClubInFlight(self)
        self._waiting: list[tuple[Callable[..., object], tuple[object, ...]]] | None = None
        """The writes asked since :meth:`defer`, in order; ``None``: writes are made
        at once."""
        self.in_step = False
        """Whether the game as this front-end has it is the store's as of the last
        change it was told of, so that the changes the store's notices carry may be
        taken as they come (in the order they were committed). Not after reading the
        store (the read may be ahead of notices still coming), nor after keeping an
        action's record here (another front-end's, committed first, may come after
        it); again once an event is kept here or taken from a notice in its turn (by
        number): a record committed before it no longer fits the game's events."""
        self.kept = 0
        """How many of the game's events the store is known to hold: those read from
        it (loaded, caught up, taken from a notice) and those written here, counted
        once each write is made, not when asked. What its players may be marked as
        having seen: not an event whose write still waits (it may yet be refused)."""

    @property
    def label(self) -> str:
        return f"{self.club.label}: game {self.game_id}" if self.game_id is not None \
            else f"{self.club.label}: a new game"

    def game_id_or_fail(self) -> int:
        if self.game_id is None:
            raise StoreError(f"{self.label} is not kept yet")
        return self.game_id

    def create(self, game: Game) -> None:
        if self.game_id is not None:
            raise StoreError(f"{self.label} is kept already")
        red, black, public = self._players
        self.game_id = self.club.insert_game(game, red, black, public)
        self.kept = len(game.log)

    def load(self) -> Game:
        game_id = self.game_id_or_fail()
        self.in_step = self.in_flight.gone = False
        data = self.club.game_header(game_id)
        data["events"] = [self._decode(n, raw)
                          for n, raw in enumerate(self.club.event_rows(game_id, 0))]
        self.kept = len(data["events"])
        return game_from_data(data, self.label)

    def append(self, seq: int, event: Event) -> None:
        self.later(self._append, self.game_id_or_fail(), seq, event_json(event))
        self.in_step = self.in_flight.gone = True  # the record went with the event

    def _append(self, game_id: int, seq: int, data: str) -> None:
        self.club.append_event(game_id, seq, data)
        self.kept = seq + 1

    # --- writes that wait (WriteBehind) ----------------------------------------------
    def defer(self) -> None:
        if self._waiting is None:
            self._waiting = []

    def later(self, call: Callable[..., object], *args: object) -> None:
        """Make the write ``call(*args)`` (this store's, or another the game's writes
        must stay in order with: a notice to the other front-ends) now, or in its
        turn once :meth:`settle` comes when writes wait."""
        if self._waiting is None:
            call(*args)
        else:
            self._waiting.append((call, args))

    async def settle(self) -> None:
        waiting, self._waiting = self._waiting, None
        if waiting:
            await self.club.in_thread(lambda: _make(waiting))

    def then(self, call: Callable[[], object]) -> None:
        """Call ``call()`` on the running event loop once the writes asked so far are
        made (at once if none wait), and not at all if one of them fails: news of a
        change that must be kept first (a move told to the lobbies). It is queued on
        the loop from the writer thread, so it comes before :meth:`settle` returns
        to whoever awaits it."""
        import asyncio  # lazy: a hosted game's loop has it; `club` store commands skip it

        self.later(asyncio.get_running_loop().call_soon_threadsafe, call)

    def events_after(self, count: int) -> list[Event]:
        return self.events_from(count, self.club.event_rows(self.game_id_or_fail(), count))

    def since(self, count: int) -> tuple[list[Event], str | None]:
        """The events after the first ``count`` and the action in flight's record
        (for :meth:`ClubInFlight.read_with`), as of one moment, in one read."""
        self.in_step = self.in_flight.gone = False
        rows, kept = self.club.rows_since(self.game_id_or_fail(), count)
        return self.events_from(count, rows), kept

    def events_from(self, count: int, rows: list[str]) -> list[Event]:
        """Events ``count``, ``count + 1``... from their rows' JSON (as the store
        holds them: read, or carried by its notice)."""
        try:
            events = [Event.from_data(self._decode(count + i, raw))
                      for i, raw in enumerate(rows)]
        except (ValueError, TypeError) as exc:
            raise StoreError(f"{self.label}: an event cannot be read ({exc})") from None
        self.kept = max(self.kept, count + len(events))
        return events

    def rewrite(self, game: Game) -> None:
        """The events are all kept already (each appended as it happened, but for the
        last when it ended the game); what a whole write adds here is the game's
        end, for the lobby."""
        game_id = self.game_id_or_fail()
        events = [event_json(event) for event in game.log]
        result = game.ruleset.view(game.state).result or ""
        self.later(self._keep_end, game_id, events, game.ruleset.is_over(game.state), result)
        self.in_step = self.in_flight.gone = True  # the record went with the last event

    def _keep_end(self, game_id: int, events: list[str], over: bool, result: str) -> None:
        """:meth:`rewrite`'s writes: the events not kept yet, then the game's end."""
        for seq in range(self.club.game_info(game_id).events, len(events)):
            self._append(game_id, seq, events[seq])
        self.club.finish_game(game_id, over, result)

    def keep_cache(self, game: Game) -> None:
        """No cache: a club game is replayed when opened."""

    def _decode(self, seq: int, raw: str) -> dict[str, object]:
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError) as exc:
            raise StoreError(f"{self.label}: event {seq} is not JSON ({exc})") from None
        if not isinstance(data, dict):
            raise StoreError(f"{self.label}: event {seq} is not a table")
        return data


def _make(writes: list[tuple[Callable[..., object], tuple[object, ...]]]) -> None:
    """Make ``writes`` in order (on a writer thread); the first that fails raises,
    and those after it are not made."""
    for call, args in writes:
        call(*args)


def event_json(event: Event) -> str:
    """An event as a save journal's line holds it (without the journal's ``n``)."""
    return json.dumps(event.to_data(), ensure_ascii=False, separators=(",", ":"))

"""Where one game is kept: one small interface, several homes (issue 23).

:class:`~deathzap_tui.session.Session` persists a game only through
:class:`GameStore`, so the rules engine, replay, report and undo never know which
home a game has:

- :class:`deathzap_tui.savestore.SaveFileStore`: a save in files (a TOML snapshot and
  a JSON-lines journal, :mod:`deathzap_tui.saves`), as every game had before clubs;
- :class:`deathzap_tui.club.store.ClubGameStore`: one game of a club's database
  (SQLite today; issue 24 adds PostgreSQL behind the same interface).

A game is its *header* (ruleset, seeds, options, both forces: what
:func:`deathzap_tui.saves.game_to_data` writes without the events) and its events,
numbered from 0 in the order they happened. Events are only ever appended, each with
the number the writer expects it to take: two writers racing on one game are
decided by that number (the second gets :class:`Conflict`, and must reload), so a
game is never forked. Every home keeps the events in the same JSON form
(:meth:`deathzap_tui.rules.events.Event.to_data`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from deathzap_tui.inflight import InFlightError

if TYPE_CHECKING:
    from deathzap_tui.inflight import InFlightStore
    from deathzap_tui.rules.events import Event
    from deathzap_tui.rules.game import Game


class StoreError(ValueError):
    """A game's home that cannot be read or written; the message says why and where."""


class Conflict(StoreError):
    """Another writer appended the event with this number first (or the game has
    moved on since it was read): reload the game and try again."""


class GameStore(Protocol):
    """One game's persistence."""

    label: str
    """How messages name the game's home (a save's path, ``club game 12``)."""

    @property
    def in_flight(self) -> InFlightStore:
        """Where the action in progress is kept (:mod:`deathzap_tui.inflight`)."""

    def create(self, game: Game) -> None:
        """Keep a new ``game`` (its header and any events it has); raises
        :class:`StoreError` if this home already holds a game."""

    def load(self) -> Game:
        """The game with every event kept so far, replayed (or resumed from a cache
        the store trusts). Raises :class:`StoreError` naming what is wrong."""

    def append(self, seq: int, event: Event) -> None:
        """Keep ``event`` as event number ``seq`` (0-based), durably before
        returning. Raises :class:`Conflict` if ``seq`` is not the next number (another
        writer got there first), :class:`StoreError` if it cannot be written."""

    def events_after(self, count: int) -> list[Event]:
        """The events after the first ``count`` (numbers ``count`` and up): what a
        reader that has ``count`` events lacks."""

    def rewrite(self, game: Game) -> None:
        """Keep ``game`` whole as it stands (its header and all its events): done when
        a game ends, so a finished game is complete in one place."""

    def keep_cache(self, game: Game) -> None:
        """Remember ``game`` as it stands so the next :meth:`load` replays less; a
        home without a cache does nothing. Never raises."""


class WriteBehind(Protocol):
    """A store whose writes may wait, in order, while its caller goes on: a club
    front-end's referee serves every game on one event loop, and must not wait there
    for one game's commits (issue 24). Between :meth:`defer` and :meth:`settle` the
    store's writes wait; :meth:`settle` makes them, in the order they were asked, off
    the loop, and returns once all are kept (or raises as each write would have, at
    the first that failed: those after it are not made). The referee changes its
    table between the two, and tells its terminals only after :meth:`settle`: an
    ``ok`` for a commit still means the event is kept."""

    def defer(self) -> None:
        """Let the writes asked from now on wait for :meth:`settle`."""

    async def settle(self) -> None:
        """Make the writes waiting since :meth:`defer`; stop letting them wait."""


def copy_game(game: Game, source: GameStore, target: GameStore) -> str:
    """Keep ``game``, as loaded from ``source``, in ``target`` (a new home: ``club
    export``/``import``) with its action in progress, so that the game goes on where
    it stood, mid-action too. Returns "", or why the action in progress was left
    behind (its record cannot be read, or no longer fits the game)."""
    try:
        record = source.in_flight.load()
    except InFlightError as exc:
        record, left = None, f"its record cannot be read ({exc})"
    else:
        left = record.stale_for(game.log) if record is not None else ""
    target.create(game)
    if record is not None and not left:
        target.in_flight.store(record)
    return f"the action in progress was left behind: {left}" if left else ""

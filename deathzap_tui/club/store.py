"""The club store's interface: small per-concern interfaces, one store made of them.

What a club keeps: members (a name and several SSH public keys each), each member's
saved forces (TOML text, checked as ``deathzap check`` checks a file), challenges
(open, or addressed to one member), games (their players, public or not, times, and
how far each member has looked), each game's events (append-only, one number per
event), the action in flight of each game, and the counters the server's per-key
limits need (sessions open, recent actions such as new games).

Every method is one transaction: callers never hold one open across calls. Records
are plain frozen dataclasses. Times are whole seconds since the epoch (UTC).
:class:`deathzap_tui.club.sqlstore.SqlClubStore` implements it all in SQL that
SQLite and PostgreSQL both accept (PostgreSQL: issue 24, :mod:`.pgstore`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from deathzap_tui.club.members import PublicKey

if TYPE_CHECKING:
    from deathzap_tui.club.gamestore import ClubGameStore
    from deathzap_tui.rules.game import Game

T = TypeVar("T")


@dataclass(frozen=True)
class Member:
    id: int
    name: str
    created: int
    keys: tuple[PublicKey, ...] = ()


@dataclass(frozen=True)
class SavedForce:
    """A member's force, kept by its own name (saving it again replaces it)."""

    member: str
    name: str
    ruleset: str
    text: str
    updated: int


@dataclass(frozen=True)
class Challenge:
    """A game offered: to anyone (``opponent`` ``None``) or to one member."""

    id: int
    challenger: str
    opponent: str | None
    ruleset: str
    force: str
    """The challenger's force, as TOML text (checked when the challenge was made)."""
    options: Mapping[str, Any] = field(default_factory=dict)
    public: bool = False
    created: int = 0


@dataclass(frozen=True)
class GameInfo:
    """A club game as a lobby lists it (its events are in :class:`ClubGameStore`)."""

    id: int
    ruleset: str
    red: str | None
    """The member playing red (``None``: removed from the club since)."""
    black: str | None
    public: bool
    over: bool
    result: str
    events: int
    created: int
    updated: int
    """When the last event was kept (or the game made)."""
    seen: int = 0
    """How many of its events the member asking had seen (:meth:`GameIndex.mark_seen`)."""

    @property
    def unread(self) -> bool:
        return self.events > self.seen


class MemberStore(Protocol):
    def add_member(self, name: str, key: PublicKey) -> Member:
        """A new member with one key; :class:`~.members.ClubError` if the name (or
        one like it) or the key is taken."""

    def remove_member(self, name: str) -> None:
        """Remove a member with their keys, forces and challenges (their games stay,
        without them)."""

    def members(self) -> list[Member]:
        """Every member with their keys, by name."""

    def member(self, name: str) -> Member:
        """A member by name; :class:`~.members.ClubError` naming it if unknown."""

    def member_by_key(self, blob: bytes) -> Member | None:
        """Whose key this is (an SSH server's key blob at login)."""

    def add_key(self, name: str, key: PublicKey) -> None:
        """Give a member another key (taken by nobody)."""

    def remove_key(self, name: str, fingerprint: str) -> None:
        """Take one key of a member away; their last key cannot be."""


class ForceStore(Protocol):
    def save_force(self, member: str, text: str) -> SavedForce:
        """Keep a force (TOML text) under its own name; refused, with every error,
        if ``deathzap check`` finds errors in it."""

    def forces(self, member: str) -> list[SavedForce]:
        """A member's forces, by name."""

    def force(self, member: str, name: str) -> SavedForce:
        """One of a member's forces; :class:`~.members.ClubError` if none."""

    def remove_force(self, member: str, name: str) -> None: ...

    def count_forces(self, member: str) -> int:
        """How many forces a member keeps (a per-member limit)."""


class ChallengeStore(Protocol):
    def add_challenge(self, challenger: str, force: str, *, opponent: str | None = None,
                      options: Mapping[str, Any] | None = None,
                      public: bool = False) -> Challenge:
        """Offer a game with ``force`` (TOML text: checked, and its ruleset is the
        game's); to ``opponent`` or, without one, to anyone."""

    def challenges_for(self, member: str) -> list[Challenge]:
        """What a member may see: open challenges, those addressed to them and their
        own, oldest first."""

    def take_challenge(self, challenge_id: int) -> Challenge:
        """Remove a challenge and return it (accepting, declining or withdrawing
        it): of two members taking the same challenge, the second gets
        :class:`~.members.ClubError`."""


class GameIndex(Protocol):
    def new_game(self, *, red: str | None, black: str | None,
                 public: bool = False) -> ClubGameStore:
        """A store for a new game between two members (either may be ``None`` only
        for a game imported without them); :meth:`ClubGameStore.create` keeps it."""

    def game_store(self, game_id: int) -> ClubGameStore:
        """The store of an existing game; :class:`~.members.ClubError` if none."""

    def game_info(self, game_id: int, member: str | None = None) -> GameInfo: ...

    def games_of(self, member: str) -> list[GameInfo]:
        """A member's games, the last moved first, with how far they have looked."""

    def public_games(self) -> list[GameInfo]:
        """Games their players made public (to watch), the last moved first."""

    def set_public(self, game_id: int, public: bool) -> None: ...

    def mark_seen(self, game_id: int, member: str, events: int) -> None:
        """``member`` has seen the first ``events`` events of the game."""


class EventLog(Protocol):
    """One game's rows, as :class:`~deathzap_tui.club.gamestore.ClubGameStore` uses
    them (events in the JSON of :meth:`~deathzap_tui.rules.events.Event.to_data`)."""

    def insert_game(self, game: Game, red: str | None, black: str | None,
                    public: bool) -> int: ...

    def game_header(self, game_id: int) -> dict[str, Any]: ...

    def append_event(self, game_id: int, seq: int, data: str) -> None:
        """Raises :class:`~deathzap_tui.gamestore.Conflict` unless ``seq`` is next.
        The game's action in flight goes in the same transaction: any event leaves it
        behind (the session forgets it then), so the ``clear_in_flight`` that follows
        finds nothing and writes nothing (one commit, one disk flush, per move)."""

    def event_rows(self, game_id: int, count: int) -> list[str]:
        """The events after the first ``count``, in order."""

    def rows_since(self, game_id: int, count: int) -> tuple[list[str], str | None]:
        """The events after the first ``count`` and the action in flight, as of one
        moment (one statement: one round trip, and a record that goes with the
        events read)."""

    def finish_game(self, game_id: int, over: bool, result: str) -> None: ...

    def load_in_flight(self, game_id: int) -> str | None: ...

    def store_in_flight(self, game_id: int, data: str) -> None: ...

    def clear_in_flight(self, game_id: int) -> None: ...


class LimitStore(Protocol):
    """Counters for the server's per-key limits. A session is counted from
    :meth:`open_session` to :meth:`close_session`; a server starting again clears
    what its earlier run left open (:meth:`clear_sessions`)."""

    def open_session(self, fingerprint: str, server: str = "") -> int: ...

    def close_session(self, session_id: int) -> None: ...

    def clear_sessions(self, server: str = "") -> None: ...

    def count_sessions(self, fingerprint: str) -> int: ...

    def note_action(self, fingerprint: str, what: str) -> None:
        """Count one ``what`` (``"new-game"``...) by the key, now."""

    def count_actions(self, fingerprint: str, what: str, seconds: int) -> int:
        """How many ``what`` the key did in the last ``seconds``."""


class ClubStore(MemberStore, ForceStore, ChallengeStore, GameIndex, EventLog, LimitStore,
                Protocol):
    """Everything a club keeps."""

    label: str
    """How messages name the store (its path; a database URL without its password)."""
    folder: Path
    """Where the files that go with the store are kept (the club's SSH host key)."""

    def schema_version(self) -> int: ...

    def follow(self, changed: Callable[[int, str, str], None], resync: Callable[[], None],
               log: Callable[[str], None]) -> Coroutine[Any, Any, None] | None:
        """What other front-ends on the same database change (``changed(game, what,
        data)``, ``what`` "event", "action" or a word :meth:`tell` sent, ``data`` the
        change if the notice carried it, else ""; ``resync()`` when notices may have
        been missed),
        as a coroutine to run until cancelled; ``None`` for a store one front-end
        serves alone (SQLite)."""

    def tell(self, game_id: int, what: str) -> None:
        """Tell the other front-ends something of game ``game_id`` that is not kept
        (``what``, one word, reaches their ``changed``): who is at its table, an undo
        request. Nothing for a store one front-end serves alone."""

    def in_thread(self, call: Callable[[], T]) -> Awaitable[T]:
        """Run ``call`` (calls of this store) on a writer thread of the store's, to be
        awaited on the event loop: the loop serves other games meanwhile."""

    def close(self) -> None: ...

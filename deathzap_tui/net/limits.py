"""Budgets that keep a server up for the players under a flood (issue 19).

:class:`Limits` are the referee's; :class:`Rate` paces a stream of work (one
connection's requests, watchers joining); :class:`Lobby` bounds the connections that
have not yet said who they are, so idle ones can delay, never lock out, a connection
that gets on with it; :class:`FairQueue` takes new connections in turn from each
process, so one that floods waits behind itself, not in front of a player.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class Limits:
    """What the referee allows each connection, so that no flood of connections
    starves or locks out the players (issue 19). Tests shorten the timeouts."""

    accepts: tuple[float, int] = (200.0, 50)
    """New connections taken on per second and burst, in turn from each process (a
    :class:`FairQueue`); the connections in play are served meanwhile."""
    queued: tuple[int, int] = (16, 64)
    """New connections waiting to be taken on: per process and in all; one more drops
    the oldest of the process that has the most waiting."""
    max_watchers: int = 12
    """Watchers at once. Each player's side has its own slot besides: a watcher
    never takes a player's place."""
    player_terminals: int = 1
    """Terminals one side may have at the table at once. A hosted save's player has
    one (a second is refused: close the first); a club member may open a game in
    several sessions, which all show the one table (issue 23)."""
    greeting: int = 16
    """Connections yet to say hello, at once; one more drops the one waiting longest."""
    hello_timeout: float = 5.0
    """Seconds a new connection has to say hello."""
    stall_timeout: float = 10.0
    """Seconds a frame, once begun, may take to arrive in full (a connection may be
    quiet between frames for as long as it likes)."""
    player_requests: tuple[float, int] = (100.0, 100)
    watcher_requests: tuple[float, int] = (5.0, 10)
    """Requests per second and burst, per connection; beyond, the referee reads that
    connection more slowly."""
    watcher_joins: tuple[float, int] = (20.0, 20)
    """Watchers let in per second and burst, in all; beyond, refused for the moment."""
    presence_every: float = 0.25
    """Seconds between ``presence`` messages at most (joins and leaves coalesce)."""


class Rate:
    """A token bucket: ``per_second`` on average, up to ``burst`` at once."""

    def __init__(self, per_second: float, burst: int,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if per_second <= 0 or burst < 1:
            raise ValueError("a rate needs a positive pace and a burst of at least 1")
        self.per_second = per_second
        self.burst = burst
        self._clock = clock
        self._tokens = float(burst)
        self._stamp = clock()

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.per_second)
        self._stamp = now

    def allow(self) -> bool:
        """Take one token if there is one: for work that is refused when over."""
        self._refill()
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True

    def spend(self) -> float:
        """Take one token, in debt if need be: the seconds to wait before doing the
        work (0 within the burst). For one sequential stream, which waits before it
        spends again, so the debt is never more than one token."""
        self._refill()
        self._tokens -= 1
        return max(0.0, -self._tokens / self.per_second)


class Lobby(Generic[T]):
    """At most ``size`` waiting items; one more pushes out (``evict``) the item that
    has waited longest. Together with a short time limit per item, a flood of idle
    connections only delays a real one by as long as the flood keeps coming."""

    def __init__(self, size: int, evict: Callable[[T], None]) -> None:
        if size < 1:
            raise ValueError("a lobby holds at least one")
        self.size = size
        self._evict = evict
        self._waiting: dict[T, None] = {}  # insertion order: the oldest first

    def __len__(self) -> int:
        return len(self._waiting)

    def enter(self, item: T) -> None:
        self._waiting[item] = None
        while len(self._waiting) > self.size:
            oldest = next(iter(self._waiting))
            del self._waiting[oldest]
            self._evict(oldest)

    def leave(self, item: T) -> None:
        self._waiting.pop(item, None)


class FairQueue(Generic[K, T]):
    """Items waiting by key, taken in turn from each key (round robin). At most
    ``per_key`` wait for one key and ``total`` in all: one more drops (``drop``) the
    oldest item of the key with the most waiting, so whoever floods loses its own."""

    def __init__(self, per_key: int, total: int, drop: Callable[[T], None]) -> None:
        if per_key < 1 or total < per_key:
            raise ValueError("a fair queue holds at least one per key, and as many in all")
        self.per_key = per_key
        self.total = total
        self._drop = drop
        self._queues: dict[K, deque[T]] = {}  # in turn order: the next to take first
        self._count = 0

    def __len__(self) -> int:
        return self._count

    def put(self, key: K, item: T) -> None:
        self._queues.setdefault(key, deque()).append(item)
        self._count += 1
        if len(self._queues[key]) > self.per_key:
            self._drop_oldest(key)
        elif self._count > self.total:
            self._drop_oldest(max(self._queues, key=lambda k: len(self._queues[k])))

    def take(self) -> T | None:
        """The next item, from the key whose turn it is (``None`` if none waits)."""
        if not self._queues:
            return None
        key = next(iter(self._queues))
        queue = self._queues.pop(key)
        item = queue.popleft()
        self._count -= 1
        if queue:
            self._queues[key] = queue  # to the back of the turn order
        return item

    def clear(self) -> None:
        """Drop everything waiting."""
        while (item := self.take()) is not None:
            self._drop(item)

    def _drop_oldest(self, key: K) -> None:
        queue = self._queues[key]
        self._drop(queue.popleft())
        self._count -= 1
        if not queue:
            del self._queues[key]

"""Budgets that keep a server up for the players under a flood (issue 19).

:class:`Limits` are the referee's; :class:`Rate` paces a stream of work (one
connection's requests, watchers joining); :class:`Lobby` bounds the connections that
have not yet said who they are, so idle ones can delay, never lock out, a connection
that gets on with it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Limits:
    """What the referee allows each connection, so that no flood of connections
    starves or locks out the players (issue 19). Tests shorten the timeouts."""

    accepts: tuple[float, int] = (200.0, 50)
    """New connections taken per second and burst; more wait in the kernel's queue
    (the connections in play are served meanwhile)."""
    max_watchers: int = 12
    """Watchers at once. Each player's side has its own slot besides: a watcher
    never takes a player's place."""
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

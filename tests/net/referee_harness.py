"""A real referee on its own thread, and clients for it: the pieces the network
tests share. (A module of its own: ``from conftest import ...`` would find whichever
``conftest`` module a worker imported first.)"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from deathzap_tui.net.client import RemoteSession


class HostThread:
    """A real referee on a Unix socket, on its own event-loop thread."""

    def __init__(self, session, socket_path: Path, seen=None, limits=None) -> None:
        from deathzap_tui.net.referee import Referee, Table

        self.table = Table(session, seen=seen)
        self.socket_path = socket_path
        self.loop = asyncio.new_event_loop()
        self.logged: list[str] = []
        """What the referee logged (the host's terminal)."""
        self.referee = Referee(self.table, socket_path, log=self.logged.append, limits=limits)
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self.referee.start())
        self.ready.set()
        self.loop.run_forever()
        self.loop.run_until_complete(self.referee.close())
        self.loop.close()

    def start(self) -> HostThread:
        self.thread.start()
        assert self.ready.wait(5)
        return self

    def stop(self) -> None:
        if self.thread.is_alive():
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(5)


def hosting(session, socket_path: Path, **kw: Any) -> Iterator[HostThread]:
    """Fixture body: a started HostThread for ``session`` (``kw``: its referee's
    options), stopped at teardown."""
    h = HostThread(session, socket_path, **kw).start()
    yield h
    h.stop()


def connecting(host: HostThread) -> Iterator[Callable[..., RemoteSession]]:
    """Fixture body: ``connect(side, **kw)`` to ``host``; every client closed at teardown."""
    from deathzap_tui.net.client import RemoteSession

    made = []

    def connect(side: str, **kw) -> RemoteSession:
        c = RemoteSession.connect(host.socket_path, side, timeout=5, **kw)
        made.append(c)
        return c

    yield connect
    for c in made:
        c.close()

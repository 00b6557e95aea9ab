from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import toynet


@pytest.fixture(autouse=True)
def toy_ruleset(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy ruleset is known to these tests only (never to other test modules
    sharing a worker process)."""
    from deathzap_tui.rules import registry

    monkeypatch.setitem(sys.modules, "toynet", toynet)
    monkeypatch.setitem(registry._PLUGINS, toynet.ID, "toynet")

if TYPE_CHECKING:
    from deathzap_tui.net.client import RemoteSession


class HostThread:
    """A real referee on a Unix socket, on its own event-loop thread."""

    def __init__(self, session, socket_path: Path, seen=None) -> None:
        from deathzap_tui.net.referee import Referee, Table

        self.table = Table(session, seen=seen)
        self.socket_path = socket_path
        self.loop = asyncio.new_event_loop()
        self.referee = Referee(self.table, socket_path, log=lambda text: None)
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


@pytest.fixture
def saves_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "saves"
    d.mkdir()
    monkeypatch.setenv("DEATHZAP_SAVES_DIR", str(d))
    return d


@pytest.fixture
def new_session(saves_dir: Path, tmp_path: Path):
    from deathzap_tui.session import Session

    red, black = toynet.write_forces(tmp_path)

    def make(name: str = "duel", seed: int = 11):
        return Session.new(red, black, seed=seed, save_path=name)

    return make


def hosting(session, socket_path: Path) -> Iterator[HostThread]:
    """Fixture body: a started HostThread for ``session``, stopped at teardown."""
    h = HostThread(session, socket_path).start()
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


@pytest.fixture
def host(new_session, tmp_path: Path) -> Iterator[HostThread]:
    yield from hosting(new_session(), tmp_path / "ref.sock")


@pytest.fixture
def clients(host: HostThread) -> Iterator[Callable[..., RemoteSession]]:
    yield from connecting(host)


@pytest.fixture
def dz3_host(saves_dir: Path, tmp_path: Path) -> Iterator[HostThread]:
    """A real referee hosting a real Deathzap 3 game (demo forces, after set-up)."""
    from dz3play import dz3_session

    yield from hosting(dz3_session(), tmp_path / "dz3.sock")


@pytest.fixture
def dz3_clients(dz3_host: HostThread) -> Iterator[Callable[..., RemoteSession]]:
    yield from connecting(dz3_host)

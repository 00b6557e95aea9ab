from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import toynet
from referee_harness import HostThread, connecting, hosting

from deathzap_tui.net.limits import Limits


@pytest.fixture(autouse=True)
def toy_ruleset(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy ruleset is known to these tests only (never to other test modules
    sharing a worker process)."""
    from deathzap_tui.rules import registry

    monkeypatch.setitem(sys.modules, "toynet", toynet)
    monkeypatch.setitem(registry._PLUGINS, toynet.ID, "toynet")

if TYPE_CHECKING:
    from deathzap_tui.net.client import RemoteSession


@pytest.fixture
def new_session(saves_dir: Path, tmp_path: Path):
    from deathzap_tui.session import Session

    red, black = toynet.write_forces(tmp_path)

    def make(name: str = "duel", seed: int = 11):
        return Session.new(red, black, seed=seed, save_path=name)

    return make


@pytest.fixture
def host(new_session, tmp_path: Path) -> Iterator[HostThread]:
    yield from hosting(new_session(), tmp_path / "ref.sock")


@pytest.fixture
def clients(host: HostThread) -> Iterator[Callable[..., RemoteSession]]:
    yield from connecting(host)


@pytest.fixture
def two_terminals(new_session, tmp_path: Path) -> Iterator[HostThread]:
    """A referee where a player may have two terminals (the app, and a hand)."""
    yield from hosting(new_session(), tmp_path / "two.sock",
                       limits=Limits(player_terminals=2))


@pytest.fixture
def dz3_host(saves_dir: Path, tmp_path: Path) -> Iterator[HostThread]:
    """A real referee hosting a real Deathzap 3 game (demo forces, after set-up)."""
    from dz3play import dz3_session

    yield from hosting(dz3_session(), tmp_path / "dz3.sock")


@pytest.fixture
def dz3_clients(dz3_host: HostThread) -> Iterator[Callable[..., RemoteSession]]:
    yield from connecting(dz3_host)

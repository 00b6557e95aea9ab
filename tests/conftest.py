"""Shared fixtures, and the hook that sorts tests into lanes (lanes.py). Keep this
small: put fixtures used by one file in that file."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest
from lanes import slow_because


@pytest.fixture(autouse=True)
def deals_from_the_public_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Games made by ``Session.new`` with no ``deal_seed`` shuffle their cards with
    the public seed's RNG, as saves from before secret deals do, so that a seeded
    test or snapshot gets the same cards and dice every run. A test of the secret
    deal passes ``deal_seed=``, or overrides this fixture with a no-op of the same
    name (see ``tests/rules/commandhand/test_ch_secret_deal.py``)."""
    monkeypatch.setattr("deathzap_tui.session.new_deal_seed", lambda: None)


@pytest.hookimpl(tryfirst=True)  # before ``-m "not slow"`` deselects
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``slow`` every test that starts an app, a process or a server
    (:mod:`lanes`), so that the fast lane leaves it out without anyone marking it."""
    for item in items:
        why = None if item.get_closest_marker("slow") else slow_because(item)
        if why is not None:
            item.add_marker(pytest.mark.slow(reason=why))


@pytest.fixture(autouse=True)
def cache_key_of_this_test(tmp_path_factory: pytest.TempPathFactory,
                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Save caches are signed with a key the tests keep to themselves, never the
    user's (``paths.cache_key``)."""
    key = tmp_path_factory.mktemp("key") / "cache.key"
    monkeypatch.setenv("DEATHZAP_CACHE_KEY", str(key))


@pytest.fixture(autouse=True)
def no_waiting_for_the_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    """``os.fsync`` returns at once in the test process (issue 21). A sync only
    matters when the machine itself goes down, which no test can make happen; at
    about 9 ms a call on this disk, a game of a few hundred saved events spent
    seconds in it. Writers killed by the kill -9 tests run in processes of their own,
    which still sync; a test of a failing sync patches ``os.fsync`` itself."""
    monkeypatch.setattr(os, "fsync", lambda fd: None)


@pytest.fixture(autouse=True)
def pilot_waits_without_fixed_naps(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pilot's keys and pauses wait for the app to be idle with short naps and an eye
    on the timers due (``pilot_wait``), not 20 ms naps (issue 21). Only once the test
    run has imported Textual: the rules' tests never pay for it."""
    if "textual.app" not in sys.modules:
        return
    from pilot_wait import wait_for_idle  # lazy: imports Textual (rules-only runs never do)

    monkeypatch.setattr("textual.app.wait_for_idle", wait_for_idle)
    monkeypatch.setattr("textual.pilot.wait_for_idle", wait_for_idle)


@pytest.fixture
def saves_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty saves folder of the test's own (``DEATHZAP_SAVES_DIR``), the
    working directory its parent."""
    d = tmp_path / "saves"
    d.mkdir()
    monkeypatch.setenv("DEATHZAP_SAVES_DIR", str(d))
    monkeypatch.chdir(tmp_path)
    return d


@pytest.fixture
def squad1() -> dict[str, Any]:
    """A fresh DZ3 force table holding the seed's Mortan's Men Squad 1 (DZ3 §13)."""
    return {
        "name": "Mortan's Men",
        "weapons": {
            "small-arms": {"shots": 1, "power": "light"},
            "destroyer": {"profiles": [
                {"name": "Strike", "shots": 1, "power": "heavy", "rules": ["strike"]},
                {"name": "Spread", "shots": 2, "power": "light"},
            ]},
            "grenades": {"shots": 6, "power": "light", "rules": ["short-range"]},
        },
        "units": [{
            "name": "Squad 1", "skill": "basic", "move": 6, "melee_attacks": 1,
            "shield_strength": "light", "shields": 6,
            "figures": [
                {"name": "Platoon Leader", "leader": True, "command": 6,
                 "weapons": ["grenades"]},
                {"name": "Cultist", "count": 5, "weapons": ["small-arms"]},
                {"name": "Cultist", "weapons": ["destroyer"]},
            ],
        }],
    }

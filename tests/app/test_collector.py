"""No garbage collection while the app starts (issue 21): paused by the command, let
run again, start-up's objects frozen, by the first frame; an app whose collector was
not paused (every test's) leaves it alone."""

from __future__ import annotations

import gc

from app_helpers import aiotest

from deathzap_tui.app import collector
from deathzap_tui.app.app import DeathzapApp, Launch


async def collecting_after_first_frame() -> tuple[bool, int]:
    """Whether the collector runs, and how many objects are frozen, once the start
    screen's first frame is drawn."""
    app = DeathzapApp(Launch("start", seed=7))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        return gc.isenabled(), gc.get_freeze_count()


@aiotest
async def test_the_first_frame_lets_the_paused_collector_run_again() -> None:
    collector.pause()
    try:
        assert not gc.isenabled()
        running, frozen = await collecting_after_first_frame()
        assert running
        assert frozen > 10_000  # start-up's objects, out of every collection to come
    finally:
        gc.unfreeze()
        gc.enable()


@aiotest
async def test_a_collector_not_paused_is_left_alone() -> None:
    assert gc.isenabled()
    assert await collecting_after_first_frame() == (True, 0)

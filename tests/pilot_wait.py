"""Pilot's wait for an idle app, without its fixed naps (issue 21).

Textual's Pilot waits after every key (twice) and every ``pause()`` until the process
has used almost no CPU over a 20 ms sleep (``textual._wait.wait_for_idle``): at least
40 ms of sleep a key however little the app does, most of the suite's wall time in the
app tests. :func:`wait_for_idle` keeps its rule with 4 ms naps, and adds what a
20 ms nap gave for free: it goes on only when nothing the event loop has scheduled
falls due within :data:`HORIZON` (a screen refresh, an animation frame, a short
timer), so a key's work is as finished when the test goes on as before.

Installed for the whole run by ``tests/conftest.py``; Textual 8.2 binds the function
into ``textual.app`` (``_press_keys``) and ``textual.pilot`` by name.
"""

from __future__ import annotations

import asyncio
from time import monotonic, process_time

from textual.timer import Timer

NAP = 0.004
"""One sleep of the wait (Textual's: 20 ms)."""
BUSY = NAP / 20
"""CPU used over one nap that means the app is still working (Textual's ratio)."""
HORIZON = 0.025
"""A timer due sooner than this is waited for (the screen refreshes every 1/60 s)."""


def _wakes_a_paused_timer(handle: asyncio.TimerHandle) -> bool:
    """Whether ``handle`` ends the sleep of a paused Textual timer, which then only
    waits to be resumed: the screen's refresh timer sleeps one more period after
    every refresh. Reads private state: the sleeping task's coroutine (Textual's
    ``Timer._run_timer``) and the timer's ``_active`` event."""
    for callback, _context in getattr(next(iter(handle._args), None), "_callbacks", ()):
        task = getattr(callback, "__self__", None)
        frame = getattr(task.get_coro(), "cr_frame", None) \
            if isinstance(task, asyncio.Task) else None
        timer = frame.f_locals.get("self") if frame is not None else None
        if isinstance(timer, Timer) and not timer._active.is_set():
            return True
    return False


def _due_soon(loop: asyncio.AbstractEventLoop) -> bool:
    """Whether a callback the loop has scheduled, other than a paused timer's
    wake-up, falls due within :data:`HORIZON`. Reads the loop's private heap of
    timers (``BaseEventLoop._scheduled``)."""
    soon = loop.time() + HORIZON
    return any(not handle.cancelled() and handle.when() < soon
               and not _wakes_a_paused_timer(handle)
               for handle in getattr(loop, "_scheduled", ()))


async def wait_for_idle(min_sleep: float = 1 / 50, max_sleep: float = 1) -> None:
    """Return once the app is idle: a nap of :data:`NAP` used under :data:`BUSY` of
    CPU, at least ``min_sleep`` has passed and no timer falls due soon; or after
    ``max_sleep`` (Textual's signature and limits)."""
    loop = asyncio.get_running_loop()
    start = monotonic()
    while True:
        cpu = process_time()
        await asyncio.sleep(NAP)
        busy = process_time() - cpu >= BUSY
        elapsed = monotonic() - start
        if elapsed >= max_sleep:
            return
        if elapsed > min_sleep and not busy and not _due_soon(loop):
            return

"""Driving the joined app (Pilot) in the tests that play it against a real referee."""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Callable, Coroutine
from typing import Any

TEST_TIMEOUT = 180.0
"""A joined-app test that has not finished by then fails instead of hanging CI."""


def run(coro_fn: Callable[..., Coroutine[Any, Any, Any]]) -> Callable[..., Any]:
    """An ``async def`` test run to completion in its own event loop."""

    @functools.wraps(coro_fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return asyncio.run(asyncio.wait_for(coro_fn(*args, **kwargs), TEST_TIMEOUT))

    return wrapper


async def until(pilot: Any, predicate: Callable[[], object], timeout: float = 20.0) -> None:
    """Let the app run until ``predicate()`` holds; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for the app")
        await pilot.pause(0.02)


async def answer_while(pilot: Any, app: Any, move: Callable[[], object], label: str,
                       by: str = "black") -> int:
    """Run ``move`` (``by``'s whole action through the API, in a thread) while this
    terminal's app answers every step that comes to it: dice rolled for it (ctrl+r),
    questions at their highlighted default. Returns how many steps it answered."""
    from deathzap_tui.app.joined import JoinedWizardScreen
    from deathzap_tui.rules.steps import DiceRequest, Question

    answered = 0
    task = asyncio.ensure_future(asyncio.to_thread(move))
    deadline = time.monotonic() + 60
    while not task.done():
        assert time.monotonic() < deadline, f"{by}'s {label} never finished"
        screen = app.screen
        if isinstance(screen, JoinedWizardScreen) and isinstance(
                screen.resolution.step, Question | DiceRequest):
            assert not screen.token.mine and screen.token.by == by
            answered += 1
            await pilot.press("ctrl+r" if isinstance(screen.resolution.step, DiceRequest)
                              else "enter")
        await pilot.pause(0.02)
    await task
    return answered

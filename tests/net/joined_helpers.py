"""Driving the joined app (Pilot) in the tests that play it against a real referee."""

from __future__ import annotations

import asyncio
import functools
import html
import re
import time
from collections.abc import Callable, Coroutine, Mapping
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


async def hit_to_its_dice(pilot: Any, app: Any) -> Any:
    """Begin the toy duel's hit in ``app`` (a joined app, its player to move), answer
    its cover question (open) and stop at its dice: the wizard."""
    from deathzap_tui.app.remote.wizard import JoinedWizardScreen
    from deathzap_tui.rules.steps import DiceRequest, Question

    await pilot.press("o")  # the duel's hit is one of the other actions
    await until(pilot, lambda: isinstance(app.screen, JoinedWizardScreen))
    wizard = app.screen
    if wizard.resolution is None:
        await pilot.press("1")
    await until(pilot, lambda: isinstance(wizard.resolution.step, Question))
    await pilot.press("1")  # open
    await until(pilot, lambda: isinstance(wizard.resolution.step, DiceRequest))
    return wizard


async def answer_while(pilot: Any, app: Any, move: Callable[[], object], label: str,
                       by: str = "black") -> int:
    """Run ``move`` (``by``'s whole action through the API, in a thread) while this
    terminal's app answers every step that comes to it: dice rolled for it (ctrl+r),
    questions at their highlighted default. Returns how many steps it answered."""
    from deathzap_tui.app.remote.wizard import JoinedWizardScreen
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


def screen_text(app: Any) -> str:
    """The characters on the app's screen, read back from its SVG export (as
    ``tests/app/ch_helpers.py``'s, for the joined apps)."""
    svg = app.export_screenshot()
    return "".join(html.unescape(t) for t in re.findall(r"<text[^>]*>(.*?)</text>", svg)
                   ).replace("\xa0", " ")


async def synced(pilot: Any, apps: Mapping[str, Any], sessions: Mapping[str, Any]) -> None:
    """Let the apps run until every session has the same events, no app holds pushes
    back for a burst (``BURST``: they may change the keys a screen offers) and every
    battle screen shows its session's whole narrative."""
    from deathzap_tui.app.remote.battle import JoinedBattleScreen

    await until(pilot, lambda: len({s.events for s in sessions.values()}) == 1 and all(
        app._held is None and not app._posted.is_set() for app in apps.values()) and all(
        apps[side].screen._shown_narrative == s.narrative() for side, s in sessions.items()
        if isinstance(apps[side].screen, JoinedBattleScreen)))


def settle_action(clients: Mapping[str, Any], me: Any, action: Any,
                  answer: Callable[[Any], Any]) -> None:
    """Finish ``me``'s ``action`` through the API (run in a thread): each step answered
    ``answer(step)`` by the session it is asked of — a step shown to ``me`` as
    :class:`Waiting` by the other player's session — then committed, and every
    session given the new state before the next move."""
    from deathzap_tui.net.wire import Waiting
    from deathzap_tui.rules.steps import DiceRequest, Question

    res = action.resolution
    for _ in range(200):
        step = res.step
        if step is None:
            break
        if isinstance(step, Waiting):
            foe = clients[step.side]
            assert foe.wait_for(lambda s: (a := s.pending_action()) is not None
                                and isinstance(a.resolution.step, Question | DiceRequest), 20)
            theirs = foe.pending_action()
            before = len(res.answers)
            theirs.resolution.answer(answer(theirs.resolution.step))
            assert me.wait_for(lambda s, n=before: len(res.answers) > n, 20)
        else:
            res.answer(answer(step))
    me.commit(action)
    for c in clients.values():
        assert c.wait_for(lambda s: s.events >= me.events, 20)

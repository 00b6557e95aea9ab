"""``--notify CMD``: tell the world outside the club that something happened.

For each "your-move", "challenge" and "game-over", the server runs ``CMD MEMBER GAME
WHAT`` (``CMD`` split with :func:`shlex.split`, never through a shell; the three
values are arguments of their own, so nothing in them is ever interpreted). GAME is
the game's number, or ``challenge-N`` for a challenge not yet accepted. A club
forwards them to mail or chat with a script of its own.

Play never waits for it: :meth:`Notifier.notify` only queues the call, and at most
``running`` commands run at once, each for at most ``timeout`` seconds (then it is
killed). What waits beyond ``queued`` is dropped. Every failure, time-out and drop
is logged with the command's exit status and the first line of what it said.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import signal
from collections import deque
from collections.abc import Callable, Sequence

from deathzap_tui.headless.text import clean

WHATS = ("your-move", "challenge", "game-over")


def parse_command(text: str) -> list[str]:
    """``--notify``'s value as an argv; ``ValueError`` naming what is wrong."""
    try:
        argv = shlex.split(text)
    except ValueError as exc:
        raise ValueError(f"--notify: cannot split {text!r} into words ({exc})") from None
    if not argv:
        raise ValueError("--notify: no command given")
    return argv


class Notifier:
    """Runs the notify command in the background, bounded (see the module doc)."""

    def __init__(self, argv: Sequence[str], *, timeout: float = 10.0, running: int = 4,
                 queued: int = 100, log: Callable[[str], None] = print) -> None:
        self.argv = list(argv)
        self.timeout = timeout
        self.running = running
        self.queued = queued
        self.log = log
        self._waiting: deque[tuple[str, str, str]] = deque()
        self._tasks: set[asyncio.Task[None]] = set()

    def notify(self, member: str, game: int | str, what: str) -> None:
        """Queue one call; returns at once."""
        if len(self._waiting) >= self.queued:
            self.log(f"notify: {self.queued} calls waiting already; dropped {what} "
                     f"for {member}")
            return
        self._waiting.append((member, str(game), what))
        self._start()

    async def drain(self) -> None:
        """Wait until every queued call has run (tests, and a clean shutdown)."""
        while self._tasks:
            await asyncio.wait(list(self._tasks))

    async def close(self) -> None:
        self._waiting.clear()
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.wait(list(self._tasks))

    def _start(self) -> None:
        while self._waiting and len(self._tasks) < self.running:
            task = asyncio.ensure_future(self._run(*self._waiting.popleft()))
            self._tasks.add(task)
            task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        self._start()

    async def _run(self, member: str, game: str, what: str) -> None:
        argv = [*self.argv, member, game, what]
        label = f"notify {what} for {clean(member, oneline=True)} (game {game})"
        try:
            proc = await asyncio.create_subprocess_exec(
                *argv, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.PIPE, start_new_session=True)
        except OSError as exc:
            self.log(f"{label}: cannot run {argv[0]!r}: {exc}")
            return
        try:
            async with asyncio.timeout(self.timeout):
                _out, err = await proc.communicate()
        except TimeoutError:
            _kill(proc)
            await proc.wait()
            self.log(f"{label}: still running after {self.timeout:g} s; killed")
            return
        except asyncio.CancelledError:
            _kill(proc)
            await proc.wait()
            raise
        if proc.returncode:
            said = clean(err.decode("utf-8", "replace").strip().splitlines()[0][:200]
                         if err.strip() else "", oneline=True)
            self.log(f"{label}: exit status {proc.returncode}" + (f": {said}" if said else ""))


def _kill(proc: asyncio.subprocess.Process) -> None:
    """Kill the command and whatever it started (it leads its own process group)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)

"""Sessions' apps started from the zygote (:mod:`.zygote`), the server's side.

:class:`Launcher` runs the zygote beside ``club serve`` and asks it for a child per
session (:meth:`Launcher.start_child`), returning a :class:`ForkedChild` that the SSH
server handles as it would an :class:`asyncio.subprocess.Process`. A zygote that
dies is started again (at once, then after longer pauses if it keeps dying); until
it is ready, and for a command the zygote cannot run, :meth:`Launcher.start_child`
returns ``None`` and the server starts the app as a process of its own, as without a
zygote.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import struct
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from deathzap_tui.club.zygote import READY, runnable

START_TIMEOUT = 60.0
"""Seconds the zygote may take to import everything and say it is ready."""
FORK_TIMEOUT = 10.0
"""Seconds the zygote may take to report a child: then it is taken for stuck."""
REPORT_TIMEOUT = 2.0
"""Seconds to wait for a child's exit code once it has ended."""
RESTART_PAUSES = (0.0, 1.0, 5.0, 30.0)
"""Pauses before starting a dead zygote again, by how many died in a row."""
STEADY = 60.0
"""Seconds a zygote must have run for its end not to count as dying in a row."""


class ForkedChild:
    """A session's app forked by the zygote: its pid, and a pidfd to signal it and
    see it end; its exit code as the zygote (its parent) reports it, or 0 if the
    zygote went away first."""

    def __init__(self, pid: int, pidfd: int, link: socket.socket, got: bytes) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._pidfd = pidfd
        self._link = link
        self._got = got
        self._ended: asyncio.Task[int] = asyncio.ensure_future(self._watch())

    async def wait(self) -> int:
        return await asyncio.shield(self._ended)

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            signal.pidfd_send_signal(self._pidfd, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    async def _watch(self) -> int:
        try:
            await _readable(self._pidfd)
            code = 0
            with contextlib.suppress(OSError, TimeoutError):
                async with asyncio.timeout(REPORT_TIMEOUT):
                    while len(self._got) < 4:
                        await _readable(self._link.fileno())
                        chunk = self._link.recv(4)
                        if not chunk:
                            break
                        self._got += chunk
            if len(self._got) >= 4:
                (code,) = struct.unpack("!i", self._got[:4])
            self.returncode = code
            return code
        finally:
            os.close(self._pidfd)
            self._link.close()


class Launcher:
    """The zygote beside the server: ``await start()``, :meth:`start_child`,
    ``await close()``. ``rundir`` is the server's private run directory."""

    def __init__(self, rundir: Path, *, log: Callable[[str], None] = print,
                 nice: int = 0) -> None:
        self.path = rundir / "zygote.sock"
        self.log = log
        self.nice = nice
        """How many niceness levels below the zygote's (the server's) its children's
        CPU priority is (:func:`~.zygote.nicer`)."""
        self.process: asyncio.subprocess.Process | None = None
        self.ready = False
        self.forked = 0
        """Children forked so far (the rest were started as processes of their own)."""
        self._keeping: asyncio.Task[None] | None = None
        self._started = asyncio.Event()

    async def start(self) -> None:
        """Start the zygote and keep it running; return once it is ready (or has
        failed to start: sessions then start without it until it does)."""
        self._keeping = asyncio.ensure_future(self._keep())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._started.wait(), START_TIMEOUT)

    async def close(self) -> None:
        if self._keeping is not None:
            self._keeping.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._keeping
        await self._stop()

    async def start_child(self, argv: Sequence[str], env: Mapping[str, str],
                          slave: int) -> ForkedChild | None:
        """``argv`` forked from the zygote on the pty ``slave`` with ``env``; ``None``
        if the zygote is not ready or cannot run it (start it another way)."""
        if not (self.ready and argv and argv[0] == sys.executable and runnable(list(argv[1:]))):
            return None
        request = json.dumps({"argv": list(argv[1:]), "env": dict(env),
                              "nice": self.nice}).encode()
        link = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        link.setblocking(False)
        try:
            await asyncio.get_running_loop().sock_connect(link, str(self.path))
            socket.send_fds(link, [struct.pack("!I", len(request)) + request], [slave])
            async with asyncio.timeout(FORK_TIMEOUT):
                await _readable(link.fileno())
                got, fds, _flags, _addr = socket.recv_fds(link, 8, 1)
        except (OSError, TimeoutError) as exc:
            link.close()
            self.log(f"zygote: no child ({exc!r}); starting the session's app without it")
            self._kill()  # stuck or gone: the keeper starts another
            return None
        if len(got) < 4 or len(fds) != 1:
            link.close()
            for fd in fds:
                os.close(fd)
            return None
        (pid,) = struct.unpack("!i", got[:4])
        self.forked += 1
        return ForkedChild(pid, fds[0], link, got[4:])

    async def _keep(self) -> None:
        """Run the zygote; start it again whenever it ends."""
        deaths = 0
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(RESTART_PAUSES[min(deaths, len(RESTART_PAUSES) - 1)])
            began = loop.time()
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "deathzap_tui.club.zygote", str(self.path),
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                start_new_session=True)
            self.process = process
            assert process.stdout is not None
            with contextlib.suppress(TimeoutError, ValueError):
                line = await asyncio.wait_for(process.stdout.readline(), START_TIMEOUT)
                self.ready = line.decode().strip() == READY
            if self.ready:
                self.log(f"zygote: ready (pid {process.pid})")
            else:
                self._kill()
            self._started.set()  # a failed start holds the server's start up no longer
            code = await process.wait()
            self.ready = False
            deaths = deaths + 1 if loop.time() - began < STEADY else 0
            self.log(f"zygote: pid {process.pid} ended ({code}); starting another")

    def _kill(self) -> None:
        self.ready = False
        if self.process is not None and self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()

    async def _stop(self) -> None:
        """End the zygote: its standard input closes (its children go on)."""
        self.ready = False
        process, self.process = self.process, None
        if process is None or process.returncode is not None:
            return
        assert process.stdin is not None
        process.stdin.close()
        try:
            await asyncio.wait_for(process.wait(), 5)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()


async def _readable(fd: int) -> None:
    loop = asyncio.get_running_loop()
    ready = loop.create_future()
    loop.add_reader(fd, lambda: ready.done() or ready.set_result(None))
    try:
        await ready
    finally:
        loop.remove_reader(fd)

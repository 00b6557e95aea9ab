"""The zygote (issue 23): sessions' apps forked from one pre-imported process, each on
its own pty with nothing of the zygote's or of other sessions' left to it; a zygote
that dies is replaced, and sessions start without it meanwhile."""

from __future__ import annotations

import asyncio
import json
import os
import pty
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from server_helpers import autogroup_nice, short_dir

from deathzap_tui.club.launcher import ForkedChild, Launcher
from deathzap_tui.club.zygote import MAX_NICE

REPORT = r"""
import json, os, random, sys
print(json.dumps({
    "fds": sorted(int(fd) for fd in os.listdir("/proc/self/fd")),
    "ppid": os.getppid(), "leader": os.getsid(0) == os.getpid(),
    "tty": os.isatty(0) and os.isatty(1) and os.isatty(2) and os.ttyname(0) != "",
    "own_tty": os.tcgetpgrp(0) == os.getpgrp(),
    "env": dict(os.environ), "argv": sys.argv, "random": random.random(),
    "main": __name__, "imported": "textual.app" in sys.modules,
    "nice": os.getpriority(os.PRIO_PROCESS, 0),
    "group": open("/proc/self/autogroup").read() if os.path.exists("/proc/self/autogroup")
    else ""}), flush=True)
sys.exit(int(sys.argv[1]))
"""
"""A child's report of what it has: one JSON line, then exit with the code asked."""


@asynccontextmanager
async def launcher(nice: int = 0) -> AsyncIterator[Launcher]:
    rundir = short_dir()
    zygote = Launcher(rundir, log=lambda text: None, nice=nice)
    await zygote.start()
    try:
        yield zygote
    finally:
        await zygote.close()
        for path in rundir.iterdir():
            path.unlink()
        rundir.rmdir()


def read_all(master: int) -> str:
    out = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: every process on the pty has gone
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    return out.decode()


async def run_child(zygote: Launcher, argv: list[str], env: dict[str, str],
                    extra_fd: int | None = None) -> tuple[ForkedChild | None, int, str]:
    """``argv`` started through ``zygote`` on a new pty: the child, its exit code and
    what it wrote."""
    master, slave = pty.openpty()
    child = await zygote.start_child(argv, env, slave)
    os.close(slave)
    code = await child.wait() if child is not None else -1
    return child, code, await asyncio.to_thread(read_all, master)


def report_of(text: str) -> dict:
    return json.loads(next(line for line in text.splitlines() if line.startswith("{")))


ENV = {"PATH": os.environ.get("PATH", ""), "LANG": "C.UTF-8", "DEATHZAP_CLUB_TOKEN": "t1"}


def test_a_child_has_its_pty_its_environment_and_no_other_descriptor() -> None:
    async def main() -> None:
        async with launcher() as zygote:
            assert zygote.ready and zygote.process is not None
            # a descriptor open in this process, and a session already running, must
            # not reach the next child
            leaked_r, leaked_w = os.pipe()
            blocker, blocker_slave = pty.openpty()
            first = await zygote.start_child(
                [sys.executable, "-c", "import time; time.sleep(30)"], ENV, blocker_slave)
            os.close(blocker_slave)
            assert first is not None
            child, code, out = await run_child(zygote, [sys.executable, "-c", REPORT, "7"],
                                               {**ENV, "DEATHZAP_CLUB_TOKEN": "t2"})
            first.terminate()
            assert await first.wait() == -signal.SIGTERM
            os.close(blocker)
            os.close(leaked_r), os.close(leaked_w)
            assert isinstance(child, ForkedChild) and code == 7 and child.returncode == 7
            seen = report_of(out)
            assert seen["fds"] == [0, 1, 2, 3]  # 3: the listing of /proc/self/fd itself
            assert seen["ppid"] == zygote.process.pid and seen["leader"]
            assert seen["tty"] and seen["own_tty"]
            assert seen["env"] == {**ENV, "DEATHZAP_CLUB_TOKEN": "t2"}
            assert seen["argv"] == ["-c", "7"] and seen["main"] == "__main__"
            assert seen["imported"]  # forked from the pre-imported process
            assert seen["nice"] == os.getpriority(os.PRIO_PROCESS, 0)  # none asked
            assert zygote.forked == 2

    asyncio.run(main())


def test_children_draw_fresh_random_numbers_and_run_scripts_and_modules(
        tmp_path: Path) -> None:
    script = tmp_path / "report.py"
    script.write_text(REPORT)

    async def main() -> None:
        async with launcher() as zygote:
            runs = [await run_child(zygote, [sys.executable, str(script), "0"], ENV)
                    for _ in range(2)]
            reports = [report_of(out) for _child, _code, out in runs]
            assert reports[0]["random"] != reports[1]["random"]
            assert reports[0]["argv"] == [str(script), "0"]
            _child, code, out = await run_child(
                zygote, [sys.executable, "-m", "deathzap_tui", "--help"], ENV)
            assert code == 0 and "usage: deathzap" in out

    asyncio.run(main())


def test_a_killed_zygote_is_replaced_and_sessions_start_without_it_meanwhile() -> None:
    async def main() -> None:
        async with launcher() as zygote:
            assert zygote.process is not None
            old = zygote.process.pid
            os.kill(old, signal.SIGKILL)
            await asyncio.sleep(0.2)
            master, slave = pty.openpty()
            assert await zygote.start_child([sys.executable, "-c", "pass"], ENV,
                                            slave) is None  # start it another way
            os.close(slave), os.close(master)
            async with asyncio.timeout(60):
                while not zygote.ready:
                    await asyncio.sleep(0.1)
            assert zygote.process is not None and zygote.process.pid != old
            child, code, out = await run_child(zygote, [sys.executable, "-c", REPORT, "0"],
                                               ENV)
            assert child is not None and code == 0
            assert report_of(out)["ppid"] == zygote.process.pid

    asyncio.run(main())


def test_children_run_the_niceness_asked_below_the_zygote_which_keeps_the_servers() -> None:
    """``Launcher(nice=N)``: each child lowers its own CPU priority by N as it takes
    its session, before its app runs; the zygote stays at the server's."""
    ours = os.getpriority(os.PRIO_PROCESS, 0)

    async def main() -> None:
        async with launcher(nice=5) as zygote:
            assert zygote.process is not None
            child, code, out = await run_child(zygote, [sys.executable, "-c", REPORT, "0"],
                                               ENV)
            assert child is not None and code == 0
            seen = report_of(out)
            assert seen["nice"] == min(MAX_NICE, ours + 5)
            if seen["group"]:  # its session's autogroup too (the kernel shares between them)
                assert seen["group"].split()[-1] == str(min(MAX_NICE, ours + 5))
            assert os.getpriority(os.PRIO_PROCESS, zygote.process.pid) == ours
            assert autogroup_nice(zygote.process.pid) in (None, 0)

    asyncio.run(main())


def test_commands_the_zygote_cannot_run_are_left_to_the_caller() -> None:
    async def main() -> None:
        async with launcher() as zygote:
            for argv in (["/bin/echo", "hi"], [sys.executable, "-X", "dev", "-c", "pass"],
                         [sys.executable]):
                master, slave = pty.openpty()
                assert await zygote.start_child(argv, ENV, slave) is None
                os.close(slave), os.close(master)
            assert zygote.forked == 0

    asyncio.run(main())


@pytest.mark.parametrize("request_text", [
    b"{}", b"not json", b'{"argv": ["-X"], "env": {}}',
    b'{"argv": ["-c", "pass"], "env": {}, "nice": -5}',  # a higher priority: never
    b'{"argv": ["-c", "pass"], "env": {}, "nice": 20}',
    b'{"argv": ["-c", "pass"], "env": {}, "nice": "5"}',
])
def test_a_bad_request_ends_its_child_and_not_the_zygote(request_text: bytes) -> None:
    import socket
    import struct

    async def main() -> None:
        async with launcher() as zygote:
            master, slave = pty.openpty()
            link = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            link.connect(str(zygote.path))
            socket.send_fds(link, [struct.pack("!I", len(request_text)) + request_text],
                            [slave])
            os.close(slave)
            got = b""
            while len(got) < 8:
                chunk = await asyncio.to_thread(link.recv, 8)
                assert chunk, got
                got += chunk
            pid, code = struct.unpack("!ii", got)
            assert pid > 0 and code == 1
            link.close(), os.close(master)
            child, code, _out = await run_child(zygote, [sys.executable, "-c", REPORT, "0"],
                                                ENV)
            assert child is not None and code == 0

    asyncio.run(main())

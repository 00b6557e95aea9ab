"""A joined app on a real terminal (a pty): it sleeps while nobody touches it (a club
server runs an app per session, most of them idle: issue 23), and its keys still
work, a lone Escape among them, and ctrl+q ends it at once."""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

from subprocess_env import child_env

JOIN = ("import sys, toynet; toynet.install(); from deathzap_tui.cli import main; "
        "sys.exit(main(sys.argv[1:]))")


def read_until(fd: int, text: bytes, timeout: float = 20.0) -> bytes:
    """What the app draws until ``text`` appears in it."""
    out = b""
    deadline = time.monotonic() + timeout
    while text not in out:
        left = deadline - time.monotonic()
        assert left > 0, f"never drew {text!r}: {out[-300:]!r}"
        if select.select([fd], [], [], left)[0]:
            out += os.read(fd, 65536)
    return out


def settle(fd: int, quiet: float = 0.5) -> None:
    """Read what the app draws until it has drawn nothing for ``quiet`` seconds."""
    while select.select([fd], [], [], quiet)[0]:
        os.read(fd, 65536)


def wakeups(pid: int) -> int:
    """How often the process's threads have gone to sleep and woken so far."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            for line in (task / "status").read_text().splitlines():
                if line.startswith("voluntary_ctxt_switches:"):
                    total += int(line.split()[1])
    return total


def test_an_idle_joined_app_sleeps_and_its_keys_still_work(host, saves_dir: Path) -> None:
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    app = subprocess.Popen(
        [sys.executable, "-c", JOIN, "join", "--socket", str(host.socket_path), "--as", "red"],
        stdin=slave, stdout=slave, stderr=slave, start_new_session=True,
        env=child_env(TERM="xterm-256color", DEATHZAP_SAVES_DIR=str(saves_dir)))
    os.close(slave)
    try:
        read_until(master, b"you: RED")
        settle(master)
        before = wakeups(app.pid)
        time.sleep(1.5)
        # Textual's own input thread wakes every 0.1 s: 15 times here.
        assert wakeups(app.pid) - before < 5
        os.write(master, b"l")  # the whole log, on a screen of its own
        read_until(master, b"The game so far")
        settle(master)
        os.write(master, b"\x1b")  # a lone Escape: back to the board
        read_until(master, b"you: RED", timeout=5)
        os.write(master, b"\x11")  # ctrl+q
        assert app.wait(5) == 0
    finally:
        if app.poll() is None:
            app.kill()
            app.wait()
        os.close(master)

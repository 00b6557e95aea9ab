"""What a move costs the two players' apps at a shared table (issue 23): CPU and frames.

The club's CPU per move is nearly all the two joined apps repainting
(``benchmarks/club.py``, docs/club-scale.md). This measures just that, without SSH
or a club: a toy referee (``tests/net/toynet.py``'s duel, on its own thread) and the
two joined apps (``deathzap join``), each a fresh interpreter on a pty (80x24) that
answers Textual's query for synchronized output, so every frame an app writes is
bracketed by ``ESC[?2026h`` and can be counted. The players' hands are protocol
connections at the table (as in ``benchmarks/club.py``): the apps only follow.

Each move is the toy duel's hit: begin, the attacker's cover answer, the attacker's
dice, the defender's saves (when a die hit), commit. Two ways to play it:

- ``paced`` (default), as ``benchmarks/club.py`` plays: the answers back to back,
  then the commit once the opponent's screen is quiet. CPU per move (each app's
  process time, all its threads) and frames per move, and how long the commit took
  to reach the opponent's screen (sent -> its first bytes: what ``club.py`` times,
  without SSH and a club).
- ``--steps``: every step on its own, both screens quiet before the next: CPU and
  frames per step of each app (the mover's and the opponent's).

``--profile DIR`` runs each app under cProfile and writes DIR/red.prof and
DIR/black.prof when it quits (the app's own thread only); with ``--profile-role
mover`` (or ``opponent``) each app is profiled only in the moves it plays that part
in (the sides take turns to move), so the two files hold that part's work alone.

``--zygote`` forks the apps from a zygote (:mod:`deathzap_tui.club.zygote`), as
``club serve`` starts its sessions' apps, rather than as fresh interpreters. Paced,
the CPU and minor page faults of the two apps are also printed move by move (the
first moves of a fresh app pay what it had not imported, styled or touched yet).

    .venv/bin/python benchmarks/joined_move.py [--moves 20] [--steps] [--profile DIR]
                                               [--profile-role mover|opponent] [--zygote]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import fcntl
import os
import pty
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from subprocess_env import child_env, helper_folders  # noqa: E402

sys.path[:0] = helper_folders()  # the tests' helpers (toynet...), as pytest finds them
os.environ.update(child_env())  # and so do the apps started here

import toynet  # noqa: E402

JOIN = ("import sys, os, signal; import toynet; toynet.install(); "
        "from deathzap_tui.cli import main\n"
        "if os.environ.get('BENCH_PROFILE'):\n"
        "    import cProfile; p = cProfile.Profile()\n"
        "    signal.signal(signal.SIGUSR1, lambda *a: p.enable())\n"
        "    signal.signal(signal.SIGUSR2, lambda *a: (p.disable(), "
        "p.dump_stats(os.environ['BENCH_PROFILE'])))\n"
        "sys.exit(main(sys.argv[1:]))")
"""``python -c JOIN ARGS...``: the CLI with the toy ruleset known; with
``BENCH_PROFILE`` (a file), profiled (cProfile, the app's thread) from SIGUSR1 to
SIGUSR2, which writes the file."""
SYNC_START = b"\x1b[?2026h"
"""Textual writes this before every frame once the terminal says it supports it."""
QUIET = 0.25
"""Seconds of silence on a screen that end what a step drew."""


def _die_with_parent() -> None:
    """In the child: killed when the benchmark dies, however it dies."""
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def cpu_ns(pid: int) -> int:
    """The process's CPU time so far, every thread's (``schedstat``: nanoseconds)."""
    total = 0
    with contextlib.suppress(OSError):
        for task in os.listdir(f"/proc/{pid}/task"):
            with contextlib.suppress(OSError):
                total += int(Path(f"/proc/{pid}/task/{task}/schedstat").read_text().split()[0])
    return total


def minflt(pid: int) -> int:
    """The process's minor page faults so far, every thread's (``/proc/PID/stat``)."""
    with contextlib.suppress(OSError):
        stat = Path(f"/proc/{pid}/stat").read_text()
        return int(stat[stat.rindex(")") + 2:].split()[7])
    return 0


class Terminal:
    """A joined app on a pty: the frames it wrote and when its last bytes came."""

    def __init__(self, side: str, proc: Any, master: int, env: dict[str, str]) -> None:
        self.side = side
        self.master = master
        self.proc = proc
        self.env = env
        self.frames = 0
        self.last = time.monotonic()
        self.tail = b""
        self.heard: float | None = 0.0
        """When it first wrote after :meth:`listen` (``None``: not yet)."""
        asyncio.get_running_loop().add_reader(self.master, self._read)

    @classmethod
    async def start(cls, side: str, sock: Path, env: dict[str, str],
                    launcher: Any = None) -> Terminal:
        """``deathzap join`` as ``side`` on a new pty: a fresh interpreter, or forked
        by ``launcher`` (a :class:`~deathzap_tui.club.launcher.Launcher`)."""
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        argv = [sys.executable, "-c", JOIN, "join", "--socket", str(sock), "--as", side]
        proc = None if launcher is None else await launcher.start_child(argv, env, slave)
        if launcher is not None and proc is None:
            raise RuntimeError("the zygote forked no app")
        if proc is None:
            proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env,
                                    start_new_session=True, close_fds=True,
                                    preexec_fn=_die_with_parent)
        os.close(slave)
        return cls(side, proc, master, env)

    def _read(self) -> None:
        try:
            chunk = os.read(self.master, 65536)
        except OSError:
            chunk = b""
        if not chunk:
            asyncio.get_running_loop().remove_reader(self.master)
            return
        self.last = time.monotonic()
        if self.heard is None:
            self.heard = self.last
        self.tail = (self.tail + chunk)[-4000:]
        self.frames += chunk.count(SYNC_START)  # a marker split across reads is rare
        if b"\x1b[6n" in chunk:  # answer a terminal's queries as a terminal would
            os.write(self.master, b"\x1b[1;1R")
        if b"\x1b[c" in chunk:
            os.write(self.master, b"\x1b[?62;c")
        if b"\x1b[?2026$p" in chunk:  # DECRQM: synchronized output is supported
            os.write(self.master, b"\x1b[?2026;2$y")

    def listen(self) -> None:
        """Note when this screen next writes (:attr:`heard`)."""
        self.heard = None

    def signal(self, signum: int) -> None:
        """Profile the moves only (``BENCH_PROFILE``): start or stop."""
        if "BENCH_PROFILE" in self.env:
            self.proc.send_signal(signum)

    def cpu(self) -> int:
        return cpu_ns(self.proc.pid)

    def faults(self) -> int:
        return minflt(self.proc.pid)

    async def close(self) -> None:
        with contextlib.suppress(OSError):
            os.write(self.master, b"\x11")  # ctrl+q: the profile is written on the way out
        for _ in range(100):
            if self.proc.returncode is not None or (
                    isinstance(self.proc, subprocess.Popen) and self.proc.poll() is not None):
                break
            await asyncio.sleep(0.05)
        else:
            self.proc.kill()
        with contextlib.suppress(ValueError, OSError):
            asyncio.get_running_loop().remove_reader(self.master)
        os.close(self.master)


async def quiet(terms: list[Terminal], seconds: float = QUIET, limit: float = 10.0) -> None:
    """Until no screen has drawn for ``seconds`` (the first ``seconds`` always: what
    was just sent may not have been drawn yet)."""
    await asyncio.sleep(seconds)
    end = time.monotonic() + limit
    while time.monotonic() < end:
        silent = time.monotonic() - max(t.last for t in terms)
        if silent >= seconds:
            return
        await asyncio.sleep(seconds - silent)


class Meter:
    """CPU (ms) and frames of each terminal, per named part of a move."""

    def __init__(self, terms: dict[str, Terminal]) -> None:
        self.terms = terms
        self.cpu: dict[tuple[str, str], list[float]] = defaultdict(list)
        self.frames: dict[tuple[str, str], list[int]] = defaultdict(list)
        self._mark()

    def _mark(self) -> None:
        self._at = {role: (t.cpu(), t.frames) for role, t in self.terms.items()}

    def take(self, part: str) -> None:
        """What each terminal spent since the last take, as ``part``."""
        for role, term in self.terms.items():
            cpu, frames = self._at[role]
            self.cpu[part, role].append((term.cpu() - cpu) / 1e6)
            self.frames[part, role].append(term.frames - frames)
        self._mark()

    def table(self, parts: list[str]) -> str:
        lines = [f"  {'':<12}{'mover CPU':>11}{'frames':>8}{'opponent CPU':>14}{'frames':>8}"]
        for part in parts:
            row = f"  {part:<12}"
            for role in ("mover", "opponent"):
                cpu, frames = self.cpu.get((part, role)), self.frames.get((part, role))
                row += (f"{statistics.mean(cpu):>9.1f}ms{statistics.mean(frames):>8.1f}"
                        if cpu else f"{'-':>11}{'-':>8}")
                row += "  " if role == "mover" else ""
            lines.append(row)
        return "\n".join(lines)


async def play(args: argparse.Namespace, tmp: Path) -> None:
    from referee_harness import HostThread
    from server_helpers import Seat, begin, whose

    from deathzap_tui.net.limits import Limits
    from deathzap_tui.session import Session

    toynet.long_duels()
    os.environ["DEATHZAP_SAVES_DIR"] = str(tmp)
    sock = tmp / "ref.sock"
    red, black = toynet.write_forces(tmp)
    host = HostThread(Session.new(red, black, seed=11, save_path="duel"), sock,
                      limits=Limits(player_terminals=2)).start()  # the app and the hand
    terms: dict[str, Terminal] = {}
    launcher = None
    try:
        if args.zygote:
            from deathzap_tui.club.launcher import Launcher  # lazy: --zygote only

            launcher = Launcher(tmp, log=lambda line: None)
            await launcher.start()
        env = {**os.environ, "TERM": "xterm-256color", "COLORTERM": "",
               "DEATHZAP_SAVES_DIR": str(tmp), "TEXTUAL_ANIMATIONS": "none"}
        for side in ("red", "black"):
            if args.profile:
                env["BENCH_PROFILE"] = str(Path(args.profile).resolve() / f"{side}.prof")
            terms[side] = await Terminal.start(side, sock, dict(env), launcher)
        hands = {side: await Seat.join(str(sock), side) for side in ("red", "black")}
        await asyncio.sleep(2.0)
        await quiet(list(terms.values()), 1.0, 30)
        total = {side: (t.cpu(), t.frames) for side, t in terms.items()}
        if not args.profile_role:
            for term in terms.values():
                term.signal(signal.SIGUSR1)  # profiled from here (``--profile``)
        started = time.monotonic()
        meter = None
        parts: list[str] = []
        by_move: list[tuple[float, int]] = []
        hops: list[float] = []
        """Commit sent -> the opponent's screen's first bytes (ms), move by move."""
        """Both apps' CPU (ms) and minor page faults, move by move."""
        for _ in range(args.moves):
            at = sum(t.cpu() for t in terms.values()), sum(t.faults() for t in terms.values())
            side = whose(await hands["red"].fresh())
            await hands["black"].fresh()
            foe = "black" if side == "red" else "red"
            meter = meter or Meter({"mover": terms[side], "opponent": terms[foe]})
            meter.terms = {"mover": terms[side], "opponent": terms[foe]}
            profiled = meter.terms.get(args.profile_role)
            if profiled is not None:
                profiled.signal(signal.SIGUSR1)  # this part only (``--profile-role``)
            meter._mark()
            pending = await begin(hands[side], side)
            step = ["begin"]
            if args.steps:
                await quiet(list(terms.values()))
                meter.take("begin")
            while pending["step"] is not None:
                asked = pending["step"].get("side") or side
                seat = hands[asked]
                mine = await seat.shown(len(pending["answers"]))
                what = mine["step"].get("key") or mine["step"].get("kind", "?")
                reply = await seat.request("answer", aid=mine["aid"],
                                           answer=auto(mine["step"]))
                pending = reply["pending"]
                step.append(str(what))
                if args.steps:
                    await quiet(list(terms.values()))
                    meter.take(f"{what}")
            pending = await hands[side].shown(len(pending["answers"]))
            await quiet([terms[foe]], 0.08)
            terms[foe].listen()
            sent = time.monotonic()
            reply = await hands[side].request("commit", aid=pending["aid"])
            assert reply["t"] == "ok", reply
            await quiet(list(terms.values()))
            if terms[foe].heard is not None:
                hops.append((terms[foe].heard - sent) * 1000)
            meter.take("commit" if args.steps else "move")
            by_move.append(((sum(t.cpu() for t in terms.values()) - at[0]) / 1e6,
                            sum(t.faults() for t in terms.values()) - at[1]))
            if profiled is not None:
                profiled.signal(signal.SIGUSR2)  # written now, adding to what it had
                await asyncio.sleep(0.2)  # the writing is not the next move's
            parts = parts if len(parts) > len(step) else [*step[1:], "commit"]
        wall = time.monotonic() - started
        if not args.profile_role:
            for term in terms.values():
                term.signal(signal.SIGUSR2)
        moves = args.moves
        print(f"{moves} moves of the toy duel, two joined apps on 80x24 ptys "
              f"({'each step on its own' if args.steps else 'paced as benchmarks/club.py'}"
              f"; load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} cores)")
        assert meter is not None
        print(meter.table(["begin", *parts] if args.steps else ["move"]))
        cpu = sum(t.cpu() - total[s][0] for s, t in terms.items()) / 1e6
        frames = sum(t.frames - total[s][1] for s, t in terms.items())
        print(f"  both apps: {cpu / moves:.1f} ms CPU and {frames / moves:.1f} frames per "
              f"move ({wall:.0f} s)")
        if hops:
            q = statistics.quantiles(hops, n=20) if len(hops) > 1 else hops * 19
            print(f"  commit -> the opponent's screen: p50 {statistics.median(hops):.0f} ms, "
                  f"p95 {q[18]:.0f} ms")
        if not args.steps:
            print("  move by move, both apps (ms CPU / minor page faults): " + ", ".join(
                f"{cpu:.0f}/{faults}" for cpu, faults in by_move))
        for hand in hands.values():
            await hand.close()
    finally:
        for term in terms.values():
            await term.close()
        if launcher is not None:
            await launcher.close()
        host.stop()


def auto(step: dict[str, Any]) -> Any:
    from deathzap_tui.headless.describe import auto_answer
    from deathzap_tui.net.wire import answer_out, step_from_data

    return answer_out(auto_answer(step_from_data(step)))  # type: ignore[arg-type]




def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--steps", action="store_true",
                        help="every step on its own: CPU and frames per step")
    parser.add_argument("--profile", metavar="DIR", default="",
                        help="run each app under cProfile: DIR/red.prof, DIR/black.prof")
    parser.add_argument("--profile-role", choices=("mover", "opponent"), default="",
                        help="with --profile: each app only in the moves it plays this part")
    parser.add_argument("--zygote", action="store_true",
                        help="fork the apps from a zygote, as `club serve` does")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="dzm-") as tmp:
        asyncio.run(play(args, Path(tmp)))


if __name__ == "__main__":
    main()

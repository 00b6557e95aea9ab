"""UI benchmark on a real pseudo-terminal: start-up and key-press-to-frame.

Runs ``deathzap play --quick`` with the two 9-unit demo forces in a pty (80x24,
TERM=xterm-256color) and measures, from the bytes the app writes to the terminal:

- first frame: process start -> the last byte of the first full frame (the footer
  has been drawn and the output then stays quiet);
- draw: the ``d`` key -> the last byte of the repaint it causes;
- step: a wizard answer (Enter: roll for me / pick the highlighted choice) -> repaint;
- apply: confirming a finished resolution (commit, save, battle screen redrawn).

"Last byte" = the end of the burst of output that follows the key (a burst ends after
``QUIET`` seconds of silence, which is not counted). Goals (issue 3): first frame
median < 800 ms; key to frame median < 50 ms, p95 < 100 ms.

Frames per key: the pty answers Textual's query for synchronized output (DEC mode
2026) as a modern terminal does, so Textual brackets every frame it writes in
``ESC[?2026h`` ... ``ESC[?2026l``; the frames of a key are the ``ESC[?2026h`` in the
burst that follows it. Goal (issue 11): a wizard step is one frame, median < 20 ms.
A step answers with Enter (roll for me / pick the highlighted choice); where the
wizard refuses Enter (a rules question in generated-dice mode) it answers with ``1``
and the refused Enter is not counted.

    .venv/bin/python benchmarks/ui.py [--runs 5] [--cards 12]
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import select
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUIET = 0.25
"""Silence that ends a burst of output (not counted in the figures)."""
SYNC_START = b"\x1b[?2026h"
"""Textual writes this before every frame once the terminal says it supports it."""


class Term:
    def __init__(self, argv: list[str], env: dict[str, str], cols: int = 80, rows: int = 24):
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.t0 = time.perf_counter()
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env,
                                     cwd=env.get("BENCH_CWD"), start_new_session=True,
                                     close_fds=True)
        os.close(slave)
        self.buf = b""

    def burst(self, timeout: float = 10.0) -> tuple[float, bytes]:
        """Read until QUIET seconds of silence; return (time of last byte, bytes)."""
        last = None
        out = b""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            r, _, _ = select.select([self.master], [], [], QUIET if last else 0.5)
            if not r:
                if last is not None:
                    break
                continue
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                break
            last = time.perf_counter()
            out += chunk
            self._answer_queries(chunk)
        self.buf += out
        return (last or time.perf_counter()), out

    def _answer_queries(self, chunk: bytes) -> None:
        # Answer a cursor-position / device-attributes query as a terminal would.
        if b"\x1b[6n" in chunk:
            os.write(self.master, b"\x1b[1;1R")
        if b"\x1b[c" in chunk:
            os.write(self.master, b"\x1b[?62;c")
        if b"\x1b[?2026$p" in chunk:  # DECRQM: synchronized output is supported
            os.write(self.master, b"\x1b[?2026;2$y")

    def until(self, needle: bytes, timeout: float = 15.0) -> float:
        deadline = time.perf_counter() + timeout
        seen = b""
        while time.perf_counter() < deadline:
            t, out = self.burst(timeout=deadline - time.perf_counter())
            seen += out
            if needle in seen:
                return t
        raise TimeoutError(f"never saw {needle!r}")

    def key(self, data: bytes) -> tuple[float, bytes]:
        t = time.perf_counter()
        os.write(self.master, data)
        last, out = self.burst()
        return last - t, out

    def close(self) -> None:
        try:
            os.write(self.master, b"\x11")  # ctrl+q
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()
        os.close(self.master)


def env_for(tmp: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(TERM="xterm-256color", COLORTERM="", DEATHZAP_SAVES_DIR=str(tmp),
               BENCH_CWD=str(ROOT), TEXTUAL_ANIMATIONS="none")
    env.pop("TEXTUAL", None)
    return env


def demo_forces() -> list[str]:
    return [str(p) for p in sorted((ROOT / "forces").glob("demo-*.toml"))[:2]]


def command(seed: int) -> list[str]:
    red, black = demo_forces()
    return [sys.executable, "-m", "deathzap_tui", "play", "--red", red, "--black", black,
            "--seed", str(seed), "--quick", "--dice", "generated"]


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))]


def show(name: str, values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    if not ms:
        return f"{name:<12} no samples"
    return (f"{name:<12} n={len(ms):<4} median {statistics.median(ms):6.1f} ms   "
            f"p95 {pct(ms, 95):6.1f} ms   max {max(ms):6.1f} ms")


def frames(out: bytes) -> int:
    """The frames Textual wrote in ``out``."""
    return out.count(SYNC_START)


def show_frames(name: str, counts: list[int]) -> str:
    if not counts:
        return f"{name:<12} no samples"
    hist = {n: counts.count(n) for n in sorted(set(counts))}
    spread = "  ".join(f"{n} frame{'s' if n != 1 else ''}: {k}" for n, k in hist.items())
    return (f"{name:<12} n={len(counts):<4} median {statistics.median(counts):4.1f}   "
            f"mean {statistics.mean(counts):4.2f}   ({spread})")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5, help="start-ups to time")
    ap.add_argument("--cards", type=int, default=12, help="cards to draw and play")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="dz-bench-"))
    starts: list[float] = []
    draws: list[float] = []
    steps: list[float] = []
    applies: list[float] = []
    counts: dict[str, list[int]] = {"draw": [], "step": [], "apply": []}
    try:
        for run in range(args.runs):
            term = Term(command(run + 1), env_for(tmp))
            first = term.until(b"Draw card") - term.t0
            # the frame is complete once the output goes quiet
            starts.append(first)
            if run == 0:
                play(term, args.cards, draws, steps, applies, counts)
            term.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("deathzap UI benchmark (80x24 pty, two 9-unit demo forces)")
    print(show("first frame", starts))
    print(show("draw (d)", draws))
    print(show("step", steps))
    print(show("apply", applies))
    print(show_frames("draw frames", counts["draw"]))
    print(show_frames("step frames", counts["step"]))
    print(show_frames("apply frames", counts["apply"]))
    return 0


def play(term: Term, cards: int, draws: list[float], steps: list[float],
         applies: list[float], counts: dict[str, list[int]]) -> None:
    for _ in range(cards):
        dt, out = term.key(b"d")
        draws.append(dt)
        counts["draw"].append(frames(out))
        if b"Game over" in out:
            return
        for _activation in range(4):
            dt, out = term.key(b"a")
            if b"Choose" not in out and b"Resolved" not in out and b"rolls" not in out:
                break  # nothing to activate (the key is disabled)
            for _ in range(60):
                if b"Confirm (Enter)" in out:
                    dt, out = term.key(b"\r")
                    applies.append(dt)
                    counts["apply"].append(frames(out))
                    break
                dt, out = term.key(b"\r")
                if b"Enter does not answer" in out:  # a rules question: its key
                    dt, out = term.key(b"1")
                steps.append(dt)
                counts["step"].append(frames(out))
            else:
                return


if __name__ == "__main__":
    raise SystemExit(main())

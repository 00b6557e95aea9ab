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

Issue 21 adds the start screen, the unit chooser and the force editor, each beside
a minimal reference Textual app measured in the same run (a header, two 10x8
DataTables, a Static, a RichLog, an Input and a footer; its key updates one cell and
logs a line): ``deathzap`` with no arguments to its first full frame (the forces
described); ``a`` (the unit chooser); in ``deathzap edit`` of a copy of a demo force,
the outline's down arrow, Enter on a unit (its first field focused) and a digit typed
in a number field and taken off again (the points line updated). Each start-up row
is the median of ``--runs`` rounds; each key row the median of all its presses.
Below the table, the CPU the app used per press of each key row (mean of
``/proc/PID/stat`` ticks from the key to the end of its burst: a figure that other
processes' load changes far less than the times). ``--slow-frames`` lists every
press drawn in more than one frame: its row, where in the game (card, activation,
step) and each frame's time after the key (its first and last byte), the screen
rows it wrote and its first words.

A notification's toast going away is a frame of its own, drawn when its timer ends
(Textual's ``App.NOTIFICATION_TIMEOUT``, 5 s, for the battle screen's "Not allowed"
that an ``a`` with nothing left to activate shows), whatever key was pressed just
before: a frame that begins within ``EXPIRY_WINDOW`` of such an end and writes no
more rows than the toast's own frame did is not the key's (one per notification).
The table and the frame counts show the key's own frames; the presses with such a
frame are counted below them, and ``--slow-frames`` marks that frame "a
notification expiring". ``benchmarks/first_frame.py`` counts the
instructions to the start-up rows' first frames instead (callgrind: other processes'
load does not move them).

    .venv/bin/python benchmarks/ui.py [--runs 3] [--cards 12] [--keys 15] [--slow-frames]
"""

from __future__ import annotations

import argparse
import ctypes
import fcntl
import os
import pty
import re
import select
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

from textual.app import App

ROOT = Path(__file__).resolve().parent.parent
QUIET = 0.25
"""Silence that ends a burst of output (not counted in the figures)."""
SYNC_START = b"\x1b[?2026h"
"""Textual writes this before every frame once the terminal says it supports it."""
EXPIRY_WINDOW = (-0.02, 0.3)
"""Seconds before and after a notification's end (its first frame plus
``App.NOTIFICATION_TIMEOUT``) in which its toast's going away may begin."""


def _die_with_parent() -> None:
    """In the child: be killed when the benchmark dies, however it dies (a benchmark
    stopped by a timeout or kill -9 left apps drawing in their own sessions)."""
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


class Term:
    def __init__(self, argv: list[str], env: dict[str, str], cols: int = 80, rows: int = 24):
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.t0 = time.perf_counter()
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env,
                                     cwd=env.get("BENCH_CWD"), start_new_session=True,
                                     close_fds=True, preexec_fn=_die_with_parent)
        os.close(slave)
        self.buf = b""
        self.last_cpu = 0.0
        """CPU seconds the app used from the last key to the end of its burst."""
        self.chunks: list[tuple[float, bytes]] = []
        """The last burst's reads: (time read, bytes)."""
        self.last_frames: list[Frame] = []
        """The frames of the last key's burst, timed from the key."""
        self.key_at = 0.0
        """When the last key was sent (``time.perf_counter``)."""
        self.expiries: list[tuple[float, int]] = []
        """The notifications shown and not yet gone: when each ends
        (``time.perf_counter``) and how many rows its toast's frame wrote."""

    def burst(self, timeout: float = 10.0) -> tuple[float, bytes]:
        """Read until QUIET seconds of silence; return (time of last byte, bytes)."""
        last = None
        out = b""
        self.chunks = []
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
            self.chunks.append((last, chunk))
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
        cpu = self.cpu()
        t = time.perf_counter()
        os.write(self.master, data)
        last, out = self.burst()
        self.last_cpu = self.cpu() - cpu
        self.last_frames = frame_times(self.chunks, t)
        self.key_at = t
        return last - t, out

    def notified(self) -> None:
        """The last key showed a notification (its first frame) with Textual's default
        timeout: its toast goes away on its own that long after."""
        if self.last_frames:
            start, _, frame = self.last_frames[0]
            self.expiries.append((self.key_at + start / 1000 + App.NOTIFICATION_TIMEOUT,
                                  len(rows_of(frame))))

    def expiring(self, frame: Frame) -> bool:
        """Whether ``frame`` (of the last key) is a notification's toast going away: it
        begins as the notification ends and writes no more rows than the toast's
        frame did (the key's own frames draw the screen's changes, the wizard's whole
        step box). Each notification goes away in one frame."""
        begins = self.key_at + frame[0] / 1000
        for expiry in self.expiries:
            end, rows = expiry
            if EXPIRY_WINDOW[0] <= begins - end <= EXPIRY_WINDOW[1] and \
                    len(rows_of(frame[2])) <= rows:
                self.expiries.remove(expiry)
                return True
        return False

    def cpu(self) -> float:
        """CPU seconds (user and system) the app has used, in clock ticks (10 ms):
        meaningful summed over many presses."""
        with open(f"/proc/{self.proc.pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

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


CONTROL = re.compile(rb"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|.)")
"""An escape sequence (CSI, OSC or a two-byte one)."""


def words(out: bytes, limit: int = 70) -> str:
    """The text ``out`` draws, escape sequences and box drawing left out, runs of space
    made one."""
    text = CONTROL.sub(b" ", out).decode("utf-8", "replace")
    return " ".join("".join(c for c in text if not "\u2500" <= c <= "\u259f").split())[:limit]


Frame = tuple[float, float, bytes]
"""A frame of a key's burst: ms after the key to its first and to its last byte, its bytes."""


def frame_times(chunks: list[tuple[float, bytes]], t0: float) -> list[Frame]:
    """The frames in the reads ``chunks`` (time read, bytes) of a burst that followed
    a key sent at ``t0``, each timed by the reads that brought its first and last byte."""
    out = b"".join(chunk for _, chunk in chunks)
    ends, end = [], 0
    for t, chunk in chunks:
        end += len(chunk)
        ends.append((end, (t - t0) * 1000))

    def read_at(offset: int) -> float:
        return next(ms for end, ms in ends if offset < end)

    starts = [m.start() for m in re.finditer(re.escape(SYNC_START), out)]
    return [(read_at(start), read_at(stop - 1), out[start:stop])
            for start, stop in zip(starts, [*starts[1:], len(out)][:len(starts)], strict=True)]


MOVE = re.compile(rb"\x1b\[(\d+);(\d+)H")
"""The cursor moved to a row and column (1-based): where Textual writes a run of cells."""


def rows_of(frame: bytes) -> set[int]:
    """The screen rows (0-based) ``frame`` writes to."""
    return {int(m.group(1)) - 1 for m in MOVE.finditer(frame)}


def rows_written(frame: bytes) -> str:
    """The screen rows (0-based) ``frame`` writes to, in runs: "0-23", "0, 14-22"."""
    rows = sorted(rows_of(frame))
    runs: list[list[int]] = []
    for row in rows:
        if runs and row == runs[-1][1] + 1:
            runs[-1][1] = row
        else:
            runs.append([row, row])
    return ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in runs) or "none"


def show_frames(name: str, counts: list[int]) -> str:
    if not counts:
        return f"{name:<12} no samples"
    hist = {n: counts.count(n) for n in sorted(set(counts))}
    spread = "  ".join(f"{n} frame{'s' if n != 1 else ''}: {k}" for n, k in hist.items())
    return (f"{name:<12} n={len(counts):<4} median {statistics.median(counts):4.1f}   "
            f"mean {statistics.mean(counts):4.2f}   ({spread})")


REFERENCE_KEY = b"d"
"""The reference app's key: one DataTable cell updated and one log line."""


def reference_app() -> int:
    """Run the reference app (``benchmarks/ui.py --reference-app``) in this terminal."""
    from textual.app import ComposeResult
    from textual.widgets import DataTable, Footer, Header, Input, RichLog, Static

    class Reference(App[None]):
        BINDINGS = [("d", "bump", "Bump a cell")]  # noqa: RUF012

        def compose(self) -> ComposeResult:
            yield Header()
            for n in (1, 2):
                yield DataTable(id=f"t{n}")
            yield Static("a reference Textual app")
            yield RichLog(id="log")
            yield Input(placeholder="type here")
            yield Footer()

        def on_mount(self) -> None:
            for table in self.query(DataTable):
                table.add_columns(*(f"c{c}" for c in range(10)))
                for r in range(8):
                    table.add_row(*(str(r * 10 + c) for c in range(10)))
            self.bumps = 0

        def action_bump(self) -> None:
            self.bumps += 1
            self.query_one("#t1", DataTable).update_cell_at((0, 0), str(self.bumps))
            self.query_one("#log", RichLog).write(f"bump {self.bumps}")

    Reference().run()
    return 0


def reference_command() -> list[str]:
    return [sys.executable, str(Path(__file__).resolve()), "--reference-app"]


class Row:
    """One row of the table: the reference's samples and the project's."""

    def __init__(self, name: str, goal: str, reference: str) -> None:
        self.name, self.goal, self.reference = name, goal, reference
        self.times: list[float] = []
        self.frames: list[int] = []
        self.slow: list[str] = []
        """Each press drawn in more than one frame: where, and the words it drew."""
        self.expired = 0
        """Presses with a frame of a notification expiring (not counted in ``frames``)."""
        self.cpu = 0.0
        """CPU seconds the app used over all the presses."""

    def add(self, seconds: float, out: bytes | None = None, where: str = "",
            cpu: float = 0.0, timed: list[Frame] | None = None,
            expiring: list[bool] | None = None) -> None:
        """A press: its time and CPU, what it wrote (``out``, its frames ``timed``) and
        which of those frames are a notification expiring (``expiring``)."""
        self.times.append(seconds)
        self.cpu += cpu
        if out is None:
            return
        expired = sum(expiring or [])
        self.expired += bool(expired)
        self.frames.append(frames(out) - expired)
        if self.frames[-1] + expired > 1:
            drawn = " | ".join(
                f"[{start:.0f}-{end:.0f} ms, rows {rows_written(frame)}"
                f"{', a notification expiring' if gone else ''}] {words(frame, 60)}"
                for (start, end, frame), gone in zip(
                    timed or [], expiring or [False] * len(timed or []), strict=True))
            self.slow.append(f"{self.frames[-1]} frame{'s' if self.frames[-1] != 1 else ''}"
                             f"{f' (+{expired} expiring)' if expired else ''}, "
                             f"{where or 'press'} {len(self.frames)}: {drawn}")


def median_ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:,.0f} ms" if values else "-"


def frames_text(counts: list[int]) -> str:
    if not counts:
        return ""
    one = counts.count(1)
    return f", {statistics.median(counts):g} frames ({one} of {len(counts)} in 1)"


def table(rows: list[Row], by_name: dict[str, Row]) -> list[str]:
    lines = ["| what | reference | this project | ratio | goal |",
             "| --- | --- | --- | --- | --- |"]
    for row in rows:
        ref = by_name[row.reference]
        ratio = (f"{statistics.median(row.times) / statistics.median(ref.times):.2f}x"
                 if row.times and ref.times else "-")
        lines.append(f"| {row.name} | {median_ms(ref.times)}{frames_text(ref.frames)} | "
                     f"{median_ms(row.times)}{frames_text(row.frames)} | {ratio} | "
                     f"{row.goal} |")
    return lines


def main() -> int:
    if sys.argv[1:] == ["--reference-app"]:
        return reference_app()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3, help="start-ups to time (rounds)")
    ap.add_argument("--cards", type=int, default=12, help="cards to draw and play")
    ap.add_argument("--keys", type=int, default=15,
                    help="presses of each editor key (and of the reference's key)")
    ap.add_argument("--slow-frames", action="store_true",
                    help="list every press drawn in more than one frame")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="dz-bench-"))
    ref_start = Row("reference first frame", "", "reference first frame")
    ref_key = Row("reference key", "", "reference key")
    rows = [
        Row("`deathzap` start screen, first full frame", "<= 1.1x", ref_start.name),
        Row("`play --quick` first frame", "hold", ref_start.name),
        Row("`d` (draw) to frame", "hold", ref_key.name),
        Row("wizard step (Enter)", "every step 1 frame", ref_key.name),
        Row("apply (confirm a resolution)", "", ref_key.name),
        Row("`a` (open the unit list)", "<= 1.2x, 1 frame", ref_key.name),
        Row("editor: outline down", "<= 1.2x, 1 frame", ref_key.name),
        Row("editor: open a node (Enter)", "<= 1.2x, 1 frame", ref_key.name),
        Row("editor keystroke -> points line", "<= 1.2x, 1 frame", ref_key.name),
    ]
    by_name = {row.name: row for row in (ref_start, ref_key, *rows)}
    start, quick, draw, step, apply, unit, down, enter, digit = rows
    try:
        for run in range(args.runs):
            # the rounds interleave the apps, so a busy moment hits them alike
            term = Term(reference_command(), env_for(tmp))
            ref_start.add(term.until(b"Bump a cell") - term.t0)
            if run == 0:
                for _ in range(args.keys):
                    ref_key.add(*term.key(REFERENCE_KEY), cpu=term.last_cpu)
            term.close()
            term = Term(start_command(), env_for(tmp))
            start.add(term.until(b" pts") - term.t0)  # the forces described
            term.close()
            term = Term(command(run + 1), env_for(tmp))
            quick.add(term.until(b"Draw card") - term.t0)
            if run == 0:
                play(term, args.cards, draw, step, apply, unit)
            term.close()
            if run == 0:
                edit(tmp, args.keys, down, enter, digit)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"deathzap UI benchmark (80x24 pty, two 9-unit demo forces; medians; "
          f"{args.runs} start-up rounds)")
    print("\n".join(table(rows, by_name)))
    print()
    print(show("draw (d)", draw.times))
    print(show("step", step.times))
    print(show("unit (a)", unit.times))
    print(show_frames("draw frames", draw.frames))
    print(show_frames("step frames", step.frames))
    print(show_frames("apply frames", apply.frames))
    print(show_frames("unit frames", unit.frames))
    expired = {row.name: row.expired for row in rows if row.expired}
    if expired:
        print("presses with a notification's toast going away in their burst (a frame "
              "not counted above): " + ", ".join(f"{k} {n}" for k, n in expired.items()))
    print()
    print("CPU of the app per press (mean; /proc clock ticks of 10 ms, summed):")
    for row in (ref_key, *rows[2:]):
        if row.times:
            print(f"  {row.name:<36} {row.cpu / len(row.times) * 1000:6.1f} ms "
                  f"({len(row.times)} presses)")
    if args.slow_frames:
        print()
        for row in rows:
            for line in row.slow:
                print(f"{row.name}: {line}")
    return 0


def start_command() -> list[str]:
    """``deathzap`` with no arguments: the start screen, the demo forces preselected."""
    return [sys.executable, "-m", "deathzap_tui"]


def edit(tmp: Path, keys: int, down: Row, enter: Row, digit: Row) -> None:
    """The editor on a copy of the first demo force: the outline's down arrow over the
    first lines and the units (each shows another form), Enter on the first unit (its
    first field focused), and in its ``move`` (1) a 0 typed and taken off again, in
    turn (each changes the points: 10, 1)."""
    path = tmp / "edited.toml"
    shutil.copy(demo_forces()[0], path)
    term = Term([sys.executable, "-m", "deathzap_tui", "edit", str(path)], env_for(tmp))
    term.until(b"Force editor")
    for _ in range(max(1, keys // 12)):
        term.key(b"\x1b[H")  # home: the force's own form
        for _ in range(12):
            down.add(*term.key(b"\x1b[B"), cpu=term.last_cpu, timed=term.last_frames)
    for _ in range(keys):
        term.key(b"\x1b[H")
        for _ in range(11):  # the first unit (as tests/app/editor/test_editor.py)
            term.key(b"\x1b[B")
        enter.add(*term.key(b"\r"), cpu=term.last_cpu, timed=term.last_frames)
        term.key(b"\x1b")  # back to the outline
    term.key(b"\r")  # the unit's name
    term.key(b"\t")  # skill
    term.key(b"\t")  # move (selected: typing replaces it)
    term.key(b"1")
    for n in range(keys):
        digit.add(*term.key(b"\x7f" if n % 2 else b"0"), cpu=term.last_cpu,
                  timed=term.last_frames)
    term.close()


def play(term: Term, cards: int, draw: Row, step: Row, apply: Row, unit: Row) -> None:
    def add(row: Row, dt: float, out: bytes, where: str) -> None:
        row.add(dt, out, where, term.last_cpu, term.last_frames,
                [term.expiring(frame) for frame in term.last_frames])

    for card in range(1, cards + 1):
        dt, out = term.key(b"d")
        add(draw, dt, out, f"card {card}")
        if b"Game over" in out:
            return
        for activation in range(1, 5):
            where = f"card {card} activation {activation}"
            dt, out = term.key(b"a")
            if b"Choose" not in out and b"Resolved" not in out and b"rolls" not in out:
                if "Not allowed" in words(out, len(out)):
                    term.notified()  # says why, for a while
                break  # nothing to activate (the key is disabled)
            add(unit, dt, out, where)
            for n in range(1, 61):
                if b"Confirm (Enter)" in out:
                    dt, out = term.key(b"\r")
                    add(apply, dt, out, where)
                    break
                dt, out = term.key(b"\r")
                if b"Enter does not answer" in out:  # a rules question: its key
                    dt, out = term.key(b"1")
                add(step, dt, out, f"{where} step {n}")
            else:
                return

if __name__ == "__main__":
    raise SystemExit(main())

"""Instructions to the first full frame (issue 21): the start screen against the reference.

``benchmarks/ui.py`` times process start -> the last byte of the first full frame, a
figure other processes' load moves by more than the goal's margin. This counts CPU
instructions instead, with valgrind's callgrind, which counts every instruction the
process runs whatever the load. Each app runs under callgrind in the same 80x24 pty
as ``ui.py`` (the same environment, the same answers to Textual's queries) with an
empty saves folder of its own and ``PYTHONHASHSEED=0``, so that runs are alike (to a
fraction of a million). Once the frame that shows the app's marker has been written
whole (its ``ESC[?2026l``), callgrind is told to dump its counts
(``callgrind_control --dump``) and the app is sent ctrl+q. Two figures:

- to the first full frame: the dump's total (process start to the end of the frame,
  plus what the idle app ran before the dump was taken: the spread of ``--runs``
  shows it);
- to the exit: all the app ran, its shutting down included (the figure sessions 4
  and 5 quoted: 1,534 M for the reference, 1,836 M for the start screen at the end
  of session 5).

The project's modules are compiled first (``compileall``): this environment sets
``PYTHONDONTWRITEBYTECODE=1``, so a module edited since it was last compiled would be
compiled again at every start (30 M instructions for the start screen's module).

Each app has a cache key of its own (``DEATHZAP_CACHE_KEY``) and is first started
once without callgrind, so that what it keeps from one start to the next (its parsed
style sheets: ``deathzap_tui/app/stylecache.py``) is kept, as for a user's every
start but the first; ``--cold`` counts that first start instead.

The apps: ``reference`` (``ui.py``'s reference app, to its footer), ``start``
(``deathzap`` with no arguments, to the forces described) and ``quick``
(``deathzap play --quick`` with the demo forces, to the battle screen). Each takes
about 15 s under callgrind on this machine. ``--keep DIR`` keeps the callgrind files
(read them with ``callgrind_annotate --inclusive=yes DIR/start.1.out.1``).

    .venv/bin/python benchmarks/first_frame.py [--runs 1] [--apps reference,start]
                                               [--keep DIR] [--cold]
"""

from __future__ import annotations

import argparse
import compileall
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ui import ROOT, Term, command, env_for, reference_command, start_command

SYNC_END = b"\x1b[?2026l"
"""Textual writes this after every frame once the terminal says it supports it."""

APPS = {
    "reference": (reference_command, b"Bump a cell"),
    "start": (start_command, b" pts"),
    "quick": (lambda: command(1), b"Draw card"),
}
"""Each app's command, and what its first full frame shows (as ``ui.py`` waits for)."""


def frame_written(term: Term, marker: bytes, timeout: float = 300.0) -> None:
    """Read the app's output until the frame that shows ``marker`` has ended."""
    deadline = time.monotonic() + timeout
    seen = b""
    while time.monotonic() < deadline:
        _, out = term.burst(timeout=1.0)
        seen += out
        at = seen.find(marker)
        if at >= 0 and SYNC_END in seen[at:]:
            return
    raise TimeoutError(f"never saw a whole frame with {marker!r}")


def total(path: Path) -> int:
    """The instructions a callgrind output file counts."""
    found = re.search(r"^(?:summary|totals): (\d+)", path.read_text(), re.MULTILINE)
    if found is None:
        raise ValueError(f"no total in {path}")
    return int(found.group(1))


def start(name: str, keys: Path, valgrind: list[str]) -> Term:
    """``name`` started (under ``valgrind``, unless empty) and its first full frame
    written: no saves (each run alike: ``quick`` leaves one), its cache key and kept
    style sheets in ``keys``."""
    argv, marker = APPS[name]
    saves = Path(tempfile.mkdtemp(prefix="dz-first-frame-saves-"))
    env = env_for(saves)
    env.update(PYTHONHASHSEED="0", DEATHZAP_CACHE_KEY=str(keys / "cache.key"))
    term = Term([*valgrind, *argv()], env)
    try:
        frame_written(term, marker)
    except BaseException:
        term.close()
        raise
    finally:
        shutil.rmtree(saves, ignore_errors=True)
    return term


def count(name: str, out: Path, run: int, keys: Path) -> tuple[int, int]:
    """Instructions to ``name``'s first full frame, and to its exit, once."""
    stem = out / f"{name}.{run}"
    term = start(name, keys, ["valgrind", "--tool=callgrind",
                              f"--callgrind-out-file={stem}.out"])
    try:
        subprocess.run(["callgrind_control", "--dump=first-frame", str(term.proc.pid)],
                       check=True, capture_output=True, timeout=120)
    finally:
        term.close()
    dumps = sorted(out.glob(f"{stem.name}.out.*"))
    if not dumps:
        raise RuntimeError(f"callgrind wrote no dump for {name}")
    return total(dumps[0]), total(dumps[0]) + total(Path(f"{stem}.out"))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=1, help="counts per app")
    ap.add_argument("--apps", default="reference,start",
                    help=f"which apps, comma-separated, of {', '.join(APPS)}")
    ap.add_argument("--keep", type=Path, help="keep the callgrind files in this folder")
    ap.add_argument("--cold", action="store_true",
                    help="count a first start (no style sheets kept by an earlier run)")
    args = ap.parse_args()
    names = args.apps.split(",")
    unknown = sorted(set(names) - set(APPS))
    if unknown:
        ap.error(f"unknown app {', '.join(unknown)}: choose from {', '.join(APPS)}")
    if shutil.which("valgrind") is None:
        print("valgrind is not installed", file=sys.stderr)
        return 1
    compileall.compile_dir(ROOT / "deathzap_tui", quiet=1)
    out = args.keep or Path(tempfile.mkdtemp(prefix="dz-first-frame-"))
    out.mkdir(parents=True, exist_ok=True)
    frame: dict[str, list[int]] = {name: [] for name in names}
    done: dict[str, list[int]] = {name: [] for name in names}
    keys = Path(tempfile.mkdtemp(prefix="dz-first-frame-keys-"))
    try:
        if not args.cold:
            for name in names:  # a start before: the style sheets kept (a user's second)
                start(name, keys, []).close()
        for run in range(1, args.runs + 1):
            for name in names:  # the rounds interleave the apps
                if args.cold:
                    shutil.rmtree(keys, ignore_errors=True)
                    keys.mkdir()
                to_frame, to_exit = count(name, out, run, keys)
                frame[name].append(to_frame)
                done[name].append(to_exit)
                print(f"{name:<10} run {run}: {to_frame / 1e6:,.1f} M to the frame, "
                      f"{to_exit / 1e6:,.1f} M to the exit", flush=True)
    finally:
        shutil.rmtree(keys, ignore_errors=True)
        if args.keep is None:
            shutil.rmtree(out, ignore_errors=True)
    print(f"\ninstructions (callgrind; median of {args.runs} "
          f"run{'s' if args.runs != 1 else ''}):")
    print(f"  {'app':<10} {'to the first full frame':>24} {'to the exit (ctrl+q)':>24}")
    for name in names:
        print(f"  {name:<10} {ratioed(frame, name):>24} {ratioed(done, name):>24}")
    return 0


def ratioed(counts: dict[str, list[int]], name: str) -> str:
    """``name``'s median in millions, and its ratio to the reference's if measured."""
    median = statistics.median(counts[name])
    if name == "reference" or "reference" not in counts:
        return f"{median / 1e6:,.0f} M"
    return f"{median / 1e6:,.0f} M ({median / statistics.median(counts['reference']):.2f}x)"


if __name__ == "__main__":
    raise SystemExit(main())

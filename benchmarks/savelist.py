"""Benchmark: what listing the saves costs, as the start screen and ``deathzap resume``
list them (each save's players, ruleset, events and how its game stands), with the
saves' summaries and without them (issue 21).

Run: ``.venv/bin/python benchmarks/savelist.py [--sizes 5 20 40 80 300 1000] [--repeat 5]``.

Makes one save of each size for every ruleset (played at random, as
``benchmarks/history.py`` plays them, the summary and cache kept as the app keeps
them) in a temporary saves folder, then prints medians of the CPU time (ms) of:

- listed: ``savelist.list_saves()`` and ``save_state`` of every save, each save's
  standing read from its summary;
- loaded: the same with the summaries removed: each save's snapshot parsed and its
  game loaded (from its cache and the journal's lines after it), as every listing
  did before the summaries;
- keep: what keeping the summary adds to each event (:func:`savesummary.Summary.of`
  and :func:`savesummary.write`), for the longest game of each ruleset.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "rules"))
sys.path.insert(0, str(ROOT / "tests" / "rules" / "deathzap3"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from history import longest, step  # noqa: E402
from shipped import shipped_forces  # noqa: E402

from deathzap_tui import savesummary  # noqa: E402
from deathzap_tui.headless.savestate import save_state  # noqa: E402
from deathzap_tui.rules import registry  # noqa: E402
from deathzap_tui.savelist import list_saves  # noqa: E402
from deathzap_tui.savepaths import summary_path  # noqa: E402
from deathzap_tui.session import Session  # noqa: E402


def cpu_ms(fn: object, repeat: int) -> float:
    """Median CPU time of ``fn()`` in ms."""
    times = []
    for _ in range(repeat):
        t0 = time.process_time()
        fn()  # type: ignore[operator]
        times.append((time.process_time() - t0) * 1000)
    return statistics.median(times)


def listing() -> None:
    for info in list_saves():
        save_state(info)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[5, 20, 40, 80, 300, 1000])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="dz-savelist-"))
    os.environ["DEATHZAP_SAVES_DIR"] = str(folder)
    try:
        measure(folder, args.sizes, args.repeat)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def measure(folder: Path, sizes: list[int], repeat: int) -> None:
    rnd = random.Random(7)
    keep = {}
    for ruleset_id in registry.ids():
        red, black = shipped_forces(ruleset_id)
        for size in sizes:
            session = Session.new(red, black, seed=size, save_path=f"{ruleset_id}-{size}",
                                  options=longest(ruleset_id), ruleset_id=ruleset_id)
            while len(session.game.log) < size:
                step(session, rnd)
        elsewhere = folder / "elsewhere.toml"  # not a save: the listing never reads it
        keep[ruleset_id] = cpu_ms(lambda g=session.game, p=elsewhere: savesummary.write(
            p, b"\0" * 32, savesummary.Summary.of(g)), 50)
    count = len(list_saves())
    listed = cpu_ms(listing, repeat)
    for path in folder.glob("*.toml"):
        summary_path(path).unlink(missing_ok=True)
    assert all(info.standing is None for info in list_saves())
    loaded = cpu_ms(listing, repeat)
    print(f"Listing {count} saves ({len(registry.ids())} rulesets x {sizes} events; "
          f"medians of {repeat}, ms CPU)")
    print(f"  listed (summaries): {listed:7.1f} ms, {listed / count:6.2f} ms a save")
    print(f"  loaded (no summary): {loaded:6.1f} ms, {loaded / count:6.2f} ms a save")
    print(f"Keeping the summary, per event (the longest game, {max(sizes)} events):")
    for ruleset_id, ms in keep.items():
        print(f"  {ruleset_id:<14} {ms:5.2f} ms")


if __name__ == "__main__":
    main()

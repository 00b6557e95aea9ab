"""Benchmark: what one event costs as the log grows (issue 11).

Run: ``.venv/bin/python benchmarks/history.py [--sizes 100 1000 5000]``. For each size
it plays a Deathzap 3 game (two 9-unit demo forces, "agreement" ending so the deck is
reshuffled for ever) with generated dice until the log holds that many events, saving
as the app does, then prints medians of:

- save: writing one more event (the journal line and its fsync); snapshot: writing
  the whole save, as every event did before (now only at game end and compaction);
- undo / redo: taking back and bringing back the last action (state and narration);
- resume: loading the save (from its cache, as after a writer opened it) up to the
  state and the log's visible end (the battle screen's ``LOG_EVENTS``);
- narrative: the whole game's lines, as the log screen asks for them;
- push: what the referee does for a hosted move besides the player's own action: each
  of three terminals' snapshot and the narrative lines it has not been sent.

Goals: save flat in the log's length; undo, redo and resume of a 5,000-event game
under 50 ms.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "rules"))

from dz3_fixtures import play_random_action  # noqa: E402
from timing import timed  # noqa: E402

from deathzap_tui import saves  # noqa: E402
from deathzap_tui.app.screens.battle import LOG_EVENTS  # noqa: E402
from deathzap_tui.net.referee import Table, Told  # noqa: E402
from deathzap_tui.session import Session  # noqa: E402


def grow(session: Session, size: int, rnd: random.Random) -> None:
    while len(session.game.log) < size:  # never ending it: this game goes on for ever
        assert play_random_action(session.game, rnd, skip=("end",))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 5000])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["DEATHZAP_SAVES_DIR"] = tmp
        session = Session.new(ROOT / "forces" / "demo-ashfall-legion.toml",
                              ROOT / "forces" / "demo-vanta-syndicate.toml", seed=1,
                              save_path="bench", options={"end": "agreement"})
        rnd = random.Random(1)
        table = Table(session)
        told = {viewer: Told() for viewer in ("red", "black", None)}
        print(f"{'events':>7} {'save':>8} {'snapshot':>9} {'undo':>8} {'redo':>8} "
              f"{'resume':>8} {'narrative':>10} {'push':>7}   (median ms)")
        for size in sorted(args.sizes):
            grow(session, size, rnd)
            assert session.path is not None
            path, game = session.path, session.game
            last = game.log[-1]
            journal = saves.journal_path(path)
            kept = journal.read_bytes() if journal.exists() else b""
            save = timed(lambda p=path, g=game, e=last: saves.append_event(p, len(g.log), e),
                         args.repeat)
            journal.write_bytes(kept)  # leave the save as it was
            elsewhere = path.with_name("elsewhere.toml")  # not this save: keep its cache
            snapshot = timed(lambda p=elsewhere, g=game: saves.save_game(g, p), 3)
            undos, redos = [], []
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                session.undo()
                t1 = time.perf_counter()
                session.redo()
                undos.append((t1 - t0) * 1000)
                redos.append((time.perf_counter() - t1) * 1000)
            session.keep_cache()  # as a writer opening the save does
            resume = timed(lambda p=path: Session.resume(p).narrative(last=LOG_EVENTS),
                           max(3, args.repeat // 3))
            narrative = timed(session.narrative, args.repeat)
            pushes = []
            for _ in range(args.repeat):
                play_random_action(game, rnd, skip=("end",))
                t0 = time.perf_counter()
                for viewer, so_far in told.items():
                    table.snapshot(viewer)
                    table.tell(so_far, viewer)
                pushes.append((time.perf_counter() - t0) * 1000)
            print(f"{len(game.log):>7} {save:8.2f} {snapshot:9.1f} "
                  f"{statistics.median(undos):8.2f} {statistics.median(redos):8.2f} "
                  f"{resume:8.1f} {narrative:10.2f} {statistics.median(pushes):7.2f}")

if __name__ == "__main__":
    main()

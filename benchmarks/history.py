"""Benchmark: what a long game costs to keep, open, narrate and report (issues 11, 21).

Run: ``.venv/bin/python benchmarks/history.py [--sizes 100 1000 5000] [--rulesets ...]``.

First, for Deathzap 3 (two 9-unit demo forces, "agreement" ending so the deck is
reshuffled for ever, generated dice), medians of what one event costs as the log
grows (issue 11):

- save: writing one more event (the journal line and its fsync); snapshot: writing
  the whole save, as every event did before (now only at game end);
- undo / redo: taking back and bringing back the last action (state and narration);
- push: what the referee does for a hosted move besides the player's own action: each
  of three terminals' snapshot and the narrative lines it has not been sent.

Then the long-games table of issue 21 for every registered ruleset, each played at
random from its shipped forces to each size and kept as the app keeps it (a snapshot
and a journal), ending by agreement where the ruleset offers that. A ruleset whose
game ends (a turn limit) never ends here: an action that would end it is not played,
and the log grows by undo/redo pairs (a long log of undo/redo pairs is a long game
too; one step in four is a pair anyway). Medians (ms) of:

- resume: ``Session.resume`` from the save's cache (written by ``deathzap resume`` as
  by every writer opening a save) up to the battle screen's log (``LOG_EVENTS``);
  ``x100``: the same over the smallest size's (goal: within 1.5x, < 50 ms);
- full: the same without a cache (a replay of the log: only after a rules change);
- report: ``session.report()`` (goal < 300 ms at 5,000); ``report cold``: ``deathzap
  report SAVE`` in a new process, start-up included (goal < 1 s);
- log first / log cold: ``deathzap log SAVE`` in a new process, to its first narrative
  line and to its end (goal: the first at once, all < 500 ms);
- folded report / folded log: the same two commands (to their end) on the game as
  a finished game keeps it, every event in the snapshot (``saves.save_game``);
- narrative: the whole game's lines of the game as played (every event's notes
  kept); l page: the lines the battle screen's ``l`` shows first, just after a resume
  (the last ``NARRATED_TAIL`` events'; ``e`` asks for the rest, replayed then).

``--cpu``: the in-process figures in this process's CPU time rather than wall time
(a shared machine's other work inflates wall time; the commands in a new process are
always wall time).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import timing

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "rules"))
sys.path.insert(0, str(ROOT / "tests" / "rules" / "deathzap3"))

from dz3_fixtures import play_random_action  # noqa: E402
from fixtures_common import random_answer  # noqa: E402
from shipped import shipped_forces  # noqa: E402
from timing import timed  # noqa: E402

from deathzap_tui import saves  # noqa: E402
from deathzap_tui.app.battle.battle import LOG_EVENTS  # noqa: E402
from deathzap_tui.net.playbyturn import finish, open_for  # noqa: E402
from deathzap_tui.net.referee import Table, Told  # noqa: E402
from deathzap_tui.rules import registry  # noqa: E402
from deathzap_tui.rules.game import NARRATED_TAIL  # noqa: E402
from deathzap_tui.rules.problems import InvalidInput  # noqa: E402
from deathzap_tui.rules.ruleset import END  # noqa: E402
from deathzap_tui.rules.steps import ROLL, DiceRequest, Refused  # noqa: E402
from deathzap_tui.session import Session  # noqa: E402


def grow(session: Session, size: int, rnd: random.Random) -> None:
    while len(session.game.log) < size:  # never ending it: this game goes on for ever
        assert play_random_action(session.game, rnd, skip=("end",))


def per_event_table(sizes: list[int], repeat: int) -> None:
    session = Session.new(ROOT / "forces" / "demo-ashfall-legion.toml",
                          ROOT / "forces" / "demo-vanta-syndicate.toml", seed=1,
                          save_path="bench", options={"end": "agreement"})
    rnd = random.Random(1)
    table = Table(session)
    told = {viewer: Told() for viewer in ("red", "black", None)}
    print("Deathzap 3, one event as the log grows (median ms)")
    print(f"{'events':>7} {'save':>8} {'snapshot':>9} {'undo':>8} {'redo':>8} {'push':>7}")
    for size in sizes:
        grow(session, size, rnd)
        assert session.path is not None
        path, game = session.path, session.game
        last = game.log[-1]
        journal = saves.journal_path(path)
        kept = journal.read_bytes() if journal.exists() else b""
        save = timed(lambda p=path, g=game, e=last: saves.append_event(p, len(g.log), e),
                     repeat)
        journal.write_bytes(kept)  # leave the save as it was
        elsewhere = path.with_name("elsewhere.toml")
        snapshot = timed(lambda p=elsewhere, g=game: saves.save_game(g, p), 3)
        undos, redos = [], []
        for _ in range(repeat):
            t0 = time.perf_counter()
            session.undo()
            t1 = time.perf_counter()
            session.redo()
            undos.append((t1 - t0) * 1000)
            redos.append((time.perf_counter() - t1) * 1000)
        pushes = []
        for _ in range(repeat):
            play_random_action(game, rnd, skip=("end",))
            t0 = time.perf_counter()
            for viewer, so_far in told.items():
                table.snapshot(viewer)
                table.tell(so_far, viewer)
            pushes.append((time.perf_counter() - t0) * 1000)
        print(f"{len(game.log):>7} {save:8.2f} {snapshot:9.1f} "
              f"{statistics.median(undos):8.2f} {statistics.median(redos):8.2f} "
              f"{statistics.median(pushes):7.2f}")


def step(session: Session, rnd: random.Random) -> None:
    """One random action that does not end the game; if there is none, or one time in
    four, an undo/redo pair."""
    game = session.game
    if not game.can_undo or rnd.random() >= 0.25:
        options = [o for o in game.ruleset.intents(game.state) if o.group != END]
        rnd.shuffle(options)
        for option in options:
            action = game.begin(option.intent)
            res = action.resolution
            for _ in range(200):
                if res.done:
                    break
                try:
                    res.answer(ROLL if isinstance(res.step, DiceRequest)
                               else random_answer(res.step, rnd))
                except Refused:
                    continue
            if res.done and not game.ruleset.is_over(res.ctx.state):
                session.commit(action)
                return
    session.undo()
    session.redo()


def cold(argv: list[str]) -> tuple[float, float]:
    """A ``deathzap`` command in a new process: ms to its second line of output (the
    first after the heading) and to its end."""
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "deathzap_tui", *argv],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdout is not None
    proc.stdout.readline()
    proc.stdout.readline()
    first = (time.perf_counter() - t0) * 1000
    proc.stdout.read()
    assert proc.wait() == 0, argv
    return first, (time.perf_counter() - t0) * 1000


def long_games_table(ruleset_id: str, sizes: list[int], repeat: int) -> None:
    red, black = shipped_forces(ruleset_id)
    name = f"long-{ruleset_id}"
    ruleset = registry.get(ruleset_id)
    endless = {"end": "agreement"}
    try:
        ruleset.options(endless)
    except InvalidInput:  # no such ending: a game of turns, kept from its end below
        endless = {}
    session = Session.new(red, black, seed=1, deal_seed=1, save_path=name, options=endless)
    rnd = random.Random(1)
    print(f"\n{ruleset.title}: a long game (median ms)")
    print(f"{'events':>7} {'in force':>8} {'resume':>7} {'x100':>5} {'full':>7} "
          f"{'report':>7} {'report cold':>11} {'log first':>9} {'log cold':>8} "
          f"{'folded report':>13} {'folded log':>10} {'narrative':>9} {'l page':>6}")
    base = None
    for size in sizes:
        while len(session.game.log) < size:
            step(session, rnd)
        assert session.path is not None
        path = session.path
        opened, lock, _ = open_for(name, None)  # as `deathzap resume SAVE` opens it
        finish(opened, None, lock)
        resume = timed(lambda p=path: Session.resume(p).narrative(last=LOG_EVENTS), repeat)
        base = base or resume
        cache = saves.cache_path(path)
        kept = cache.read_bytes()
        cache.unlink()
        full = timed(lambda p=path: Session.read(str(p)).narrative(last=LOG_EVENTS), 3)
        cache.write_bytes(kept)
        report = timed(session.report, 3)
        reports = [cold(["report", name, "--json"]) for _ in range(3)]
        logs = [cold(["log", name]) for _ in range(3)]
        folded = f"{name}-folded"
        saves.save_game(session.game, saves.save_path(folded))
        folded_reports = [cold(["report", folded, "--json"])[1] for _ in range(3)]
        folded_logs = [cold(["log", folded])[1] for _ in range(3)]
        narrative = timed(session.narrative, repeat)
        resumed = [Session.resume(path) for _ in range(repeat)]
        page = timed(lambda r=resumed: r.pop().narrative(last=NARRATED_TAIL), repeat)
        print(f"{len(session.game.log):>7} {session.game.in_force:>8} {resume:7.1f} "
              f"{resume / base:5.2f} {full:7.1f} {report:7.1f} "
              f"{statistics.median(r[1] for r in reports):11.0f} "
              f"{statistics.median(f for f, _ in logs):9.0f} "
              f"{statistics.median(t for _, t in logs):8.0f} "
              f"{statistics.median(folded_reports):13.0f} "
              f"{statistics.median(folded_logs):10.0f} {narrative:9.2f} {page:6.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 5000])
    parser.add_argument("--rulesets", nargs="+", default=list(registry.ids()),
                        choices=registry.ids())
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--no-per-event", action="store_true",
                        help="only the long-games table")
    parser.add_argument("--cpu", action="store_true",
                        help="in-process figures in CPU time (time.process_time)")
    args = parser.parse_args()
    if args.cpu:
        timing.CLOCK = time.process_time
    sizes = sorted(args.sizes)
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["DEATHZAP_SAVES_DIR"] = tmp
        if not args.no_per_event:
            per_event_table(sizes, args.repeat)
        for ruleset_id in args.rulesets:
            long_games_table(ruleset_id, sizes, args.repeat)


if __name__ == "__main__":
    main()

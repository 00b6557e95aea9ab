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
and a journal), as long a game as its options allow (ending by agreement where the
ruleset offers that, else the most turns or rounds). A ruleset whose game ends (a
turn limit) never ends here: an action that would end it is not played, and the log
grows by undo/redo pairs (a long log of undo/redo pairs is a long game too; one step
in four is a pair anyway). Medians (ms) of:

- resume: ``Session.resume`` from the save's cache (written by ``deathzap resume`` as
  by every writer opening a save) up to the battle screen's log (``LOG_EVENTS``);
  ``x100``: the same over the smallest size's (a copy of the save as it was then,
  resumed in turn with this one, so that both meet the same load; goal: within
  1.5x, < 50 ms). Each run starts with no garbage of the runs before it (collected
  untimed), as a process resuming a game does;
- open, ``x100``: the same as ``deathzap resume SAVE`` opens the save (its lock
  taken, the game resumed and its cache kept, up to the log beside the board), and
  its ratio to the smallest size's;
- pairs, ``x100``: ``resume`` of another copy of the smallest size's game whose log
  was grown to this size by undo/redo pairs alone (a long log of undo/redo pairs is a
  long game too: every ruleset has one), and its ratio to the smallest size's;
- full: the same without a cache (a replay of the log: only after a rules change);
- report: ``session.report()`` (goal < 300 ms at 5,000); ``report cold``: ``deathzap
  report SAVE`` in a new process, start-up included (goal < 1 s);
- log first / log cold: ``deathzap log SAVE`` in a new process, to its first narrative
  line and to its end (goal: the first at once, all < 500 ms);
- narrative: the whole game's lines of the game as played (every event's notes
  kept); l page: the lines the battle screen's ``l`` shows first, just after a resume
  (the last ``NARRATED_TAIL`` events'; ``e`` asks for the rest, replayed then);
- the same game played on to its end (by agreement where it can end so, else at
  random) and saved as a finished game is (one file): ``over report``, its first
  ``session.report()`` (a replay; the report is then kept beside the save),
  ``kept cold`` / ``replay cold``: ``deathzap report`` of it with the kept report and
  without it, and ``over log cold``: ``deathzap log`` of it.

``--resume-only``: only the resume, open and pairs columns (quick to run).

``--cpu``: the in-process figures in this process's CPU time rather than wall time,
and the commands' in a new process in that process's CPU time (a shared machine's
other work inflates wall time; the time to the first line is always wall time).
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import timing

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "rules"))
sys.path.insert(0, str(ROOT / "tests" / "rules" / "deathzap3"))

from dz3_fixtures import play_random_action  # noqa: E402
from fixtures_common import play_random_action as play_any  # noqa: E402
from fixtures_common import random_answer  # noqa: E402
from shipped import shipped_forces  # noqa: E402
from timing import timed  # noqa: E402

from deathzap_tui import saves  # noqa: E402
from deathzap_tui.app.battle.battle import LOG_EVENTS  # noqa: E402
from deathzap_tui.net.playbyturn import finish, open_for  # noqa: E402
from deathzap_tui.net.referee import Table, Told  # noqa: E402
from deathzap_tui.rules import registry  # noqa: E402
from deathzap_tui.rules.game import NARRATED_TAIL, Action, Game  # noqa: E402
from deathzap_tui.rules.problems import InvalidInput  # noqa: E402
from deathzap_tui.rules.ruleset import END  # noqa: E402
from deathzap_tui.rules.steps import ROLL, DiceRequest, Refused  # noqa: E402
from deathzap_tui.savepaths import report_path  # noqa: E402
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


def answered(game: Game, intent: dict[str, Any], rnd: random.Random) -> Action | None:
    """``intent`` begun and answered at random (dice rolled), or ``None`` if the
    answers ran out before it was done."""
    action = game.begin(intent)
    res = action.resolution
    for _ in range(200):
        if res.done:
            return action
        try:
            res.answer(ROLL if isinstance(res.step, DiceRequest)
                       else random_answer(res.step, rnd))
        except Refused:
            continue
    return action if res.done else None


def step(session: Session, rnd: random.Random) -> None:
    """One random action that does not end the game; if there is none, or one time in
    four, an undo/redo pair."""
    game = session.game
    if not game.can_undo or rnd.random() >= 0.25:
        options = [o for o in game.ruleset.intents(game.state) if o.group != END]
        rnd.shuffle(options)
        for option in options:
            action = answered(game, dict(option.intent), rnd)
            if action is not None and not game.ruleset.is_over(action.resolution.ctx.state):
                session.commit(action)
                return
    session.undo()
    session.redo()


def longest(ruleset_id: str) -> dict[str, Any]:
    """Options for as long a game as the ruleset allows: ending only by agreement
    where it offers that, else every whole-number option (turns, rounds) at its
    most."""
    ruleset = registry.get(ruleset_id)
    try:
        return dict(ruleset.options({"end": "agreement"}))
    except InvalidInput:  # no such ending: a game of turns
        return {spec.key: spec.maximum for spec in ruleset.option_specs()
                if not spec.choices and spec.maximum is not None}


def finished(path: Path, name: str, rnd: random.Random) -> Session:
    """The game of the save ``path`` played on to its end (an ending of the END group
    if one ends it at once, else random play) and saved as ``name``, as a finished
    game is kept: one file."""
    game = saves.load_game(path)
    for _ in range(5000):
        if game.ruleset.is_over(game.state):
            break
        ends = [o for o in game.ruleset.intents(game.state) if o.group == END]
        action = next((a for o in ends if (a := answered(game, dict(o.intent), rnd))
                       and game.ruleset.is_over(a.resolution.ctx.state)), None)
        if action is not None:
            game.commit(action)
        else:
            assert play_any(game, rnd, skip=(END,)), f"{name}: stuck before its end"
    assert game.ruleset.is_over(game.state), f"{name}: not over"
    session = Session(game, saves.save_path(name))
    session.save()
    return session


def cold(argv: list[str]) -> tuple[float, float]:
    """A ``deathzap`` command in a new process: ms to its second line of output (the
    first after the heading, wall time) and to its end (wall time, or with ``--cpu``
    the process's CPU time)."""
    t0 = time.perf_counter()
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.Popen([sys.executable, "-m", "deathzap_tui", *argv],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdout is not None
    proc.stdout.readline()
    proc.stdout.readline()
    first = (time.perf_counter() - t0) * 1000
    proc.stdout.read()
    assert proc.wait() == 0, argv
    if timing.CLOCK is time.process_time:
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return first, (after.ru_utime + after.ru_stime - used.ru_utime - used.ru_stime) * 1000
    return first, (time.perf_counter() - t0) * 1000


def cold_median(argv: list[str], repeat: int = 3) -> tuple[float, float]:
    """:func:`cold`'s two figures, each the median of ``repeat`` runs."""
    runs = [cold(argv) for _ in range(repeat)]
    return statistics.median(f for f, _ in runs), statistics.median(t for _, t in runs)


def copied(path: Path, name: str) -> Path:
    """A copy of the save ``path`` (its snapshot, journal and cache) named ``name``."""
    copy = saves.save_path(name)
    for source, target in ((path, copy), (saves.journal_path(path), saves.journal_path(copy)),
                           (saves.cache_path(path), saves.cache_path(copy))):
        if source.exists():
            target.write_bytes(source.read_bytes())
    return copy


def alternately(first: Callable[[], object], second: Callable[[], object],
                repeat: int) -> tuple[float, float]:
    """:func:`timed` of ``first`` and of ``second``, run in turn (each first every other
    time): a ratio of the two then compares them under the same load of a shared
    machine. Each run starts with the garbage of the runs before it collected, untimed
    (a resumed session and its game hold each other, so only the garbage collector
    frees them: uncollected, they made each run pay for the ones before it)."""
    a, b = [], []
    for k in range(repeat):
        if k % 2:
            b.append(fresh(second))
        a.append(fresh(first))
        if not k % 2:
            b.append(fresh(second))
    return statistics.median(a), statistics.median(b)


def fresh(fn: Callable[[], object]) -> float:
    """:func:`timed` of one run of ``fn``, the garbage of earlier runs collected first."""
    gc.collect()
    return timed(fn, 1)


def opened(name: str) -> None:
    """Open the save ``name`` as ``deathzap resume SAVE`` does, up to the log beside
    the board, and close it."""
    session, lock, _ = open_for(name, None)
    session.narrative(last=LOG_EVENTS)
    finish(session, None, lock)


def resumed(path: Path) -> None:
    """Resume the save ``path`` from its cache, up to the log beside the board."""
    Session.resume(path).narrative(last=LOG_EVENTS)


def pairs_only(path: Path, size: int) -> None:
    """Grow the game of the save ``path`` to ``size`` log events by undo/redo pairs
    alone, and cache it as a writer opening it would."""
    session = Session.resume(path)
    while len(session.game.log) + 2 <= size and session.can_undo:
        session.undo()
        session.redo()
    session.keep_cache()


def long_games_table(ruleset_id: str, sizes: list[int], repeat: int,
                     resume_only: bool = False) -> None:
    red, black = shipped_forces(ruleset_id)
    name = f"long-{ruleset_id}"
    ruleset = registry.get(ruleset_id)
    options = longest(ruleset_id)
    session = Session.new(red, black, seed=1, deal_seed=1, save_path=name, options=options)
    rnd = random.Random(1)
    print(f"\n{ruleset.title}: a long game (median ms; options {options})")
    print(f"{'events':>7} {'in force':>8} {'resume':>7} {'x100':>5} {'open':>6} {'x100':>5} "
          f"{'pairs':>6} {'x100':>5}" + ("" if resume_only else
          f" {'full':>7} {'report':>7} {'report cold':>11} {'log first':>9} {'log cold':>8} "
          f"{'narrative':>9} {'l page':>6} | {'over at':>7} {'over report':>11} "
          f"{'kept cold':>9} {'replay cold':>11} {'over log cold':>13}"))
    base: Path | None = None
    pairs: Path | None = None
    for size in sizes:
        while len(session.game.log) < size:
            step(session, rnd)
        assert session.path is not None
        path = session.path
        opened(name)  # as `deathzap resume SAVE` opens it: the cache is written
        base = base or copied(path, f"{name}-{size}")
        pairs = pairs or copied(path, f"{name}-pairs")
        pairs_only(pairs, size)
        resume, base_resume = alternately(lambda p=path: resumed(p),
                                          lambda p=base: resumed(p), repeat)
        open_, base_open = alternately(lambda: opened(name),
                                       lambda b=base: opened(b.stem), repeat)
        pair, base_pair = alternately(lambda p=pairs: resumed(p),
                                      lambda p=base: resumed(p), repeat)
        row = (f"{len(session.game.log):>7} {session.game.in_force:>8} {resume:7.1f} "
               f"{resume / base_resume:5.2f} {open_:6.1f} {open_ / base_open:5.2f} "
               f"{pair:6.1f} {pair / base_pair:5.2f}")
        if resume_only:
            print(row, flush=True)
            continue
        cache = saves.cache_path(path)
        kept = cache.read_bytes()
        cache.unlink()
        full = timed(lambda p=path: Session.read(str(p)).narrative(last=LOG_EVENTS), 3)
        cache.write_bytes(kept)
        report = timed(session.report, 3)
        report_cold = cold_median(["report", name, "--json"])[1]
        log_first, log_cold = cold_median(["log", name])
        narrative = timed(session.narrative, repeat)
        sessions = [Session.resume(path) for _ in range(repeat)]
        page = timed(lambda r=sessions: r.pop().narrative(last=NARRATED_TAIL), repeat)
        over = finished(path, f"{name}-{size}-over", rnd)
        assert over.path is not None
        over_report = timed(over.report, 1)  # the first: replayed, then kept
        kept_cold = cold_median(["report", over.path.stem, "--json"])[1]
        report_path(over.path).unlink()
        replay_cold = cold_median(["report", over.path.stem, "--json"])[1]
        over_log = cold_median(["log", over.path.stem])[1]
        print(f"{row} {full:7.1f} {report:7.1f} {report_cold:11.0f} "
              f"{log_first:9.0f} {log_cold:8.0f} {narrative:9.2f} {page:6.2f} | "
              f"{len(over.game.log):>7} {over_report:11.1f} {kept_cold:9.0f} "
              f"{replay_cold:11.0f} {over_log:13.0f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 5000])
    parser.add_argument("--rulesets", nargs="+", default=list(registry.ids()),
                        choices=registry.ids())
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--no-per-event", action="store_true",
                        help="only the long-games table")
    parser.add_argument("--resume-only", action="store_true",
                        help="only the resume, open and pairs columns")
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
            long_games_table(ruleset_id, sizes, args.repeat, args.resume_only)


if __name__ == "__main__":
    main()

"""Round trip from an intent in one client to the update in the other, on loopback.

A real referee process (``deathzap host``, saving with fsync after every event) on a
Unix socket in a temporary directory, two :class:`RemoteSession` clients. Red plays
100 intents (begin, two answers, commit); for each we time from red's ``commit`` call
to black's change notification holding the new event ("other client has it"), and
the whole intent from ``begin``. Rendering is not included (see the note printed).

Then the same with rendering, on real Deathzap 3 (``deathzap host --quick`` with the
demo forces): red is the real joined app (:class:`JoinedApp`, headless under
Textual's Pilot, 120x36), black plays through the API; for each of black's intents
we time from black's ``commit`` to the first frame red's app composes after applying
the change (Textual's ``App._display``; headless, so only the write to a terminal is
left out, which is a few hundred microseconds locally).

Then floods (issue 19): the players' request round trips (begin, answers, commit,
ping) and commit -> the other player has it, before, during and after two local
processes churn watcher connections as fast as they can (connect, hello, never
read, leave after CHURN_HOLD newer ones; each bounded to CHURN_MAX connections and
the churn's seconds), all on loopback.

    .venv/bin/python benchmarks/net.py [N]
    .venv/bin/python benchmarks/net.py --churn-only [SECONDS]
"""

from __future__ import annotations

import contextlib
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOY = ROOT / "tests" / "net"
sys.path.insert(0, str(ROOT / "tests"))
from subprocess_env import helper_folders  # noqa: E402

# The tests' helper folders (toynet and the toy ruleset it builds on), here and in
# every referee and client process this starts.
sys.path[:0] = helper_folders()
os.environ["PYTHONPATH"] = os.pathsep.join(helper_folders())

import toynet  # noqa: E402

from deathzap_tui.net import protocol  # noqa: E402
from deathzap_tui.net.client import Disconnected, RemoteSession  # noqa: E402
from deathzap_tui.rules.steps import Dice  # noqa: E402

LAUNCH = ("import sys; sys.path.insert(0, sys.argv[1]); import toynet; toynet.install(); "
          "from deathzap_tui.cli import main; sys.exit(main(sys.argv[2:]))")


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))]


@dataclass
class Table:
    """Red and black joined to a referee process's game on ``sock`` (a player joining
    again replaces its session here, so that the new one is closed at the end)."""

    sock: Path
    red: RemoteSession
    black: RemoteSession


@contextlib.contextmanager
def hosted(command: list[str], saves: Path, name: str) -> Iterator[Table]:
    """Red and black joined to a real referee process (``command``: ``deathzap host``
    with its forces and options) hosting the new game ``name`` in ``saves``; on leaving
    they close and the referee stops."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "DEATHZAP_SAVES_DIR": str(saves)}
    proc = subprocess.Popen([*command, "--save", name], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert proc.stdout.readline().startswith("hosting")
        sock = saves / f"{name}.sock"
        table = Table(sock, RemoteSession.connect(sock, "red"),
                      RemoteSession.connect(sock, "black"))
        try:
            yield table
        finally:
            table.red.close()
            table.black.close()
    finally:
        proc.terminate()
        proc.wait(5)


def toy_table(saves: Path, name: str) -> contextlib.AbstractContextManager[Table]:
    """:func:`hosted` on a new toy game in ``saves``."""
    toynet.install()
    red_f, black_f = toynet.write_forces(saves)
    return hosted([sys.executable, "-c", LAUNCH, str(TOY), "host", "--red", str(red_f),
                   "--black", str(black_f), "--seed", "1"], saves, name)


def main(n: int = 100) -> None:
    with tempfile.TemporaryDirectory() as tmp, toy_table(Path(tmp), "bench") as table:
        red, black = table.red, table.black
        arrived: dict[int, float] = {}
        got = threading.Condition()

        def on_change(s: RemoteSession) -> None:
            with got:
                arrived.setdefault(s.events, time.perf_counter())
                got.notify_all()

        black.subscribe(on_change)
        to_other, whole = [], []
        for i in range(n):
            me, other = (red, black) if i % 2 == 0 else (black, red)
            if other is red:  # time only red's intents -> black; black's keep turns going
                a = me.begin({"type": "hit", "side": me.side})
                a.resolution.answer("open")
                a.resolution.answer(Dice(faces=(1, 1)))
                me.commit(a)
                red.wait_for(lambda s, k=i + 1: s.events >= k)
                continue
            t0 = time.perf_counter()
            a = me.begin({"type": "hit", "side": me.side})
            a.resolution.answer("open")
            a.resolution.answer(Dice(faces=(1, 1)))  # no hits: the game goes on
            t1 = time.perf_counter()
            me.commit(a)
            with got:
                got.wait_for(lambda k=i + 1: k in arrived, 5)
            to_other.append((arrived[i + 1] - t1) * 1000)
            whole.append((arrived[i + 1] - t0) * 1000)
    print(f"{len(to_other)} intents red -> black over a Unix socket, referee saving with fsync")
    for name, xs in (("commit -> other client has it", to_other),
                     ("whole intent (begin, 2 answers, commit) -> other", whole)):
        print(f"  {name}: median {statistics.median(xs):.2f} ms, p95 {pct(xs, 95):.2f} ms, "
              f"max {max(xs):.2f} ms")
    print("  (without rendering; with it: below)")


def render_bench(n: int = 30) -> None:
    """Black's intent -> red's joined app has repainted, on real DZ3."""
    import asyncio

    import dz3play

    from deathzap_tui.app.remote.app import JoinedApp
    from deathzap_tui.app.remote.battle import JoinedBattleScreen

    command = [sys.executable, "-m", "deathzap_tui", "host", "--red", str(dz3play.DEMOS[0]),
               "--black", str(dz3play.DEMOS[1]), "--seed", "7", "--quick"]
    with tempfile.TemporaryDirectory() as tmp, hosted(command, Path(tmp), "rbench") as table:
        red, black = table.red, table.black
        committed: dict[int, float] = {}
        applied: dict[int, float] = {}
        painted: dict[int, float] = {}
        commit = black.commit

        def timed_commit(action):
            t = time.perf_counter()
            event = commit(action)
            committed[black.events] = t
            return event

        black.commit = timed_commit  # type: ignore[method-assign]
        app = JoinedApp(red, side="red", dice_mode="generated")
        display = JoinedApp._display  # on the class: Textual reads it there, not per app
        change = JoinedBattleScreen.remote_changed

        def on_change(screen):
            change(screen)
            applied.setdefault(red.events, time.perf_counter())

        def on_display(self, screen, renderable):
            display(self, screen, renderable)
            if renderable is not None:
                now = time.perf_counter()
                for k in applied:
                    painted.setdefault(k, now)

        JoinedBattleScreen.remote_changed = on_change  # type: ignore[method-assign]
        JoinedApp._display = on_display  # type: ignore[method-assign]

        async def drive() -> None:
            async with app.run_test(size=(120, 36)) as pilot:
                clients = {"red": red, "black": black}
                black_moves = 0
                while black_moves < n:
                    actor, _ = await asyncio.to_thread(dz3play.play_one, clients)
                    black_moves += actor == "black"
                    k = red.events
                    for _ in range(200):
                        if k in painted:
                            break
                        await pilot.pause(0.005)

        asyncio.run(drive())
    to_paint = [(painted[k] - t) * 1000 for k, t in committed.items() if k in painted]
    to_apply = [(applied[k] - t) * 1000 for k, t in committed.items() if k in applied]
    print(f"{len(to_paint)} DZ3 intents black -> red's joined app (headless Pilot, 120x36)")
    for name, xs in (("commit -> red's app has re-read the session", to_apply),
                     ("commit -> red's app has composed the new frame", to_paint)):
        if not xs:  # e.g. every move's frame came with red's own wizard, not the board
            print(f"  {name}: no sample")
            continue
        print(f"  {name}: median {statistics.median(xs):.1f} ms, p95 {pct(xs, 95):.1f} ms, "
              f"max {max(xs):.1f} ms")


CHURN_MAX = 100_000
"""Connections per churning process, at most."""
CHURN_HOLD = 8
"""Connections each churning process keeps open (its newest), never reading them."""


def churn(sock: str, seconds: float) -> None:
    """One churning process: join as a watcher and never read; keep the newest
    CHURN_HOLD connections, leave the older; again, as fast as it can, for
    ``seconds`` or CHURN_MAX connections. Prints how many it made and how many could
    not connect or send their hello."""
    hello = protocol.encode({"t": "hello", "v": protocol.VERSION, "side": "watch"})
    deadline = time.monotonic() + seconds
    made = failed = 0
    held: list[socket.socket] = []
    while made < CHURN_MAX and time.monotonic() < deadline:
        made += 1
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)  # blocking: waits its turn
        try:
            s.connect(sock)
            s.sendall(hello)
        except OSError:
            failed += 1
            s.close()
            continue
        held.append(s)
        if len(held) > CHURN_HOLD:
            held.pop(0).close()
    for s in held:
        s.close()
    print(made, failed)


PLAYER_GAP = 0.01
"""Seconds between a benchmark player's requests: faster than any player keys in
answers, within the pace the referee allows a player."""


class Phase:
    """One phase's timings, in milliseconds."""

    def __init__(self) -> None:
        self.pings: list[float] = []
        self.moves: list[float] = []
        """Each begin, answer and commit (the referee keeps each with the save)."""
        self.to_other: list[float] = []
        """Commit -> the other player has the event."""

    def line(self) -> str:
        if not self.pings:
            return "no request completed"
        def stat(xs: list[float]) -> str:
            return f"median {statistics.median(xs):.1f}, p95 {pct(xs, 95):.1f}, max {max(xs):.1f}"
        return (f"ping {stat(self.pings)} ms ({len(self.pings)}); "
                f"begin/answer/commit {stat(self.moves)} ms; "
                f"commit -> other player p95 {pct(self.to_other, 95):.1f} ms")


def play_timed(me: RemoteSession, other: RemoteSession, phase: Phase) -> None:
    """One turn of ``me`` (begin, two answers, commit) and a ping, at a brisk
    player's pace (PLAYER_GAP before each request), timed into ``phase``."""
    def timed(call, into: list[float]):
        time.sleep(PLAYER_GAP)
        t = time.perf_counter()
        out = call()
        into.append((time.perf_counter() - t) * 1000)
        return out

    a = timed(lambda: me.begin({"type": "hit", "side": me.side}), phase.moves)
    timed(lambda: a.resolution.answer("open"), phase.moves)
    timed(lambda: a.resolution.answer(Dice(faces=(1, 1))), phase.moves)  # no hits
    k = me.events + 1
    t = time.perf_counter()
    timed(lambda: me.commit(a), phase.moves)
    other.wait_for(lambda s: s.events >= k, 10)
    phase.to_other.append((time.perf_counter() - t) * 1000)
    timed(lambda: me._call("ping"), phase.pings)


def rejoin(sock: Path, side: str) -> tuple[RemoteSession, float, int]:
    """Connect as ``side``, trying again until it works: the session, the
    milliseconds it took and the tries."""
    t = time.perf_counter()
    tries = 0
    while True:
        tries += 1
        try:
            return RemoteSession.connect(sock, side), (time.perf_counter() - t) * 1000, tries
        except Disconnected:
            time.sleep(0.05)


def churn_bench(seconds: float = 6.0, churners: int = 2) -> None:
    """The players' round trips before, during and after a churn of watchers."""
    with tempfile.TemporaryDirectory() as tmp, toy_table(Path(tmp), "churn") as table:
        phases: dict[str, Phase] = {}
        rejoins: list[str] = []

        def play(name: str, until: float) -> None:
            phase = phases.setdefault(name, Phase())
            while time.perf_counter() < until:
                red, black = table.red, table.black
                me, other = (red, black) if red.turn["side"] == "red" else (black, red)
                play_timed(me, other, phase)

        play("quiet, before", time.perf_counter() + 2)
        started = time.perf_counter()
        procs = [subprocess.Popen([sys.executable, __file__, "--churner", str(table.sock),
                                   str(seconds)], stdout=subprocess.PIPE, text=True)
                 for _ in range(churners)]
        time.sleep(0.5)  # let the churn get going
        play("during the churn", started + seconds / 2)
        for _ in range(3):  # black's terminal closes and joins again
            table.black.close()
            table.black, took, tries = rejoin(table.sock, "black")
            rejoins.append(f"{took:.0f} ms" + (f" ({tries} tries)" if tries > 1 else ""))
        play("during the churn", started + seconds)
        counts = [tuple(map(int, p.communicate(30)[0].split())) for p in procs]
        churned = time.perf_counter() - started
        play("after it stopped", time.perf_counter() + 2)
    made = sum(c[0] for c in counts)
    failed = sum(c[1] for c in counts)
    print(f"{churners} processes churning watcher connections for {churned:.1f} s: "
          f"{made} connections ({made / churned:.0f}/s), {failed} failed to connect")
    for name, phase in phases.items():
        print(f"  {name}: {phase.line()}")
    print(f"  a player joining again during the churn: {', '.join(rejoins)}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--churner"]:
        churn(sys.argv[2], float(sys.argv[3]))
    elif sys.argv[1:2] == ["--churn-only"]:
        churn_bench(float(sys.argv[2]) if len(sys.argv) > 2 else 6.0)
    else:
        main(2 * int(sys.argv[1]) if len(sys.argv) > 1 else 200)
        render_bench(int(sys.argv[1]) // 3 if len(sys.argv) > 1 else 40)
        churn_bench()

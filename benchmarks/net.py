"""Round trip from an intent in one client to the update in the other, on loopback.

A real referee process (``deathzap host``, saving with fsync after every event) on a
Unix socket in a temporary directory, two :class:`RemoteSession` clients. Red plays
100 intents (begin, two answers, commit); for each we time from red's ``commit`` call
to black's change notification holding the new event ("other client has it"), and
the whole intent from ``begin``. Rendering is not included (see the note printed).

    .venv/bin/python benchmarks/net.py [N]
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOY = ROOT / "tests" / "net"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(TOY))

import toynet  # noqa: E402

from deathzap_tui.net.client import RemoteSession  # noqa: E402
from deathzap_tui.rules.steps import Dice  # noqa: E402

LAUNCH = ("import sys; sys.path.insert(0, sys.argv[1]); import toynet; toynet.install(); "
          "from deathzap_tui.cli import main; sys.exit(main(sys.argv[2:]))")


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))]


def main(n: int = 100) -> None:
    toynet.install()
    with tempfile.TemporaryDirectory() as tmp:
        saves = Path(tmp)
        os.environ["DEATHZAP_SAVES_DIR"] = str(saves)
        red_f, black_f = toynet.write_forces(saves)
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        proc = subprocess.Popen([sys.executable, "-c", LAUNCH, str(TOY), "host", "--red",
                                 str(red_f), "--black", str(black_f), "--seed", "1",
                                 "--save", "bench"], cwd=ROOT, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        assert proc.stdout.readline().startswith("hosting")
        sock = saves / "bench.sock"
        red = RemoteSession.connect(sock, "red")
        black = RemoteSession.connect(sock, "black")
        arrived: dict[int, float] = {}
        got = threading.Condition()

        def on_change(s: RemoteSession) -> None:
            with got:
                arrived.setdefault(s.events, time.perf_counter())
                got.notify_all()

        black.subscribe(on_change)
        to_other, whole = [], []
        try:
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
        finally:
            red.close()
            black.close()
            proc.terminate()
            proc.wait(5)
    print(f"{len(to_other)} intents red -> black over a Unix socket, referee saving with fsync")
    for name, xs in (("commit -> other client has it", to_other),
                     ("whole intent (begin, 2 answers, commit) -> other", whole)):
        print(f"  {name}: median {statistics.median(xs):.2f} ms, p95 {pct(xs, 95):.2f} ms, "
              f"max {max(xs):.2f} ms")
    print("  (rendering in the other terminal is extra: one battle-screen repaint, "
          "~30-40 ms by stack-facts.md)")


if __name__ == "__main__":
    main(2 * int(sys.argv[1]) if len(sys.argv) > 1 else 200)

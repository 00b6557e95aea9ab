"""Benchmark: the end-of-game report as the game grows (issue 14).

Run: ``.venv/bin/python benchmarks/report.py [--sizes 100 1000 5000]``. For each size
it plays a Deathzap 3 game (two 9-unit demo forces, "agreement" ending, generated dice)
until the log holds that many events, then prints medians of:

- build: :func:`~deathzap_tui.rules.report.build_report` (one replay of the events in
  force, the score after each, every roll judged, the percentiles);
- per event: build divided by the events in force (the report is made once, at the
  end of a game: what must stay flat is its cost per event);
- text / json: rendering the report for ``deathzap report`` (120 columns) and
  ``--json``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "rules"))
sys.path.insert(0, str(ROOT / "tests" / "rules" / "deathzap3"))

from dz3_fixtures import play_random_action  # noqa: E402
from timing import timed  # noqa: E402

from deathzap_tui.forcefile import load_force  # noqa: E402
from deathzap_tui.reporttext import as_text  # noqa: E402
from deathzap_tui.rules.game import Game  # noqa: E402
from deathzap_tui.rules.report import build_report  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 5000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    red = load_force(ROOT / "forces" / "demo-ashfall-legion.toml")
    black = load_force(ROOT / "forces" / "demo-vanta-syndicate.toml")
    game = Game(red.ruleset, red.force, black.force,
                red.ruleset.options({"end": "agreement"}), seed=1)
    rnd = random.Random(1)
    print(f"{'events':>7} {'rolls':>6} {'build ms':>9} {'per event':>10} {'text ms':>8} "
          f"{'json ms':>8}")
    for size in sorted(args.sizes):
        while len(game.log) < size:  # never ending it: this game goes on for ever
            assert play_random_action(game, rnd, skip=("end",))
        build = timed(lambda: build_report(game), args.repeat)
        report = build_report(game)
        text = timed(lambda r=report: as_text(r, 120), args.repeat)
        dumped = timed(lambda r=report: json.dumps(r.to_json()), args.repeat)
        print(f"{report.events:>7} {len(report.rolls):>6} {build:9.1f} "
              f"{build / max(1, report.events):10.3f} {text:8.1f} {dumped:8.1f}")


if __name__ == "__main__":
    main()

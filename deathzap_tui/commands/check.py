"""``deathzap check FILE...``: validate force files, listing every problem."""

from __future__ import annotations

import argparse
from dataclasses import replace

from deathzap_tui.forcefile import load_force
from deathzap_tui.headless.text import clean
from deathzap_tui.rules.narration import plural
from deathzap_tui.rules.problems import InvalidInput, Problem


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="force file (TOML)")


def run(args: argparse.Namespace) -> int:
    def show(problem: Problem, source: str) -> str:
        """``file:line: path: message``, with ``warning`` before the path of a warning."""
        if not problem.is_error:
            problem = replace(problem, path=": ".join(p for p in ("warning", problem.path)
                                                      if p))
        # The file's name is the user's own argument: no control character of it
        # reaches the terminal (issue 19), as on stderr.
        return clean(problem.located(source))

    status = 0
    for path in args.files:
        try:
            loaded = load_force(path)
        except InvalidInput as e:
            for problem in e.problems:
                print(show(problem, e.source))
            errors = sum(p.is_error for p in e.problems)
            print(clean(f"{e.source}: {plural(errors, 'error')}"))
            status = 1
            continue
        for problem in loaded.warnings:
            print(show(problem, loaded.source))
        units, models = loaded.counts()
        report = loaded.ruleset.points(loaded.force)
        points = f", {plural(report.total, 'point')}" if report else ""
        warned = len(loaded.warnings)
        print(clean(f"{loaded.source}: OK: {loaded.name} ({loaded.ruleset.id}), "
                    f"{plural(units, 'unit')}, {plural(models, 'model')}{points}"
                    + (f", {plural(warned, 'warning')}" if warned else "")))
    return status

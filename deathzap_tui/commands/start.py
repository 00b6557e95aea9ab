"""``deathzap`` with no command: the start screen, demo forces preselected."""

from __future__ import annotations

import argparse
import secrets
from typing import Any


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The start screen takes no arguments."""


def run(args: argparse.Namespace) -> int:
    from deathzap_tui.app import collector  # lazy: with the app

    collector.pause()  # until the start screen's first frame (issue 21)
    from deathzap_tui.app.app import DeathzapApp, Launch  # lazy: Textual; play imports finished

    app = DeathzapApp(Launch("start", seed=secrets.randbelow(1_000_000)))
    app.run()
    return finished(app)


def finished(app: Any) -> int:
    """A command's status once its app has quit (``deathzap``, ``play``), naming the
    save it wrote."""
    if app.return_code:  # stopped by an error (a save it could not write...), shown above
        return app.return_code
    if app.session is not None and app.session.path is not None:
        print(f"saved: {app.session.path}")
    return 0

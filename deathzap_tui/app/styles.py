"""Every style sheet of the app, in one list that every App uses (``DeathzapApp``,
the joined app, the editor's, the club's lobby app): each feature folder has its own
``<feature>.tcss``, named here by absolute path, so an App subclass in another folder
reads the same files (Textual reads a relative ``CSS_PATH`` beside the module of the
class that names it)."""

from __future__ import annotations

from pathlib import Path

APP_DIR = Path(__file__).resolve().parent

STYLES: list[str | Path] = [APP_DIR / p for p in (
    "common/common.tcss", "start/start.tcss", "battle/battle.tcss", "wizard/wizard.tcss")]
"""Loaded up front (one parse at start-up), in this order: a later sheet's rule wins a
tie of specificity."""

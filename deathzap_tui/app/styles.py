"""Every style sheet of the app, in one list that every App uses as its ``CSS_PATH``
(``DeathzapApp``, so the joined app and the editor's; the club's lobby app adds its
own ``club/lobby.tcss``). The convention (docs/architecture.md, "The app"): each
feature folder has one ``<feature>.tcss``; no ``DEFAULT_CSS``, no ``CSS``, no
per-screen ``CSS_PATH``. Named by absolute path: Textual reads a relative
``CSS_PATH`` beside the module of the class that names it, and App subclasses live
in other folders."""

from __future__ import annotations

from pathlib import Path

APP_DIR = Path(__file__).resolve().parent

STYLES: list[str | Path] = [APP_DIR / p for p in (
    "common/common.tcss", "start/start.tcss", "battle/battle.tcss", "wizard/wizard.tcss",
    "quick/quick.tcss", "editor/editor.tcss", "gameover/gameover.tcss",
    "remote/remote.tcss")]
"""All read once, in this order (of two rules of the same specificity the later one
wins): up front, or, for an app opening on the start screen, the first two up front
and the others before it shows another screen (:data:`START_STYLES`). The first four
were read up front before issue 20; the sheets after them were each read when their
screen first opened, after all the others."""

START_STYLES: list[str | Path] = STYLES[:2]
"""The sheets the start screen and the dialogs it opens are styled by (common's and
start's; every rule of the others names a screen of its own, see docs/architecture.md).
An app opening on the start screen reads these up front, and the others, in
``STYLES``' order after them, before it shows any other screen
(``DeathzapApp.read_all_styles``): the same rules in the same order, without parsing
six sheets (64 M instructions, ~7 ms CPU) before the start screen's first frame."""

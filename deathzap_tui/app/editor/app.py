"""``deathzap edit``: an app that opens on the force editor and ends with it."""

from __future__ import annotations

from textual.screen import Screen

from deathzap_tui.app.app import DeathzapApp
from deathzap_tui.app.editor.editor import EditorScreen
from deathzap_tui.forcedoc import ForceDocument


class EditorApp(DeathzapApp):
    """The editor of ``doc`` (with a points ``limit``, or none) as an app."""

    def __init__(self, doc: ForceDocument, limit: int | None = None) -> None:
        super().__init__()
        self.doc = doc
        self.limit = limit

    def first_screen(self) -> Screen:
        return EditorScreen(self.doc, standalone=True, limit=self.limit)

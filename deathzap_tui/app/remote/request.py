"""The opponent's undo/redo request, put to this player."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from deathzap_tui.headless.describe import side_label


class RequestScreen(ModalScreen[bool]):
    """The opponent asks to undo/redo: y agrees, n declines."""

    BINDINGS: ClassVar[list[Any]] = [
        Binding("y", "answer(True)", "Agree"),
        Binding("n,escape", "answer(False)", "Decline"),
    ]

    def __init__(self, request: Mapping[str, str]) -> None:
        super().__init__()
        self.request = dict(request)

    def compose(self) -> ComposeResult:
        by, kind = self.request["by"], self.request["kind"]
        what = "take back the last thing recorded" if kind == "undo" else \
            "bring back what was undone"
        with Vertical():
            yield Static(Text(f"{side_label(by)} asks to {kind}", style="bold"))
            yield Static(f"They want to {what}. Agree?  y = yes, n = no")

    def action_answer(self, accept: bool) -> None:
        self.dismiss(accept)

"""Play by turn: "since you last looked" on opening, and "this save is busy"."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from deathzap_tui.app.common.text import clean


class SinceScreen(ModalScreen[None]):
    """What happened since this player last looked, and whose turn it is, over the
    battle screen; Enter or Esc closes it."""

    BINDINGS: ClassVar[list[Any]] = [
        Binding("enter,escape", "close", "Close"),
    ]

    def __init__(self, title: str, lines: list[str]) -> None:
        super().__init__()
        self.page_title = title
        # playbyturn.summary ends with "Now: <whose turn>"
        self.turn = lines[-1] if lines and lines[-1].startswith("Now: ") else ""
        self.lines = lines[:-1] if self.turn else list(lines)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(clean(self.page_title, oneline=True), style="bold"),
                         id="since-title")
            with VerticalScroll(id="since-body"):
                yield Static(Text("\n".join(clean(line) for line in self.lines)),
                             id="since-text")
            if self.turn:
                yield Static(Text(clean(self.turn, oneline=True), style="bold reverse"),
                             id="since-turn")
            yield Static("Enter or Esc: to the board", classes="hint")

    def on_mount(self) -> None:
        self.query_one("#since-body", VerticalScroll).scroll_end(animate=False)

    def action_close(self) -> None:
        self.dismiss(None)


class LockedScreen(ModalScreen[bool]):
    """Another process writes this save: say who, offer to watch it read only."""

    BINDINGS: ClassVar[list[Any]] = [
        Binding("y,w", "answer(True)", "Watch read only"),
        Binding("n,escape", "answer(False)", "Back"),
    ]

    def __init__(self, message: str) -> None:
        super().__init__()
        self.message = message

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text("This save is in use", style="bold"))
            yield Static(Text(clean(self.message)), id="locked-message")
            yield Static("Watch it read only?  y = watch, n = back")

    def action_answer(self, watch: bool) -> None:
        self.dismiss(watch)

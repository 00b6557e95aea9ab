"""Small dialogs over a screen: a question answered by one key, one line of text,
one of a list. Styles in ``common.tcss``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from deathzap_tui.app.common.inputs import SteadyInput
from deathzap_tui.app.common.text import clean


class Dialog(ModalScreen[str | None]):
    """A small dialog answering a string (``None``: cancelled)."""


class AskScreen(Dialog):
    """A question answered by one key; Esc is the last (cancelling) answer."""

    def __init__(self, title: str, message: str,
                 choices: list[tuple[str, str, str]]) -> None:
        """``choices``: (key, value, label); escape answers ``None``."""
        super().__init__()
        self.title_text, self.message = title, message
        self.choices = choices

    def compose(self) -> ComposeResult:
        keys = "   ".join(f"{key} = {label}" for key, _value, label in self.choices)
        with Vertical():
            yield Static(Text(self.title_text, style="bold"))
            yield Static(Text(clean(self.message)), id="ask-message")
            yield Static(Text(f"{keys}   esc = back"), classes="hint")

    def on_key(self, event: Any) -> None:
        for key, value, _label in self.choices:
            if event.key == key:
                event.stop()
                self.dismiss(value)
                return
        if event.key == "escape":
            event.stop()
            self.dismiss(None)


class PromptScreen(Dialog):
    """One line of text: Enter takes it (unless ``check`` says what is wrong with
    it: shown in the prompt, which stays), Esc cancels."""

    BINDINGS: ClassVar[list[Any]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, value: str = "", hint: str = "",
                 check: Callable[[str], str | None] | None = None) -> None:
        """``check``: why a text is refused, or ``None`` if it is taken."""
        super().__init__()
        self.title_text, self.value, self.hint = title, value, hint
        self.check = check

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.title_text, style="bold"))
            yield SteadyInput(self.value, id="prompt-input", compact=True)
            yield Static(id="prompt-error", classes="field-msg")
            yield Static(Text(f"{self.hint}  Enter = ok, Esc = cancel".strip()),
                         classes="hint")

    def on_mount(self) -> None:
        self.query_one("#prompt-error", Static).display = False

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        why = self.check(event.value) if self.check is not None else None
        if why is None:
            self.dismiss(event.value)
            return
        error = self.query_one("#prompt-error", Static)
        error.update(Text(f"✗ {clean(why)}", style="bold red"))
        error.display = True

    def action_cancel(self) -> None:
        self.dismiss(None)


class PickScreen(Dialog):
    """One of a list: Enter takes the highlighted one, Esc cancels."""

    BINDINGS: ClassVar[list[Any]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, choices: list[tuple[str, str]]) -> None:
        """``choices``: (value, label)."""
        super().__init__()
        self.title_text, self.choices = title, choices

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.title_text, style="bold"))
            yield OptionList(*(Option(Text(clean(label, oneline=True)), id=value)
                               for value, label in self.choices), compact=True)
            yield Static(Text("Enter = open, Esc = cancel"), classes="hint")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)

"""The "pass the terminal" cover: one side's secret lines and secret decision.

On a shared terminal (hot-seat) a side's hand is never on the battle screen. This
screen first shows only a cover — "Pass the terminal to RED" — and reveals that
side's private lines and its options (e.g. interrupt with a card, or pass) after
Enter. Esc hides them again (back to the cover); Esc on the cover goes back to the
board with nothing decided. Choosing an option dismisses the screen with that
:class:`~deathzap_tui.rules.ruleset.IntentOption`; the battle screen plays it
through the usual intent path (begin/commit, or the wizard if it asks anything).

The secret text is put on screen only while revealed and dropped when hidden, so a
covered screen holds none of it. A terminal that plays one side only opens this
screen already revealed (``covered=False``): Esc then goes straight back.

With ``switch=True`` (looking at hands outside a secret decision) Tab passes the
cover to the other side.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Middle, Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from deathzap_tui.app.battle.hand import SIDE_STYLE, HandWidget
from deathzap_tui.app.common.keybar import KeyBar
from deathzap_tui.app.common.text import clean
from deathzap_tui.headless.describe import side_label
from deathzap_tui.rules.ruleset import IntentOption, other_side


def side_word(side: str) -> str:
    """"Red" / "Black" (as in "only Red can see the screen")."""
    return side_label(side).capitalize()


def cover_text(side: str, deciding: bool) -> Text:
    out = Text(justify="center")
    out.append("Pass the terminal to ", style="bold")
    out.append(side_label(side), style=SIDE_STYLE.get(side, "bold"))
    out.append("\n\n")
    out.append(f"Press Enter when only {side_word(side)} can see the screen.\n",
               style="bold")
    out.append("\n")
    if deciding:
        out.append(f"{side_word(side)} has a secret decision to make.\n")
    out.append("Esc: back to the board", style="dim")
    return out


class CoverScreen(Screen[IntentOption | None]):
    AUTO_FOCUS = ""
    BINDINGS: ClassVar[list[Any]] = [
        Binding("enter", "reveal", "Show (only you can see)"),
        Binding("escape", "hide", "Hide"),
        Binding("tab", "switch", "Other side", priority=True),
        *[Binding(str(i), f"pick({i})", show=False) for i in range(1, 10)],
    ]

    def __init__(self, side: str, lines: Sequence[str], options: Sequence[IntentOption] = (),
                 *, prompt: str = "", covered: bool = True,
                 switch: bool = False,
                 lines_for: Callable[[str], Sequence[str]] | None = None,
                 names: Mapping[str, str] | None = None) -> None:
        super().__init__()
        self.side = side
        self._lines = tuple(lines)
        self.options = list(options)
        self.prompt = clean(prompt, oneline=True)
        self.covered = covered
        self.can_cover = covered
        self.switch = switch and not self.options
        self.lines_for = lines_for
        self.names = dict(names or {})

    # --- layout ---------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="cover-title", classes="screen-title")
        with Middle(id="cover-box"), Center():
            yield Static(id="cover-text")
        with Vertical(id="cover-hand-box"):
            yield Static(id="cover-prompt")
            yield HandWidget(id="cover-hand")
            yield Static(id="cover-ask")
            yield OptionList(id="cover-choices")
            yield Static(id="cover-hint", classes="hint")
        yield KeyBar()

    def on_mount(self) -> None:
        self._redraw()

    def _redraw(self) -> None:
        side = self.side
        revealed = not self.covered
        self.set_class(revealed, "-revealed")
        name = clean(self.names.get(side, ""), oneline=True)
        title = f"{side_label(side)}" + (f" ({name})" if name else "")
        self.query_one("#cover-title", Static).update(
            Text(f"{title} — secret" if revealed else "Hidden information"))
        hand = self.query_one("#cover-hand", HandWidget)
        choices = self.query_one("#cover-choices", OptionList)
        ask = self.query_one("#cover-ask", Static)
        hint = self.query_one("#cover-hint", Static)
        if not revealed:
            # Nothing secret stays in the screen's widgets while covered.
            self.query_one("#cover-text", Static).update(cover_text(side, bool(self.options)))
            hand.clear()
            choices.clear_options()
            choices.disabled = True
            ask.update("")
            self.query_one("#cover-prompt", Static).update("")
            hint.update("")
            self.set_focus(None)
        else:
            self.query_one("#cover-text", Static).update("")
            self.query_one("#cover-prompt", Static).update(Text(self.prompt, style="bold"))
            hand.show(side, self._lines)
            choices.clear_options()
            choices.disabled = False
            if self.options:
                ask.update(Text("Decide (only what the rules allow now is offered):",
                                style="bold"))
                choices.add_options([Option(Text(f"{i}  {clean(o.label, oneline=True)}"
                                                 if i < 10 else clean(o.label, oneline=True)))
                                     for i, o in enumerate(self.options, 1)])
                choices.highlighted = 0
                choices.display = True
                choices.focus()
            else:
                ask.update(Text("Nothing to decide now.", style="dim"))
                choices.display = False
            hint.update(Text("Esc hides the hand" + (" (back to the cover)" if self.can_cover
                                                    else "")))
        self.refresh_bindings()

    # --- keys -----------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "reveal":
            return self.covered
        if action == "switch":
            return self.switch
        if action == "pick":
            return not self.covered and bool(self.options)
        return True

    def action_reveal(self) -> None:
        if self.covered:
            self.covered = False
            self._redraw()

    def action_hide(self) -> None:
        if self.covered or not self.can_cover:
            self.dismiss(None)
            return
        self.covered = True
        self._redraw()

    def action_switch(self) -> None:
        if not self.switch or self.lines_for is None:
            return
        self.side = other_side(self.side)
        self._lines = tuple(self.lines_for(self.side))
        self.covered = self.can_cover
        self._redraw()

    def action_pick(self, n: int) -> None:
        self._choose(n - 1)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._choose(event.option_index)

    def _choose(self, index: int) -> None:
        if not self.covered and 0 <= index < len(self.options):
            self.dismiss(self.options[index])

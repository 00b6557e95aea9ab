"""The current ruleset's rules in the app's own words, searchable."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Input, Static

from deathzap_tui.app.common.inputs import SteadyInput
from deathzap_tui.app.common.keybar import KeyBar
from deathzap_tui.app.common.text import clean
from deathzap_tui.rules.ruleset import Ruleset


def render_sections(sections: list[tuple[str, str]], query: str) -> Text:
    q = query.strip().lower()
    out = Text()
    shown = 0
    for title, body in sections:
        title, body = clean(title, oneline=True), clean(body)
        if q and q not in title.lower() and q not in body.lower():
            continue
        shown += 1
        block = Text()
        block.append(title + "\n", style="bold underline")
        block.append(body.strip() + "\n\n")
        if q:
            block.highlight_words([q], style="reverse", case_sensitive=False)
        out.append_text(block)
    if not shown:
        out.append(f"Nothing matches “{clean(query, oneline=True)}”.", style="italic")
    return out


class HelpScreen(Screen[None]):
    BINDINGS: ClassVar[list[Any]] = [Binding("escape", "app.pop_screen", "Close help")]

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__()
        self.ruleset = ruleset
        try:
            self.sections = ruleset.help_sections()
        except (ImportError, AttributeError) as exc:  # the ruleset has no help yet
            self.sections = [("No help", f"This ruleset has no help text ({exc}).")]

    def compose(self) -> ComposeResult:
        yield Static(Text(f"Help — {clean(self.ruleset.title, oneline=True)}"),
                     classes="screen-title")
        yield SteadyInput(placeholder="search the rules (e.g. morale, strike, joker)",
                    id="help-search")
        with VerticalScroll(id="help-body"):
            yield Static(render_sections(self.sections, ""), id="help-text")
        yield KeyBar()

    def on_input_changed(self, event: Input.Changed) -> None:
        self.query_one("#help-text", Static).update(render_sections(self.sections, event.value))
        self.query_one("#help-body", VerticalScroll).scroll_home(animate=False)


EARLIER = "… earlier lines: press e"
"""The first line of a page that shows only its last lines (``earlier`` given)."""


class TextScreen(Screen[None]):
    """Plain lines in a scrolling page (the whole game log).

    ``earlier``: the page shows only the last of its lines (a long game's last events,
    whose narration is at hand) and ``e`` asks this for all of them (issue 21: the
    whole narrative of a resumed game is narrated by replaying it, only on demand)."""

    BINDINGS: ClassVar[list[Any]] = [Binding("escape", "app.pop_screen", "Close"),
                                     Binding("e", "earlier", "Earlier")]

    def __init__(self, title: str, lines: list[str], *, bottom: bool = False,
                 earlier: Callable[[], list[str]] | None = None) -> None:
        super().__init__()
        self.page_title, self.lines, self.bottom = title, lines, bottom
        self.earlier = earlier

    def compose(self) -> ComposeResult:
        yield Static(Text(clean(self.page_title, oneline=True)), classes="screen-title")
        with VerticalScroll(id="text-body"):
            yield Static(self._text(), id="text-lines")
        yield KeyBar()

    def _text(self) -> Text:
        lines = [EARLIER] * (self.earlier is not None) + [clean(x) for x in self.lines]
        return Text("\n".join(lines) or "(empty)")

    def on_mount(self) -> None:
        if self.bottom:
            self.query_one("#text-body", VerticalScroll).scroll_end(animate=False)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.earlier is not None if action == "earlier" else True

    def action_earlier(self) -> None:
        """All the lines, the view kept on those it showed."""
        if self.earlier is None:
            return
        self.lines, self.earlier = self.earlier(), None
        body = self.query_one("#text-body", VerticalScroll)
        before = body.virtual_size.height - body.scroll_y
        self.query_one("#text-lines", Static).update(self._text())
        self.refresh_bindings()
        self.call_after_refresh(
            lambda: body.scroll_to(y=body.virtual_size.height - before, animate=False))

"""A one-line footer showing every active key binding, clickable.

Textual's ``Footer`` recomposes (mounts a widget per key) whenever the bindings
change — on every focus change — which cost most of a key press here. This one
renders a single line of text and repaints only when what it shows changes.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text
from textual import events
from textual.screen import Screen
from textual.widget import Widget


class KeyBar(Widget):
    DEFAULT_CSS = """
    KeyBar {
        dock: bottom;
        height: 1;
        background: $footer-background;
        color: $footer-foreground;
    }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._text = Text()
        self._spans: list[tuple[int, int, str, object]] = []
        self._shown: tuple = ()

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._changed)
        self.update_keys()

    def _changed(self, screen: object) -> None:
        self.update_keys()

    def update_keys(self) -> None:
        if not self.is_attached:
            return
        items = []
        seen: set[str] = set()
        for node, binding, enabled, _tip in self.screen.active_bindings.values():
            if not binding.show or binding.action in seen:
                continue
            seen.add(binding.action)
            items.append((self.app.get_key_display(binding), binding.description,
                          binding.action, enabled, node))
        palette = self.app.ENABLE_COMMAND_PALETTE
        shown = (tuple(i[:4] for i in items), palette)
        if shown == self._shown:
            return
        self._shown = shown
        text = Text(no_wrap=True, overflow="ellipsis")
        spans = []
        for key, description, action, enabled, node in items:
            start = text.cell_len
            text.append(f" {key} ", style="bold yellow" if enabled else "dim")
            text.append(f"{description} ", style="" if enabled else "dim")
            spans.append((start, text.cell_len, action if enabled else "", node))
        if palette:
            start = text.cell_len
            text.append(" ^p ", style="bold yellow")
            text.append("palette ")
            spans.append((start, text.cell_len, "command_palette", self.app))
        self._text, self._spans = text, spans
        self.refresh()

    def render(self) -> Text:
        return self._text

    async def on_click(self, event: events.Click) -> None:
        for start, end, action, node in self._spans:
            if action and start <= event.x < end:
                await self.app.run_action(action, node)  # type: ignore[arg-type]
                return


def sync_key_bars(screen: Screen, actions: Iterable[str], labels: tuple[str, ...] = ()) -> None:
    """Refresh ``screen``'s bindings and key bars, only when whether each of
    ``actions`` applies (its ``check_action``), or one of the ``labels`` its keys
    show, has changed since the last call."""
    state = (tuple(screen.check_action(a, ()) for a in actions), labels)
    if state != getattr(screen, "_bindings_state", None):
        screen._bindings_state = state  # type: ignore[attr-defined]
        screen.refresh_bindings()
        for bar in screen.query(KeyBar):  # in this frame, not the next
            bar.update_keys()

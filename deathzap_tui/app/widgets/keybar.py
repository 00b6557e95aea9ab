"""A one-line footer showing the active key bindings that fit, clickable.

Textual's ``Footer`` recomposes (mounts a widget per key) whenever the bindings
change — on every focus change — which cost most of a key press here. This one
renders a single line of text and repaints only when what it shows changes.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.cells import cell_len
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
        self._items: list[tuple[str, str, str, bool, object]] = []
        """(key, description, action or "" when disabled, enabled, node)."""
        self._text = Text()
        """Every key, whatever the width (the bar shows those that fit)."""
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
        self._items = [(key, description, action if enabled else "", enabled, node)
                       for key, description, action, enabled, node in items]
        if palette:
            self._items.append(("^p", "palette", "command_palette", True, self.app))
        self._text = _compose(self._items)[0]
        self.refresh()

    def render(self) -> Text:
        """The keys that fit the bar's width, each with its word (issue 22: never a key
        cut from it). When they do not all fit, the last ones give way, whether they
        apply now or not, so that a key keeps its place from one moment to the next:
        the app's own keys (quit, help, the palette) first, then the screen's last."""
        width = self.size.width or 10**6
        items = list(self._items)
        while items and sum(cell_len(f" {k} {d} ") for k, d, *_ in items) > width:
            items.pop()
        text, self._spans = _compose(items)
        return text

    async def on_click(self, event: events.Click) -> None:
        for start, end, action, node in self._spans:
            if action and start <= event.x < end:
                await self.app.run_action(action, node)  # type: ignore[arg-type]
                return


def _compose(items: list[tuple[str, str, str, bool, object]]
             ) -> tuple[Text, list[tuple[int, int, str, object]]]:
    """The bar's line for ``items`` and where each item is (for clicks)."""
    text = Text(no_wrap=True, overflow="crop")
    spans = []
    for key, description, action, enabled, node in items:
        start = text.cell_len
        text.append(f" {key} ", style="bold yellow" if enabled else "dim")
        text.append(f"{description} ", style="" if enabled else "dim")
        spans.append((start, text.cell_len, action, node))
    return text, spans


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

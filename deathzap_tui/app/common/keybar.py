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

Item = tuple[str, str, str, bool, object, str]
"""A key of the bar: (key, description, action or "" when disabled, enabled, node,
its binding's action)."""

PINNED = frozenset({"quit"})
"""The actions whose keys never give way to a narrow bar (issue 22: it ended in
``^q`` with no word)."""


class KeyBar(Widget):

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._items: list[Item] = []
        self._text = Text()
        """Every key, whatever the width (the bar shows those that fit)."""
        self._spans: list[tuple[int, int, str, object]] = []
        self._shown: tuple = ()
        self.reads = 0
        """How many times it has read its screen's bindings (:meth:`update_keys`)."""

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._changed)
        self.update_keys()

    def _changed(self, screen: object) -> None:
        self.update_keys()

    def update_keys(self) -> None:
        if not self.is_attached:
            return
        self.reads += 1
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
        self._items = [(key, description, action if enabled else "", enabled, node, action)
                       for key, description, action, enabled, node in items]
        if palette:
            self._items.append(("^p", "palette", "command_palette", True, self.app,
                                "command_palette"))
        self._text = _compose(self._items)[0]
        self.refresh()

    def render(self) -> Text:
        """The keys that fit the bar's width, each with its word (issue 22: never a key
        cut from it). When they do not all fit, the keys close up (one space between
        them, as Textual's compact footer), then the last ones give way, whether they
        apply now or not, so that a key keeps its place from one moment to the next:
        the app's own keys (help, the palette) first, then the screen's last. Quit
        never gives way (:data:`PINNED`): it ends the bar, with its word."""
        width = self.size.width or 10**6
        items = list(self._items)
        compact = _cells(items, compact=False) > width
        while _cells(items, compact) > width:
            movable = [n for n, item in enumerate(items) if item[5] not in PINNED]
            if not movable:
                break
            del items[movable[-1]]
        text, self._spans = _compose(items, compact)
        return text

    async def on_click(self, event: events.Click) -> None:
        for start, end, action, node in self._spans:
            if action and start <= event.x < end:
                await self.app.run_action(action, node)  # type: ignore[arg-type]
                return


def _cells(items: list[Item], compact: bool) -> int:
    """The cells :func:`_compose` takes for ``items``."""
    pad = 1 if compact else 2
    return sum(cell_len(f"{k} {d}") + pad for k, d, *_ in items) + (1 if compact and items else 0)


def _compose(items: list[Item], compact: bool = False
             ) -> tuple[Text, list[tuple[int, int, str, object]]]:
    """The bar's line for ``items`` and where each item is (for clicks): each key
    and its word padded by a space each side, or ``compact``, one space between."""
    text = Text(no_wrap=True, overflow="crop")
    spans = []
    for n, (key, description, action, enabled, node, _binding) in enumerate(items):
        start = text.cell_len
        lead = "" if compact and n else " "
        text.append(f"{lead}{key} ", style="bold yellow" if enabled else "dim")
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
        bars = [(bar, bar.reads) for bar in screen.query(KeyBar)]
        screen.refresh_bindings()  # a running screen's bars follow it at once (_changed)
        for bar, reads in bars:
            if bar.reads == reads:  # not listening yet: in this frame, not the next
                bar.update_keys()

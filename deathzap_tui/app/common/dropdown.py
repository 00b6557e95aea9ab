"""A compact Select that is one widget until it is opened (issue 21).

Textual's ``Select`` is six widgets: the Select, a ``SelectCurrent`` row holding three
``Static`` (the label and two arrows) and a ``SelectOverlay`` option list with every
option, mounted, styled and laid out with the form though most dropdowns are never
opened. The start screen's eight made half of its widgets and most of the time to its
first frame. :class:`Dropdown` is the same Select (its keys, messages, value and
options API, its CSS) drawing its row itself until it is first opened; then its row
(:class:`DropdownCurrent`, one widget where Textual's is four) and the option list are
mounted, and the Select's own code runs on them.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.console import RenderableType
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.content import Content
from textual.css.query import NoMatches
from textual.geometry import Size
from textual.strip import Strip
from textual.style import Style as VisualStyle
from textual.widget import Widget
from textual.widgets import Select
from textual.widgets._select import NoSelection, SelectCurrent, SelectOverlay

from deathzap_tui.app.frames import SteadySize


class DropdownCurrent(SteadySize, SelectCurrent):
    """Textual's ``SelectCurrent`` drawn as one widget: the label (or the placeholder)
    cut to its first wrapped line, then the arrow, in the colours its ``Static``
    children had (a type selector ``SelectCurrent`` still matches it); one line, laid
    out once per change (:class:`~deathzap_tui.app.frames.SteadySize`)."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "dropdown-current--label", "dropdown-current--arrow"}
    DEFAULT_CSS = """
    DropdownCurrent {
        & > .dropdown-current--label { color: $foreground 50%; }
        &.-has-value > .dropdown-current--label { color: $foreground; }
        & > .dropdown-current--arrow { color: $foreground 50%; }
    }
    """

    def compose(self) -> Any:
        return ()

    def update(self, label: RenderableType | NoSelection) -> None:
        self.label = label
        self.has_value = not isinstance(label, NoSelection)
        self.refresh()

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return 1

    def render_line(self, y: int) -> Strip:
        # The segments the three Statics made (the padding after the arrow is the
        # row's own, drawn by Textual).
        expanded = isinstance(self.parent, Select) and self.parent.expanded
        return row_line(self, "dropdown-current", self.placeholder, self.label, y,
                        self.size.width, "▲" if expanded else "▼")


def row_line(widget: Widget, name: str, placeholder: str,
             label: RenderableType | NoSelection, y: int, width: int, arrow: str) -> Strip:
    """A dropdown's row, ``width`` wide: the label (or the placeholder) cut to its first
    wrapped line in its colour (component class ``NAME--label``), the rest of the row
    and the space before the arrow in the background only, then the arrow
    (``NAME--arrow``)."""
    room = max(0, width - 2)  # the arrow's column and the space before it
    shown = placeholder if isinstance(label, NoSelection) else label
    text = shown if isinstance(shown, Text) else Text(str(shown))
    lines = Content.from_rich_text(text).wrap(room) if room and y == 0 else []
    label_style = widget.get_component_rich_style(f"{name}--label")
    blank = Style(bgcolor=label_style.bgcolor)
    segments = lines[0].render_segments(VisualStyle.from_rich_style(label_style)) \
        if lines else []
    used = sum(segment.cell_length for segment in segments)
    if room > used:
        segments.append(Segment(" " * (room - used), blank))
    if y == 0:
        segments.append(Segment(" ", blank))  # the arrow's padding
        segments.append(Segment(arrow, widget.get_component_rich_style(f"{name}--arrow")))
    return Strip(segments).adjust_cell_length(width, blank)


class Dropdown(SteadySize, Select[Any]):
    """Textual's compact Select drawing its own row, in the colours of Textual's, until
    it is first opened: then its row (:class:`DropdownCurrent`) and the option list
    (``SelectOverlay``) are mounted; one line, laid out once per change
    (:class:`~deathzap_tui.app.frames.SteadySize`)."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"dropdown--label", "dropdown--arrow"}
    DEFAULT_CSS = """
    Dropdown {
        & > .dropdown--label, & > .dropdown--arrow { background: $surface; }
        &:focus > .dropdown--label, &:focus > .dropdown--arrow {
            background-tint: $foreground 5%;
        }
        & > .dropdown--label { color: $foreground 50%; }
        &.-has-value > .dropdown--label { color: $foreground; }
        & > .dropdown--arrow { color: $foreground 50%; }
    }
    """
    """The colours of Textual's ``SelectCurrent`` (its background too: the dropdown's
    own stays clear, as a Select's, under the row mounted when it opens)."""
    _label: RenderableType | NoSelection = NoSelection()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # The row shows the first value from the start, its label's colour class set
        # before the dropdown is styled (as it is mounted): set once mounted (as Select
        # does), or when composed (already styled then), it styled each dropdown twice.
        super().__init__(*args, **kwargs)
        first = self._value if self._value != self.NULL or self._allow_blank \
            else self._options[0][1]
        self._show(first)

    def compose(self) -> Any:
        return ()

    def _show(self, value: Any) -> None:
        """Draw ``value``'s label on the dropdown's own row."""
        self._label = next((p for p, v in self._options if v == value), self.NULL) \
            if value != self.NULL else self.NULL
        self.set_class(not isinstance(self._label, NoSelection), "-has-value",
                       update=self.is_attached)  # (not yet: styled as it is mounted)
        if self.is_mounted:
            self.refresh()

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return 1

    def render_line(self, y: int) -> Strip:
        # The row Textual's SelectCurrent draws, its padding after the arrow included
        # (hidden once the dropdown has opened: its DropdownCurrent covers it).
        width = self.size.width
        line = row_line(self, "dropdown", self.prompt, self._label, y, max(0, width - 1), "▼")
        bgcolor = self.get_component_rich_style("dropdown--arrow").bgcolor
        return line.adjust_cell_length(width, Style(bgcolor=bgcolor))

    def _on_click(self, event: events.Click) -> None:
        event.stop()  # (on the row once opened, which toggles the Select as Textual's)
        self.expanded = not self.expanded

    def _overlay(self) -> SelectOverlay:
        """The option list, mounted with the row (and the options) the first time it
        is needed."""
        try:
            return self.query_one(SelectOverlay)
        except NoMatches:
            current = DropdownCurrent(self.prompt)
            current.update(self._label)
            overlay = SelectOverlay(type_to_search=self._type_to_search)
            overlay.compact = self.compact  # bound to it in Select.compose
            self.mount(current, overlay)
            super()._setup_options_renderables()
            if not isinstance(self.value, NoSelection):
                overlay.highlighted = next(
                    i for i, (_p, v) in enumerate(self._options) if v == self.value)
            return overlay

    def _has_overlay(self) -> bool:
        return bool(self.query(SelectOverlay))

    def _setup_options_renderables(self) -> None:
        if self._has_overlay():
            super()._setup_options_renderables()

    def _watch_value(self, value: Any) -> None:
        if not self._has_overlay():
            self._value = value
            self._show(value)
            self.post_message(self.Changed(self, value))
            return
        super()._watch_value(value)

    def _watch_expanded(self, expanded: bool) -> None:
        if expanded:
            self._overlay()
        super()._watch_expanded(expanded)
        for current in self.query(DropdownCurrent):
            current.refresh()  # its arrow

    def action_show_overlay(self) -> None:
        self._overlay()
        super().action_show_overlay()

    def _watch_prompt(self, prompt: str) -> None:
        if self._has_overlay():
            super()._watch_prompt(prompt)
        elif self.is_mounted:
            self.refresh()

"""A compact Select that costs one widget until it is opened (issue 21).

Textual's ``Select`` is six widgets: the Select, a ``SelectCurrent`` row holding three
``Static`` (the label and two arrows) and a ``SelectOverlay`` option list with every
option, mounted, styled and laid out with the form though most dropdowns are never
opened. The start screen's eight made half of its widgets and most of the time to its
first frame. :class:`Dropdown` is the same Select (its keys, messages, value and
options API, its CSS) with the row drawn by one widget (:class:`DropdownCurrent`) and
the option list mounted the first time the dropdown opens.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.console import RenderableType
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.content import Content
from textual.css.query import NoMatches
from textual.geometry import Size
from textual.strip import Strip
from textual.style import Style as VisualStyle
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
        # The segments the three Statics made: the label's first line in its colour,
        # the rest of its width and the space before the arrow in the background only.
        width = self.size.width
        room = max(0, width - 2)  # the arrow's column and the space before it
        label = self.placeholder if isinstance(self.label, NoSelection) else self.label
        text = label if isinstance(label, Text) else Text(str(label))
        lines = Content.from_rich_text(text).wrap(room) if room and y == 0 else []
        label_style = self.get_component_rich_style("dropdown-current--label")
        blank = Style(bgcolor=label_style.bgcolor)
        segments = lines[0].render_segments(VisualStyle.from_rich_style(label_style)) \
            if lines else []
        used = sum(segment.cell_length for segment in segments)
        if room > used:
            segments.append(Segment(" " * (room - used), blank))
        if y == 0:
            segments.append(Segment(" ", blank))  # the arrow's padding
            expanded = isinstance(self.parent, Select) and self.parent.expanded
            segments.append(Segment("▲" if expanded else "▼",
                                    self.get_component_rich_style("dropdown-current--arrow")))
        return Strip(segments).adjust_cell_length(width, blank)


class Dropdown(Select[Any]):
    """Textual's Select with :class:`DropdownCurrent` for its row and the option list
    (``SelectOverlay``) mounted when the dropdown first opens."""

    def compose(self) -> Any:
        # The row shows the first value from the start: set once mounted (as Select
        # does), its label's colour class would style the row a second time.
        current = DropdownCurrent(self.prompt)
        first = self._value if self._value != self.NULL or self._allow_blank \
            else self._options[0][1]
        if first != self.NULL:
            current.update(next((p for p, v in self._options if v == first), self.NULL))
        yield current

    def _overlay(self) -> SelectOverlay:
        """The option list, mounted (with the options) the first time it is needed."""
        try:
            return self.query_one(SelectOverlay)
        except NoMatches:
            overlay = SelectOverlay(type_to_search=self._type_to_search)
            overlay.compact = self.compact  # bound to it in Select.compose
            self.mount(overlay)
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
            current = self.query_one(DropdownCurrent)
            prompt = next((p for p, v in self._options if v == value), self.NULL)
            current.update(self.NULL if value == self.NULL else prompt)
            self.post_message(self.Changed(self, value))
            return
        super()._watch_value(value)

    def _watch_expanded(self, expanded: bool) -> None:
        if expanded:
            self._overlay()
        super()._watch_expanded(expanded)
        self.query_one(DropdownCurrent).refresh()  # its arrow

    def action_show_overlay(self) -> None:
        self._overlay()
        super().action_show_overlay()

    def _watch_prompt(self, prompt: str) -> None:
        if self._has_overlay():
            super()._watch_prompt(prompt)
        elif self.is_mounted:
            current = self.query_one(DropdownCurrent)
            current.placeholder = prompt
            current.refresh()

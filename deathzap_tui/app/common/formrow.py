"""A form's labelled row that draws its own label (issue 21).

A row of a form was a ``Horizontal`` holding a ``Label`` and the field: three widgets
to mount, style and lay out for one line, and the start screen has thirteen such
lines. :class:`FormRow` is the container alone: it draws the label in the columns
left of its one field (the field's left margin), as a ``Label`` that wide showed it:
the label's first line, cut to the column.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.containers import Horizontal
from textual.content import Content
from textual.style import Style
from textual.widget import Widget

from deathzap_tui.app.frames import SteadySize


class FormRow(SteadySize, Horizontal):
    """A ``Horizontal`` row (class ``row``) of one field, drawing its label to the
    left of it, laid out once per change (:class:`~deathzap_tui.app.frames.SteadySize`).
    The field's left margin is the label's column (``FormRow > .row-field {
    margin-left: 26 }``); the label's style is the component class
    ``form-row--label`` (a sheet lights it while the row holds the focus:
    ``.row:focus-within > .form-row--label``)."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"form-row--label"}

    def __init__(self, label: str | Text, field: Widget, *, classes: str = "row") -> None:
        super().__init__(field, classes=classes)
        self.field = field
        self.label = Text(label) if isinstance(label, str) else label

    def render(self) -> Content:
        column = self.field.styles.margin.left
        lines = Content.from_rich_text(self.label).wrap(column) if column else []
        if not lines:
            return Content()
        style = self.get_component_rich_style("form-row--label", partial=True)
        return lines[0].stylize_before(Style.from_rich_style(style))

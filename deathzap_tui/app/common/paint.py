"""Updating a Static without a screen-wide layout pass when its size won't change.

``Static.update`` asks for a layout of the whole screen by default, which costs
more than everything else in a key press. Here the new content's height is
measured first and a layout is requested only if it differs from last time; and
content the widget shows already is not drawn again (a screen redrawn whole for one
change, as a joined terminal's wizard is at every push, changes a few of its lines).
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.visual import visualize
from textual.widgets import Static


def same(shown: Any, content: Any) -> bool:
    """``content`` would show exactly what ``shown`` does (a string, or a Text with
    the same text, spans and style: rich's ``Text ==`` leaves out the style)."""
    if isinstance(content, str):
        return isinstance(shown, str) and shown == content
    if isinstance(content, Text) and isinstance(shown, Text):
        return (shown.plain, shown.spans, shown.style, shown.justify, shown.overflow,
                shown.no_wrap, shown.end, shown.tab_size) == \
            (content.plain, content.spans, content.style, content.justify,
             content.overflow, content.no_wrap, content.end, content.tab_size)
    return False


def repaint(widget: Static, content: Any, *, fixed: bool = False) -> None:
    """Update ``widget``; ``fixed``: its height is set in CSS, never lay out."""
    if widget.is_mounted and same(widget.content, content):
        return
    region = widget.content_region
    if fixed and widget.is_mounted:
        widget.update(content, layout=False)
        return
    if not widget.is_mounted:
        widget.update(content)
        return
    if region.width <= 0:
        # Not on screen (hidden, or not laid out yet): showing it lays it out anyway.
        widget._dz_height = None  # type: ignore[attr-defined]
        widget.update(content, layout=False)
        return
    height = visualize(widget, content, markup=False).get_height(widget.styles, region.width)
    changed = height != getattr(widget, "_dz_height", None)
    widget._dz_height = height  # type: ignore[attr-defined]
    widget.update(content, layout=changed)

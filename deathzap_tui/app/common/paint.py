"""Updating a Static without a screen-wide layout pass when its size won't change.

``Static.update`` asks for a layout of the whole screen by default, which costs
more than everything else in a key press. Here the new content's height is
measured first and a layout is requested only if it differs from last time.
"""

from __future__ import annotations

from typing import Any

from textual.visual import visualize
from textual.widgets import Static


def repaint(widget: Static, content: Any, *, fixed: bool = False) -> None:
    """Update ``widget``; ``fixed``: its height is set in CSS, never lay out."""
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

"""One key, one frame: where Textual (8.2) draws one key's changes in more than one
frame, and the overrides of its private methods that stop it.

**A layout and a full repaint.**
Textual (8.2) keeps two requests for its next frame on a screen: a layout (a widget
changed size, was shown or hidden) and a full repaint (``Screen.refresh()``, which
Textual itself calls whenever a screen is pushed or resumed). When both are pending
in the same tick, ``Screen._on_timer_update`` draws the layout as one frame and then
the whole screen again as a second: opening the wizard on ``a`` (the unit chooser)
wrote the screen twice, each time in full. Folding the repaint into the layout's frame
(the screen marked dirty before the layout, which then renders it in full) draws it
once. Guarded by ``tests/app/wizard/test_wizard_frames.py`` (``a`` opens the chooser in
one frame).

**A scroll view's scrollbars after every layout.** ``ScrollView._size_updated``
compares the virtual size the layout computes for it with the one the widget sets
itself (a Tree: its lines), which never agree, so every layout of the screen refreshes
its scrollbars; they ask to be drawn once the frame of that layout is out, and make a
second frame: in the force editor, every key that laid anything out (a field's text,
a message shown) drew the outline's scrollbar again. The scrollbars change only with
the widget's size, its container's, or its own virtual size (which its watcher
handles). Guarded by the editor cases of ``tests/app/wizard/test_wizard_frames.py``.

**A tree's focus.** Textual's ``Tree`` rebuilds its lines and lays the whole screen
out again on every style change, gaining or losing the focus among them (the outline,
Esc from a field): the layout costs a frame of its own besides the focus's repaint.
A focus change changes only the colours of its lines: drop their cached renderings
and repaint (:class:`SteadyTree`).

**A new size.** A layout that gives a widget a new size sets its virtual size, and
Textual lays the screen out again for that (``Widget._size_updated``): a second layout
and frame whenever a message or a hint appears, goes or changes its height, or a form
row is shown for the first time. For a widget that does not scroll (:class:`SteadySize`
mixed in, :class:`SteadyStatic`) the virtual size is only recorded: the layout that
sized it has placed everything already.

Issue 20 gathers the project's overrides of private Textual methods in one place:
these rely on ``_layout_required``, ``_repaint_required``, ``_dirty_widgets`` (the
state ``Screen._on_timer_update`` reads) and on ``_size_updated``'s contract.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from textual.geometry import Size
from textual.screen import Screen
from textual.widgets import Static, Tree

ResultT = TypeVar("ResultT")
NodeT = TypeVar("NodeT")


class OneFrameScreen(Screen[ResultT]):
    """A screen whose layout and full repaint, pending together, make one frame."""

    def _on_timer_update(self) -> None:
        # Private: Textual's per-frame update. Its layout pass renders the dirty
        # widgets; the screen among them is rendered in full, so the separate full
        # repaint that would follow it is not needed.
        if self._layout_required and self._repaint_required:
            self._repaint_required = False
            self._dirty_widgets.add(self)
        super()._on_timer_update()


if TYPE_CHECKING:
    from textual.scroll_view import ScrollView as _ScrollView
    from textual.widget import Widget as _Widget
else:
    _ScrollView = _Widget = object


class SteadyScrollbars(_ScrollView):
    """Mixed into a scroll view (first among its bases): its scrollbars are refreshed
    by a layout only when its size or its container's changed (see the module's
    docstring). A mixin, so that the widget's own component classes stay its own."""

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size,
                      layout: bool = True) -> bool:
        # Private: called by every layout of the screen with the layout's sizes.
        if size == self._size and container_size == self.container_size:
            return False
        return super()._size_updated(size, virtual_size, container_size, layout)


class SteadyTree(SteadyScrollbars, Tree[NodeT]):
    """A tree whose style changes (its focus) repaint it without a layout, and whose
    scrollbar a layout leaves alone (see the module's docstring)."""

    def notify_style_update(self) -> None:
        # Private: Tree's own calls Tree._invalidate (lines rebuilt, a layout of the
        # screen); Widget's, then the line cache (the colours) dropped and a repaint.
        super(Tree, self).notify_style_update()
        self._clear_line_cache()
        self.refresh()


class SteadySize(_Widget):
    """Mixed into a widget that never scrolls (first among its bases): its new size,
    from a layout, asks for no second layout (see the module's docstring)."""

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size,
                      layout: bool = True) -> bool:
        # Private: called by every layout of the screen; ``layout=False`` records the
        # virtual size without the refresh(layout=True) its reactive would ask for.
        return super()._size_updated(size, virtual_size, container_size, layout=False)


class SteadyStatic(SteadySize, Static):
    """Text that never scrolls, laid out once per change (:class:`SteadySize`)."""

"""No garbage collection while the app starts (issue 21).

Starting the app makes some 60,000 objects (modules, classes, widgets, styles) that
live as long as it does, and hardly any garbage: Python's collector ran about 130
times before the start screen's first frame (once over every object), found next to
nothing, and cost about a tenth of the instructions to that frame (80 M). A command
that opens the app :func:`pause`\\ s the collector before it imports the app; the
app's first frame, once drawn (``frames.HeldFrameScreen``), :func:`resume`\\ s it,
first moving every object alive then to the permanent generation (``gc.freeze``), so
that no later collection goes over the start-up's objects again (the few cycles of
garbage made while starting are never freed: a few hundred objects)."""

from __future__ import annotations

import gc


def pause() -> None:
    """Collect no garbage until :func:`resume` (the app's first frame)."""
    gc.disable()


def resume() -> None:
    """Collect garbage again, if :func:`pause` stopped it, the objects alive now kept
    out of every collection to come. (Nothing to do otherwise: an app run by the tests,
    in a process with garbage of its own to collect, never freezes it.)"""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()

"""Driving the force editor in tests (the editor's own tests, and the frame and key
tests that reach it from the wizard's folder)."""

from __future__ import annotations

import contextlib
import unicodedata
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any

from textual import events

from deathzap_tui.app.editor.app import EditorApp
from deathzap_tui.app.editor.editor import EditorScreen
from deathzap_tui.forcedoc import ForceDocument

SIZE = (120, 40)


def editor(app: Any) -> EditorScreen:
    return next(s for s in app.screen_stack if isinstance(s, EditorScreen))


@contextlib.asynccontextmanager
async def editing(path: Path, ruleset_id: str | None = None, *,
                  size: tuple[int, int] = SIZE) -> AsyncIterator[tuple[Any, EditorScreen]]:
    """The editor app on the force file at ``path``, started and settled: its pilot
    and the editor screen."""
    app = EditorApp(ForceDocument.open(path, ruleset_id))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        yield pilot, editor(app)


async def keys(pilot: Any, *pressed: str) -> None:
    for key in pressed:
        await pilot.press(key)
    await pilot.pause()


def demo(workdir: Path) -> Path:
    return workdir / "forces" / "demo-ashfall-legion.toml"


def burst(pilot: Any, keys: Iterable[str]) -> None:
    """Queue every key with the driver at once, as a fast typist's (or a pasted)
    burst reaches the app: nothing is read until all have arrived."""
    app = pilot.app
    for key in keys:
        char = key if len(key) == 1 else None
        name = {" ": "space"}.get(key, key)
        if char is not None and not char.isalnum():
            name = unicodedata.name(char).lower().replace(" ", "_")
        event = events.Key(name, char)
        event.set_sender(app)
        app._driver.send_message(event)

"""Issue 26: the editor once saved ``name = "Raider Sq"`` after ``Raider Squad`` was
typed. Keys typed faster than the app reads them, then ctrl+s at once, must save
every character: as a terminal delivers a burst (all keys queued before the first is
read), and key by key with no pause (Pilot's ``press``)."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from app_helpers import aiotest
from editor_helpers import burst, demo, editing

from deathzap_tui.app.common.dialogs import AskScreen

NAME = "Raider Squad"


def saved_name(path: Path) -> str:
    return str(tomllib.loads(path.read_text())["name"])


async def type_name_and_save(pilot: Any, screen: Any, *, at_once: bool) -> None:
    await screen.go_to("name")
    await pilot.pause()
    keys = [*NAME, "ctrl+s"]  # the field's text is selected: typing replaces it
    if at_once:
        burst(pilot, keys)
    else:
        await pilot.press(*keys)
    for _ in range(20):
        await pilot.pause()


@pytest.mark.parametrize("at_once", [True, False], ids=["burst", "key-by-key"])
@aiotest
async def test_fast_typing_then_save_keeps_every_character(
        at_once: bool, workdir: Path) -> None:
    path = demo(workdir)
    async with editing(path) as (pilot, screen):
        await type_name_and_save(pilot, screen, at_once=at_once)
        assert screen.doc.get("name") == NAME
    assert saved_name(path) == NAME


@aiotest
async def test_fast_typing_then_quit_asks_and_saves_every_character(workdir: Path) -> None:
    path = demo(workdir)
    async with editing(path) as (pilot, screen):
        await screen.go_to("name")
        await pilot.pause()
        burst(pilot, [*NAME, "ctrl+q"])
        for _ in range(20):
            await pilot.pause()
        assert isinstance(pilot.app.screen, AskScreen)  # the typing is a change
        await pilot.press("s")
        await pilot.pause()
    assert saved_name(path) == NAME

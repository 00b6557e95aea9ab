"""Issue 22, keys at the table: a backspace typed in a burst with the next character
(a fast typist, a paste) edits in the order typed, in a dice field and in the force
editor; `r` typed twice still rolls; a number question with a default takes Enter
in either dice mode; a wizard just begun shows no empty "Nothing asked yet." box."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app_helpers import aiotest
from editor_helpers import burst, demo, editing
from test_wizard_keys import ToyApp, loose
from textual.widgets import Input

from deathzap_tui.app.wizard.wizard import WizardScreen
from deathzap_tui.rules.steps import DiceRequest, Question


async def settle(pilot: Any) -> None:
    for _ in range(10):
        await pilot.pause()


def field(wiz: WizardScreen) -> Input:
    return wiz.query_one("#wiz-input", Input)


@aiotest
async def test_a_backspace_in_a_burst_edits_the_dice_field_in_order() -> None:
    app = ToyApp(loose(1))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("1")
        wiz = app.wizard
        assert isinstance(wiz.resolution.step, DiceRequest)
        burst(pilot, ["3", "4", "backspace", "5"])
        await settle(pilot)
        assert field(wiz).value == "35"
        burst(pilot, ["backspace", "backspace", "6", "left", "2", "enter"])
        await settle(pilot)
        assert [a.faces for a in wiz.resolution.answers] == [(2, 6)]


@aiotest
async def test_a_backspace_in_a_burst_edits_an_editor_field_in_order(workdir: Path) -> None:
    path = demo(workdir)
    async with editing(path) as (pilot, screen):
        await screen.go_to("name")
        await pilot.pause()
        burst(pilot, [*"Raidex", "backspace", "r", "s", "ctrl+s"])
        await settle(pilot)
        assert screen.doc.get("name") == "Raiders"


@aiotest
async def test_r_typed_twice_still_rolls() -> None:
    app = ToyApp(loose(1))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("1", "r", "r")
        wiz = app.wizard
        assert "✗" not in str(wiz.query_one("#wiz-feedback").render())
        await pilot.press("enter")
        assert [a.generated for a in wiz.resolution.answers] == [True]


@aiotest
async def test_enter_takes_a_number_questions_default_in_both_dice_modes() -> None:
    for mode in ("physical", "generated"):
        app = ToyApp(loose(1), dice_mode=mode)
        async with app.run_test(size=(80, 24)) as pilot:
            wiz = app.wizard
            await pilot.press("1", "ctrl+r", "2")  # the roll, then "no" leader near
            step = wiz.resolution.step
            assert isinstance(step, Question) and step.default == 6
            assert "Enter for 6" in field(wiz).placeholder
            assert "Enter for 6" in str(wiz.query_one("#wiz-feedback").render())
            await pilot.press("enter")
            assert wiz.resolution.answers[-1] == 6 and wiz.resolution.done, mode


@aiotest
async def test_a_wizard_just_begun_shows_no_empty_history() -> None:
    app = ToyApp(loose(1))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("1")
        wiz = app.wizard
        history = wiz.query_one("#wiz-history")
        assert not history.display and wiz.has_class("-fresh")
        assert "Nothing asked yet" not in str(history.render())
        await pilot.press("ctrl+r")  # the first answer: now there is a history
        await pilot.pause()
        assert history.display and not wiz.has_class("-fresh")
        assert history.lines

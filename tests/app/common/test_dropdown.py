"""Dropdown (issue 21): one widget drawing its own row until it is first opened; then
Textual's Select runs on its row and option list, the keys and messages unchanged."""

from __future__ import annotations

from app_helpers import aiotest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import Select
from textual.widgets._select import SelectOverlay

from deathzap_tui.app.common.dropdown import Dropdown, DropdownCurrent

CHOICES = [(Text("full"), "full"), (Text("short"), "short"), (Text("custom"), "custom")]


class Form(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.changes: list[object] = []

    def compose(self) -> ComposeResult:
        yield Dropdown(CHOICES, value="short", allow_blank=False, id="deck", compact=True)
        yield Dropdown(CHOICES, prompt="pick one", id="blank", compact=True)

    def on_select_changed(self, event: Select.Changed) -> None:
        self.changes.append((event.select.id, event.value))


def row(dropdown: Dropdown) -> str:
    return dropdown.render_line(0).text


@aiotest
async def test_closed_it_is_one_widget_showing_its_value_or_its_prompt() -> None:
    app = Form()
    async with app.run_test(size=(30, 6)) as pilot:
        await pilot.pause()
        deck, blank = app.query(Dropdown)
        assert not deck.children and not blank.children
        assert row(deck).startswith("short") and row(deck).rstrip().endswith("▼")
        assert row(blank).startswith("pick one")
        assert len(row(deck)) == deck.size.width
        assert app.changes == [("deck", "short")]  # as Select: a blank one says nothing


@aiotest
async def test_opened_it_picks_with_the_keys_of_textuals_select() -> None:
    app = Form()
    async with app.run_test(size=(30, 8)) as pilot:
        deck = app.query_one("#deck", Dropdown)
        deck.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert deck.expanded
        assert deck.query_one(DropdownCurrent) and deck.query_one(SelectOverlay)
        await pilot.press("down", "enter")
        await pilot.pause()
        assert not deck.expanded and deck.value == "custom"
        assert app.changes[-1] == ("deck", "custom")
        assert str(deck.query_one(DropdownCurrent).label) == "custom"
        deck.value = "full"  # set from code once opened: shown on its row
        await pilot.pause()
        assert str(deck.query_one(DropdownCurrent).label) == "full"


@aiotest
async def test_a_click_opens_it() -> None:
    app = Form()
    async with app.run_test(size=(30, 8)) as pilot:
        await pilot.click("#deck")
        await pilot.pause()
        assert app.query_one("#deck", Dropdown).expanded

"""FormRow (issue 21): a form's row draws its field's label in the columns left of the
field, as a Label of that width showed it (its first line), one widget fewer a row."""

from __future__ import annotations

from typing import ClassVar

from app_helpers import aiotest
from textual.app import App, ComposeResult
from textual.widgets import Input

from deathzap_tui.app.common.formrow import FormRow


class Form(App[None]):
    CSS: ClassVar[str] = """
    FormRow { height: 1; }
    FormRow > Input { width: 1fr; margin: 0 0 0 12; }
    FormRow:focus-within { background: transparent; }
    FormRow:focus-within > .form-row--label { text-style: bold; }
    """

    def compose(self) -> ComposeResult:
        yield FormRow("Seed", Input("7", id="seed", compact=True))
        yield FormRow("Decks to play per side", Input("2", id="decks", compact=True))


@aiotest
async def test_the_row_draws_its_label_left_of_its_field() -> None:
    app = Form()
    async with app.run_test(size=(40, 4)) as pilot:
        await pilot.pause()
        seed, decks = app.query(FormRow)
        assert seed.field is app.query_one("#seed", Input)
        assert seed.field.region.x == 12  # the label's column
        assert seed.render().plain == "Seed"
        assert decks.render().plain == "Decks to"  # its first line, 12 wide


@aiotest
async def test_the_label_is_lit_while_its_field_has_the_focus() -> None:
    app = Form()
    async with app.run_test(size=(40, 4)) as pilot:
        await pilot.pause()
        seed, decks = app.query(FormRow)
        app.set_focus(seed.field)
        await pilot.pause()
        assert seed.get_component_rich_style("form-row--label").bold
        assert not decks.get_component_rich_style("form-row--label").bold
        app.set_focus(decks.field)
        await pilot.pause()
        assert not seed.get_component_rich_style("form-row--label").bold
        assert decks.get_component_rich_style("form-row--label").bold

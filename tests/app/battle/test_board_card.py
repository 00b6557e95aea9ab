"""Issue 22, a unit's card: from the board's selected row (up/down, then c) and from
the command palette, in every ruleset, at 80x24: the unit's figures, weapons and
profiles, protection, tokens, status and this turn, from the ruleset's view."""

from __future__ import annotations

import json

import pytest
from app_helpers import aiotest, battle_app
from board_helpers import BUSY, busy_session, screen_lines

from deathzap_tui.app.battle.battle import BattleScreen
from deathzap_tui.app.battle.unitcard import UnitCardScreen
from deathzap_tui.app.battle.units import UnitTable
from deathzap_tui.net.wire import to_data, view_from_data
from deathzap_tui.rules.ruleset import SIDES

FIRST_SECTION = {"deathzap3": "Figures", "classic": "Figures", "plasmashok": "Models",
                 "doubletap": "Weapons", "commandhand": "Figures"}
"""What each ruleset's card opens with: its figures (Double Tap: one model a unit, so
its weapons)."""


@pytest.mark.parametrize("ruleset", list(BUSY))
def test_every_unit_has_a_card_that_crosses_the_wire(ruleset, workdir) -> None:
    view = busy_session(ruleset, workdir).view()
    for side in SIDES:
        for row in view.units[side]:
            headings = [heading for heading, _lines in row.card]
            assert headings[0] == FIRST_SECTION[ruleset] and "Status" in headings, row.card
            assert all(lines and all(lines) for _h, lines in row.card)
    assert view_from_data(json.loads(json.dumps(to_data(view)))) == view


def _card_words(app) -> str:
    return " ".join(" ".join(screen_lines(app)).split())


@pytest.mark.parametrize("ruleset", list(BUSY))
@aiotest
async def test_the_selected_rows_card_by_keys_at_80x24(ruleset, workdir) -> None:
    session = busy_session(ruleset, workdir)
    app = battle_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        board = app.screen
        assert isinstance(board, BattleScreen)
        rows = board.board_rows()
        first = board.selected_unit()
        at = [r.id for r in rows].index(first)
        await pilot.press("down")
        second = rows[(at + 1) % len(rows)]
        assert board.selected_unit() == second.id
        table = board.query_one(f"#units-{second.side}", UnitTable).render()
        assert any("reverse" in str(span.style) and
                   table.plain[span.start:span.end] == second.cells[0]
                   for span in table.spans), "the selected row stands out"
        await pilot.press("c")
        card = app.screen
        assert isinstance(card, UnitCardScreen) and card.row.id == second.id
        words = _card_words(app)
        assert " ".join(second.name.split()) in words
        for heading, lines in second.card:
            assert heading in words
            for line in lines[:2]:
                assert " ".join(line.split()) in words or card.query_one("#card-body") \
                    .max_scroll_y > 0, line  # a long card scrolls
        await pilot.press("n")
        assert card.row.id == rows[(at + 2) % len(rows)].id
        await pilot.press("p", "escape")
        assert app.screen is board


@aiotest
async def test_a_units_card_from_the_command_palette(workdir) -> None:
    app = battle_app(busy_session("plasmashok", workdir))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        board = app.screen
        titles = [t for t, _h, _c in board.palette_commands()]
        names = [f"Unit card: {side.upper()} {row.name}" for side in SIDES
                 for row in board.view.units[side]]
        assert set(names) <= set(titles)
        await pilot.press("ctrl+p", *"card rootmother")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, UnitCardScreen)
        assert app.screen.row.name == "The Rootmother"

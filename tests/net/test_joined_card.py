"""Issue 22: a unit's card open at a joined terminal showed the unit as it was when
opened: the table's pushes reach the card while it covers the board."""

from __future__ import annotations

import asyncio

import pytest
from joined_helpers import run, until

from deathzap_tui.rules.steps import Dice, DiceRequest

pytest.importorskip("textual")


@run
async def test_an_open_card_follows_its_unit_at_a_joined_table(host, clients) -> None:
    from deathzap_tui.app.battle.unitcard import UnitCardScreen
    from deathzap_tui.app.remote.app import JoinedApp
    from deathzap_tui.app.remote.battle import JoinedBattleScreen

    red, black = clients("red"), clients("black")
    app = JoinedApp(black, side="black")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, JoinedBattleScreen))
        await pilot.pause()
        app.screen.action_card("black.0")
        await until(pilot, lambda: isinstance(app.screen, UnitCardScreen))
        card = app.screen
        assert card.row.cells == ("6",)

        def hit() -> None:  # red hits twice; black fails both saves (toy duel)
            action = red.begin({"type": "hit", "side": "red"})
            action.resolution.answer("open")
            action.resolution.answer(Dice(faces=(5, 5)))
            assert black.wait_for(lambda s: (a := s.pending_action()) is not None
                                  and isinstance(a.resolution.step, DiceRequest))
            black.pending_action().resolution.answer(Dice(faces=(1, 1)))
            assert red.wait_for(lambda s: action.resolution.step is None)
            red.commit(action)

        await asyncio.to_thread(hit)
        await until(pilot, lambda: card.row.cells == ("4",))
        assert app.screen is card and card.row.id == "black.0"

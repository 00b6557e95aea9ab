"""Issue 22: `e` (and the palette's end) ends the game only after a yes: one stray
key never ends a game."""

from __future__ import annotations

from app_helpers import aiotest, battle_app, session_at

from deathzap_tui.app.battle.battle import BattleScreen
from deathzap_tui.app.common.dialogs import AskScreen
from deathzap_tui.rules.ruleset import END


@aiotest
async def test_e_asks_before_the_game_ends(demo_paths) -> None:
    session = session_at(*demo_paths, draws=4, options={"end": "agreement"})
    app = battle_app(session, dice_mode="generated")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        battle = app.screen
        assert isinstance(battle, BattleScreen) and battle.in_group(END)
        events = len(session.game.log)
        for no in ("n", "escape", "e"):  # a second stray e is no yes either
            await pilot.press("e")
            await pilot.pause()
            assert isinstance(app.screen, AskScreen)
            assert "End the game?" in str(app.screen.query_one("Static").render())
            await pilot.press(no)
            await pilot.pause()
            if no == "e":
                assert isinstance(app.screen, AskScreen)
                await pilot.press("n")
                await pilot.pause()
            assert app.screen is battle
            assert len(session.game.log) == events and not session.game.state.over
        await pilot.press("e", "y")
        await pilot.pause()
        assert app.screen is not battle  # the end goes on (its wizard, or the result)

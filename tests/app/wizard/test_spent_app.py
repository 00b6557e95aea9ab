"""Hot seat: dice once rolled stay rolled (issue 19). ctrl+x after the app rolled
records them as spent, Esc cannot step back over them, and backing out to the
choice of action spends them too; the log says so."""

from __future__ import annotations

from typing import Any

from app_helpers import aiotest, battle_app, keys_for
from shipped import shipped_forces

from deathzap_tui.app.battle.battle import BattleScreen
from deathzap_tui.app.wizard.wizard import WizardScreen
from deathzap_tui.headless.flow import quick_setup
from deathzap_tui.rules.dice import Rng
from deathzap_tui.rules.events import SPENT
from deathzap_tui.rules.steps import DiceRequest
from deathzap_tui.session import Session

SIZE = (100, 30)


def battle_session() -> Session:
    """A Plasmashok game past its set-up (its phases roll dice at once)."""
    red, black = shipped_forces("plasmashok")
    session = Session.new(red, black, seed=5, deal_seed=9, save_path="spent")
    quick_setup(session)
    return session


async def roll_in_wizard(pilot: Any, intents: bool = False) -> WizardScreen:
    """Open the wizard on the first action that rolls and roll its first dice
    (ctrl+r), answering the questions before them by keys."""
    app = pilot.app
    battle = next(s for s in app.screen_stack if isinstance(s, BattleScreen))
    option = next(o for o in app.session.intents() if o.intent.get("type") == "next")
    if intents:
        battle.open_wizard(intents=[option])
        await pilot.pause()
        await pilot.press("1")
    else:
        battle.run_intent(option)
    await pilot.pause()
    wizard = app.screen
    assert isinstance(wizard, WizardScreen)
    for _ in range(20):
        step = wizard.resolution.step
        await pilot.press(*keys_for(step, entered=False))
        await pilot.pause()
        if isinstance(step, DiceRequest):
            return wizard
    raise AssertionError("the action never rolled")


@aiotest
async def test_ctrl_x_after_a_roll_spends_the_dice() -> None:
    session = battle_session()
    start = Rng(session.game.state.rng.state)
    app = battle_app(session, dice_mode="generated")
    async with app.run_test(size=SIZE) as pilot:
        wizard = await roll_in_wizard(pilot)
        rolled = wizard.resolution.answers[-1].faces
        assert start.roll(len(rolled)) == rolled
        await pilot.press("escape")  # cannot step back over the roll
        await pilot.pause()
        assert app.screen is wizard and wizard.resolution.answers[-1].faces == rolled
        assert "cannot be taken back" in str(wizard.query_one("#wiz-feedback").render())
        await pilot.press("ctrl+x")
        await pilot.pause()
        assert isinstance(app.screen, BattleScreen)
    assert session.game.log[-1].kind == SPENT
    assert session.game.state.rng == start
    assert "dice once rolled stay rolled" in session.narrative()[-1]
    resumed = Session.resume("spent")
    assert resumed.game.state.rng == start


@aiotest
async def test_backing_out_of_a_draw_leaves_the_card_turned() -> None:
    """A draw picked in the wizard turns its card at once: Esc back to the choice of
    action (or ctrl+x) leaves it turned, and the draw stands."""
    red, black = shipped_forces("deathzap3")
    session = Session.new(red, black, seed=5, deal_seed=9, save_path="turned")
    quick_setup(session)
    deck = list(session.game.state.deck)
    draw = next(o for o in session.intents() if o.intent.get("type") == "draw")
    app = battle_app(session, dice_mode="generated")
    async with app.run_test(size=SIZE) as pilot:
        battle = app.screen
        assert isinstance(battle, BattleScreen)
        battle.open_wizard(intents=[draw, draw])
        await pilot.pause()
        await pilot.press("1")
        await pilot.pause()
        wizard = app.screen
        assert isinstance(wizard, WizardScreen) and wizard.resolution.done
        await pilot.press("escape")
        await pilot.pause()
        assert wizard.resolution is None
    assert session.game.state.deck == deck[1:] and session.game.state.card == deck[0]
    assert session.game.log[-1].data["intent"] == {"type": "draw"}

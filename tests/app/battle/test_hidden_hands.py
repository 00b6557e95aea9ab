"""Hidden hands in the app (Command Hand, but driven only by ``BoardView.private``,
``secret_turn`` and intents): the hot-seat cover screen, the interrupt through it,
and a terminal that plays one side seeing its own hand and no other."""

from __future__ import annotations

import pytest
from app_helpers import aiotest, battle_app
from ch_helpers import ch_forces, ch_session, hand_words, has, one_side, screen_text, shown

from deathzap_tui.app.battle.battle import BattleScreen
from deathzap_tui.app.battle.cover import CoverScreen
from deathzap_tui.app.battle.hand import HandWidget
from deathzap_tui.session import Session


@pytest.fixture
def ch_paths(workdir):
    return ch_forces(workdir)


@aiotest
async def test_hot_seat_interrupt_goes_through_the_cover(ch_paths) -> None:
    session = ch_session(*ch_paths)
    state = session.game.state
    red_hand, black_hand = list(state.hands["red"]), list(state.hands["black"])
    assert red_hand == ["2D", "8D", "9H", "10H"]
    secret = hand_words(red_hand) + hand_words(black_hand)
    app = battle_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        battle = app.screen
        assert isinstance(battle, BattleScreen)
        assert shown(screen_text(app), secret) == []
        # Draw until an opponent-colour card opens an interrupt window.
        for _ in range(10):
            await pilot.press("d")
            await pilot.pause()
            if session.view().secret_turn:
                break
        assert session.game.state.window == "red" and session.game.state.card == "3C"
        # The cover is up at once, and says whom to pass the terminal to.
        assert isinstance(app.screen, CoverScreen)
        text = screen_text(app)
        assert "Pass the terminal to RED" in text
        assert "only Red can see the screen" in text
        assert shown(text, secret) == []
        # Back to the board: the window is still open, no hand anywhere on it...
        await pilot.press("escape")
        assert app.screen is battle
        text = screen_text(app)
        assert "Red may interrupt 3♣" in text
        assert shown(text, secret) == []
        assert not battle.query_one("#hand", HandWidget).display
        # ...and neither the "other actions" menu nor the palette names a hand card.
        assert not [o for o in battle.options if o.intent.get("type") in ("interrupt", "pass")]
        assert not any(t for t, _h, _c in battle.palette_commands() if "Interrupt" in t)
        # The hand key brings the cover back; Enter reveals red's hand only.
        await pilot.press("h")
        assert isinstance(app.screen, CoverScreen)
        assert shown(screen_text(app), secret) == []
        await pilot.press("enter")
        text = screen_text(app)
        assert has(text, "Command Hand (4 cards)")
        assert shown(text, hand_words(red_hand)) != []
        assert shown(text, hand_words(black_hand)) == []
        assert "Interrupt 3♣ with 2♦" in text and "Do not interrupt 3♣" in text
        # Esc hides it again (the cover, not the hand).
        await pilot.press("escape")
        assert isinstance(app.screen, CoverScreen)
        assert shown(screen_text(app), secret) == []
        await pilot.press("enter", "1")  # interrupt with 2♦
        await pilot.pause()
        assert app.screen is battle
    state = session.game.state
    assert state.window == "" and state.played == ["2D"]
    assert state.hands["red"] == ["8D", "9H", "10H"]
    first = state.grants[0]
    assert (first.card, first.side, first.from_hand) == ("2D", "red", True)
    assert state.grants[1].card == "3C"
    # The event went through the normal intent path and is in the save.
    again = Session.resume(session.path)
    assert again.game.state == state


@aiotest
async def test_hot_seat_pass_and_hand_key_switches_sides(ch_paths) -> None:
    session = ch_session(*ch_paths)
    app = battle_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, CoverScreen)
        await pilot.press("enter")
        opts = app.screen.options
        await pilot.press(str(len(opts)))  # the last option: do not interrupt
        await pilot.pause()
        assert isinstance(app.screen, BattleScreen)
        assert session.game.state.window == "" and session.game.state.played == []
        # Outside a decision the hand key shows a hand to look at, nothing to decide;
        # Tab passes the cover to the other side.
        await pilot.press("h")
        cover = app.screen
        assert isinstance(cover, CoverScreen) and cover.options == []
        assert cover.side == "red"
        await pilot.press("tab")
        assert cover.side == "black" and cover.covered
        await pilot.press("enter")
        text = screen_text(app)
        assert has(text, "Command Hand (3 cards)")
        assert shown(text, hand_words(session.game.state.hands["red"])) == []
        await pilot.press("escape", "escape")
        assert isinstance(app.screen, BattleScreen)


@aiotest
async def test_one_side_terminal_shows_its_hand_and_offers_interrupts(ch_paths) -> None:
    local = ch_session(*ch_paths)
    session = one_side(local)
    red_hand, black_hand = list(local.game.state.hands["red"]), list(
        local.game.state.hands["black"])
    app = battle_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        battle = app.screen
        hand = battle.query_one("#hand", HandWidget)
        assert hand.display and hand.side == "red"
        text = screen_text(app)
        assert has(text, "Command Hand (4 cards)")
        assert shown(text, hand_words(black_hand)) == []
        await pilot.press("d")
        await pilot.pause()
        # Red's own decision: offered at once, no cover.
        cover = app.screen
        assert isinstance(cover, CoverScreen) and not cover.covered
        assert "Pass the terminal" not in screen_text(app)
        await pilot.press("1")
        await pilot.pause()
        assert app.screen is battle
        assert has(screen_text(app), "Command Hand (3 cards)")
    assert session.game.state.played == [red_hand[0]]

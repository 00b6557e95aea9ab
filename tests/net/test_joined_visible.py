"""What the other player did, seen as it happens (issue 19), against a real referee:
every answer of an action in progress reaches every terminal as it is given, with the
question or the dice it answered (the distance, the cover, the dice: players can
check each other's claims), but a private answer (a card from a secret hand) only its
owner's; the joined wizard's history and the battle log show them."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import toynet
from joined_helpers import hit_to_its_dice, run, screen_text, until

from deathzap_tui.net.wire import Waiting
from deathzap_tui.rules.steps import ROLL, Choice, Dice, DiceRequest, Question, Refused

pytest.importorskip("textual")


def test_the_other_players_answers_and_dice_reach_everyone_as_given(host, clients) -> None:
    red, black, watch = clients("red"), clients("black"), clients("watch")
    action = red.begin({"type": "hit", "side": "red"})
    action.resolution.answer("open")
    action.resolution.answer(Dice(faces=(6, 2)))
    assert isinstance(action.resolution.step, Waiting)  # black's saves
    for other in (black, watch):
        assert other.wait_for(lambda s: (a := s.pending_action()) is not None
                              and len(a.resolution.answers) == 2)
        res = other.pending_action().resolution
        assert res.answers == ["open", Dice(faces=(6, 2))]
        cover, dice = res.asked
        assert isinstance(cover, Question) and cover.prompt == "Cover?"
        # Only the choice taken is said aloud, not the rest of what red was offered.
        assert cover.choices == (Choice("open", "Open"),)
        assert isinstance(dice, DiceRequest) and (dice.purpose, dice.target) == ("to hit", 4)
        assert res.answerers == ["red", "red"]


def private_card(monkeypatch: pytest.MonkeyPatch) -> None:
    """The duel's hit begins with a private question: which card of the attacker's
    secret hand it plays (the referee runs in this process)."""
    hit = toynet.Duel.resolution

    def resolution(self: Any, state: Any, intent: Any, by: str = "") -> Any:
        make = hit(self, state, intent, by)
        side = intent["side"]

        def with_card(ctx: Any) -> Any:
            card = state.hands[side]
            yield Question("card", "Play a card?", (Choice(card, card), Choice("no", "No")),
                           side=side, private=True)
            yield from make(ctx)

        return with_card

    monkeypatch.setattr(toynet.Duel, "resolution", resolution)


def test_a_private_answer_reaches_its_owner_only(host, clients, monkeypatch) -> None:
    private_card(monkeypatch)
    red, black, watch = clients("red"), clients("black"), clients("watch")
    card = toynet.secret("red", 11)
    action = red.begin({"type": "hit", "side": "red"})
    action.resolution.answer(card)
    action.resolution.answer("open")
    assert action.resolution.answers == [card, "open"]  # red sees its own
    assert red.pending_action().resolution.asked[0].choices == (Choice(card, card),)
    for other in (black, watch):
        assert other.wait_for(lambda s: (a := s.pending_action()) is not None
                              and len(a.resolution.answers) == 2)
        res = other.pending_action().resolution
        assert res.answers == [None, "open"] and res.asked[0] is None
        assert res.answerers == ["red", "red"]


@run
async def test_the_other_terminal_shows_each_answer_in_the_log_and_the_wizard(
        host, clients) -> None:
    """Black's terminal: while red attacks, the battle log shows red's cover and dice
    as they are given; the wizard opened for black's saves shows them in its history;
    confirmed, the log holds the narrative and no more of the action in progress."""
    from deathzap_tui.app.remote.app import JoinedApp
    from deathzap_tui.app.remote.battle import JoinedBattleScreen
    from deathzap_tui.app.remote.wizard import JoinedWizardScreen

    red, black = clients("red"), clients("black")
    app = JoinedApp(black, side="black")
    async with app.run_test(size=(110, 34)) as pilot:
        battle = app.screen
        assert isinstance(battle, JoinedBattleScreen)
        action = await asyncio.to_thread(red.begin, {"type": "hit", "side": "red"})
        await until(pilot, lambda: "RED: hit, in progress" in screen_text(app))
        await asyncio.to_thread(action.resolution.answer, "open")
        await until(pilot, lambda: "RED: Cover? — Open" in screen_text(app))
        await asyncio.to_thread(action.resolution.answer, Dice(faces=(5, 6)))
        await until(pilot, lambda: isinstance(app.screen, JoinedWizardScreen))
        wizard = app.screen
        assert isinstance(wizard.resolution.step, DiceRequest)  # black's saves
        await pilot.pause()
        text = screen_text(app)
        assert "RED: Cover? — Open" in text
        assert "RED, to hit: entered 5 6" in text
        assert "red hits 2 time(s)" in text
        assert "answered" not in text
        await pilot.press("ctrl+r")
        await until(pilot, lambda: app.screen is battle)
        await until(pilot, lambda: action.resolution.step is None)
        await asyncio.to_thread(red.commit, action)
        await until(pilot, lambda: black.events == 1
                    and battle._shown_narrative == black.narrative())
        await until(pilot, lambda: "in progress" not in screen_text(app))
        assert "red hits 2 time(s)" in screen_text(app)
        assert battle._live == []


@run
async def test_the_acting_terminal_shows_the_other_players_dice_in_its_history(
        host, clients) -> None:
    """Red's wizard, waiting for black's saves, then shows black's dice with what
    they were for, not "BLACK answered"."""
    from deathzap_tui.app.remote.app import JoinedApp

    red, black = clients("red"), clients("black")
    app = JoinedApp(red, side="red")
    async with app.run_test(size=(110, 34)) as pilot:
        wizard = await hit_to_its_dice(pilot, app)
        await pilot.press(*"66", "enter")
        await until(pilot, lambda: isinstance(wizard.resolution.step, Waiting))
        assert black.wait_for(lambda s: (a := s.pending_action()) is not None
                              and isinstance(a.resolution.step, DiceRequest))
        await asyncio.to_thread(black.pending_action().resolution.answer, Dice(faces=(5, 1)))
        # The wizard drew the newest state (the push may be held for a burst: BURST)
        await until(pilot, lambda: wizard.resolution.step is None
                    and wizard._seen == wizard._signature())
        await pilot.pause()
        text = screen_text(app)
        assert "BLACK, saves: entered 5 1" in text
        assert "BLACK answered" not in text
        await pilot.press("ctrl+s")
        await until(pilot, lambda: red.events == 1)


def test_roll_for_me_is_said_as_rolled(host, clients) -> None:
    from deathzap_tui.app.remote.status import given

    red, black = clients("red"), clients("black")
    action = red.begin({"type": "hit", "side": "red"})
    action.resolution.answer("open")
    action.resolution.answer(ROLL)
    assert black.wait_for(lambda s: (a := s.pending_action()) is not None
                          and len(a.resolution.answers) == 2)
    res = black.pending_action().resolution
    faces = " ".join(map(str, res.answers[1].faces))
    assert given(res.asked[1], res.answers[1], "red", "black") == f"RED, to hit: rolled {faces}"
    assert given(res.asked[0], res.answers[0], "red", "red") == "Open"  # red's own
    assert given(None, None, "red", "black") == "RED answered"


# --- undo and redo by agreement --------------------------------------------------------------


def one_hit(red: Any, black: Any) -> None:
    """Red attacks, black saves, red confirms (generated dice)."""
    action = red.begin({"type": "hit", "side": "red"})
    action.resolution.answer("open")
    action.resolution.answer(Dice(faces=(6, 6)))
    assert black.wait_for(lambda s: (a := s.pending_action()) is not None
                          and isinstance(a.resolution.step, DiceRequest))
    black.pending_action().resolution.answer(ROLL)
    assert red.wait_for(lambda s: action.resolution.step is None)
    red.commit(action)
    assert black.wait_for(lambda s: s.events == 1)


def status(app: Any) -> str:
    from textual.widgets import Static

    return str(app.screen.query_one("#net-status", Static).render())


@run
async def test_the_asker_is_told_the_answer_to_its_undo_until_the_game_moves_on(
        host, clients) -> None:
    """Declined or agreed, the player who asked reads the answer on its status line
    (not only in a toast that is gone in seconds), until the game moves on."""
    from deathzap_tui.app.remote.app import JoinedApp

    red, black = clients("red"), clients("black")
    await asyncio.to_thread(one_hit, red, black)
    app = JoinedApp(red, side="red")
    async with app.run_test(size=(110, 34)) as pilot:
        await until(pilot, lambda: red.can_undo)
        await pilot.press("u")
        await until(pilot, lambda: "you asked to undo" in status(app))
        assert black.wait_for(lambda s: s.request is not None)
        await asyncio.to_thread(black.reply, False)
        await until(pilot, lambda: "black declined your undo" in status(app))
        watcher = await asyncio.to_thread(clients, "watch")  # the table changes...
        await until(pilot, lambda: red.presence.get("watch") == 1)
        await pilot.pause(0.1)
        assert "black declined your undo" in status(app)  # ...the answer stays
        assert watcher.wait_for(lambda s: s.answered is not None)
        await pilot.press("u")
        assert black.wait_for(lambda s: s.request is not None)
        await asyncio.to_thread(black.reply, True)
        await until(pilot, lambda: "black agreed to your undo" in status(app))
        assert red.events == 2  # the hit and its undo
        assert black.wait_for(lambda s: s.answered is not None)


def test_an_undo_cannot_be_asked_of_a_player_who_is_not_there(host, clients) -> None:
    red, black = clients("red"), clients("black")
    one_hit(red, black)
    black.close()
    assert red.wait_for(lambda s: s.presence.get("black") == 0)
    with pytest.raises(Refused, match="black is not at the table to agree"):
        red.undo()
    assert red.request is None


@run
async def test_the_board_stays_in_sight_behind_an_undo_request(host, clients) -> None:
    """The other player's undo request is a dialog over the board, not instead of it:
    the units, the score and the log can be read before answering."""
    from deathzap_tui.app.remote.app import JoinedApp
    from deathzap_tui.app.remote.request import RequestScreen

    red, black = clients("red"), clients("black")
    await asyncio.to_thread(one_hit, red, black)
    app = JoinedApp(black, side="black")
    async with app.run_test(size=(110, 34)) as pilot:
        await until(pilot, lambda: black.events == 1)
        await asyncio.to_thread(red.undo)
        await until(pilot, lambda: isinstance(app.screen, RequestScreen))
        await pilot.pause()
        text = screen_text(app)
        assert "RED asks to undo" in text
        assert "RED — Reds" in text and "BLACK — Blacks" in text  # the forces' tables
        assert "red hits 2 time(s)" in text  # the log: what would be undone
        await pilot.press("n")
        await until(pilot, lambda: not isinstance(app.screen, RequestScreen))
        await until(pilot, lambda: "you declined red's undo" in status(app))

"""A joined terminal draws a burst of pushes once (issue 23, scale): the first push
after a quiet spell at once, the rest of the burst together at its end."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Callable
from typing import Any

import pytest
from joined_helpers import run, until

from deathzap_tui.rules.steps import ROLL, DiceRequest

pytest.importorskip("textual")


def counting(app, note: Callable[[], Any] = time.monotonic) -> list[Any]:
    """``note()`` each time ``app`` draws what was pushed (its ``remote_changed``):
    by default when."""
    drawn: list[Any] = []
    real = app.remote_changed

    def remote_changed() -> None:
        drawn.append(note())
        real()

    app.remote_changed = remote_changed
    return drawn


async def quiet(pilot, app) -> None:
    """Let the pushes of joining be drawn and a quiet spell pass."""
    from deathzap_tui.app.remote import app as joined

    await until(pilot, lambda: isinstance(app.screen, joined.JoinedBattleScreen)
                and app.screen.is_mounted)
    await pilot.pause(joined.BURST * 1.5)
    await until(pilot, lambda: app._held is None)


@run
async def test_a_burst_of_pushes_is_drawn_twice_however_long(host, clients, monkeypatch) -> None:
    from deathzap_tui.app.remote import app as joined

    monkeypatch.setattr(joined, "BURST", 1.0)
    red, black = clients("red"), clients("black")
    app = joined.JoinedApp(black, side="black")
    async with app.run_test(size=(110, 34)) as pilot:
        await quiet(pilot, app)
        drawn = counting(app)

        def burst() -> None:  # five pushes, each well after the last was drawn
            action = red.begin({"type": "hit", "side": "red"})
            for answer in ("open", ROLL):
                time.sleep(0.05)
                action.resolution.answer(answer)

        await asyncio.to_thread(burst)
        # black is asked for saves now: the wizard opens once, for that, at the
        # burst's end, and never for what was answered meanwhile
        await until(pilot, lambda: isinstance(app.screen, joined.JoinedWizardScreen))
        assert isinstance(app.screen.resolution.step, DiceRequest)
        # The first push at once, the rest together a burst later; or, when the app
        # was still busy as the rest came in, all of them in one draw. Never a draw
        # per push.
        assert len(drawn) in (1, 2), drawn
        if len(drawn) == 2:
            assert drawn[1] - drawn[0] >= joined.BURST - 0.01


@run
async def test_a_step_answered_within_the_burst_is_never_opened(two_terminals, monkeypatch) -> None:
    """A whole move answered at other terminals (black's saves by black's hand)
    within one burst: black's app draws it at most twice, the second time with the
    newest state, and never opens a wizard for the saves already given."""
    from deathzap_tui.app.remote import app as joined
    from deathzap_tui.net.client import RemoteSession

    monkeypatch.setattr(joined, "BURST", 1.0)
    red, black, hand = (RemoteSession.connect(two_terminals.socket_path, side, timeout=5)
                        for side in ("red", "black", "black"))
    try:
        app = joined.JoinedApp(black, side="black")
        async with app.run_test(size=(110, 34)) as pilot:
            await quiet(pilot, app)
            battle = app.screen
            opened: list[Any] = []
            real_open = battle.open_action
            battle.open_action = lambda action: (opened.append(action), real_open(action))

            def move() -> bool:  # red's hit, black's saves from its hand, the commit
                action = red.begin({"type": "hit", "side": "red"})
                for answer in ("open", ROLL):
                    time.sleep(0.02)
                    action.resolution.answer(answer)
                asked = action.resolution.step is not None
                if asked:
                    assert hand.wait_for(lambda s: (a := s.pending_action()) is not None
                                         and isinstance(a.resolution.step, DiceRequest), 5)
                    hand.pending_action().resolution.answer(ROLL)
                    assert red.wait_for(lambda s: action.resolution.step is None, 5)
                red.commit(action)
                return asked

            for _ in range(10):  # hits until one asks black for saves
                drawn = counting(app, lambda: black.seq)
                asked = await asyncio.to_thread(move)
                last = red.seq
                await until(pilot, lambda d=drawn, n=last: app._held is None and d
                            and d[-1] >= n)
                assert len(drawn) <= 2, drawn
                assert drawn[-1] == black.seq  # the newest state, nothing left behind
                assert app.screen is battle and opened == []
                assert battle._live == []  # the committed move, not an action in progress
                await quiet(pilot, app)
                if asked:
                    break
            else:
                pytest.fail("ten hits and never a save")
    finally:
        for session in (red, black, hand):
            session.close()


@run
async def test_pushes_spread_over_several_bursts_are_drawn_once_a_burst_the_last_always(
        host, clients, monkeypatch) -> None:
    from deathzap_tui.app.remote import app as joined

    monkeypatch.setattr(joined, "BURST", 0.2)
    red, black = clients("red"), clients("black")
    app = joined.JoinedApp(black, side="black")
    async with app.run_test(size=(110, 34)) as pilot:
        await quiet(pilot, app)
        drawn = counting(app)
        seqs = counting(app, lambda: black.seq)
        started = time.monotonic()

        def spread() -> None:  # pushes 70 ms apart, over about three bursts
            action = red.begin({"type": "hit", "side": "red"})
            for _ in range(3):
                time.sleep(0.07)
                action.resolution.answer("open")
                time.sleep(0.07)
                action.resolution.back()
            time.sleep(0.07)
            action.cancel()

        await asyncio.to_thread(spread)
        span = time.monotonic() - started
        last = red.seq
        await until(pilot, lambda: app._held is None and seqs and seqs[-1] >= last)
        # At most one drawing per burst (the first at once), however the pushes fall;
        # the last drawing sees the last push.
        assert all(b - a >= joined.BURST - 0.01 for a, b in itertools.pairwise(drawn)), drawn
        assert len(drawn) <= span / joined.BURST + 2, (drawn, span)
        assert seqs[-1] == black.seq
        assert app.screen._live == []  # the cancelled action is gone from the log


@run
async def test_a_push_after_a_quiet_spell_is_drawn_at_once(host, clients, monkeypatch) -> None:
    from deathzap_tui.app.remote import app as joined

    monkeypatch.setattr(joined, "BURST", 3.0)
    red, black = clients("red"), clients("black")
    app = joined.JoinedApp(black, side="black")
    async with app.run_test(size=(110, 34)) as pilot:
        await quiet(pilot, app)
        drawn = counting(app)
        sent = time.monotonic()
        await asyncio.to_thread(red.begin, {"type": "hit", "side": "red"})
        await until(pilot, lambda: drawn)
        assert drawn[0] - sent < joined.BURST  # not held for a burst
        assert app._held is None


@run
async def test_the_board_behind_another_screen_is_drawn_once_when_it_shows(
        host, clients) -> None:
    from deathzap_tui.app.battle.unitcard import UnitCardScreen
    from deathzap_tui.app.remote import app as joined

    red, black = clients("red"), clients("black")
    app = joined.JoinedApp(black, side="black")
    async with app.run_test(size=(110, 34)) as pilot:
        await quiet(pilot, app)
        battle = app.screen
        boards = []  # the table drawn: its log, live lines, board and status line
        real = battle._draw_table
        battle._draw_table = lambda: (boards.append(1), real())
        battle.action_card()
        await until(pilot, lambda: isinstance(app.screen, UnitCardScreen))

        def move() -> None:  # two pushes, far enough apart to be drawn apart
            action = red.begin({"type": "hit", "side": "red"})
            time.sleep(joined.BURST * 2)
            action.resolution.answer("open")

        drawn = counting(app, lambda: black.seq)  # the pushes each drawing saw
        await asyncio.to_thread(move)
        assert black.wait_for(lambda s: (a := s.pending_action()) is not None
                              and len(a.resolution.answers) == 1)
        seq = black.seq
        await until(pilot, lambda: drawn and drawn[-1] >= seq)  # the answer's push drawn
        assert battle._stale
        assert boards == [] and battle._live == []  # nothing drawn where it is not seen
        await until(pilot, lambda: app._held is None)  # no burst left to draw later
        later = len(drawn)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is battle and battle._live)
        # Once for both pushes it missed, plus once for each push drawn since it
        # shows again (the table may push again meanwhile).
        assert len(boards) == 1 + len(drawn) - later, (boards, drawn[later:])
        assert battle._live[0].startswith("… RED: hit, in progress")
        assert not battle._stale


@run
async def test_an_answer_at_another_terminal_draws_the_log_not_the_board(
        host, clients) -> None:
    from deathzap_tui.app.remote import app as joined

    red, black = clients("red"), clients("black")
    app = joined.JoinedApp(black, side="black")
    async with app.run_test(size=(110, 34)) as pilot:
        await quiet(pilot, app)
        battle = app.screen
        action = await asyncio.to_thread(red.begin, {"type": "hit", "side": "red"})
        await until(pilot, lambda: battle._live)  # the action in progress, in the log
        begun = list(battle._live)
        boards = []
        real = battle.refresh_board
        battle.refresh_board = lambda: (boards.append(1), real())
        await asyncio.to_thread(action.resolution.answer, "open")
        await until(pilot, lambda: len(battle._live) > len(begun))
        assert battle._live[:len(begun)] == begun
        assert any("Open" in line for line in battle._live[len(begun):]), battle._live
        assert boards == []  # the board's units, score and keys did not change




@run
async def test_a_push_as_the_app_exits_draws_nothing(host, clients) -> None:
    """A push handled while the app exits (Textual closes its screens, then empties
    the stack) reaches no screen: a closed wizard has no widgets left to draw."""
    from deathzap_tui.app.remote import app as joined

    red, black = clients("red"), clients("black")
    app = joined.JoinedApp(black, side="black")
    async with app.run_test(size=(110, 34)) as pilot:
        await quiet(pilot, app)
        action = await asyncio.to_thread(red.begin, {"type": "hit", "side": "red"})
        for answer in ("open", ROLL):
            await asyncio.to_thread(action.resolution.answer, answer)
        await until(pilot, lambda: isinstance(app.screen, joined.JoinedWizardScreen)
                    and app.screen.is_mounted)
        told: list[str] = []
        app.screen.remote_changed = lambda: told.append("wizard")
        app.exit()
        app.remote_changed()  # a push, handled once the app is exiting
        assert told == []
    app.remote_changed()  # and once its screens are gone


@run
async def test_an_own_action_begun_elsewhere_opens_once_on_the_steps_answered_meanwhile(
        two_terminals, monkeypatch) -> None:
    """This player's own action begun at their other terminal (issue 24): the push
    that began it is held as one in a burst, so the wizard opens once, on the step its
    answers have reached, not on the step answered already and then again."""
    from deathzap_tui.app.remote import app as joined
    from deathzap_tui.net.client import RemoteSession

    monkeypatch.setattr(joined, "BURST", 1.0)
    red, hand = (RemoteSession.connect(two_terminals.socket_path, "red", timeout=5)
                 for _ in range(2))
    try:
        app = joined.JoinedApp(red, side="red")
        async with app.run_test(size=(110, 34)) as pilot:
            await quiet(pilot, app)
            battle = app.screen
            opened: list[int] = []  # how many answers the action had when opened
            real_open = battle.open_action
            battle.open_action = lambda action: (
                opened.append(len(action.resolution.answers)), real_open(action))
            drawn = counting(app)

            def begin() -> Any:  # its cover and dice answered right behind the begin
                action = hand.begin({"type": "hit", "side": "red"})
                for answer in ("open", ROLL):
                    action.resolution.answer(answer)
                return action

            for n in (1, 2):  # the second time, the wizard kept installed is shown again
                before = len(drawn)
                action = await asyncio.to_thread(begin)
                await until(pilot, lambda: isinstance(app.screen, joined.JoinedWizardScreen))
                assert opened == [2] * n and len(drawn) == before + 1
                wizard = app.screen
                assert not isinstance(wizard.resolution.step, DiceRequest)  # black's, or none
                assert wizard.focused is None  # nothing to answer here: the hidden list neither
                await asyncio.to_thread(action.cancel)
                await until(pilot, lambda: app.screen is battle)
                await quiet(pilot, app)
    finally:
        for session in (red, hand):
            session.close()

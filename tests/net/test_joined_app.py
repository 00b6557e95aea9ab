"""The app in joined mode (Pilot) against a real referee playing Deathzap 3; the
other player is a second RemoteSession driven through the API in this process."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest
from dz3play import force_names, play_intent
from joined_helpers import answer_while, run, until

from deathzap_tui.headless.describe import auto_answer
from deathzap_tui.net.wire import Waiting
from deathzap_tui.rules.steps import DiceRequest, Question

pytest.importorskip("textual")


def screen_text(app: Any) -> str:
    """Every character on the app's screen now (what a terminal would show)."""
    lines = []
    for y in range(app.size.height):
        strip = app.screen._compositor.render_strips()[y] if hasattr(
            app.screen._compositor, "render_strips") else None
        if strip is None:
            break
        lines.append(strip.text)
    return "\n".join(lines)


class Responder(threading.Thread):
    """Answers every step asked of ``session`` (its own unit's saves, cover)."""

    def __init__(self, session: Any) -> None:
        super().__init__(daemon=True)
        self.session = session
        self.stop = threading.Event()
        self.answered: list[str] = []

    def _asked(self, s: Any) -> bool:
        a = s.pending_action()
        return self.stop.is_set() or (a is not None and not a.mine and not a.discarded
                                      and isinstance(a.resolution.step, Question | DiceRequest))

    def run(self) -> None:
        while not self.stop.is_set():
            if not self.session.wait_for(self._asked, 0.2) or self.stop.is_set():
                continue
            a = self.session.pending_action()
            step = a.resolution.step
            if isinstance(step, Question | DiceRequest):
                self.answered.append(getattr(step, "purpose", "") or step.prompt)
                try:
                    a.resolution.answer(auto_answer(step))
                except Exception:
                    time.sleep(0.05)


def api_move(me: Any, option: Any) -> None:
    """``me`` plays ``option`` through the API; steps for the other side are left to
    that side's terminal (the app under test)."""

    def their_terminal_answers(res: Any, step: Waiting) -> None:
        assert me.wait_for(lambda s: not isinstance(res.step, Waiting), 20)

    play_intent(me, option.intent, their_terminal_answers)


@run
async def test_joined_app_shows_the_other_players_moves_and_answers_their_saves(
        dz3_host, dz3_clients) -> None:
    from deathzap_tui.app.remote.app import JoinedApp
    from deathzap_tui.app.remote.battle import JoinedBattleScreen
    from deathzap_tui.app.remote.wizard import JoinedWizardScreen

    red = dz3_clients("red")
    app = JoinedApp(red, side="red")
    async with app.run_test(size=(120, 36)) as pilot:
        battle = app.screen
        assert isinstance(battle, JoinedBattleScreen)
        red_name, black_name = force_names()
        assert red_name in screen_text(app) and black_name in screen_text(app)
        assert "black ○" in screen_text(app)
        black = await asyncio.to_thread(dz3_clients, "black")
        await until(pilot, lambda: "black ●" in screen_text(app))
        # Black draws and activates through the API; red's terminal follows, and
        # answers what black's activation asks of red (cover, saving throws).
        moves = 0
        answered_in_app = 0
        for _ in range(100):  # a generous bound: the test is about behaviour, not speed
            # Both clients' snapshots are updated by their notifier threads: decide
            # whose turn it is only once they agree with each other and with red's app.
            await until(pilot, lambda: red.events == black.events
                        and battle._shown_narrative == red.narrative())
            opts = await asyncio.to_thread(black.intents)
            draws = [o for o in opts if o.intent["type"] == "draw"]
            acts = [o for o in opts if o.intent["type"] == "activate"
                    and "command" not in o.intent]
            if red.turn["side"] == "red" or (not acts and not draws):
                # red's own activation: played in the app with keys
                await pilot.press("a")
                await until(pilot, lambda: isinstance(app.screen, JoinedWizardScreen))
                responder = Responder(black)
                responder.start()
                try:
                    for _ in range(80):
                        screen = app.screen
                        if not isinstance(screen, JoinedWizardScreen):
                            break
                        if screen.resolution is None:
                            await pilot.press("1")
                            continue
                        step = screen.resolution.step
                        if isinstance(step, Waiting):
                            await pilot.pause(0.05)
                        elif step is None:
                            await pilot.press("ctrl+s")
                        elif isinstance(step, DiceRequest):
                            await pilot.press("ctrl+r")
                        else:
                            await pilot.press("enter")
                finally:
                    responder.stop.set()
                    responder.join(2)
                await until(pilot, lambda: black.events == red.events
                            and black.narrative() == battle._shown_narrative)
                continue
            option = (acts or draws)[0]
            before = red.events
            answered_in_app += await answer_while(
                pilot, app, lambda o=option: api_move(black, o), option.label)
            moves += 1
            # The other player's move appears in red's terminal.
            await until(pilot, lambda b=before: red.events > b
                        and battle._shown_narrative == red.narrative())
            last = red.narrative()[-1]
            await until(pilot, lambda t=last[:30]: t in screen_text(app))
            if moves >= 4 and answered_in_app:
                break
        assert moves >= 4
        assert answered_in_app, "black's activations never asked red anything"
        assert red.narrative() == black.narrative()
        assert red.view().units == black.view().units

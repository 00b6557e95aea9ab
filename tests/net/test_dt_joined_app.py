"""Double Tap 2.1 joined: a real referee and two joined terminals (two apps), each
player at its own. In round 1 Red's Tech Imre fires from Red's terminal; Black's
reaction questions — does Black react, then unit by unit (DT §6, app reading 6) —
go to Black's terminal only (no "⇄" hand-over there: each player has its own keys),
where Black answers them with keys and rolls its
blocks, its morale and its reacting unit's shot; Red's terminal shows it waiting for
Black and cannot answer them. Red ends its turn; Black's Gunner Mott fires from
Black's terminal and Red's target dodges from Red's (app reading 7). The rest of the
game is played through each player's own session to the result on markers after
round 4 (DT §2), which both terminals show."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from joined_helpers import run, screen_text, settle_action, synced, until
from referee_harness import HostThread, connecting, hosting

from deathzap_tui.headless.describe import auto_answer
from deathzap_tui.net.client import RemoteSession
from deathzap_tui.net.wire import Waiting
from deathzap_tui.paths import PROJECT_ROOT
from deathzap_tui.rules.ruleset import ADVANCE, UNIT
from deathzap_tui.rules.steps import DiceRequest, Question

pytest.importorskip("textual")

DT = tuple(PROJECT_ROOT / "forces" / name
           for name in ("dt-kestrel-cell.toml", "dt-rustmoth-gang.toml"))
SIZE = (120, 36)
MARKERS = {(1, "marker.1"): "black", (2, "marker.3"): "red", (3, "marker.1"): "both"}
"""End-of-round answers (DT §2, app reading 4): Black seizes marker 1, Red marker 3;
in round 3 both sides are near marker 1 again, which turns neutral."""


@pytest.fixture
def dt_host(saves_dir: Path, tmp_path: Path) -> Iterator[HostThread]:
    """Seed 9 after quick set-up: round 1, Red plays first (it won the roll-off)."""
    from deathzap_tui.headless.flow import quick_setup
    from deathzap_tui.session import Session

    session = Session.new(DT[0], DT[1], seed=9, save_path="dt-joined")
    quick_setup(session)
    yield from hosting(session, tmp_path / "dtj.sock")


@pytest.fixture
def dt_clients(dt_host: HostThread) -> Iterator[Callable[..., RemoteSession]]:
    yield from connecting(dt_host)


def table_answer(round_: int, step: Any) -> Any:
    """Generated dice and defaults (no reaction), but the markers of :data:`MARKERS`
    where the side may seize them."""
    if isinstance(step, Question) and step.key.startswith("marker."):
        wanted = MARKERS.get((round_, step.key), "none")
        return wanted if wanted in [c.value for c in step.choices] else "none"
    return auto_answer(step)


def play_by_api(clients: dict[str, RemoteSession], turns: set[tuple[int, str]]) -> bool:
    """One intent at the table through the sessions (run in a thread): in each turn
    not yet in ``turns`` the player's first unit's first action (DT §3), else "End
    turn"; each step answered by the session it is asked of (:func:`table_answer`).
    False once the game is over."""
    view = clients["red"].view()
    if view.over:
        return False
    side = view.clock.active
    me = clients[side]
    offered = me.intents()
    units = [] if (view.clock.number, side) in turns else \
        [o for o in offered if o.group == UNIT]
    turns.add((view.clock.number, side))
    option = (units or [o for o in offered if o.group == ADVANCE])[0]
    action = me.begin(option.intent)
    settle_action(clients, me, action, lambda step: table_answer(view.clock.number, step))
    return True


@pytest.mark.slow
@run
async def test_dt_joined_game_reactions_at_the_reacting_terminal(dt_host, dt_clients) -> None:
    from deathzap_tui.app.gameover.gameover import GameOverScreen
    from deathzap_tui.app.remote.app import JoinedApp
    from deathzap_tui.app.remote.battle import JoinedBattleScreen
    from deathzap_tui.app.remote.wizard import JoinedWizardScreen
    from deathzap_tui.app.wizard.wizard import choice_key

    red = dt_clients("red")
    black = await asyncio.to_thread(dt_clients, "black")
    sessions = {"red": red, "black": black}
    apps = {"red": JoinedApp(red, side="red"), "black": JoinedApp(black, side="black")}
    answered: dict[str, list[str]] = {"red": [], "black": []}
    """The keys of the steps each terminal answered."""
    no_hand_over: list[str] = []
    """The reaction steps (side: key) whose who-answers line had no "⇄"."""
    refused: list[str] = []
    """The steps of the other player's that a terminal was shown waiting for, and
    whose answer keys there changed nothing."""
    async with apps["red"].run_test(size=SIZE) as red_pilot, \
            apps["black"].run_test(size=SIZE) as black_pilot:
        pilots = {"red": red_pilot, "black": black_pilot}
        assert all(isinstance(a.screen, JoinedBattleScreen) for a in apps.values())

        async def try_foreign(side: str, step: Waiting) -> None:
            """``side``'s terminal, waiting for the other player's ``step``: its
            answer keys change nothing at the table."""
            app, pilot = apps[side], pilots[side]
            table = dt_host.table
            assert table.pending is not None
            before = len(table.pending.action.resolution.answers)
            assert f"waiting for {step.side}" in screen_text(app)
            await pilot.press("1", "enter", "ctrl+r", "ctrl+s")
            await pilot.pause(0.05)
            assert table.pending is not None
            assert len(table.pending.action.resolution.answers) == before
            assert isinstance(app.screen.resolution.step, Waiting)
            refused.append(step.key)

        async def act(side: str, unit: str, action: str, plan: dict[str, str]) -> None:
            """``side`` activates ``unit`` for ``action`` by keys at its terminal; each
            terminal answers the steps it is asked by keys (``plan``'s choices, else
            Enter for the default and ctrl+r for dice); at the other player's
            question whether it reacts ``side``'s terminal is tried: it shows that
            step waiting and cannot answer it."""
            await synced(red_pilot, apps, sessions)
            before = sessions[side].events
            pilot = pilots[side]
            await pilot.press("a")
            wizard = apps[side].screen
            assert isinstance(wizard, JoinedWizardScreen)
            units = [payload for _label, payload in wizard.pick.options]
            await pilot.press(choice_key(units.index(("unit", unit))))
            actions = [payload[1].intent["action"] for _label, payload in wizard.pick.options]
            await pilot.press(choice_key(actions.index(action)))
            deadline = time.monotonic() + 60
            tried: set[str] = set()
            while sessions[side].events == before:
                assert time.monotonic() < deadline, f"{side}'s {action} never finished"
                for who, app in apps.items():
                    screen = app.screen
                    if not isinstance(screen, JoinedWizardScreen):
                        continue
                    step = screen.resolution.step
                    if step is None and screen._mine():
                        await pilots[who].press("ctrl+s")
                    elif isinstance(step, Question | DiceRequest):
                        if step.key.startswith(("react.", "reactor.", "reaction.")):
                            # Each player at its own terminal: never a hand-over.
                            await pilots[who].pause()
                            assert "⇄" not in str(screen.query_one("#wiz-who").render())
                            no_hand_over.append(f"{who}:{step.key}")
                        if step.key == f"react.{who}" and who not in tried:
                            tried.add(who)  # the acting terminal, waiting for it
                            await pilots[who].pause()
                            assert f"Does {who.title()} react to" in screen_text(app)
                            # No hand-over at a player's own terminal.
                            assert str(screen.query_one("#wiz-who").render()) == \
                                f"{who.upper()} answers"
                            await until(pilot, lambda k=step.key: isinstance(
                                w := apps[side].screen.resolution.step, Waiting)
                                and w.key == k)
                            await try_foreign(side, apps[side].screen.resolution.step)
                        answered[who].append(step.key)
                        if step.key in plan:
                            values = [c.value for c in step.choices]
                            key = choice_key(values.index(plan[step.key]))
                        else:
                            key = "ctrl+r" if isinstance(step, DiceRequest) else "enter"
                        await pilots[who].press(key)
                await red_pilot.pause(0.02)

        # Round 1, Red's turn: Tech Imre fires at Boss Karn; Black reacts (DT §6).
        await act("red", "red.3", "hold", {"react.black": "yes", "reactor.black.1": "black.1",
                                           "reaction.black.1": "shoot"})
        said = red.narrative()
        assert "Black reacts: Black Gunner Mott shoots (DT §6)." in said
        black_keys = {"react.black", "reactor.black.1", "reaction.black.1",
                      "reaction.black.1.distance", "reactor.black.2", "block.black.0",
                      "hit.2"}
        assert black_keys <= set(answered["black"])
        asked = {k for k in black_keys if k.startswith(("reactor.", "reaction."))}
        assert {f"black:{k}" for k in asked} <= set(no_hand_over)
        assert not black_keys & set(answered["red"])
        assert {"weapon", "distance.black.0", "doctor.red.3", "hit.1"} <= set(answered["red"])
        assert refused == ["react.black"]  # Red's terminal could not answer it
        await synced(red_pilot, apps, sessions)
        await red_pilot.press("d")  # Red ends its turn
        await until(red_pilot, lambda: red.view().clock.active == "black")

        # Black's turn: Gunner Mott fires at Sergeant Vey, who dodges (app reading 7).
        answered = {"red": [], "black": []}
        refused.clear()
        await act("black", "black.1", "hold", {"react.red": "yes", "reactor.red.1": "red.0",
                                               "reaction.red.0": "dodge"})
        assert "Red reacts: Red Sergeant Vey dodges (DT §6)." in black.narrative()
        assert {"react.red", "reactor.red.1", "reaction.red.0", "reactor.red.2"} <= \
            set(answered["red"])
        assert not {k for k in answered["black"] if k.startswith("react")}
        assert refused == ["react.red"]
        assert "doctor.red.0" in answered["red"]  # Medic Hale near the target? (DT §7)

        # The rest of the game through each player's own session; the terminals follow.
        turns = {(1, "red"), (1, "black")}
        while await asyncio.to_thread(play_by_api, sessions, turns):
            pass
        await synced(red_pilot, apps, sessions)
        state = dt_host.table.game.state
        assert state.over and state.round == 4
        result = apps["red"].session.view().result
        assert result == "Red wins (round 4 of 4 is over; Red holds 1 marker, Black 0)"
        assert [m.holder for m in state.markers] == ["", "", "red"]
        for side, app in apps.items():
            await until(pilots[side], lambda a=app: isinstance(a.screen, GameOverScreen))
            await pilots[side].pause()
            assert result in screen_text(app)
    assert red.view() == black.view()  # no secrets in Double Tap: one table
    assert red.narrative() == black.narrative()

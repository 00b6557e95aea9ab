"""An action in progress is never lost (issue 26): ctrl+q mid-action says so and
asks; quitting, or kill -9 of the app, mid-wizard (in the game or in its set-up) in
every ruleset, then resuming, brings the wizard back at the same step with the
typed answers and the same generated dice."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from typing import Any

import pytest
from app_helpers import aiotest, battle_app, keys_for
from inflight_fixtures import FORCES, Plan, new_game, play_to_action
from subprocess_env import child_env

from deathzap_tui.app.app import DeathzapApp, GamePlan, Launch
from deathzap_tui.app.battle.battle import BattleScreen
from deathzap_tui.app.common.dialogs import AskScreen
from deathzap_tui.app.common.log import TailLog
from deathzap_tui.app.wizard.wizard import WizardScreen
from deathzap_tui.headless.forcelist import pair_for
from deathzap_tui.rules import registry
from deathzap_tui.rules.steps import ROLL, DiceRequest, answer_to_data
from deathzap_tui.session import Session

SIZE = (100, 30)


def keys_of(plan: Plan) -> list[str]:
    """The keys that give the plan's answers in the wizard (physical dice mode):
    ctrl+r for generated dice, typed faces, a choice's key, a number."""
    keys: list[str] = []
    for answer, step in zip(plan.answers, plan.steps, strict=True):
        if answer == ROLL:
            keys.append("ctrl+r")
        elif isinstance(step, DiceRequest):
            keys += [*"".join(map(str, answer.faces)), "enter"]  # type: ignore[union-attr]
        else:
            keys += keys_for(step, entered=True)
    return keys


async def open_plan(pilot: Any, plan: Plan) -> WizardScreen:
    """From the battle screen, begin the plan's intent and answer it by keys."""
    app = pilot.app
    battle = next(s for s in app.screen_stack if isinstance(s, BattleScreen))
    battle.run_intent(plan.option)
    await pilot.pause()
    await pilot.press(*keys_of(plan))
    await pilot.pause()
    assert isinstance(app.screen, WizardScreen)
    return app.screen


def shown(wizard: WizardScreen) -> tuple[Any, list[Any], list[str]]:
    """The wizard's step, its answers (plain form) and its history lines."""
    res = wizard.resolution
    assert res is not None
    lines = [line.plain for line in wizard.query_one("#wiz-history", TailLog).lines]
    return res.step, [answer_to_data(a) for a in res.answers], lines


async def quit_saying_kept(pilot: Any) -> None:
    """ctrl+q mid-action: the question says the action is kept; y quits."""
    await pilot.press("ctrl+q")
    await pilot.pause()
    ask = pilot.app.screen
    assert isinstance(ask, AskScreen)
    assert "kept with the save" in ask.message and "this step" in ask.message
    await pilot.press("y")
    await pilot.pause()


async def resumed_wizard(save: str) -> tuple[Any, list[Any], list[str]]:
    """Resume ``save`` in a new app: the wizard it opens on, as :func:`shown`."""
    app = battle_app(Session.resume(save))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, WizardScreen), "the action did not come back"
        return shown(app.screen)


@pytest.mark.parametrize("ruleset_id", registry.ids())
@aiotest
async def test_quit_mid_action_and_resume_in_every_ruleset(ruleset_id: str) -> None:
    session = new_game(ruleset_id, "g")
    plan = play_to_action(session, 3, setup=False)
    app = battle_app(session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        before = shown(await open_plan(pilot, plan))
        await quit_saying_kept(pilot)
        assert not app.is_running
    step, answers, history = await resumed_wizard("g")
    assert (step, answers) == before[:2]  # the step, typed answers and the same dice
    assert history == before[2]
    assert sum("✓" in line for line in history) == len(plan.answers)


@pytest.mark.parametrize("ruleset_id", registry.ids())
@aiotest
async def test_quit_mid_set_up_and_resume_in_every_ruleset(ruleset_id: str) -> None:
    red, black = pair_for(FORCES, ruleset_id)
    app = DeathzapApp(Launch("setup", plan=GamePlan(red, black, 5, save="g",
                                                    ruleset_id=ruleset_id)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")  # the sides as offered; the first pre-game step
        await pilot.pause()
        wizard = app.screen
        assert isinstance(wizard, WizardScreen) and wizard.resolution is not None
        await pilot.press(*keys_for(wizard.resolution.step, entered=True))
        await pilot.pause()
        before = shown(wizard)
        assert before[1], "the first answer was not taken"
        await quit_saying_kept(pilot)
    assert await resumed_wizard("g") == before


@aiotest
async def test_quit_at_resolved_asks_and_confirming_forgets_the_action() -> None:
    session = new_game("deathzap3", "g")
    plan = play_to_action(session, 3, setup=False)
    events = len(session.game.log)
    app = battle_app(session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        wizard = await open_plan(pilot, plan)
        await pilot.press(*keys_for(wizard.resolution.step, entered=True))  # the last
        await pilot.pause()
        assert wizard.resolution.done  # "Resolved. Confirm to record it."
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, AskScreen)
        await pilot.press("n")  # stay
        await pilot.pause()
        assert app.screen is wizard and app.is_running
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, BattleScreen)
    assert len(session.game.log) == events + 1
    assert Session.resume("g").kept_action() == (None, "")


@aiotest
async def test_cancelling_forgets_the_action_and_quits_without_asking() -> None:
    session = new_game("classic", "g")
    plan = play_to_action(session, 3, setup=False)
    app = battle_app(session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await open_plan(pilot, plan)
        await pilot.press("ctrl+x")
        await pilot.pause()
        assert isinstance(app.screen, BattleScreen)
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert not app.is_running
    assert Session.resume("g").kept_action() == (None, "")


@aiotest
async def test_a_stale_kept_action_is_dropped_with_a_message() -> None:
    session = new_game("deathzap3", "g")
    plan = play_to_action(session, 3, setup=False)
    session.keep_action(session.begin(plan.option.intent))
    assert session.in_flight is not None
    record = session.in_flight.load()
    assert record is not None
    session.undo()  # the game moves on...
    session.in_flight.store(record)  # ...and a crash left the record behind
    seen: list[str] = []
    app = battle_app(session)
    app.notify = lambda message, **kw: seen.append(message)  # type: ignore[method-assign]
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, BattleScreen)
    assert any("was dropped: the game has moved on since" in m for m in seen)


KILLED = """
import asyncio, json, sys
from test_inflight_app import SIZE, keys_of, open_plan, shown
from inflight_fixtures import new_game, play_to_action
from app_helpers import battle_app

async def main():
    session = new_game(sys.argv[1], "g")
    plan = play_to_action(session, 3, setup=False)
    app = battle_app(session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        step, answers, history = shown(await open_plan(pilot, plan))
        print(json.dumps({"step": step.key, "answers": answers, "history": history}),
              flush=True)
        await asyncio.sleep(600)

asyncio.run(main())
"""


def killed_in_wizard(script: str, ruleset_id: str, wizard: str) -> dict[str, Any]:
    """Run ``script`` (an app stopping in ``wizard`` of a new ``ruleset_id`` game) in
    a process of its own and kill -9 it there: the step, answers and history it
    printed."""
    proc = subprocess.Popen([sys.executable, "-c", script, ruleset_id],
                            stdout=subprocess.PIPE, env=child_env())
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line, f"the app never got to {wizard}"
        return dict(json.loads(line))
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset_id", registry.ids())
@aiotest
async def test_kill_9_mid_action_and_resume_in_every_ruleset(ruleset_id: str) -> None:
    before = killed_in_wizard(KILLED, ruleset_id, "the wizard")
    step, answers, history = await resumed_wizard("g")
    assert step.key == before["step"]
    assert answers == before["answers"]  # typed answers and the same generated dice
    assert history == before["history"]


KILLED_SET_UP = """
import asyncio, json, sys
from test_inflight_app import SIZE, shown
from inflight_fixtures import FORCES
from app_helpers import keys_for
from deathzap_tui.app.app import DeathzapApp, GamePlan, Launch
from deathzap_tui.headless.forcelist import pair_for

async def main():
    red, black = pair_for(FORCES, sys.argv[1])
    app = DeathzapApp(Launch("setup", plan=GamePlan(red, black, 5, save="g",
                                                    ruleset_id=sys.argv[1])))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        wizard = app.screen
        await pilot.press(*keys_for(wizard.resolution.step, entered=True))
        await pilot.pause()
        step, answers, history = shown(wizard)
        print(json.dumps({"step": step.key, "answers": answers, "history": history}),
              flush=True)
        await asyncio.sleep(600)

asyncio.run(main())
"""


@pytest.mark.slow
@pytest.mark.parametrize("ruleset_id", registry.ids())
@aiotest
async def test_kill_9_mid_set_up_and_resume_in_every_ruleset(ruleset_id: str) -> None:
    """Issue 26: the set-up's answers are kept as they are given, not on quitting: a
    kill -9 after the first answer of the pre-game wizard resumes at the same step."""
    before = killed_in_wizard(KILLED_SET_UP, ruleset_id, "the set-up's wizard")
    assert before["answers"], "the first answer was not taken"
    step, answers, history = await resumed_wizard("g")
    assert step.key == before["step"]
    assert answers == before["answers"]
    assert history == before["history"]

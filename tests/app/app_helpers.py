"""Building sessions at known points and answering wizard steps with keys."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from deathzap_tui.app.app import DeathzapApp, GamePlan, Launch
from deathzap_tui.headless.describe import auto_answer
from deathzap_tui.headless.flow import new_session, quick_setup
from deathzap_tui.paths import PROJECT_ROOT
from deathzap_tui.rules.steps import DiceRequest, Question
from deathzap_tui.saves import unique_save_path


def session_at(red: Path, black: Path, *, seed: int = 7, draws: int = 0,
               options: dict[str, Any] | None = None, save: str | None = None) -> Any:
    """A session after quick set-up and ``draws`` cards, each card's activations
    used by the first listed unit advancing (generated dice)."""
    # A fixed name (not the forces and today's date): the board shows it.
    s = new_session(GamePlan(red, black, seed, options or {},
                             save or unique_save_path("game").stem))
    quick_setup(s)
    for _ in range(draws):
        s.game.play({"type": "draw"})
        for _ in range(10):
            acts = [o for o in s.intents() if o.intent.get("type") == "activate"
                    and o.intent.get("action") == "advance" and "command" not in o.intent]
            if not acts:
                break
            action = s.begin(acts[0].intent)
            res = action.resolution
            while res.step is not None:
                res.answer(auto_answer(res.step))
            s.commit(action)
    return s


def battle_app(session: Any, dice_mode: str = "physical") -> DeathzapApp:
    return DeathzapApp(Launch("battle"), session=session, dice_mode=dice_mode)


def keys_for(step: Any, *, entered: bool) -> list[str]:
    """Key presses that answer ``step`` in the wizard: typed faces (all 6s) or
    ctrl+r for dice; the default's key (else "1") for a choice; the default (or
    minimum) for a number."""
    from deathzap_tui.app.wizard.wizard import choice_key

    if isinstance(step, DiceRequest):
        if not entered:
            return ["ctrl+r"]
        return ["6"] * step.count + ["enter"]
    if isinstance(step, Question) and step.choices:
        index = 1
        if step.default is not None:
            values = [c.value for c in step.choices]
            if str(step.default) in values:
                index = values.index(str(step.default)) + 1
        return [choice_key(index - 1)]
    value = auto_answer(step)
    return [*str(value), "enter"]


async def finish_wizard(pilot: Any, app: Any, *, dice: str = "typed") -> int:
    """Answer every step of the open wizard by keys (picking the first unit and
    action where it asks), then confirm. ``dice``: "typed" (all 6s), "rolled"
    (ctrl+r) or "mixed" (alternately). Returns the number of dice steps."""
    from deathzap_tui.app.wizard.wizard import WizardScreen

    dice_steps = 0
    for _ in range(120):
        screen = app.screen
        if not isinstance(screen, WizardScreen):
            return dice_steps
        if screen.resolution is None:
            await pilot.press("1")
            continue
        step = screen.resolution.step
        if step is None:
            await pilot.press("ctrl+s")
            continue
        entered = dice == "typed"
        if isinstance(step, DiceRequest):
            dice_steps += 1
            entered = dice == "typed" or (dice == "mixed" and dice_steps % 2 == 1)
        await pilot.press(*keys_for(step, entered=entered))
    raise AssertionError("the wizard did not finish")


def aiotest(fn: Any) -> Any:
    """Run an ``async def`` test with asyncio (no pytest-asyncio here)."""
    import asyncio
    import functools

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return asyncio.run(fn(*args, **kwargs))

    return wrapper


def copy_forces(workdir: Path, names: tuple[str, str]) -> tuple[Path, Path]:
    """Copies of two shipped forces (red, black) in the test's forces/."""
    red, black = (shutil.copy(PROJECT_ROOT / "forces" / n, workdir / "forces" / n)
                  for n in names)
    return Path(red), Path(black)


async def choose_ruleset(pilot: Any, ruleset_id: str) -> set[str]:
    """On the start screen, choose ``ruleset_id`` in the ruleset list; returns the
    names of the two force files it preselects."""
    from textual.widgets import Input, Select

    screen = pilot.app.screen
    ruleset = screen.query_one("#ruleset", Select)
    assert ruleset_id in {v for _l, v in ruleset._options}
    ruleset.value = ruleset_id
    await pilot.pause()
    await pilot.pause()
    return {Path(screen.query_one(f"#{s}-path", Input).value).name for s in ("red", "black")}


async def quick_start_turns(pilot: Any, ruleset_id: str) -> None:
    """Quick start from the start screen (ctrl+g): a battle screen of ``ruleset_id``
    with the turn clock shown and no deck (a ruleset played in turns)."""
    from deathzap_tui.app.battle.battle import BattleScreen
    from deathzap_tui.app.battle.clock import ClockWidget
    from deathzap_tui.app.battle.deck import DeckWidget

    await pilot.press("ctrl+g")
    await pilot.pause()
    app = pilot.app
    assert isinstance(app.screen, BattleScreen)
    assert app.session.ruleset.id == ruleset_id
    assert app.screen.query_one(ClockWidget).display
    assert not app.screen.query_one(DeckWidget).display


def play_quick(paths: tuple[Path, Path], seed: int, monkeypatch: Any) -> Any:
    """``deathzap play --red R --black B --seed N --quick`` without running the app:
    the session it would open."""
    from deathzap_tui.cli import build_parser
    from deathzap_tui.commands import play

    launched: list[DeathzapApp] = []
    monkeypatch.setattr(DeathzapApp, "run", lambda self, **kw: launched.append(self))
    args = build_parser().parse_args(["play", "--red", str(paths[0]), "--black",
                                      str(paths[1]), "--seed", str(seed), "--quick"])
    assert play.run(args) == 0
    return launched[-1].session


def play_out(session: Any, option: Any) -> Any:
    """Begin ``option`` and answer every step as nobody asked (rolled dice, defaults)."""
    action = session.begin(option.intent)
    while action.resolution.step is not None:
        action.resolution.answer(auto_answer(action.resolution.step))
    return action

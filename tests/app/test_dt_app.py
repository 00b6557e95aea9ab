"""Double Tap 2.1 in the app: the start screen offers it with its two 50-point armies
(DT §2), quick start and ``play --quick`` walk its set-up (the roll-off, deployment,
the objective markers: DT §2, app readings 2 and 3), the battle screen shows round 1
at both sizes, and a newcomer plays a whole game at one shared terminal: set-up and
Red's first turn with keys only — an action Black reacts to, Black answering its
reaction questions on its own screen (DT §6, app reading 6) — then the other turns
through the battle screen's own commit, to the game-over screen and its result on
markers (DT §2, app reading 4)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from app_helpers import (
    aiotest,
    battle_app,
    choose_ruleset,
    copy_forces,
    keys_for,
    play_quick,
    quick_start_turns,
)
from ch_helpers import screen_text

from deathzap_tui.app.app import DeathzapApp, GamePlan, Launch
from deathzap_tui.app.battle.battle import BattleScreen
from deathzap_tui.app.battle.clock import ClockWidget
from deathzap_tui.app.common.keybar import KeyBar
from deathzap_tui.app.gameover.gameover import GameOverScreen
from deathzap_tui.app.start.setup import SetupScreen
from deathzap_tui.app.wizard.wizard import WizardScreen, choice_key
from deathzap_tui.headless.describe import auto_answer
from deathzap_tui.headless.flow import new_session, quick_setup
from deathzap_tui.rules.ruleset import ADVANCE, SETUP, UNIT
from deathzap_tui.rules.steps import Answer, Question, Step
from deathzap_tui.session import Session

DT_FORCES = ("dt-kestrel-cell.toml", "dt-rustmoth-gang.toml")
DT_SEED = 9
"""Seed 9: Red wins the deployment roll-off (5 v 1), so Red deploys first and plays
the first turn of every round (DT §2, §3); the markers die is a 5: three markers.
Red's first action in the tests: Tech Imre holds and fires its Carbine at Boss Karn
(the first enemy, 12", in the open); Black's Gunner Mott may answer by shooting."""
SMALL = (80, 24)
LARGE = (120, 40)
MARKERS = {(1, "marker.1"): "red", (1, "marker.2"): "black", (2, "marker.2"): "both"}
"""The players' answers at the end of a round (DT §2, app reading 4): Red seizes
marker 1 and Black marker 2 in round 1; in round 2 both sides are near marker 2,
which is neutral again; otherwise no side is near a marker."""


@pytest.fixture
def dt_paths(workdir: Path) -> tuple[Path, Path]:
    """Copies of the two shipped Double Tap armies in the test's forces/."""
    return copy_forces(workdir, DT_FORCES)


def dt_session(red: Path, black: Path, save: str = "dt") -> Session:
    """A Double Tap game after quick set-up: round 1, Red's turn, 5 points."""
    session = new_session(GamePlan(red, black, DT_SEED, {}, save))
    quick_setup(session)
    return session


def table_answer(state: Any, step: Step) -> Answer:
    """How the players answer when nobody is scripted (generated dice, defaults), but
    with reactions and markers: the side asked always reacts, with its units' last
    offered reaction (shoot, melee or dodge) for every other unit, chosen in force
    order (DT §6); the markers
    as :data:`MARKERS` (a side that may not seize one is not offered: nobody)."""
    if isinstance(step, Question) and step.choices:
        values = [c.value for c in step.choices]
        if step.key.startswith("marker."):
            wanted = MARKERS.get((state.round, step.key), "none")
            return wanted if wanted in values else "none"
        if step.key.startswith("react."):
            return "yes"
        if step.key.startswith("reactor."):  # the first unit left of an even index
            return next((v for v in values[1:] if int(v.rsplit(".", 1)[1]) % 2 == 0),
                        "none")
        if step.key.startswith("reaction.") and step.key.count(".") == 2:
            return values[-1]
    return auto_answer(step)


def play_out(session: Any, option: Any) -> Any:
    """Begin ``option`` and answer every step as :func:`table_answer`: the action,
    ready to commit."""
    action = session.begin(option.intent)
    res = action.resolution
    while res.step is not None:
        res.answer(table_answer(res.ctx.state, res.step))
    return action


class Turns:
    """Which option to play next: each turn two activations (units and actions taken
    in a stride through the menu, for variety: shooting, charges, specials) and
    then "End turn" (DT §3: the points left are forfeited)."""

    def __init__(self) -> None:
        self.count = 0
        self.turn: tuple[int, str] = (0, "")
        self.spent = 0

    def next(self, state: Any, options: list[Any]) -> Any:
        if (state.round, state.player) != self.turn:
            self.turn, self.spent = (state.round, state.player), 0
        units = [o for o in options if o.group == UNIT]
        if units and self.spent < 2:
            self.spent += 1
            self.count += 1
            return units[(3 * self.count) % len(units)]
        return next(o for o in options if o.group == ADVANCE)


async def answer_by_keys(pilot: Any, pick: Callable[[Step], Answer | None] = lambda s: None,
                         *, until: str = "") -> Step | None:
    """Answer the open wizards' steps by keys: ``pick(step)``'s answer where it gives
    one (a choice's key, or a number typed), else :func:`keys_for` (rolled dice, the
    default choice); confirm each finished action. Stops before the step whose key is
    ``until`` (returned) or once no wizard is open (``None``)."""
    app = pilot.app
    for _ in range(200):
        screen = app.screen
        if not isinstance(screen, WizardScreen):
            assert not until, f"no step {until}"
            return None
        step = screen.resolution.step
        if step is None:
            await pilot.press("ctrl+s")
            continue
        if step.key == until:
            await pilot.pause()
            return step
        value = pick(step)
        if value is None:
            await pilot.press(*keys_for(step, entered=False))
        elif isinstance(step, Question) and step.choices:
            await pilot.press(choice_key([c.value for c in step.choices].index(value)))
        else:
            await pilot.press(*str(value), "enter")
    raise AssertionError("the wizard did not finish")


async def pick_action(pilot: Any, unit: str, action: str) -> None:
    """On the battle screen: the activation key, then ``unit`` and ``action`` by keys."""
    await pilot.press("a")
    screen = pilot.app.screen
    units = [payload for _label, payload in screen.pick.options]
    await pilot.press(choice_key(units.index(("unit", unit))))
    actions = [payload[1].intent["action"] for _label, payload in screen.pick.options]
    await pilot.press(choice_key(actions.index(action)))


def who_line(app: Any) -> str:
    """The step box's "who answers" line."""
    return str(app.screen.query_one("#wiz-who").render())


def test_dt_battle_small(snap_compare, dt_paths) -> None:
    """DT §3: round 1 of 4, Red's turn with 5 activation points (one per unit); the
    three neutral markers in the Score (DT §2); every unit row fits 80 columns."""
    assert snap_compare(battle_app(dt_session(*dt_paths)), terminal_size=SMALL)


def test_dt_battle_large(snap_compare, dt_paths) -> None:
    assert snap_compare(battle_app(dt_session(*dt_paths)), terminal_size=LARGE)


@aiotest
async def test_dt_start_screen_offers_double_tap_with_its_armies(dt_paths) -> None:
    """Choosing Double Tap preselects its two armies, 50 points each (DT §2), and its
    house rule, the number of rounds (4, DT §2); quick start walks the set-up to round
    1 on a battle screen with the round track and no deck."""
    from textual.widgets import Input

    app = DeathzapApp(Launch("start", seed=DT_SEED))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert await choose_ruleset(pilot, "double-tap") == set(DT_FORCES)
        assert screen.query_one("#opt-rounds", Input).value == "4"
        text = screen_text(app)
        assert "Kestrel Cell — 5 units, 50 pts" in text
        assert "Rustmoth Gang — 6 units, 50 pts" in text
        await quick_start_turns(pilot, "double-tap")
        clock = app.session.view().clock
        assert (clock.number, clock.phases, clock.current) == (1, ("Red turn", "Black turn"),
                                                               "Red turn")
        keys = app.screen.query_one(KeyBar)._text.plain
        assert "a Activate" in keys and "d End turn" in keys


def test_dt_play_quick_walks_the_setup(dt_paths, monkeypatch) -> None:
    """``deathzap play --quick`` plays the roll-off, the deployment and the markers
    (DT §2, app readings 2 and 3): round 1 begins with Red's turn."""
    session = play_quick(dt_paths, DT_SEED, monkeypatch)
    assert session.ruleset.id == "double-tap"
    assert SETUP not in {o.group for o in session.intents()}
    said = session.narrative()
    assert said[0] == "Roll-off: Red rolled 5, Black rolled 1."
    assert sum(" is placed within " in line for line in said) == 11
    assert "Rolled 5: 3 objective markers (DT §2)." in said
    assert said[-1] == "Red's turn: 5 activation points, one per living unit (DT §3)."
    assert [m.holder for m in session.game.state.markers] == ["", "", ""]


@pytest.mark.slow
@aiotest
async def test_dt_whole_game_from_the_start_screen(dt_paths) -> None:
    """A newcomer's game at one terminal (hot seat): the start screen (Double Tap,
    generated dice); the set-up by keys — the roll-off, each side placing its units in
    turn with Black's Ambush unit kept in reserve (DT §2, §7), the markers; Red's first
    turn by keys — Tech Imre fires its Carbine, and Black's reaction questions come to
    a screen that says Black answers and that Red hands over the keys (DT §6, app
    reading 6): Black reacts with Gunner Mott's shot; then Red ends its turn. The
    other turns are committed through the battle screen as the wizard would, to the
    game-over screen and its result on markers after round 4 (DT §2)."""
    from textual.widgets import Select

    app = DeathzapApp(Launch("start", seed=DT_SEED))
    async with app.run_test(size=LARGE) as pilot:
        await pilot.pause()
        start = app.screen
        start.query_one("#ruleset", Select).value = "double-tap"
        start.query_one("#dice", Select).value = "generated"
        await pilot.pause()
        await pilot.pause()
        await pilot.press("ctrl+s")  # start with set-up
        assert isinstance(app.screen, SetupScreen)
        await pilot.press("enter")  # the roll-off, deployment, the markers

        def deploy(step: Step) -> Answer | None:
            values = [c.value for c in getattr(step, "choices", ()) or ()]
            return "reserve:black.3" if "reserve:black.3" in values else None

        await answer_by_keys(pilot, deploy)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, BattleScreen)
        session = app.session
        state = session.game.state
        said = session.narrative()
        assert "Black Stalker Vess is kept in reserve" in "\n".join(said)
        assert "Rolled 5: 3 objective markers (DT §2)." in said
        assert (state.stage, state.round, state.player, state.points["red"]) == \
            ("battle", 1, "red", 5)
        assert "▶ Red turn" in str(screen.query_one(ClockWidget).render())

        # Red's first turn: Tech Imre holds and fires; Black reacts (DT §6).
        await pick_action(pilot, "red.3", "hold")
        reactions = {"react.black": "yes", "reactor.black.1": "black.1",
                     "reaction.black.1": "shoot"}.get

        def react(step: Step) -> Answer | None:
            return reactions(step.key)

        step = await answer_by_keys(pilot, react, until="react.black")
        assert step.side == "black"
        assert who_line(app) == "BLACK answers  ⇄ RED hands over to BLACK"
        assert "Does Black react to Red Tech Imre's Hold" in screen_text(app)
        await answer_by_keys(pilot, react, until="reactor.black.1")
        assert who_line(app) == "BLACK answers"  # the same player goes on
        assert "Which Black unit reacts" in screen_text(app)  # one choice of the units
        await answer_by_keys(pilot, react, until="reaction.black.1")
        assert "Move" in screen_text(app) and "Dodge" in screen_text(app)
        await answer_by_keys(pilot, react, until="doctor.red.3")
        assert who_line(app) == "RED answers  ⇄ BLACK hands over to RED"
        await answer_by_keys(pilot, react)
        assert app.screen is screen
        said = session.narrative()
        assert "Black reacts: Black Gunner Mott shoots (DT §6)." in said
        assert any(line.startswith("Black Gunner Mott: shooting at Red Tech Imre")
                   for line in said)
        assert "Red: 4 activation points left" in str(screen.query_one(ClockWidget).render())
        await pilot.press("d")  # Red ends its turn: the 4 points left are forfeited
        assert session.narrative()[-2:] == [
            "Red ends its turn, forfeiting 4 activation points (DT §3).",
            "Black's turn: 6 activation points, one per living unit (DT §3)."]

        # The rest of the game, committed through the battle screen.
        turns = Turns()
        for _ in range(200):
            if session.view().over:
                break
            screen.commit(play_out(session, turns.next(session.game.state, screen.options)))
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        state = session.game.state
        said = "\n".join(session.narrative())
        assert "Black Stalker Vess arrives from reserve" in said  # round 2 (DT §7)
        assert "reacts: " in said.split("Round 2 of 4")[1]
        assert state.over and state.round == 4
        assert [m.holder for m in state.markers] == ["red", "", ""]
        text = screen_text(app)
        assert "Red wins (round 4 of 4 is over; Red holds 1 marker, Black 0)" in text
        assert "Marker 1: held by Red" in text and "Marker 2: neutral" in text
    # The save is current: resuming it rebuilds the same state.
    assert Session.resume(session.path).game.state == session.game.state

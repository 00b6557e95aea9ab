"""Deathzap Plasmashok in the app: the start screen offers it with its own forces,
the battle screen shows its phase track and training bracket (no deck) at both sizes,
the wizard shows the blocking dice and the odds of a shot (PS §5), and a newcomer
plays a whole game from the start screen to its result on points lost (PS §8): turn 1
with keys only, turns 2 to 4 through the battle screen's own commit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from app_helpers import (
    aiotest,
    battle_app,
    choose_ruleset,
    copy_forces,
    finish_wizard,
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
from deathzap_tui.app.wizard.odds import OddsPanel, panel_text
from deathzap_tui.app.wizard.wizard import WizardScreen
from deathzap_tui.headless.describe import auto_answer
from deathzap_tui.headless.flow import new_session, quick_setup
from deathzap_tui.rules.ruleset import ADVANCE, SETUP, UNIT
from deathzap_tui.rules.steps import DiceRequest
from deathzap_tui.session import Session

PS_FORCES = ("ps-iron-choir.toml", "ps-verdant-swarm.toml")
PS_SEED = 7
"""Seed 7: Black wins the base-line roll-off (1 v 5); Red moves first in turn 1
(5 v 2). In turn 1's shooting the elite Choir Wardens fire first: their Advanced
Rifles roll 3 4 5 3 4 at the Thorn Hounds, whose defence 3 6 1 1 blocks both 3s."""
SMALL = (80, 24)
LARGE = (120, 40)


@pytest.fixture
def ps_paths(workdir: Path) -> tuple[Path, Path]:
    """Copies of the two shipped Plasmashok forces in the test's forces/."""
    return copy_forces(workdir, PS_FORCES)


def play_out(session: Any, option: Any) -> Any:
    """Begin ``option`` on ``session`` and answer every step as nobody asked (generated
    dice, defaults): the action, ready to commit."""
    action = session.begin(option.intent)
    while action.resolution.step is not None:
        action.resolution.answer(auto_answer(action.resolution.step))
    return action


def ps_session(red: Path, black: Path, *, to: str = "movement") -> Session:
    """A Plasmashok game after quick set-up, advanced (``next`` only, generated dice)
    until its step is ``to``: "movement" is turn 1's movement after the roll-off."""
    session = new_session(GamePlan(red, black, PS_SEED, {}, "ps"))
    quick_setup(session)
    for _ in range(20):
        if session.game.state.step == to:
            return session
        (advance,) = [o for o in session.intents() if o.group == ADVANCE]
        session.commit(play_out(session, advance))
    raise AssertionError(f"never reached {to}")


def test_ps_battle_small(snap_compare, ps_paths) -> None:
    """PS §3: turn 1 of 4, movement, Red moves first; the Score says the points lost."""
    assert snap_compare(battle_app(ps_session(*ps_paths)), terminal_size=SMALL)


def test_ps_battle_large(snap_compare, ps_paths) -> None:
    assert snap_compare(battle_app(ps_session(*ps_paths)), terminal_size=LARGE)


async def to_strength_roll(pilot: Any) -> None:
    """Turn 1's shooting, elite bracket: the Choir Wardens fire (defaults: the Thorn
    Hounds in the open at 12") up to the strength roll, after the defence roll
    (PS §5 steps 1-2)."""
    app = pilot.app
    await pilot.press("a")
    for _ in range(30):
        screen = app.screen
        assert isinstance(screen, WizardScreen)
        if screen.resolution is None:
            await pilot.press("1")
            continue
        step = screen.resolution.step
        if isinstance(step, DiceRequest) and step.key.startswith("strength."):
            await pilot.pause()
            return
        await pilot.press(*keys_for(step, entered=False))
    raise AssertionError("no strength roll")


@pytest.mark.slow
def test_ps_wizard_blocking_small(snap_compare, ps_paths) -> None:
    """80x24: the defence roll's narration (which face blocks how many attack dice,
    PS §5 step 2) above the odds strip (expected damage and wounds)."""
    app = battle_app(ps_session(*ps_paths, to="shooting"))
    assert snap_compare(app, terminal_size=SMALL, run_before=to_strength_roll)


@pytest.mark.slow
def test_ps_wizard_blocking_large(snap_compare, ps_paths) -> None:
    """120x40: the whole history of the shot beside the odds column."""
    app = battle_app(ps_session(*ps_paths, to="shooting"))
    assert snap_compare(app, terminal_size=LARGE, run_before=to_strength_roll)


@pytest.mark.slow
@aiotest
async def test_ps_wizard_odds_follow_the_blocking_dice(ps_paths) -> None:
    """PS §5: after the defence roll the history says which faces blocked, and the
    odds panel gives the damage and wounds expected from the dice left unblocked."""
    app = battle_app(ps_session(*ps_paths, to="shooting"))
    async with app.run_test(size=SMALL) as pilot:
        await to_strength_roll(pilot)
        screen = app.screen
        attack = screen.resolution.ctx.facts["attack"]
        assert attack["stage"] == "strength" and attack["defence_faces"] == [3, 6, 1, 1]
        said = screen.resolution.ctx.notes[-1].text
        assert said == ("Defence 3 6 1 1: the 1s block none, the 3 blocks 2, the 6 blocks "
                        "none; 3 unblocked (PS §5 step 2).")
        assert "▶ Defence 3 6 1 1: the 1s block none, the 3 blocks 2" in screen_text(app)
        panel = screen.query_one(OddsPanel)
        [entry] = panel.entries
        assert entry.odds == app.session.ruleset.attack_odds(screen.resolution.ctx.state,
                                                             attack)
        plain = panel.plain()
        assert "Thorn Hounds" in plain and "given the dice so far" in plain
        assert "damage" in plain and "wounds" in plain and "≥1 wound" in plain
        # The strip does not wrap: at 80 columns the hits distribution gives way so
        # that the expected casualties stay in sight.
        strip = panel_text(panel.entries, full=False, side=False, width=78).plain
        assert "Expected hits 4.6, damage 9.21, wounds 6.14, casualties 5.92 of 8" in strip
        assert max(len(line) for line in strip.splitlines()) <= 78
        assert "Expected hits 4.6 (0 " in panel_text(panel.entries, full=False,
                                                     side=False, width=120).plain


@pytest.mark.slow
@aiotest
async def test_ps_start_screen_offers_plasmashok_with_its_forces(ps_paths, demo_paths) -> None:
    """Choosing Plasmashok preselects its two forces (priced, PS §9) and offers its
    one house rule (the number of turns, PS §8); quick start walks the set-up roll-off
    (PS §1) to a battle screen with the five-phase track and no deck."""
    from textual.widgets import Input

    app = DeathzapApp(Launch("start", seed=PS_SEED))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert await choose_ruleset(pilot, "plasmashok") == set(PS_FORCES)
        assert screen.query_one("#opt-turns", Input).value == "4"
        text = screen_text(app)
        assert "Iron Choir — 5 units, 272 pts" in text
        assert "Verdant Swarm — 5 units, 240 pts" in text
        await quick_start_turns(pilot, "plasmashok")
        view = app.session.view()
        assert view.clock.phases == ("Movement", "Special combat", "Shooting", "Melee",
                                     "Morale")
        assert "d Roll off" in app.screen.query_one(KeyBar)._text.plain


@aiotest
async def test_ps_setup_key_plays_the_base_line_rolloff(ps_paths) -> None:
    """On a battle screen before set-up the set-up key plays the roll-off for base
    lines (PS §1); then the advance key offers the movement roll-off (PS §3)."""
    session = new_session(GamePlan(*ps_paths, PS_SEED, {}, "ps"))
    app = battle_app(session, dice_mode="generated")
    async with app.run_test(size=SMALL) as pilot:
        keys = app.screen.query_one(KeyBar)
        assert "n Set-up step" in keys._text.plain
        await pilot.press("n")
        await finish_wizard(pilot, app, dice="rolled")
        assert session.game.state.stage == "battle"
        assert "Black's base line is the south edge" in "\n".join(session.narrative())
        assert "n Set-up step" not in keys._text.plain and "d Roll off" in keys._text.plain


def test_ps_play_quick_walks_the_setup(ps_paths, monkeypatch) -> None:
    """``deathzap play --quick`` reaches turn 1's movement roll-off (PS §3) with no
    set-up left."""
    session = play_quick(ps_paths, 7, monkeypatch)
    assert session.ruleset.id == "plasmashok"
    groups = {o.group for o in session.intents()}
    assert ADVANCE in groups and SETUP not in groups
    assert session.view().clock.number == 0


@pytest.mark.slow
@aiotest
async def test_ps_whole_game_from_the_start_screen(ps_paths) -> None:
    """A newcomer's game: the start screen (Plasmashok, generated dice), the set-up
    roll-off (PS §1), turn 1 with keys only — the movement roll-off (PS §3), a unit
    moving into contact, special combat (PS §4), a shot (PS §5), the compulsory melee
    and its end (PS §6), morale (PS §7) — with the phase track and the advance key
    following every phase and bracket; then turns 2 to 4 through the battle screen's
    own commit, to the game-over screen and its result on points lost (PS §8)."""
    from textual.widgets import Select

    app = DeathzapApp(Launch("start", seed=PS_SEED))
    async with app.run_test(size=LARGE) as pilot:
        await pilot.pause()
        start = app.screen
        start.query_one("#ruleset", Select).value = "plasmashok"
        start.query_one("#dice", Select).value = "generated"
        await pilot.pause()
        await pilot.pause()
        await pilot.press("ctrl+s")  # start with set-up
        assert isinstance(app.screen, SetupScreen)
        await pilot.press("enter")  # the base-line roll-off (PS §1)
        await finish_wizard(pilot, app, dice="rolled")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, BattleScreen)
        session = app.session
        keys = screen.query_one(KeyBar)

        async def key(name: str) -> None:
            await pilot.press(name)
            await finish_wizard(pilot, app, dice="rolled")
            assert app.screen is screen

        def clock() -> tuple[int, str, str, str]:
            c = session.view().clock
            return c.number, c.current, c.active, c.detail

        def units_offered() -> list[str]:
            return [o.intent["unit"] for o in screen.options if o.group == UNIT]

        def unit(unit_id: str) -> Any:
            return session.game.state.unit(unit_id)

        assert session.game.state.stage == "battle" and clock() == (0, "", "", "")
        assert "d Roll off" in keys._text.plain
        await key("d")  # the movement roll-off: Red 5, Black 2
        assert clock() == (1, "Movement", "red", "Red moves first")
        assert "▶ Movement" in screen_text(app) and "RED to act" in screen_text(app)
        assert "d Done moving" in keys._text.plain

        await key("a")  # Red's Choir Wardens move into contact with the Thorn Hounds
        assert unit("red.0").engaged == ["black.0"]
        await key("d")  # Red has moved
        assert clock()[:3] == (1, "Movement", "black")
        await key("d")  # Black has moved
        assert clock() == (1, "Special combat", "", "elite bracket")
        track = str(screen.query_one(ClockWidget).render())
        assert "▶ Special combat" in track and "elite bracket" in track
        assert "d End bracket" in keys._text.plain

        await key("a")  # the Wardens' special combat at the first enemy unit (PS §4)
        assert unit("red.0").acted
        await key("d")  # end the elite bracket: its casualties come off
        assert clock()[1:] == ("Special combat", "", "recruit bracket")
        await key("d")
        assert clock()[1:] == ("Shooting", "", "elite bracket")
        shooters = units_offered()
        assert "red.0" not in shooters  # in contact: it may not shoot (PS §5)
        assert shooters[0] == "red.4"
        await key("a")  # Red's Cantor Engine fires every weapon (defaults)
        assert units_offered() == shooters[1:]
        while clock()[1] == "Shooting":
            await key("d")  # end each bracket of shooting
        assert clock()[1] == "Melee"
        # Melee is compulsory (PS §6): no advance key while a unit must still fight.
        assert units_offered() and not [o for o in screen.options if o.group == ADVANCE]
        while clock()[1] == "Melee":  # every unit in contact fights, bracket by bracket
            await key("a" if units_offered() else "d")
        assert clock()[1] == "Morale"
        assert not unit("red.0").engaged  # the end of the melee broke contact
        assert any(line.startswith("End of melee: ") for line in session.narrative())
        await key("d")  # morale, and the end of turn 1
        # Issue 22: between turns the track shows the turn the header announces.
        assert clock() == (2, "", "", "") and session.view().prompt.startswith("Turn 2:")
        assert "▶" not in str(screen.query_one(ClockWidget).render())

        # Turns 2 to 4: every unit that can act does (into contact, shooting,
        # fighting), committed through the battle screen as the wizard would.
        for _ in range(300):
            if session.view().over:
                break
            options = [o for o in screen.options if o.group == UNIT] or \
                [o for o in screen.options if o.group == ADVANCE]
            screen.commit(play_out(session, options[0]))
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        text = screen_text(app)
        state = session.game.state
        lost = state.lost
        assert state.turn == 4 and state.over
        # PS §8: the side that lost more points of models loses.
        assert state.winner == ("red" if lost["red"] < lost["black"] else
                                "black" if lost["black"] < lost["red"] else "draw")
        result = "Draw" if state.winner == "draw" else f"{state.winner.title()} wins"
        assert (f"{result} (turn 4 of 4 is over; Red lost {lost['red']} points of models, "
                f"Black {lost['black']})") in text
    # The save is current: resuming it rebuilds the same state.
    assert Session.resume(session.path).game.state == session.game.state

"""The wizard in a Double Tap action at one shared terminal (hot seat): Red's Tech
Imre holds and fires its Carbine at Boss Karn (12", in the open: 3 attacks at 3+,
DT §4); Black is asked first whether it reacts, then unit by unit (DT §6, app reading
6), on a screen that names Black as the side answering and says that Red hands over
the keys; Boss Karn dodges, and the odds panel gives the exact odds of the shot after
that reaction: 2 dodge tests at 4+ each cancelling a success (app reading 7), then
blocks at 4+ against a Tough target (DT §4, §7) and its morale (DT §5)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from app_helpers import aiotest, battle_app, copy_forces
from ch_helpers import screen_text
from test_dt_app import DT_FORCES, answer_by_keys, dt_session, pick_action, who_line

from deathzap_tui.app.wizard.odds import OddsPanel
from deathzap_tui.rules.steps import Answer, Step

SMALL = (80, 24)
LARGE = (120, 40)
DODGE = {"react.black": "yes", "reactor.black.1": "black.0", "reaction.black.0": "dodge",
         "hit.1": "556"}
"""Black reacts; Boss Karn, the target, dodges; Red's Carbine rolls 5 5 6: three
successes for the dodge to cancel."""


@pytest.fixture
def dt_paths(workdir: Path) -> tuple[Path, Path]:
    return copy_forces(workdir, DT_FORCES)


def scripted(step: Step) -> Answer | None:
    return DODGE.get(step.key)


def to_step(key: str) -> Any:
    """A ``run_before`` for snapshots: Tech Imre's Hold up to the step ``key``."""

    async def run(pilot: Any) -> None:
        await pick_action(pilot, "red.3", "hold")
        await answer_by_keys(pilot, scripted, until=key)

    return run


def test_dt_wizard_reaction_small(snap_compare, dt_paths) -> None:
    """80x24: the reacting side's yes/no (DT §6) in a step box headed "BLACK answers"
    with the hand-over from Red; the odds of the shot as declared above it."""
    assert snap_compare(battle_app(dt_session(*dt_paths)), terminal_size=SMALL,
                        run_before=to_step("react.black"))


def test_dt_wizard_reaction_large(snap_compare, dt_paths) -> None:
    """120x40: the same question with the whole history of the action (weapon, split,
    distance, cover) and the odds column."""
    assert snap_compare(battle_app(dt_session(*dt_paths)), terminal_size=LARGE,
                        run_before=to_step("react.black"))


def test_dt_wizard_odds_after_dodge_small(snap_compare, dt_paths) -> None:
    """80x24: Boss Karn's dodge tests (app reading 7), the odds strip given the 3
    successes rolled and the dodge still to come."""
    assert snap_compare(battle_app(dt_session(*dt_paths)), terminal_size=SMALL,
                        run_before=to_step("cancel.black.0"))


def test_dt_wizard_odds_after_dodge_large(snap_compare, dt_paths) -> None:
    assert snap_compare(battle_app(dt_session(*dt_paths)), terminal_size=LARGE,
                        run_before=to_step("cancel.black.0"))


@aiotest
async def test_dt_reaction_questions_and_exact_odds_after_the_dodge(dt_paths) -> None:
    """The reacting side's questions come one at a time to a screen that says Black
    answers (DT §6, app reading 6), the hand-over said once as the keys change hands,
    and again back to Red; Esc back to Red's question shows Red's screen. The odds
    panel follows the reaction: exact odds of Red's shot through Boss Karn's dodge
    (app reading 7), Tough blocks (DT §4, §7) and morale (DT §5)."""
    app = battle_app(dt_session(*dt_paths))
    async with app.run_test(size=SMALL) as pilot:
        await pick_action(pilot, "red.3", "hold")
        await answer_by_keys(pilot, scripted, until="react.black")
        screen = app.screen
        assert who_line(app) == "BLACK answers  ⇄ RED hands over to BLACK"
        await pilot.press("escape")  # back to Red's own question: Red's screen
        assert screen.resolution.step.key == "down.black.0"
        assert who_line(app) == "RED answers"
        await answer_by_keys(pilot, scripted, until="reactor.black.1")
        assert who_line(app) == "BLACK answers"
        text = screen_text(app)
        assert "Which Black unit reacts to Red Tech Imre's Hold" in text
        assert "Only a unit that can see it may react" in text
        await answer_by_keys(pilot, scripted, until="reaction.black.0")
        assert "Black Boss Karn: react to Red Tech Imre's Hold" in screen_text(app)
        # The target, in the open, may move or dodge: it has no ranged weapon (DT §6).
        assert [c.value for c in screen.resolution.step.choices] == ["move", "dodge"]
        await answer_by_keys(pilot, scripted, until="hit.1")
        assert "Black reacts: Black Boss Karn dodges (DT §6)." in \
            [n.text for n in screen.resolution.ctx.notes]
        assert who_line(app) == "RED rolls  ⇄ BLACK hands over to RED"

        def panel() -> Any:
            [entry] = screen.query_one(OddsPanel).entries
            assert entry.label == "Boss Karn" and entry.current
            return entry.odds

        # As declared: successes S ~ Binomial(3, 2/3); cancelled C ~ Binomial(2, 1/2);
        # hits = max(S - C, 0), so E[hits] = (6 x 1/4 + 12 x 1 + 8 x 2) / 27 = 59/54.
        odds = panel()
        attack = screen.resolution.ctx.facts["attack"]
        assert attack["cancel"] == {"kind": "dodge", "modifier": 0, "dice": 2}
        assert odds == app.session.ruleset.attack_odds(screen.resolution.ctx.state, attack)
        assert odds.hits_mean == pytest.approx(float(Fraction(59, 54)), abs=1e-12)
        await answer_by_keys(pilot, scripted, until="cancel.black.0")
        assert who_line(app) == "BLACK rolls  ⇄ RED hands over to BLACK"
        assert attack["stage"] == "cancel" and attack["successes"] == 3
        # Given 3 successes: hits 3 - C, 1 to 3 (1/4, 1/2, 1/4). Each hit a block at
        # 4+; Tough, so killed only by 3 failed blocks: 1/4 x 1/8. At least one
        # wound: 1/4 x 1/2 + 1/2 x 3/4 + 1/4 x 7/8 = 23/32. Hit and standing, morale
        # failed at 4+: (1 - 1/32) x 1/2 = 31/64.
        odds = panel()
        assert odds.hits_mean == pytest.approx(2.0)
        assert odds.casualties[1] == pytest.approx(float(Fraction(1, 32)))
        assert odds.p_any_wound == pytest.approx(float(Fraction(23, 32)))
        assert odds.p_break == pytest.approx(float(Fraction(31, 64)))
        plain = screen.query_one(OddsPanel).plain()
        assert "Boss Karn" in plain and "given the dice so far" in plain
        assert "≥1 wound 72%" in plain and "falls back 48%" in plain
        await pilot.press("1", "1", "enter")  # dodge tests 1 1: nothing cancelled
        assert attack["stage"] == "block" and attack["hits"] == 3
        assert panel().p_any_wound == pytest.approx(float(Fraction(7, 8)))


@aiotest
async def test_dt_rush_hands_over_on_its_first_step_dt_s6(dt_paths) -> None:
    """A Red Rush begins with Black's question whether it reacts (DT §6): the first
    step of the action already says that Red hands the keys over to Black, though
    nobody has answered anything in it yet."""
    app = battle_app(dt_session(*dt_paths))
    async with app.run_test(size=SMALL) as pilot:
        await pick_action(pilot, "red.0", "rush")
        screen = app.screen
        assert not screen.asked and screen.resolution.step.key == "react.black"
        assert who_line(app) == "BLACK answers  ⇄ RED hands over to BLACK"


@aiotest
async def test_dt_r1_the_wizard_asks_the_second_die_at_8_plus(dt_paths) -> None:
    """DT-R1 (seed double-tap-2.1.txt, Modifiers: "If you need to roll a 7+ or higher
    to succeed, then a roll of 6+ followed by 4+ is a success."): Tech Imre, flashed
    (-2) and hacked (-1), fires its Carbine at Boss Karn 5" away in cover (-1): 8+.
    The wizard asks the three dice at 6+ (the two sixes typed), then a second die at
    4+ for each six, rolled by ctrl+r: never "cannot succeed"."""
    session = dt_session(*dt_paths)
    imre = session.game.state.unit("red.3")  # test poke: a flash and a hack in play
    imre.flashed_until, imre.hacked = "black", True
    app = battle_app(session)
    script = {"react.black": "no", "distance.black.0": 5, "cover.black.0": "yes",
              "hit.1": "662"}

    def pick(step: Step) -> Answer | None:
        return script.get(step.key)

    async with app.run_test(size=SMALL) as pilot:
        await pick_action(pilot, "red.3", "hold")
        first = await answer_by_keys(pilot, pick, until="hit.1")
        assert first is not None and (first.count, first.target) == (3, 6)
        assert "needs 8+ (a 6, then 4+)" in first.why
        second = await answer_by_keys(pilot, pick, until="hit.1.second")
        assert second is not None and (second.count, second.target) == (2, 4)
        assert "2 sixes rolled again: each 4+ is a success (DT §1)" in screen_text(app)
        await pilot.press("ctrl+r")
        await pilot.pause()
        notes = [n.text for n in app.screen.resolution.ctx.notes]
        assert any("needing 8+, each 6 must be followed by a 4+ (DT §1, DT-R1)" in n
                   for n in notes)
        rolled = app.screen.resolution.answers[-1]
        assert rolled.generated and len(rolled.faces) == 2
        faces = " ".join(map(str, rolled.faces))
        assert f"Red Tech Imre: shooting at Black Boss Karn, second dice: rolled {faces}" \
            in "\n".join(notes)
        assert not any("cannot succeed" in n for n in notes)

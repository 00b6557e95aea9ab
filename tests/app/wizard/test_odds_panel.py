"""Issue 4 in the app: the wizard's odds panel during a real shooting activation
(demo forces, seed 7, two cards drawn: Black's Blade Cell Umbra shoots at Red's
Command Section with a Needler group and a Storm Caster)."""

from __future__ import annotations

from app_helpers import aiotest, battle_app, keys_for, session_at

from deathzap_tui.app.wizard.odds import OddsPanel
from deathzap_tui.app.wizard.wizard import WizardScreen
from deathzap_tui.rules.steps import DiceRequest

SMALL = (80, 24)
LARGE = (120, 40)


async def to_first_hit_roll(pilot, order: str = "1") -> None:
    """Draw, activate, and answer (defaults, soft cover, ``order`` for which attack
    first: 1 Needler, 2 Storm Caster) up to the first to-hit roll."""
    app = pilot.app
    await pilot.press("d", "a")
    for _ in range(30):
        screen = app.screen
        assert isinstance(screen, WizardScreen)
        if screen.resolution is None:
            await pilot.press("1")
            continue
        step = screen.resolution.step
        if isinstance(step, DiceRequest):
            assert step.key.endswith(".hit")
            return
        if step.key.startswith("shoot.cover"):
            await pilot.press("2")  # soft cover
            continue
        if step.key.startswith("shoot.order"):
            await pilot.press(order)
            continue
        await pilot.press(*keys_for(step, entered=False))
    raise AssertionError("no to-hit roll")


def panel(app) -> OddsPanel:
    return app.screen.query_one(OddsPanel)


@aiotest
async def test_the_panel_shows_the_declared_odds_and_updates_after_the_hit_roll(
        demo_paths) -> None:
    app = battle_app(session_at(*demo_paths, draws=2))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("d", "a", "1", "1")
        assert not panel(app).display, "no attack declared yet: no panel"
        await pilot.press("escape", "escape")
        await to_first_hit_roll(pilot)
        screen = app.screen
        ruleset = app.session.ruleset
        odds_panel = panel(app)
        assert odds_panel.display
        [entry] = odds_panel.entries
        facts = screen.resolution.ctx.facts
        assert entry.current and entry.queued == 1
        assert entry.odds == ruleset.attack_odds(screen.resolution.ctx.state, facts["attack"])
        before = odds_panel.plain()
        assert "Command Section" in before and "as declared" in before
        assert "≥1 casualty" in before and "breaks" in before
        # its own leader is alive: the +1 applies without asking (DZ3 §11, app ruling)
        assert facts["attack"]["own_leader"] and entry.odds.p_break_with_leader is None

        # The to-hit dice as rolled at the table: typed faces, which a step back may
        # take back (generated ones it may not, issue 19: chance once shown is spent).
        await pilot.press(*keys_for(screen.resolution.step, entered=True))
        await pilot.pause()
        assert screen.resolution.step.key.endswith(".shields")
        after = odds_panel.plain()
        assert after != before and "given the dice so far" in after
        [entry] = odds_panel.entries
        assert entry.stage == "shields"
        assert entry.odds.hits_mean == facts["attack"]["hits"]
        assert entry.odds == ruleset.attack_odds(screen.resolution.ctx.state, facts["attack"])

        await pilot.press("ctrl+o")  # the chart, in the history's place
        assert odds_panel.detail and "chance" in odds_panel.plain()
        assert not screen.query_one("#wiz-history").display
        await pilot.press("ctrl+o")
        assert not odds_panel.detail and screen.query_one("#wiz-history").display

        await pilot.press("escape")  # back a step: the declared odds again
        await pilot.pause()
        assert odds_panel.plain() == before


async def at_hit_roll(pilot) -> None:
    await to_first_hit_roll(pilot)
    await pilot.pause()


async def storm_caster_first(pilot) -> None:
    await to_first_hit_roll(pilot, order="2")
    await pilot.pause()


def test_snapshot_odds_strip_small(snap_compare, demo_paths) -> None:
    """80x24: the strip above the step box, before the first die."""
    app = battle_app(session_at(*demo_paths, draws=2))
    assert snap_compare(app, terminal_size=SMALL, run_before=at_hit_roll)


def test_snapshot_odds_column_large(snap_compare, demo_paths) -> None:
    """120x40: the side column with the bar chart (the Strike weapon first)."""
    app = battle_app(session_at(*demo_paths, draws=2))
    assert snap_compare(app, terminal_size=LARGE, run_before=storm_caster_first)

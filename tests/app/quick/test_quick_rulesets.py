"""Quick resolve for every ruleset (issue 26), by keys at 80x24: each kind of attack
and test of each ruleset reaches its result through the same wizard, with generated
dice (Enter rolls, and Enter takes a number question's default), the odds panel
naming units by their names, and the result in sight without scrolling."""

from __future__ import annotations

import pytest
from app_helpers import aiotest, copy_forces, keys_for
from textual.widgets import Select

from deathzap_tui.app.app import DeathzapApp, Launch
from deathzap_tui.app.quick.quick import QuickResolveScreen
from deathzap_tui.app.wizard.odds import OddsPanel
from deathzap_tui.app.wizard.wizard import WizardScreen
from deathzap_tui.rules import registry
from deathzap_tui.rules.steps import DiceRequest, Question

FORCES = {
    "deathzap3": ("mortans-men.toml", "demo-vanta-syndicate.toml"),
    "command-hand": ("ch-cinder-collective.toml", "ch-ironbark-rangers.toml"),
    "classic": ("cl-black-maw-brood.toml", "cl-red-dawn-irregulars.toml"),
    "plasmashok": ("ps-iron-choir.toml", "ps-verdant-swarm.toml"),
    "double-tap": ("dt-rustmoth-gang.toml", "dt-kestrel-cell.toml"),
}
"""The attacker's and the target's force files of each ruleset."""
UNITS = {("double-tap", "shoot"): 2, ("double-tap", "melee"): 3,
         ("double-tap", "grenade"): 3}
"""The attacker's unit (1-based) where the first cannot do the kind; Double Tap's
hack comes from the target's force (its Hacker), at the attacker's first unit."""
SWAPPED = {("double-tap", "hack"): 5}
TARGETS = {("double-tap", "detect"): 2}
"""The target's unit (1-based) where it must be a particular one (a camouflaged one)."""
SIZE = (80, 24)


async def _pick(pilot, select_id: str, value: object) -> None:
    """Choose ``value`` in a Select by keys: open it, move down to it, Enter."""
    screen = pilot.app.screen
    select = screen.query_one(select_id, Select)
    values = [v for _label, v in select._options if v != Select.NULL]
    screen.set_focus(select)
    await pilot.press("enter", *["down"] * (values.index(value) - values.index(select.value)),
                      "enter")
    assert select.value == value


async def _answer_all(pilot, app) -> list[str]:
    """Answer every step by keys as a player with generated dice would: Enter rolls
    the dice and takes a number's default, a choice is its default's key. Returns
    every unit label the odds panel showed."""
    labels: list[str] = []
    for _ in range(80):
        screen = app.screen
        if not isinstance(screen, WizardScreen):
            return labels
        labels += [e.label for e in screen.query_one(OddsPanel).entries]
        step = screen.resolution.step
        if step is None or isinstance(step, DiceRequest) or (
                isinstance(step, Question) and not step.choices):
            await pilot.press("enter")
        else:
            await pilot.press(*keys_for(step, entered=False))
    raise AssertionError("the wizard did not finish")


@pytest.mark.slow
@pytest.mark.parametrize("rid", sorted(FORCES))
@aiotest
async def test_every_kind_reaches_its_result_by_keys(rid, workdir) -> None:
    attacker, target = copy_forces(workdir, FORCES[rid])
    kinds = [k for k, _ in registry.get(rid).quick_kinds()]
    assert kinds
    for kind in kinds:
        swapped = SWAPPED.get((rid, kind))
        first, second = (target, attacker) if swapped else (attacker, target)
        unit = swapped or UNITS.get((rid, kind), 1)
        app = DeathzapApp(Launch("resolve", attacker=f"forces/{first.name}:{unit}",
                                 target=f"forces/{second.name}:{TARGETS.get((rid, kind), 1)}"),
                          dice_mode="generated")
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, QuickResolveScreen)
            if screen.query_one("#kind", Select).value != kind:
                await _pick(pilot, "#kind", kind)
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert isinstance(app.screen, WizardScreen), (kind, str(
                screen.query_one("#quick-message").render()))
            labels = await _answer_all(pilot, app)
            await pilot.pause()
            assert app.screen is screen
            result = screen.query_one("#quick-result")
            names = {u.name for f in (first, second) for u in screen.forces[
                "attacker" if f is first else "target"].force.units}
            assert all(label in names for label in labels), (kind, labels)  # no ids
            assert result.display and result.lines, kind
            # The result's end is on the screen, without scrolling.
            assert result.region.bottom <= SIZE[1] - 1
            last = result.lines[-1].plain.split()[-1]
            assert last in str(result.render()), kind


@pytest.mark.slow
@pytest.mark.parametrize("rid", sorted(FORCES))
def test_the_result_at_80x24(snap_compare, rid, workdir) -> None:
    """The quick screen after a shooting attack with generated dice (seed 1): the
    result's end above the form, the form below it."""
    attacker, target = copy_forces(workdir, FORCES[rid])
    unit = UNITS.get((rid, "shoot"), 1)
    app = DeathzapApp(Launch("resolve", attacker=f"forces/{attacker.name}:{unit}",
                             target=f"forces/{target.name}:1"), dice_mode="generated")

    async def resolve(pilot) -> None:
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        await _answer_all(pilot, app)
        await pilot.pause()

    assert snap_compare(app, run_before=resolve, terminal_size=SIZE)


@pytest.mark.slow
@aiotest
async def test_a_typed_target_of_another_ruleset_is_resolved(workdir) -> None:
    """A Plasmashok unit from a file shoots a Plasmashok unit typed in (the template)."""
    attacker, _ = copy_forces(workdir, FORCES["plasmashok"])
    app = DeathzapApp(Launch("resolve", attacker=f"forces/{attacker.name}:1"),
                      dice_mode="generated")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        await _pick(pilot, "#target-source", "type:plasmashok")
        await pilot.pause()
        assert screen.forces["target"].source == "<typed target>"
        await pilot.press("ctrl+s")
        await pilot.pause()
        await _answer_all(pilot, app)
        await pilot.pause()
        result = screen.query_one("#quick-result")
        assert app.screen is screen and result.display
        typed = screen.forces["target"].force.units[0].name
        assert any(typed in line.plain for line in result.lines)


@aiotest
async def test_a_kind_the_unit_cannot_do_says_why_in_sight(workdir) -> None:
    """Special combat by a unit without it: the rule's reason above the form."""
    attacker, target = copy_forces(workdir, FORCES["plasmashok"])
    app = DeathzapApp(Launch("resolve", attacker=f"forces/{attacker.name}:2",
                             target=f"forces/{target.name}:1"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        await _pick(pilot, "#kind", "special")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is screen
        message = screen.query_one("#quick-message")
        assert "has no special combat (PS §4)" in str(message.render())
        assert message.region.bottom <= SIZE[1] - 1 and message.region.height


@pytest.mark.parametrize("rid", sorted(FORCES))
@aiotest
async def test_the_odds_of_a_shot_are_a_handful_of_keys_away(rid, workdir) -> None:
    """From the opened screen to the odds panel of "my unit shoots that unit": ctrl+s,
    then each question's default (one key each), at most 5 keys in every ruleset."""
    attacker, target = copy_forces(workdir, FORCES[rid])
    unit = UNITS.get((rid, "shoot"), 1)
    app = DeathzapApp(Launch("resolve", attacker=f"forces/{attacker.name}:{unit}",
                             target=f"forces/{target.name}:1"), dice_mode="generated")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+s")
        keys = 1
        wizard = app.screen
        assert isinstance(wizard, WizardScreen)
        while not wizard.query_one(OddsPanel).entries:
            step = wizard.resolution.step
            assert isinstance(step, Question), step
            await pilot.press(*(keys_for(step, entered=False) if step.choices else ["enter"]))
            keys += 1
        assert keys <= 5, keys

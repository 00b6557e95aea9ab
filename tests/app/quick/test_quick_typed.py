"""Quick resolve with a unit typed in (issue 3: "or type a statline in"): the text
area's templates, a typed target resolved to the end, a broken text kept and located."""

from __future__ import annotations

import pytest
from app_helpers import aiotest, keys_for

from deathzap_tui.forcefile import force_from_text
from deathzap_tui.headless.templates import fallback, template
from deathzap_tui.rules import registry


@pytest.mark.parametrize("ruleset_id", registry.ids())
def test_every_ruleset_has_a_template_that_is_a_valid_one_unit_force(ruleset_id) -> None:
    text = registry.get(ruleset_id).force_template()
    assert text and template(ruleset_id) == text
    loaded = force_from_text(text, f"<template {ruleset_id}>")
    assert loaded.ruleset.id == ruleset_id
    assert loaded.warnings == []
    assert len(loaded.force.units) == 1


def test_an_unknown_ruleset_gets_the_fallback() -> None:
    assert template("no-such-ruleset") == fallback("no-such-ruleset")


def _line_of(text: str, start: str) -> int:
    """0-based row of the first line of ``text`` starting with ``start``."""
    return next(i for i, line in enumerate(text.splitlines()) if line.startswith(start))


async def _type_the_target(pilot, app) -> object:
    """Choose "a unit typed in (Deathzap 3)" for the target with keys; the text area
    (prefilled with the template) gets the focus."""
    from textual.widgets import TextArea

    app.screen.query_one("#target-source").focus()
    await pilot.press("enter", "down", "enter")
    await pilot.pause()
    area = app.screen.query_one("#target-text", TextArea)
    assert app.screen.focused is area
    assert area.text == template("deathzap3")
    assert not app.screen.query_one("#target-file-row").display
    return area


async def _edit_shields(pilot, value: str) -> None:
    """Cursor from the top to the end of the ``shields =`` line; replace the number."""
    row = _line_of(template("deathzap3"), "shields =")
    await pilot.press("ctrl+home", *["down"] * row, "end", "backspace", *value)


async def _finish(pilot, app) -> None:
    """Answer every step; a quick resolve never says it records anything (issue 11)."""
    from textual.widgets import Static

    from deathzap_tui.app.wizard.wizard import WizardScreen

    for _ in range(60):
        screen = app.screen
        if not isinstance(screen, WizardScreen):
            return
        step = screen.resolution.step if screen.resolution is not None else None
        if screen.resolution is None:
            await pilot.press("1")
        elif step is None:
            said = str(screen.query_one("#wiz-headline", Static).render())
            assert "nothing is recorded" in said and "record it" not in said
            await pilot.press("ctrl+s")
        else:
            await pilot.press(*keys_for(step, entered=True))  # typed dice: all 6s
    raise AssertionError("the wizard did not finish")


@pytest.mark.slow
@aiotest
async def test_a_typed_target_is_shot_at_through_the_wizard(demo_paths, workdir) -> None:
    from deathzap_tui.app.app import DeathzapApp, Launch
    from deathzap_tui.app.quick.quick import QuickResolveScreen
    from deathzap_tui.app.wizard.wizard import WizardScreen

    app = DeathzapApp(Launch("resolve", attacker=f"forces/{demo_paths[0].name}:2"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, QuickResolveScreen)
        await _type_the_target(pilot, app)
        await _edit_shields(pilot, "2")
        await pilot.press("ctrl+s")  # reads the text at once, then resolves
        await pilot.pause()
        assert isinstance(app.screen, WizardScreen)
        typed = screen.forces["target"]
        assert typed.source == "<typed target>"
        assert typed.force.units[0].shields == 2
        await _finish(pilot, app)
        await pilot.pause()
        assert app.screen is screen
        shown = screen.query_one("#quick-result")
        assert shown.display and "Result" in shown.border_title
        result = "\n".join(line.plain for line in shown.lines)
        assert "fires" in result
        assert "at Black Typed unit" in result
        assert "/2 left" in result  # the typed shields, DZ3 §6
    assert list((workdir / "saves").iterdir()) == []


@aiotest
async def test_a_broken_typed_unit_is_located_and_kept(demo_paths) -> None:
    from deathzap_tui.app.app import DeathzapApp, Launch
    from deathzap_tui.app.quick.quick import QuickResolveScreen

    app = DeathzapApp(Launch("resolve", attacker=f"forces/{demo_paths[0].name}:2"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        area = await _type_the_target(pilot, app)
        await _edit_shields(pilot, "-1")
        broken = area.text
        assert "shields = -1" in broken
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, QuickResolveScreen)  # no wizard
        line = _line_of(broken, "shields =") + 1
        problems = str(screen.query_one("#target-problems").render())
        assert f"line {line}: units[0].shields: must be at least 0" in problems
        assert "problems" in str(screen.query_one("#quick-message").render())
        assert area.text == broken and app.screen.focused is area
        assert "target" not in screen.forces
        # Fixed in place, it is read again after a pause in typing.
        await pilot.press("backspace", "backspace", "3")
        await pilot.pause(0.6)
        assert "Read: 1 unit" in str(screen.query_one("#target-problems").render())
        assert screen.forces["target"].force.units[0].shields == 3

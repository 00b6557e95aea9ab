"""Issue 11: the start screen reads a force file as soon as it is chosen and lists
every problem in it (``file:line: path: message``, shown as text, never markup), and
no game starts from a force file with errors."""

from __future__ import annotations

from pathlib import Path

from app_helpers import aiotest

from deathzap_tui.app.app import DeathzapApp, Launch
from deathzap_tui.app.start.start import StartScreen


def broken_force(good: Path, workdir: Path) -> Path:
    """The demo force with two errors, each holding text that looks like markup."""
    text = good.read_text(encoding="utf-8")
    text = text.replace('power = "light"', 'power = "[red]laser"', 1)
    text = text.replace('shots = 4\npower = "medium"\n\n[weapons.breaching',
                        'shots = "[bold]x"\npower = "medium"\n\n[weapons.breaching', 1)
    bad = workdir / "forces" / "broken.toml"
    bad.write_text(text, encoding="utf-8")
    return bad


@aiotest
async def test_every_problem_is_listed_and_blocks_the_start(demo_paths, workdir) -> None:
    bad = broken_force(demo_paths[0], workdir)
    app = DeathzapApp(Launch("start", red=bad, black=demo_paths[1]))
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, StartScreen)
        about = str(screen.query_one("#red-about").render())
        assert "2 errors" in about
        assert 'broken.toml:10: weapons.service-rifle.power: "[red]laser" is not a power' \
            in about
        assert 'broken.toml:17: weapons.support-gun.shots: expected a whole number ' \
               '(shots), got the text "[bold]x"' in about
        assert "units" in str(screen.query_one("#black-about").render())
        await pilot.press("ctrl+g")
        assert app.screen is screen and app.session is None
        assert "RED force file has problems" in str(screen.query_one("#problems").render())


async def described(red: Path, black: Path) -> tuple[str, str]:
    """What a start screen opened on ``red`` and ``black`` says of each."""
    app = DeathzapApp(Launch("start", red=red, black=black))
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        return (str(app.screen.query_one("#red-about").render()),
                str(app.screen.query_one("#black-about").render()))


@aiotest
async def test_a_force_edited_since_the_last_start_is_described_as_it_is(
        demo_paths, workdir) -> None:
    """Issue 21: what the start screen said of a force file is kept for the next start,
    and never said again of the file once it changed."""
    red, black = demo_paths
    first = await described(red, black)
    assert " pts" in first[0] and " pts" in first[1]
    assert await described(red, black) == first  # said again from what was kept
    text = red.read_text(encoding="utf-8")
    red.write_text(text.replace('name = "', 'name = "Renamed ', 1), encoding="utf-8")
    renamed, _ = await described(red, black)
    assert renamed == "Renamed " + first[0]
    bad = broken_force(red, workdir)
    red.write_text(bad.read_text(encoding="utf-8"), encoding="utf-8")
    broken, _ = await described(red, black)
    assert broken.startswith("2 errors in this force file")

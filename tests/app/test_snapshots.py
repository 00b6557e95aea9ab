"""Snapshots of every screen and of the wizard at each kind of step, at 80x24 and a
larger size, with fixed seeds (look at an SVG before accepting it:
``pytest tests/app --snapshot-update`` then open the SVGs in the __snapshots__ folder
beside each test file)."""

from __future__ import annotations

from pathlib import Path

from app_helpers import battle_app, session_at

from deathzap_tui.app.app import DeathzapApp, GamePlan, Launch

SMALL = (80, 24)
LARGE = (120, 40)


async def settle(pilot) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()  # the start screen's saves, read in a thread
    await pilot.pause()


def test_start_small(snap_compare, demo_paths) -> None:
    assert snap_compare(DeathzapApp(Launch("start", seed=7)), terminal_size=SMALL,
                        run_before=settle)


def test_start_large(snap_compare, demo_paths) -> None:
    assert snap_compare(DeathzapApp(Launch("start", seed=7)), terminal_size=LARGE,
                        run_before=settle)


def test_setup_sides(snap_compare, demo_paths) -> None:
    plan = GamePlan(*demo_paths, seed=7, save="snap")
    assert snap_compare(DeathzapApp(Launch("setup", plan=plan)), terminal_size=SMALL)


def test_setup_rolloff_dice(snap_compare, demo_paths) -> None:
    plan = GamePlan(*demo_paths, seed=7, save="snap")
    assert snap_compare(DeathzapApp(Launch("setup", plan=plan)), press=["enter"],
                        terminal_size=LARGE)


def test_setup_objectives_number(snap_compare, demo_paths) -> None:
    """The objectives step asks for distances: an integer question."""
    plan = GamePlan(*demo_paths, seed=7, save="snap")
    assert snap_compare(DeathzapApp(Launch("setup", plan=plan)),
                        press=["enter", "ctrl+r", "ctrl+r", *"1", "ctrl+s"],
                        terminal_size=SMALL)


def test_battle_first_card_small(snap_compare, demo_paths) -> None:
    app = battle_app(session_at(*demo_paths))
    assert snap_compare(app, press=["d"], terminal_size=SMALL)


def test_battle_midgame_small(snap_compare, demo_paths) -> None:
    app = battle_app(session_at(*demo_paths, draws=6))
    assert snap_compare(app, press=["d"], terminal_size=SMALL)


def test_battle_midgame_large(snap_compare, demo_paths) -> None:
    app = battle_app(session_at(*demo_paths, draws=6))
    assert snap_compare(app, press=["d"], terminal_size=LARGE)


def test_wizard_pick_unit(snap_compare, demo_paths) -> None:
    app = battle_app(session_at(*demo_paths, draws=5))
    assert snap_compare(app, press=["d", "a"], terminal_size=SMALL)


def test_wizard_choice(snap_compare, demo_paths) -> None:
    app = battle_app(session_at(*demo_paths, draws=5))
    assert snap_compare(app, press=["d", "a", "1", "1"], terminal_size=SMALL)


def test_wizard_dice_partial_entry(snap_compare, demo_paths) -> None:
    """Typed dice so far and how many are still expected."""
    app = battle_app(session_at(*demo_paths, draws=5))
    assert snap_compare(app, press=["d", "a", "1", "1", "1", "1", "1", "3", "space", "5"],
                        terminal_size=SMALL)


def test_wizard_dice_refused(snap_compare, demo_paths) -> None:
    app = battle_app(session_at(*demo_paths, draws=5))
    assert snap_compare(app, press=["d", "a", "1", "1", "1", "1", "1", "7", "enter"],
                        terminal_size=SMALL)


def test_wizard_after_generated_roll(snap_compare, demo_paths) -> None:
    """What happened after a roll for me, shown before the next step."""
    app = battle_app(session_at(*demo_paths, draws=5), dice_mode="generated")
    assert snap_compare(app, press=["d", "a", "1", "1", "1", "1", "1", "enter", "enter"],
                        terminal_size=LARGE)


def test_wizard_resolved(snap_compare, demo_paths) -> None:
    """Every step answered: what happened, and confirm / back / cancel."""
    app = battle_app(session_at(*demo_paths, draws=5), dice_mode="generated")

    async def answer_all(pilot) -> None:
        await pilot.press("d", "a", "1", "1", "1", "1", "1")
        for _ in range(30):
            if app.screen.resolution.step is None:
                break
            await pilot.press("enter")

    assert snap_compare(app, run_before=answer_all, terminal_size=SMALL)


def test_help(snap_compare, demo_paths) -> None:
    app = battle_app(session_at(*demo_paths))
    assert snap_compare(app, press=["question_mark", *"strike"], terminal_size=SMALL)


def test_game_over(snap_compare, demo_paths) -> None:
    session = session_at(*demo_paths, draws=4, options={"end": "agreement"})
    app = battle_app(session, dice_mode="generated")
    assert snap_compare(app, press=["e", "y", "enter", "enter", "enter", "ctrl+s"],
                        terminal_size=SMALL)


def test_markup_in_names_is_shown_literally(snap_compare, demo_paths, workdir: Path) -> None:
    """A force and unit named with Textual markup show the brackets as text."""
    text = demo_paths[1].read_text(encoding="utf-8")
    evil = workdir / "forces" / "evil.toml"
    first_unit = text.index("[[units]]")
    head, tail = text[:first_unit], text[first_unit:]
    head = head.replace('name = "', 'name = "[@click=app.quit]Evil[/] ', 1)
    tail = tail.replace('name = "', 'name = "[b]Bold[/b] [link=x]', 1)
    evil.write_text(head + tail, encoding="utf-8")
    app = battle_app(session_at(demo_paths[0], evil))
    assert snap_compare(app, terminal_size=SMALL)


def test_quick_resolve(snap_compare, demo_paths) -> None:
    app = DeathzapApp(Launch("resolve", attacker=f"forces/{demo_paths[0].name}:2",
                             target=f"forces/{demo_paths[1].name}:Shade Cell"))
    assert snap_compare(app, press=["ctrl+s"], terminal_size=SMALL, run_before=settle)

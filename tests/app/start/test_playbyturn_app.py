"""Issue 5 in the app: one writer per save (the lock), "since you last looked" shown
on opening, and read-only watchers that follow the writer's saves."""

from __future__ import annotations

import argparse
import asyncio
import os
from typing import Any

from app_helpers import aiotest, session_at

from deathzap_tui.app.app import DeathzapApp, Launch
from deathzap_tui.app.battle.battle import BattleScreen
from deathzap_tui.app.common.log import EventLog
from deathzap_tui.app.start.since import LockedScreen, SinceScreen
from deathzap_tui.headless.describe import auto_answer
from deathzap_tui.net import lastseen, playbyturn
from deathzap_tui.net.lock import SaveLock, holder, read_only
from deathzap_tui.session import Session


def red_activates(session: Any) -> None:
    """Draw, then activate red units while the card lets red (seed 1: a red card)."""
    session.game.play({"type": "draw"})
    acted = 0
    for _ in range(5):
        acts = [o for o in session.intents() if o.intent.get("type") == "activate"
                and o.side == "red" and "command" not in o.intent]
        if not acts:
            break
        action = session.begin(acts[0].intent, "red")
        while action.resolution.step is not None:
            action.resolution.answer(auto_answer(action.resolution.step))
        session.commit(action)
        acted += 1
    assert acted, "seed 1 should draw a red card"


def fake_run(drive: Any, seen: dict[str, Any]) -> Any:
    """A stand-in for ``App.run`` that drives the app with a Pilot instead."""

    def run(app: DeathzapApp, *args: Any, **kw: Any) -> None:
        async def go() -> None:
            async with app.run_test(size=(100, 30)) as pilot:
                await pilot.pause()
                await drive(app, pilot, seen)
        asyncio.run(go())

    return run


# --- 1. every writer takes the lock, releases it on quit -------------------------
@aiotest
async def test_a_new_game_from_the_start_screen_holds_the_lock_until_quit(demo_paths) -> None:
    app = DeathzapApp(Launch("start", seed=3))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+g")
        await pilot.pause()
        assert isinstance(app.screen, BattleScreen)
        path = app.session.path
        assert holder(path)["pid"] == os.getpid()
    assert holder(path) is None


@aiotest
async def test_the_setup_screen_takes_the_new_saves_lock(demo_paths) -> None:
    from deathzap_tui.app.app import GamePlan

    plan = GamePlan(*demo_paths, 5, {}, "setup-lock")
    app = DeathzapApp(Launch("setup", plan=plan))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("g")  # everything generated
        await pilot.pause()
        assert isinstance(app.screen, BattleScreen)
        assert holder(app.session.path)["pid"] == os.getpid()
    assert holder(app.session.path) is None


@aiotest
async def test_resuming_a_locked_save_names_the_holder_and_offers_to_watch(demo_paths) -> None:
    session = session_at(*demo_paths, save="busy")
    with SaveLock.acquire(session.path, "red in deathzap resume"):
        app = DeathzapApp(Launch("start", seed=3))
        async with app.run_test(size=(100, 30)) as pilot:
            app.screen._resume(session.path)
            await pilot.pause()
            assert isinstance(app.screen, LockedScreen)
            assert f"red in deathzap resume (pid {os.getpid()}" in app.screen.message
            await pilot.press("n")  # back to the start screen, nothing opened
            assert app.session is None
            app.screen._resume(session.path)
            await pilot.pause()
            await pilot.press("y")  # watch it
            await pilot.pause()
            assert isinstance(app.screen, BattleScreen)
            assert app.session.read_only and app.lock is None
            assert holder(session.path)["what"] == "red in deathzap resume"
    # Free now: the start screen opens it for writing and holds it while open.
    app = DeathzapApp(Launch("start", seed=3))
    async with app.run_test(size=(100, 30)) as pilot:
        app.screen._resume(session.path)
        await pilot.pause()
        assert isinstance(app.screen, BattleScreen) and not getattr(app.session, "read_only",
                                                                    False)
        assert holder(session.path)["pid"] == os.getpid()
    assert holder(session.path) is None


def test_cli_play_quick_holds_the_lock_while_the_app_runs(demo_paths, monkeypatch) -> None:
    from deathzap_tui.commands import play

    async def drive(app, pilot, seen) -> None:
        seen["holder"] = holder(app.session.path)
        seen["path"] = app.session.path

    seen: dict[str, Any] = {}
    monkeypatch.setattr(DeathzapApp, "run", fake_run(drive, seen))
    args = argparse.Namespace(red=str(demo_paths[0]), black=str(demo_paths[1]), seed=2,
                              dice="generated", save="cli-quick", quick=True, option=[])
    assert play.run(args) == 0
    assert seen["holder"]["what"] == "deathzap play"
    assert holder(seen["path"]) is None


def test_cli_resume_of_a_locked_save_says_who_has_it(demo_paths, capsys) -> None:
    from deathzap_tui.commands import resume

    session = session_at(*demo_paths, save="held")
    with SaveLock.acquire(session.path, "the referee (deathzap host)"):
        args = argparse.Namespace(save="held", dice="physical", side=None, read_only=False)
        assert resume.run(args) == 1
    err = capsys.readouterr().err
    assert "the referee (deathzap host) (pid" in err and "--read-only" in err


def test_cli_resume_read_only_watches_and_says_who_writes(demo_paths, monkeypatch) -> None:
    from deathzap_tui.commands import resume

    session = session_at(*demo_paths, save="watch-cli")

    async def drive(app, pilot, seen) -> None:
        seen["text"] = str(app.screen.query_one("#since-text").render())
        seen["read_only"] = app.session.read_only
        seen["lock"] = app.lock

    seen: dict[str, Any] = {}
    monkeypatch.setattr(DeathzapApp, "run", fake_run(drive, seen))
    with SaveLock.acquire(session.path, "red in deathzap resume"):
        args = argparse.Namespace(save="watch-cli", dice="physical", side=None,
                                  read_only=True)
        assert resume.run(args) == 0
        assert holder(session.path)["what"] == "red in deathzap resume"  # untouched
    assert seen["read_only"] and seen["lock"] is None
    assert "open for writing by red in deathzap resume" in seen["text"]


# --- 2. "since you last looked" inside the app --------------------------------------
def test_resume_as_black_shows_reds_moves_and_whose_turn_in_the_app(demo_paths,
                                                                     monkeypatch) -> None:
    from deathzap_tui.commands import resume

    session = session_at(*demo_paths, seed=1, save="bymail")
    lastseen.mark(session.path, "black", len(session.game.log))  # black looked, quit
    red, lock, _ = playbyturn.open_for("bymail", "red")
    red_activates(red)
    playbyturn.finish(red, "red", lock)
    expected = lastseen.since(red.game, lastseen.read(red.path)["black"], "black")

    async def drive(app, pilot, seen) -> None:
        screen = app.screen
        seen["screen"] = type(screen)
        seen["title"] = str(screen.query_one("#since-title").render())
        seen["text"] = str(screen.query_one("#since-text").render())
        seen["turn"] = str(screen.query_one("#since-turn").render())
        seen["holder"] = holder(app.session.path)
        await pilot.press("enter")
        seen["after"] = type(app.screen)

    seen: dict[str, Any] = {}
    monkeypatch.setattr(DeathzapApp, "run", fake_run(drive, seen))
    args = argparse.Namespace(save="bymail", dice="physical", side="black", read_only=False)
    assert resume.run(args) == 0
    assert seen["screen"] is SinceScreen and seen["after"] is BattleScreen
    assert "black" in seen["title"]
    assert seen["text"].startswith("Since black last looked (")
    assert any("Red Command Section" in line for line in expected)
    for line in expected:
        assert line in seen["text"]
    assert seen["turn"] == "Now: " + playbyturn.whose_turn(red)
    assert seen["holder"]["what"] == "black in deathzap resume"
    assert holder(red.path) is None
    assert lastseen.read(red.path)["black"] == len(red.game.log)


@aiotest
async def test_the_since_screen_shows_text_as_text(demo_paths) -> None:
    session = session_at(*demo_paths)
    app = DeathzapApp(Launch("battle"), session=session,
                      greeting=("red: since [b]you[/b]", ["[red]x[/red] did it", "Now: go"]))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SinceScreen)
        assert str(app.screen.query_one("#since-text").render()) == "[red]x[/red] did it"
        await pilot.press("escape")
        assert isinstance(app.screen, BattleScreen)


# --- 3. read-only watchers follow the writer -----------------------------------------
@aiotest
async def test_a_read_only_watcher_shows_what_the_writer_saves(demo_paths) -> None:
    session = session_at(*demo_paths, save="watched")
    path = session.path
    with SaveLock.acquire(path, "red in deathzap resume"):
        writer = Session.resume(path)
        watcher = read_only(path)
        app = DeathzapApp(Launch("battle"), session=watcher)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, BattleScreen) and app.lock is None
            before = len(watcher.game.log)
            mtime = path.stat().st_mtime_ns
            await pilot.press("d")  # offers nothing: never writes
            await pilot.pause()
            assert path.stat().st_mtime_ns == mtime
            writer.game.play({"type": "draw"})  # the writer saves a card drawn
            for _ in range(30):
                await pilot.pause(0.1)
                if len(app.session.game.log) > before:
                    break
            assert len(app.session.game.log) == len(writer.game.log) == before + 1
            await pilot.pause()
            log = app.screen.query(EventLog).first()
            assert any("Card drawn" in line.plain for line in log.lines)
            assert app.screen.view.deck == writer.view().deck
            assert "read only" in app.sub_title

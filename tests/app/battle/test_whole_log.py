"""The battle screen's whole log (``l``) of a long game shows its last events' lines,
narrated at hand even just after a resume, and ``e`` the rest (issue 21: the first
whole narrative after a resume replays the game)."""

from __future__ import annotations

import random

import pytest
from app_helpers import aiotest, battle_app
from board_helpers import screen_lines
from dz3_fixtures import play_random_action

from deathzap_tui import saves
from deathzap_tui.app.common.help import EARLIER, TextScreen
from deathzap_tui.net.playbyturn import finish, open_for
from deathzap_tui.paths import PROJECT_ROOT
from deathzap_tui.rules.game import NARRATED_TAIL, Game
from deathzap_tui.session import Session


def long_resumed_game() -> Session:
    """A Deathzap 3 game of more events in force than a resume narrates at hand,
    resumed from the cache ``deathzap resume`` writes."""
    forces = PROJECT_ROOT / "forces"
    session = Session.new(forces / "demo-ashfall-legion.toml",
                          forces / "demo-vanta-syndicate.toml", seed=1,
                          save_path="long", options={"end": "agreement"})
    rnd = random.Random(1)
    while session.game.in_force <= NARRATED_TAIL + 20:
        assert play_random_action(session.game, rnd, skip=("end",))
    assert session.path is not None
    saves.save_game(session.game, session.path)
    opened, lock, _message = open_for("long", None)  # writes the cache
    finish(opened, None, lock)
    assert saves.cache_path(session.path).exists()
    return Session.resume(session.path)


@pytest.mark.slow  # plays 300 events
@aiotest
async def test_the_whole_log_of_a_long_game_pages(monkeypatch) -> None:
    session = long_resumed_game()
    whole = Session.resume(session.path).narrative()
    tail = session.narrative(last=NARRATED_TAIL)
    assert len(tail) < len(whole)
    replayed = []
    real = Game._resolve
    monkeypatch.setattr(Game, "_resolve",
                        lambda *a, **k: replayed.append(1) or real(*a, **k))
    app = battle_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("l")
        await pilot.pause()
        page = app.screen
        assert isinstance(page, TextScreen)
        assert page.lines == tail and not replayed, "the last events, none replayed"
        await pilot.press("home")
        await pilot.pause()
        assert EARLIER in "\n".join(screen_lines(app))
        await pilot.press("e")
        await pilot.pause()
        assert page.lines == whole and page.earlier is None
        assert EARLIER not in "\n".join(screen_lines(app))
        await pilot.press("e")  # nothing more to ask for
        await pilot.pause()
        assert page.lines == whole


@aiotest
async def test_a_short_game_shows_its_whole_log_at_once() -> None:
    session = Session.new(PROJECT_ROOT / "forces" / "demo-ashfall-legion.toml",
                          PROJECT_ROOT / "forces" / "demo-vanta-syndicate.toml", seed=1,
                          save_path="short")
    rnd = random.Random(2)
    for _ in range(10):
        play_random_action(session.game, rnd, skip=("end",))
    app = battle_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("l")
        await pilot.pause()
        assert app.screen.lines == session.narrative() and app.screen.earlier is None

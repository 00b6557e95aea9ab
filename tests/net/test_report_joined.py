"""The end-of-game report at a referee's table (issue 14): a joined terminal asks the
referee (``report``), which answers once the game is over, players and watchers alike,
with the report of its own game; the joined game-over screen shows it, or says where
to get it when the referee cannot send it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from joined_helpers import run, screen_text, until
from referee_harness import HostThread, connecting, hosting
from test_cl_golden import play_scripted_game

from deathzap_tui.net import protocol
from deathzap_tui.net.client import RemoteSession
from deathzap_tui.reporttext import units_note, units_table
from deathzap_tui.rules.steps import Refused
from deathzap_tui.session import Session

pytest.importorskip("textual")


@pytest.fixture
def finished(saves_dir: Path) -> Session:
    """The Classic golden game, over (CL §7)."""
    session = play_scripted_game()
    assert session.over
    return session


@pytest.fixture
def host(finished: Session, tmp_path: Path) -> Iterator[HostThread]:
    yield from hosting(finished, tmp_path / "rep.sock")


@pytest.fixture
def clients(host: HostThread) -> Iterator[Callable[..., RemoteSession]]:
    yield from connecting(host)


def test_players_and_watchers_get_the_referees_report(
        finished: Session, clients: Callable[..., RemoteSession]) -> None:
    report = finished.report()
    for role in ("red", "black", "watch"):
        theirs = clients(role).report()
        assert theirs.to_json() == {**report.to_json(), "rolls": []}  # rolls stay home
        assert theirs.luck == {s: replace(luck, luckiest=theirs.luck[s].luckiest,
                                          unluckiest=theirs.luck[s].unluckiest)
                               for s, luck in report.luck.items()}  # percentiles exact


def test_no_report_while_the_game_is_on(finished: Session, tmp_path: Path) -> None:
    finished.undo()  # the last event: the game is on again
    assert not finished.over
    host = HostThread(finished, tmp_path / "on.sock").start()
    try:
        for connect in connecting(host):
            for role in ("red", "watch"):
                with pytest.raises(Refused, match="when the game is over"):
                    connect(role).report()
    finally:
        host.stop()


def test_the_report_request_is_checked_like_any_other() -> None:
    assert protocol.check_client({"t": "report", "id": 3}) == {"t": "report", "id": 3}
    with pytest.raises(protocol.BadMessage):
        protocol.check_client({"t": "report", "id": 3, "side": "red"})
    with pytest.raises(protocol.BadMessage):
        protocol.check_client({"t": "report"})


@run
async def test_the_joined_game_over_screen_shows_the_report(
        finished: Session, clients: Callable[..., RemoteSession]) -> None:
    from deathzap_tui.app.gameover.gameover import GameOverScreen, ReportText
    from deathzap_tui.app.remote.app import JoinedApp

    watcher = await asyncio.to_thread(clients, "watch")
    app = JoinedApp(watcher, side="watch")
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen)
                    and app.screen.report is not None)
        await pilot.pause()
        screen = app.screen
        assert screen.report.to_json() == {**finished.report().to_json(), "rolls": []}
        units = screen.query_one("#report-units", ReportText)
        width = units.content_size.width
        assert units.render().plain == "\n".join(
            [*units_table(finished.report(), width), *units_note(finished.report(), width)])


@run
async def test_a_referee_that_cannot_send_it_leaves_the_old_summary_and_a_pointer(
        finished: Session, clients: Callable[..., RemoteSession],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An older referee answers "unknown message type": the screen keeps the result
    and score and says where the report is."""
    from deathzap_tui.app.gameover.gameover import GameOverScreen
    from deathzap_tui.app.remote.app import JoinedApp

    def old_referee(self: RemoteSession) -> None:
        raise Refused("bad message: unknown message type 'report'")

    monkeypatch.setattr(RemoteSession, "report", old_referee)
    red = await asyncio.to_thread(clients, "red")
    app = JoinedApp(red, side="red")
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await app.workers.wait_for_complete()
        await pilot.pause()
        text = screen_text(app)
        assert finished.view().result in text and "Final VP" in text
        assert "`deathzap report SAVE` on the host" in text
        assert "unknown message type" in text and app.screen.report is None

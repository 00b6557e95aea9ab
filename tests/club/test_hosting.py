"""A club front-end's games on one event loop (issue 24): one game's write that waits
for the database keeps no other game waiting, and nobody is told of a change
before it is kept. Real stores: the write is held by another connection holding a
lock the write needs."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from server_helpers import (
    Running,
    Seat,
    a_game,
    answer_every,
    begin,
    challenge_and_accept,
    play_turn,
    running,
    seated,
    whose,
)

from deathzap_tui.club.hub import HubClient
from deathzap_tui.club.sqlstore import WRITERS, SqlClubStore
from deathzap_tui.rules.ruleset import other_side

pytestmark = pytest.mark.usefixtures("toy_ruleset")

HOLD = 8.0
"""Seconds at most a test holds a game's write (then lets go, so that a front-end
whose loop waits for the write fails the test rather than hanging it)."""


@contextlib.contextmanager
def held(spec: str, game: int) -> Iterator[None]:
    """Another connection holds a lock that an event of ``game`` needs (its row in
    the games table on PostgreSQL; the whole store's write lock on SQLite), until
    the block ends or :data:`HOLD` seconds pass."""
    if spec.startswith("sqlite:"):
        conn: Any = sqlite3.connect(spec.removeprefix("sqlite:"), isolation_level=None,
                                    check_same_thread=False)
        conn.execute("BEGIN IMMEDIATE")
    else:
        import psycopg

        conn = psycopg.connect(spec, autocommit=True)
        conn.execute("BEGIN")
        conn.execute("SELECT id FROM games WHERE id = %s FOR NO KEY UPDATE", (game,))
    let_go = threading.Lock()
    gone: list[bool] = []

    def release() -> None:
        with let_go:
            if not gone:
                gone.append(True)
                conn.execute("ROLLBACK")
                conn.close()

    timer = threading.Timer(HOLD, release)
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        release()


@contextlib.asynccontextmanager
async def writers_busy(store: SqlClubStore) -> AsyncIterator[None]:
    """Every writer thread of ``store`` busy (other games' long writes, say) until the
    block ends or :data:`HOLD` seconds pass: a game's write waits behind them, and
    the store's own connection stays free for the calls made on the loop."""
    let_go = threading.Event()
    busy = [store.in_thread(lambda: let_go.wait(HOLD)) for _ in range(WRITERS)]
    try:
        yield
    finally:
        let_go.set()
        await asyncio.gather(*busy)


async def answered(seats: dict[str, Seat], side: str) -> dict[str, Any]:
    """Begin ``side``'s hit and answer every step, leaving it to be committed: the
    action as its last answerer was told it."""
    return await answer_every(seats, side, await begin(seats[side], side))


async def two_games(club: Running) -> tuple[dict[str, Seat], dict[str, Seat], int,
                                           list[HubClient]]:
    """alice and bob at two games of one front-end: their seats at each, the first
    game's number, and their lobbies (which hear of every move)."""
    alice, bob, first = await a_game(club)
    second = await challenge_and_accept(club, alice, bob)
    return (await seated(first, alice, bob), await seated(second, alice, bob), first,
            [alice, bob])


def heard_of(lobbies: list[HubClient], game: int) -> list[str]:
    """The news of ``game`` the lobbies have been pushed so far (taken off them)."""
    news = []
    for lobby in lobbies:
        while not lobby.events.empty():
            event = lobby.events.get_nowait()
            if event.get("game") == game:
                news.append(event["what"])
    return news


def test_a_game_whose_write_waits_for_the_database_keeps_no_other_game_waiting(
        pg: Any) -> None:
    """Game 1's commit waits for a row another connection holds; meanwhile a whole
    move of game 2 on the same front-end is played and kept, game 1's players are
    told nothing of the commit, and once the row is let go it is kept and
    acknowledged."""
    spec = pg.database()

    async def main() -> None:
        async with running(spec) as club:  # type: ignore[arg-type]
            one, two, first, lobbies = await two_games(club)
            side = whose(await one["red"].fresh())
            pending = await answered(one, side)
            other = other_side(side)
            shown = (await one[other].fresh())["events"]
            heard_of(lobbies, first)
            with held(spec, first):
                commit = asyncio.ensure_future(one[side].request("commit", aid=pending["aid"]))
                await asyncio.sleep(0.3)  # the commit reached the store, which waits
                started = time.monotonic()
                await play_turn(two, whose(await two["red"].fresh()))
                took = time.monotonic() - started
                assert took < HOLD / 2, f"game 2's move took {took:.1f} s"
                assert not commit.done()  # not acknowledged before it is kept
                assert one[other].state["events"] == shown  # nor shown
                assert heard_of(lobbies, first) == []  # nor told to the lobbies
                assert club.store.game_info(first).events == 0
            reply = await asyncio.wait_for(commit, 10)
            assert reply["t"] == "ok" and reply["events"] == 1, reply
            assert club.store.game_info(first).events == 1
            assert (await one[other].until_state(lambda s: s["events"] == 1))["pending"] is None
            await asyncio.sleep(0.2)
            assert "moved" in heard_of(lobbies, first)

    asyncio.run(main())


def test_on_sqlite_a_write_that_waits_leaves_the_loop_serving_and_tells_nobody_early(
        tmp_path: Any) -> None:
    """SQLite has one writer: a move of another game waits for the lock too, but the
    front-end's loop goes on serving (another game's terminal is answered), and the
    commit is acknowledged and shown only once kept."""
    spec = f"sqlite:{tmp_path / 'club.sqlite'}"

    async def main() -> None:
        async with running(spec) as club:  # type: ignore[arg-type]
            one, two, first, _lobbies = await two_games(club)
            side = whose(await one["red"].fresh())
            pending = await answered(one, side)
            other = other_side(side)
            shown = (await one[other].fresh())["events"]
            with held(spec, first):
                commit = asyncio.ensure_future(one[side].request("commit", aid=pending["aid"]))
                await asyncio.sleep(0.3)  # the commit waits for the store's lock
                started = time.monotonic()
                await two["red"].fresh()  # a ping at game 2: its referee answers
                assert time.monotonic() - started < HOLD / 2
                assert not commit.done()
                assert one[other].state["events"] == shown
            reply = await asyncio.wait_for(commit, 10)
            assert reply["t"] == "ok" and reply["events"] == 1, reply
            assert club.store.game_info(first).events == 1
            assert (await one[other].until_state(lambda s: s["events"] == 1))["pending"] is None

    asyncio.run(main())


def test_a_change_made_elsewhere_while_a_game_is_being_loaded_is_caught_up(
        pg: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Front-end A loads a game on a writer thread (``Club._load``); an action begun
    meanwhile at front-end B, after A has read the game, reaches A's table once it
    is hosted: the notice A heard while loading is made good by a catch-up."""
    spec = pg.database(own=True)

    async def main() -> None:
        async with running(spec) as a, running(spec) as b:  # type: ignore[arg-type]
            a.member("alice", 1), a.member("bob", 2)
            for _ in range(200):  # both front-ends LISTENing
                with a.store._tx(read=True) as run:
                    if run("SELECT COUNT(*) FROM pg_stat_activity WHERE query LIKE ? AND "
                           "datname = current_database()", "LISTEN %")[0][0] >= 2:
                        break
                await asyncio.sleep(0.05)
            game = await challenge_and_accept(b, await b.lobby("alice"), await b.lobby("bob"))
            seats = await seated(game, await b.lobby("alice"), await b.lobby("bob"))
            side = whose(await seats["red"].fresh())
            other = other_side(side)
            info = b.store.game_info(game)
            waiter = info.red if other == "red" else info.black
            assert waiter is not None
            loaded = a.club._load

            def slow(game_id: int) -> Any:
                kept = loaded(game_id)  # read: the action below comes after it
                time.sleep(1.0)
                return kept

            monkeypatch.setattr(a.club, "_load", slow)
            lobby = await a.lobby(waiter, subscribe=False)
            opening = asyncio.ensure_future(lobby.request("open", game=game))
            await asyncio.sleep(0.4)  # A has read the game and is still loading it
            await begin(seats[side], side)
            opened = await asyncio.wait_for(opening, 10)
            seat = await Seat.join(opened["socket"], opened["side"])
            state = seat.state if seat.state.get("pending") else \
                await seat.until_state(lambda s: bool(s.get("pending")), timeout=5)
            assert state["pending"]["by"] == side

    asyncio.run(main())


def test_an_undo_agreed_to_is_told_to_its_asker_only_once_kept(tmp_path: Any) -> None:
    """The asker hears that the other side agreed to their undo only once the undo
    is kept: not while its write waits for the store's lock."""
    spec = f"sqlite:{tmp_path / 'club.sqlite'}"

    async def main() -> None:
        async with running(spec) as club:  # type: ignore[arg-type]
            one, _two, first, _lobbies = await two_games(club)
            side = whose(await one["red"].fresh())
            other = other_side(side)
            await play_turn(one, side)
            assert (await one[side].request("undo"))["t"] == "ok"
            await one[other].until_state(lambda s: s["request"] is not None)
            await one[side].fresh()
            with held(spec, first):
                reply = asyncio.ensure_future(one[other].request("reply", accept=True))
                said: list[dict[str, Any]] = []
                with contextlib.suppress(TimeoutError):
                    while True:
                        said.append(await one[side].next(timeout=0.5))
                assert not reply.done()
                assert [m for m in said if m["t"] == "notice"] == []
            assert (await asyncio.wait_for(reply, 10))["t"] == "ok"
            msg = await one[side].next()
            assert msg == {"t": "notice", "message": f"{other} agreed to your undo"}
            assert club.store.game_info(first).events == 2

    asyncio.run(main())


def test_a_game_opened_while_a_move_waits_to_be_kept_is_not_said_to_have_moved(
        tmp_path: Any) -> None:
    """On SQLite (one front-end, no notices) a player opens a game from the lobby
    while the other's commit waits for the store's one writer thread (busy with
    another write): what the open says happened since they last looked never
    includes the move not kept yet."""
    spec = f"sqlite:{tmp_path / 'club.sqlite'}"

    async def main() -> None:
        async with running(spec) as club:  # type: ignore[arg-type]
            alice, bob, first = await a_game(club)
            seats = await seated(first, alice, bob)
            side = whose(await seats["red"].fresh())
            other = other_side(side)
            pending = await answered(seats, side)
            info = club.store.game_info(first)
            lobby = alice if (info.red if other == "red" else info.black) == "alice" else bob
            let_go = threading.Event()
            busy = club.store.in_thread(lambda: let_go.wait(HOLD))  # another game's write
            try:
                commit = asyncio.ensure_future(seats[side].request("commit", aid=pending["aid"]))
                await asyncio.sleep(0.3)  # the commit waits for the writer thread
                opening = asyncio.ensure_future(lobby.request("open", game=first))
                await asyncio.sleep(0.5)
                if opening.done():
                    assert opening.result()["since"] == [], opening.result()
                assert not commit.done()
            finally:
                let_go.set()
            await busy
            reply = await asyncio.wait_for(commit, 10)
            assert reply["t"] == "ok", reply
            assert (await asyncio.wait_for(opening, 10))["since"] != []

    asyncio.run(main())


async def last_move(seats: dict[str, Seat]) -> dict[str, Any]:
    """Play the game until the action that will end it is answered, leaving it to be
    committed: that action as its last answerer was told it."""
    for _ in range(200):
        side = whose(await seats["red"].fresh())
        pending = await answered(seats, side)
        if any(text.endswith(": 0 left") for _after, text in pending["notes"]):
            return pending
        assert (await seats[pending["by"]].request("commit", aid=pending["aid"]))["t"] == "ok"
    raise AssertionError("the duel did not end in 200 moves")


def test_the_report_is_of_the_game_as_kept_not_of_a_last_move_whose_write_waits(
        club_spec: str) -> None:
    """The move that ends the game waits for the store's writer threads: a report
    asked meanwhile (the other terminal saw the last answer) is not built from the
    game with that move applied, which the store may yet refuse; it is answered
    once the move is kept."""
    async def main() -> None:
        async with running(club_spec) as club:  # type: ignore[arg-type]
            alice, bob, first = await a_game(club)
            seats = await seated(first, alice, bob)
            pending = await last_move(seats)
            side = pending["by"]
            other = other_side(side)
            async with writers_busy(club.store):
                commit = asyncio.ensure_future(seats[side].request("commit", aid=pending["aid"]))
                await asyncio.sleep(0.3)  # the commit waits for a writer thread
                report = asyncio.ensure_future(seats[other].request("report"))
                await asyncio.sleep(0.5)
                assert not commit.done()
                assert not report.done(), report.result()
            assert (await asyncio.wait_for(commit, 10))["t"] == "ok"
            reply = await asyncio.wait_for(report, 10)
            assert reply["t"] == "ok" and reply["report"], reply
            assert club.store.game_info(first).over

    asyncio.run(main())


def test_players_are_marked_seen_only_up_to_the_events_kept_at_shutdown(
        club_spec: str) -> None:
    """The front-end shuts down while a commit waits for the store's writer threads:
    the players at the table are marked as having seen what is kept, not the move
    applied to the table whose write never was made (their unread count would be
    one too low once the game moves on)."""
    async def main() -> None:
        async with running(club_spec) as club:  # type: ignore[arg-type]
            alice, bob, first = await a_game(club)
            seats = await seated(first, alice, bob)
            side = whose(await seats["red"].fresh())
            pending = await answered(seats, side)
            async with writers_busy(club.store):
                commit = asyncio.ensure_future(seats[side].request("commit", aid=pending["aid"]))
                await asyncio.sleep(0.3)  # applied at the table; its write waits
                await club.club.close()  # marks the players' seen, drops the write
            with contextlib.suppress(EOFError, ConnectionError):
                await asyncio.wait_for(commit, 10)
            for member in ("alice", "bob"):
                info = club.store.game_info(first, member)
                assert (info.events, info.seen) == (0, 0), (member, info)

    asyncio.run(main())


def test_a_move_is_told_to_the_lobbies_when_the_game_is_loaded_again_before_its_news(
        club_spec: str) -> None:
    """A catch-up that loads the game again (as one whose read failed does) takes its
    place in the game's turn after a commit and before the commit's news to the
    lobbies: the move was kept, so the lobbies still hear of it."""
    async def main() -> None:
        async with running(club_spec) as club:  # type: ignore[arg-type]
            alice, bob, first = await a_game(club)
            seats = await seated(first, alice, bob)
            side = whose(await seats["red"].fresh())
            other = other_side(side)
            pending = await answered(seats, side)
            await seats[other].fresh()
            heard_of([alice, bob], first)
            hosted = club.club.hosted[first]

            def load_again() -> None:
                assert club.club._reload(hosted)

            async with hosted.referee.turn:
                commit = asyncio.ensure_future(seats[side].request("commit", aid=pending["aid"]))
                await asyncio.sleep(0.3)  # the commit waits for the turn
                hosted.referee.turn.soon(load_again)  # in line after it
            assert (await asyncio.wait_for(commit, 10))["t"] == "ok"
            await seats[other].until_state(lambda s: s["events"] == 1)
            await asyncio.sleep(0.3)
            news = heard_of([alice, bob], first)
            assert "moved" in news and "your-move" in news, news

    asyncio.run(main())

"""Several front-ends of one club on one PostgreSQL database (issue 24), in this
process on the test run's real server: a move made on one reaches the other's
terminals through LISTEN/NOTIFY, an action in progress goes on across them, a
front-end whose notices were cut catches up by sequence number, and two writers
racing on one game never fork it."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from pgserver import PgServer
from server_helpers import (
    Running,
    Seat,
    answer_out,
    auto_answer,
    begin,
    challenge_and_accept,
    event,
    play_turn,
    running,
    seated,
    step_from_data,
    whose,
)

from deathzap_tui.club.gamestore import event_json
from deathzap_tui.club.hosting import ClubLimits
from deathzap_tui.club.hub import HubError
from deathzap_tui.club.sqlstore import open_store
from deathzap_tui.rules.ruleset import other_side
from deathzap_tui.session import Session

pytestmark = pytest.mark.usefixtures("toy_ruleset")


def listeners(club: Running) -> int:
    """How many front-ends are LISTENing on the club's database now."""
    with club.store._tx(read=True) as run:
        return int(run("SELECT COUNT(*) FROM pg_stat_activity WHERE query LIKE ? "
                       "AND datname = current_database()", "LISTEN %")[0][0])


@contextlib.asynccontextmanager
async def two_front_ends(url: str, **kw: Any) -> AsyncIterator[tuple[Running, Running]]:
    """Front-ends A and B on the database ``url``, each hearing the other's notices
    (``kw``: for :class:`Running`)."""
    async with running(url, **kw) as a, running(url, **kw) as b:  # type: ignore[arg-type]
        a.member("alice", 1), a.member("bob", 2)
        for _ in range(200):
            if listeners(a) >= 2:
                break
            await asyncio.sleep(0.05)
        yield a, b


class Sides:
    """alice challenges on A and bob accepts on B; each sits at the game on their own
    front-end (``seats``; ``home[side]`` the front-end of that seat)."""

    def __init__(self, a: Running, b: Running) -> None:
        self.a, self.b = a, b
        self.game = 0
        self.seats: dict[str, Seat] = {}
        self.home: dict[str, Running] = {}

    async def sit(self) -> Sides:
        alice, bob = await self.a.lobby("alice"), await self.b.lobby("bob")
        self.game = await challenge_and_accept(self.a, alice, bob)
        for lobby, club in ((alice, self.a), (bob, self.b)):
            opened = await lobby.request("open", game=self.game)
            self.seats[opened["side"]] = await Seat.join(opened["socket"], opened["side"])
            self.home[opened["side"]] = club
        return self

    def other(self, club: Running) -> Running:
        return self.b if club is self.a else self.a

    async def join(self, club: Running, side: str) -> Seat:
        """Another terminal of ``side``'s member, at ``club``'s table."""
        return await Seat.join(str(club.club.hosted[self.game].socket), side)


async def pending_at(seat: Seat, answers: int) -> dict[str, Any]:
    """The action in progress as ``seat`` is shown it once ``answers`` are given."""
    def ready(state: dict[str, Any]) -> bool:
        p = state.get("pending")
        return bool(p) and len(p["answers"]) == answers
    if ready(seat.state):
        return seat.state["pending"]
    return (await seat.until_state(ready, timeout=10))["pending"]


async def play_across(seats: dict[str, Seat], side: str) -> dict[str, Any]:
    """``side``'s hit, each step answered at the terminal of the side asked, whichever
    front-end it is on (each with the action as its own table numbers it); the
    commit's reply."""
    reply = await seats[side].request("begin", intent=next(
        o for o in (await seats[side].fresh())["intents"] if o.get("side") == side)["intent"])
    assert reply["t"] == "ok", reply
    return await finish_across(seats, reply["pending"])


async def finish_across(seats: dict[str, Seat], pending: dict[str, Any]) -> dict[str, Any]:
    """Answer the rest of the action in progress (``pending``, as last shown) and
    commit it, as :func:`play_across` does; the commit's reply."""
    side = pending["by"]
    while pending["step"] is not None:
        who = pending["step"].get("side") or pending["by"]
        mine = await pending_at(seats[who], len(pending["answers"]))
        answer = answer_out(auto_answer(step_from_data(mine["step"])))  # type: ignore[arg-type]
        reply = await seats[who].request("answer", aid=mine["aid"], answer=answer)
        assert reply["t"] == "ok", reply
        pending = reply["pending"]
    mine = await pending_at(seats[side], len(pending["answers"]))
    return await seats[side].request("commit", aid=mine["aid"])


async def events_at(seat: Seat, n: int) -> int:
    """How many events ``seat`` is shown, once it is shown at least ``n``."""
    if seat.state.get("events", 0) < n:
        await seat.until_state(lambda s: s["events"] >= n, timeout=10)
    return int(seat.state["events"])


def test_a_move_on_one_front_end_reaches_the_other_live(pg: PgServer) -> None:
    async def main() -> None:
        async with two_front_ends(pg.database(own=True)) as (a, b):
            sides = await Sides(a, b).sit()
            for turn in range(1, 5):
                done = await play_across(sides.seats, whose(await sides.seats["red"].fresh()))
                assert done["t"] == "ok", done
                for seat in sides.seats.values():
                    assert await events_at(seat, turn) == turn
            kept = open_store(a.store.url)
            assert len(kept.game_store(sides.game).load().log) == 4
            kept.close()

    asyncio.run(main())


def test_the_other_front_end_takes_each_change_from_its_notice_reading_nothing(
        pg: PgServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """The notices carry the event or the record itself: the front-end of the player
    who waits reads nothing while the other moves; the mover's reads once, the
    record of the answer given there (its own record came first, so a notice of
    another's may be older than what it has: it reads the store rather than take
    it). Before, every notice was a read (5 a move: issue 24)."""
    async def main() -> None:
        async with two_front_ends(pg.database(own=True)) as (a, b):
            sides = await Sides(a, b).sit()
            assert (await play_across(sides.seats, whose(
                await sides.seats["red"].fresh())))["t"] == "ok"  # both in step now
            for seat in sides.seats.values():
                assert await events_at(seat, 1) == 1
            reads: dict[str, int] = {}
            for club in (a, b):  # every read of a game's events or record
                for name in ("rows_since", "event_rows", "game_header", "load_in_flight"):
                    store, read = club.store, getattr(club.store, name)

                    def counted(*args: Any, store: Any = store, read: Any = read) -> Any:
                        reads[store.origin] = reads.get(store.origin, 0) + 1
                        return read(*args)

                    monkeypatch.setattr(store, name, counted)
            for turn in range(2, 6):
                side = whose(await sides.seats["red"].fresh())
                waiting = sides.home[other_side(side)].store.origin
                mover = sides.home[side].store.origin
                reads.clear()
                done = await play_across(sides.seats, side)
                assert done["t"] == "ok", done
                for seat in sides.seats.values():
                    assert await events_at(seat, turn) == turn
                assert reads.get(waiting, 0) == 0 and reads.get(mover, 0) <= 1, reads
            states = [await seat.fresh() for seat in sides.seats.values()]
            assert states[0]["view"]["score"] == states[1]["view"]["score"]

    asyncio.run(main())


def test_a_lobby_on_another_front_end_hears_each_move_of_a_game_not_hosted_there(
        pg: PgServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every front-end hears of every game's events; one that does not host the game
    tells its players' lobbies open there, reading who they are once."""
    async def main() -> None:
        async with two_front_ends(pg.database(own=True)) as (a, b):
            alice, bob = await a.lobby("alice"), await a.lobby("bob")
            game = await challenge_and_accept(a, alice, bob)
            seats = await seated(game, alice, bob)
            elsewhere = await b.lobby("bob")
            reads: list[int] = []
            info = b.store.game_info
            monkeypatch.setattr(b.store, "game_info",
                                lambda game_id, *rest: (reads.append(game_id),
                                                        info(game_id, *rest))[1])
            for _ in range(3):
                await play_turn(seats, whose(await seats["red"].fresh()))
                assert (await event(elsewhere, "moved"))["game"] == game
            assert game not in b.club.hosted and reads == [game]

    asyncio.run(main())


def test_an_action_begun_on_one_front_end_shows_on_the_other_at_its_step(
        pg: PgServer) -> None:
    async def main() -> None:
        async with two_front_ends(pg.database(own=True)) as (a, b):
            sides = await Sides(a, b).sit()
            side = whose(await sides.seats["red"].fresh())
            seat = sides.seats[side]
            pending = await begin(seat, side)
            for answer in ("open", {"roll": True}):  # cover, then the dice rolled
                reply = await seat.request("answer", aid=pending["aid"], answer=answer)
                assert reply["t"] == "ok", reply
                pending = reply["pending"]
            there = await sides.join(sides.other(sides.home[side]), side)
            shown = await pending_at(there, len(pending["answers"]))
            assert shown["answers"] == pending["answers"]  # the same dice
            assert shown["step"] == pending["step"] and shown["by"] == side

    asyncio.run(main())


def test_a_front_end_whose_notices_were_cut_catches_up_by_sequence_number(
        pg: PgServer) -> None:
    async def main() -> None:
        async with two_front_ends(pg.database(own=True)) as (a, b):
            sides = await Sides(a, b).sit()
            with a.store._tx() as run:  # the database drops both listening connections
                run("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE query LIKE ? AND datname = current_database()", "LISTEN %")
            # the game moves on at once: what is said meanwhile is not heard
            done = await play_across(sides.seats, whose(await sides.seats["red"].fresh()))
            assert done["t"] == "ok", done
            for seat in sides.seats.values():
                assert await events_at(seat, 1) == 1
            assert any("lost the club's store" in line for line in a.lines + b.lines)

    asyncio.run(main())


async def both_sides_on_both(a: Running, b: Running) -> tuple[
        Sides, str, str, dict[str, Seat], tuple[Running, dict[str, Seat]]]:
    """Both players seated, and a terminal of each joined on both front-ends: the
    side to move, the other side, the seats by side on the mover's front-end, and
    the other front-end with its seats by side."""
    sides = await Sides(a, b).sit()
    side = whose(await sides.seats["red"].fresh())
    x = sides.home[side]
    y = sides.other(x)
    opp = other_side(side)
    on_x = {side: sides.seats[side], opp: await sides.join(x, opp)}
    on_y = {side: await sides.join(y, side), opp: await sides.join(y, opp)}
    return sides, side, opp, on_x, (y, on_y)


def test_two_front_ends_racing_on_one_game_never_fork_it(pg: PgServer) -> None:
    """B has not heard of A's move (it stopped listening): the move made there is
    refused by the store's unique event number; B loads the game again and tells
    its player what happened meanwhile. Nothing is lost or doubled."""
    async def main() -> None:
        async with two_front_ends(pg.database(own=True)) as (a, b):
            sides, side, opp, on_x, (y, on_y) = await both_sides_on_both(a, b)
            assert y.club._following is not None
            y.club._following.cancel()  # y hears nothing more
            await play_turn(on_x, side)
            assert (await on_y[side].fresh())["events"] == 0  # y is behind
            refused = await play_across(on_y, side)  # the same move again, on y
            assert refused["t"] == "error", refused
            assert "the game moved on meanwhile" in refused["message"]
            said = refused["message"].partition("so yours was not: ")[2]
            assert said.startswith(side) and said != "look at the board again"  # what changed
            kept = open_store(a.store.url)
            assert len(kept.game_store(sides.game).load().log) == 1
            kept.close()
            assert (await on_y[opp].fresh())["events"] == 1  # y has the game as kept
            assert whose(on_y[opp].state) == opp

    asyncio.run(main())


def test_a_move_that_lost_the_race_is_not_told_to_the_lobbies(pg: PgServer) -> None:
    """The front-end whose move the store refused (another front-end's was kept
    first) tells no lobby of it: its lobbies hear of a move only once it is kept,
    and this one never was (its game is loaded again instead)."""
    async def main() -> None:
        async with two_front_ends(pg.database(own=True)) as (a, b):
            sides, side, opp, on_x, (y, on_y) = await both_sides_on_both(a, b)
            info = y.store.game_info(sides.game)
            lobbies = [await y.lobby(m) for m in (info.red, info.black) if m]
            assert y.club._following is not None
            y.club._following.cancel()  # y hears nothing more
            await play_turn(on_x, side)
            refused = await play_across(on_y, side)  # the same move again, on y
            assert refused["t"] == "error" and "moved on meanwhile" in refused["message"]
            await on_y[opp].fresh()
            await asyncio.sleep(0.2)
            news: list[dict[str, Any]] = []
            for lobby in lobbies:
                while not lobby.events.empty():
                    news.append(lobby.events.get_nowait())
            assert [e for e in news if e.get("game") == sides.game] == []

    asyncio.run(main())


async def told(seat: Seat, pred: Any) -> tuple[list[str], dict[str, Any]]:
    """The notices ``seat`` is sent until a state that ``pred`` accepts follows one."""
    said: list[str] = []
    async with asyncio.timeout(10):
        while True:
            msg = await seat.next()
            if msg["t"] == "notice":
                said.append(msg["message"])
            elif msg["t"] == "state" and said and pred(msg):
                return said, msg


def test_undo_and_redo_are_asked_and_answered_across_front_ends(pg: PgServer) -> None:
    """Each player at their own front-end: the table shows the other as there, so an
    undo may be asked of them; the request reaches their table, their answer the
    asker's (the undo, an event, kept once); an asker who leaves withdraws it."""
    async def main() -> None:
        async with two_front_ends(pg.database(own=True)) as (a, b):
            sides = await Sides(a, b).sit()
            side = whose(await sides.seats["red"].fresh())
            opp = other_side(side)
            assert sides.home[side] is not sides.home[opp]
            assert (await play_across(sides.seats, side))["t"] == "ok"
            asker, other = sides.seats[side], sides.seats[opp]
            await events_at(other, 1)
            assert (await asker.fresh())["presence"][opp] == 1  # at the other front-end
            reply = await asker.request("undo")
            assert reply["t"] == "ok", reply
            await other.until_state(lambda s: s["request"] == {"kind": "undo", "by": side})
            assert (await other.request("reply", accept=True))["t"] == "ok"
            said, state = await told(asker, lambda s: s["request"] is None)
            assert said == [f"{opp} agreed to your undo"]
            assert state["events"] == 2 and state["can_redo"]
            assert state["answered"]["answer"] == "agreed to"
            kept = open_store(a.store.url)
            assert [e.kind for e in kept.game_store(sides.game).load().log][1:] == ["undo"]
            kept.close()
            assert (await asker.request("redo"))["t"] == "ok"
            await other.until_state(lambda s: s["request"] == {"kind": "redo", "by": side})
            assert (await other.request("reply", accept=False))["t"] == "ok"
            said, state = await told(asker, lambda s: s["request"] is None)
            assert said == [f"{opp} declined your redo"] and state["events"] == 2
            assert (await asker.request("redo"))["t"] == "ok"
            await other.until_state(lambda s: s["request"] is not None)
            await asker.close()  # the asker leaves: the request goes with them
            state = await other.until_state(lambda s: s["request"] is None)
            assert state["presence"][side] == 0
            refused = await other.request("redo")  # nobody there to agree now
            assert refused["t"] == "error" and "not at the table" in refused["message"]

    asyncio.run(main())


def test_a_front_end_gone_without_a_word_no_longer_seats_anyone(pg: PgServer) -> None:
    """Seats are a lease each front-end renews at its sweeps: one killed (here a
    front-end that only ever said one notice) is taken for gone, and a request made
    there with it; a live front-end's seats stay."""
    async def main() -> None:
        limits = ClubLimits(sweep_every=0.1)
        async with two_front_ends(pg.database(own=True), limits=limits) as (a, b):
            sides = await Sides(a, b).sit()
            x = sides.home["red"]
            table = x.club.hosted[sides.game].table
            sides.other(x).store.tell(sides.game, "seat:gone:0,1,0")
            sides.other(x).store.tell(sides.game, "ask:undo:black:gone")
            await sides.seats["red"].until_state(
                lambda s: s["request"] == {"kind": "undo", "by": "black"})
            assert table.presence()["black"] == 2
            state = await sides.seats["red"].until_state(lambda s: s["request"] is None)
            assert state["presence"]["black"] == 1  # the one at the live front-end
            for _ in range(10):  # several leases later, still there
                await asyncio.sleep(0.1)
            assert table.presence()["black"] == 1 and table.request is None

    asyncio.run(main())


@pytest.mark.slow
def test_a_database_gone_mid_game_stops_play_saying_so_and_it_resumes_when_back(
        pg: PgServer) -> None:
    async def main() -> None:
        async with two_front_ends(pg.database(own=True)) as (a, b):
            sides = await Sides(a, b).sit()
            done = await play_across(sides.seats, whose(await sides.seats["red"].fresh()))
            assert done["t"] == "ok", done
            side = whose(await sides.seats["red"].fresh())
            pg.pause()
            try:
                option = next(o for o in (await sides.seats[side].fresh())["intents"]
                              if o.get("side") == side)
                reply = await sides.seats[side].request("begin", intent=option["intent"])
                assert reply["t"] == "error"
                assert "the club's store is unavailable" in reply["message"]
                lobby = await sides.home[side].lobby("alice" if sides.home[side] is a
                                                     else "bob", subscribe=False)
                with pytest.raises(HubError, match="the club's store is unavailable"):
                    await lobby.request("lobby")
            finally:
                pg.resume()
            seats = {}
            for club, member in ((a, "alice"), (b, "bob")):  # open the game again
                for _ in range(50):
                    try:
                        opened = await (await club.lobby(member, subscribe=False)).request(
                            "open", game=sides.game)
                        break
                    except HubError:
                        await asyncio.sleep(0.2)  # the store's connection is made again
                seats[opened["side"]] = await Seat.join(opened["socket"], opened["side"])
            assert (await seats["red"].fresh())["events"] == 1  # nothing kept is lost
            done = await play_across(seats, side)
            assert done["t"] == "ok", done
            for seat in seats.values():
                assert await events_at(seat, 2) == 2

    asyncio.run(main())


def test_a_notice_missed_is_made_up_when_the_game_is_opened(
        pg: PgServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """A front-end that missed an action's notice is a step behind until a player
    opens the game there: the club catches it up from the store then (issue 24)."""
    async def main() -> None:
        async with two_front_ends(pg.database(own=True)) as (a, b):
            sides = await Sides(a, b).sit()
            side = whose(await sides.seats["red"].fresh())
            other = other_side(side)
            here = sides.home[side]
            there = sides.other(here)
            monkeypatch.setattr(here.store, "_announce", lambda run, game_id, what, data="": None)
            await begin(sides.seats[side], side)  # kept; its notice never sent
            await asyncio.sleep(0.5)
            assert not (await sides.seats[other].fresh()).get("pending")
            lobby = await there.lobby("alice" if there is a else "bob", subscribe=False)
            await lobby.request("open", game=sides.game)
            state = await sides.seats[other].until_state(lambda s: bool(s.get("pending")))
            assert state["pending"]["by"] == side

    asyncio.run(main())


def test_a_change_is_taken_from_its_notice_only_where_nothing_can_be_lost(
        tmp_path: Path) -> None:
    """``Club.take`` (the rules, without a database's notices: another front-end is a
    second store on the same SQLite file, and the notices' data is made here as the
    store makes it): an event only if it is the next by number (one had already is
    taken as it is); a record only in step with the notices (not after loading or
    reading the store, nor after keeping a record here) and only if it fits the
    game's events. Not taken: the front-end reads the store instead."""
    async def main() -> None:
        async with running(tmp_path / "club.sqlite") as a:
            a.member("alice", 1), a.member("bob", 2)
            alice, bob = await a.lobby("alice"), await a.lobby("bob")
            game = await challenge_and_accept(a, alice, bob)
            seats = await seated(game, alice, bob)
            hosted = a.club.hosted[game]
            games = hosted.table.session.store
            other = open_store(tmp_path / "club.sqlite")  # the other front-end's
            elsewhere = Session.open(other.game_store(game))

            def begun() -> tuple[Any, str]:
                side = whose(seats["red"].state)
                intent = next(o.intent for o in elsewhere.intents() if o.side == side)
                action = elsewhere.begin(intent, side)
                elsewhere.keep_action(action)
                return action, other.load_in_flight(game) or ""

            action, record = begun()
            assert not games.in_step  # loaded: the read may be ahead of notices
            assert not a.club.take(hosted, "action", record)
            while action.resolution.step is not None:
                action.resolution.answer(auto_answer(action.resolution.step))
            first = elsewhere.commit(action)
            kept = f"0 {event_json(first)}"
            assert not a.club.take(hosted, "event", f"1 {event_json(first)}")  # a gap
            assert a.club.take(hosted, "event", kept) and games.in_step
            for seat in seats.values():
                assert await events_at(seat, 1) == 1
            assert a.club.take(hosted, "event", kept)  # had it: taken as it is
            assert len(hosted.table.game.log) == 1
            assert not a.club.take(hosted, "action", record)  # of the game before it
            action, record = begun()
            assert a.club.take(hosted, "action", record)
            shown = await seats[action.by].until_state(lambda s: bool(s.get("pending")))
            assert shown["pending"]["by"] == action.by
            assert a.club.take(hosted, "action", "null")
            await seats[action.by].until_state(lambda s: not s.get("pending"))
            hosted.table.session.keep_action(hosted.table.session.begin(
                action.intent, action.by))  # a record kept here: out of step
            assert not games.in_step
            assert not a.club.take(hosted, "action", record)
            while action.resolution.step is not None:  # its event: in step again
                action.resolution.answer(auto_answer(action.resolution.step))
            second = elsewhere.commit(action)
            assert a.club.take(hosted, "event", f"1 {event_json(second)}") and games.in_step
            a.club.catch_up(hosted)  # read: the store may be ahead of notices to come
            assert not games.in_step
            assert not a.club.take(hosted, "action", "null")
            other.close()

    asyncio.run(main())

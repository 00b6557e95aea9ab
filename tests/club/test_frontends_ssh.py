"""Two `deathzap club serve` processes on one PostgreSQL database (issue 24), with a
real SSH client on each: the members play live across them; then the front-end
holding an action in progress is killed with SIGKILL mid-step, and the action is
finished through the other, at the same step with the same dice. The database URL
given has a password: neither front-end ever prints it."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest
from pgserver import PgServer
from server_helpers import Seat, whose
from test_frontends import events_at, finish_across, pending_at, play_across
from test_pgstore import SECRET
from test_server_ssh import keys, line_of, session, start_server

from deathzap_tui.club.members import PublicKey
from deathzap_tui.club.sqlstore import open_store
from deathzap_tui.rules.ruleset import other_side

__all__ = ["keys"]  # fixtures used here
pytestmark = pytest.mark.usefixtures("toy_ruleset")


@pytest.mark.slow
def test_two_front_ends_play_live_and_one_killed_mid_action_loses_nothing(
        tmp_path: Path, pg: PgServer, keys) -> None:
    url = pg.database(own=True).replace("postgres@", f"postgres:{SECRET}@")
    store = open_store(url)
    store.add_member("alice", PublicKey.parse(line_of(keys["alice"])))
    store.add_member("bob", PublicKey.parse(line_of(keys["bob"])))
    store.close()
    procs = {name: start_server(url, tmp_path) for name in ("A", "B")}  # type: ignore[arg-type]
    ports = {name: port for name, (_proc, port) in procs.items()}

    async def main() -> tuple[int, int]:
        screens = {}
        for member, front in (("alice", "A"), ("bob", "B")):
            _conn, screens[member] = await session(ports[front], keys[member])
            await screens[member].until(f"member={member}")
        made = await screens["alice"].ask(t="challenge", ruleset="nettoy", opponent="bob",
                                          force={"toml": 'ruleset = "nettoy"\nname = "R"\n'})
        got = await screens["bob"].ask(t="accept", challenge=made["challenge"]["challenge"],
                                       force={"toml": 'ruleset = "nettoy"\nname = "B"\n'})
        game = got["game"]["game"]
        seats, home = {}, {}
        for member, front in (("alice", "A"), ("bob", "B")):
            opened = await screens[member].ask(t="open", game=game)
            seats[opened["side"]] = await Seat.join(opened["socket"], opened["side"])
            home[opened["side"]] = (member, front)
        for turn in (1, 2):  # live, across the two front-ends
            done = await play_across(seats, whose(await seats["red"].fresh()))
            assert done["t"] == "ok", done
            for seat in seats.values():
                assert await events_at(seat, turn) == turn
        side = whose(await seats["red"].fresh())
        pending = (await seats[side].request("begin", intent=next(
            o for o in (await seats[side].fresh())["intents"]
            if o.get("side") == side)["intent"]))["pending"]
        for answer in ("open", {"roll": True}):  # mid-step: cover given, dice rolled
            reply = await seats[side].request("answer", aid=pending["aid"], answer=answer)
            assert reply["t"] == "ok", reply
            pending = reply["pending"]
        member, front = home[side]
        other = "B" if front == "A" else "A"
        opp = other_side(side)
        await pending_at(seats[opp], len(pending["answers"]))  # the other front-end has it
        killed, _port = procs[front]
        killed.send_signal(signal.SIGKILL)
        killed.wait(10)
        # the member logs in to the other front-end and opens the game there
        _conn, screen = await session(ports[other], keys[member])
        await screen.until(f"member={member}")
        opened = await screen.ask(t="open", game=game)
        seat = await Seat.join(opened["socket"], side)
        shown = await pending_at(seat, len(pending["answers"]))
        assert shown["answers"] == pending["answers"]  # the same dice
        assert shown["step"] == pending["step"]
        done = await finish_across({side: seat, opp: seats[opp]}, shown)
        assert done["t"] == "ok", done
        return game, await events_at(seats[opp], 3)

    shown = ""
    try:
        game, events = asyncio.run(main())
    finally:
        for proc, _port in procs.values():
            proc.send_signal(signal.SIGTERM)
            out, err = proc.communicate(timeout=10)
            shown += out + err
    assert events == 3
    assert "game 1 loaded" in shown and SECRET not in shown  # the logs, without it
    kept = open_store(url)
    assert len(kept.game_store(game).load().log) == 3
    kept.close()

"""The club hub and its games, in this process on a real store file: challenges,
lobbies, private views, live events, notify, a store that cannot be written."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

import pytest
from server_helpers import (
    BLACK_FORCE,
    RED_FORCE,
    Seat,
    a_game,
    challenge_and_accept,
    event,
    key_line,
    play_turn,
    running,
    seated,
    toynet,
    whose,
)

from deathzap_tui.club.hosting import ClubLimits
from deathzap_tui.club.hub import HubClient, HubError
from deathzap_tui.club.members import PublicKey

pytestmark = pytest.mark.usefixtures("toy_ruleset")


def notify_script(tmp_path: Path, *, hang: bool = False) -> list[str]:
    """A notify command that appends its arguments to ``notified`` (or hangs)."""
    script = tmp_path / "notify.py"
    out = tmp_path / "notified"
    script.write_text("import sys, time\n"
                      + ("time.sleep(60)\n" if hang else "")
                      + f"open({str(out)!r}, 'a').write(' '.join(sys.argv[1:]) + '\\n')\n")
    return [sys.executable, str(script)]


def notified(tmp_path: Path) -> list[str]:
    path = tmp_path / "notified"
    return path.read_text().splitlines() if path.exists() else []


def test_challenge_accept_lobby_and_live_events(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path / "club.sqlite",
                           notify=notify_script(tmp_path)) as club:
            club.member("alice", 1), club.member("bob", 2), club.member("carol", 3)
            alice, bob = await club.lobby("alice"), await club.lobby("bob")
            saved = await alice.request("save_force", toml=RED_FORCE)
            assert saved["force"] == {"name": "Reds", "ruleset": toynet.ID}
            made = await alice.request("challenge", ruleset=toynet.ID, opponent="bob",
                                       force={"saved": "Reds"})
            pushed = await event(bob, "challenge")
            assert pushed["challenge"] == made["challenge"]["challenge"]
            lobby = await bob.request("lobby")
            row, = lobby["challenges"]
            assert (row["by"], row["to"], row["force"], row["mine"]) == \
                ("alice", "bob", "Reds", False)
            got = await bob.request("accept", challenge=row["challenge"],
                                    force={"toml": BLACK_FORCE})
            game = got["game"]["game"]
            assert (await event(alice, "accepted"))["game"] == game
            assert (await alice.request("lobby"))["challenges"] == []
            rows = {m: (await c.request("lobby"))["games"] for m, c in
                    (("alice", alice), ("bob", bob))}
            (a_row,), (b_row,) = rows["alice"], rows["bob"]
            assert a_row["opponent"] == "bob" and b_row["opponent"] == "alice"
            assert {a_row["side"], b_row["side"]} == {"red", "black"}
            assert a_row["yours"] != b_row["yours"]  # exactly one of them is to move
            first, second = (alice, bob) if a_row["yours"] else (bob, alice)
            first_side = (a_row if a_row["yours"] else b_row)["side"]
            assert (await event(first, "your-move"))["game"] == game

            seats = await seated(game, alice, bob)
            await play_turn(seats, first_side)
            assert (await event(second, "moved"))["game"] == game
            assert (await event(second, "your-move"))["game"] == game
            row, = (await second.request("lobby"))["games"]
            assert row["yours"] and row["whose"] != first_side
            for seat in seats.values():
                await seat.close()
            await asyncio.sleep(0.2)
            # The first your-move went out when the game was made (nobody at the
            # table); the second member was at the table when their move came.
            assert sorted(notified(tmp_path)) == sorted(
                ["bob challenge-1 challenge", f"{first.member} {game} your-move"])

    asyncio.run(main())


def test_a_private_game_is_seen_only_by_its_players_until_made_public(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path / "club.sqlite") as club:
            club.member("alice", 1), club.member("bob", 2), club.member("carol", 3)
            alice, bob = await club.lobby("alice"), await club.lobby("bob")
            carol = await club.lobby("carol")
            game = await challenge_and_accept(club, alice, bob)
            lobby = await carol.request("lobby")
            assert lobby["games"] == lobby["watch"] == lobby["challenges"] == []
            for t in ("open", "report", "public"):
                fields = {"public": True} if t == "public" else {}
                with pytest.raises(HubError, match=f"game {game}: no such game"):
                    await carol.request(t, game=game, **fields)
            with pytest.raises(HubError, match="no such game"):  # none at all: alike
                await carol.request("open", game=999)
            await alice.request("public", game=game, public=True)
            watch, = (await carol.request("lobby"))["watch"]
            assert watch["game"] == game
            assert watch["opponent"] in ("alice v bob", "bob v alice")
            opened = await carol.request("open", game=game)
            assert opened["side"] == "watch" and opened["since"] == []
            with pytest.raises(HubError, match="only its players"):
                await carol.request("public", game=game, public=False)
            # The watcher's terminal gets the public view: neither side's secret card.
            seat = await Seat.join(opened["socket"], "watch")
            text = str(seat.state)
            assert "SECRET" not in text
            await seat.close()

    asyncio.run(main())


def test_challenges_refused_with_reasons(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path / "club.sqlite",
                           limits=ClubLimits(new_games_per_hour=2, forces=1)) as club:
            club.member("alice", 1), club.member("bob", 2)
            alice, bob = await club.lobby("alice"), await club.lobby("bob")
            with pytest.raises(HubError, match=r"`deathzap check` finds errors: .*nosuch"):
                await alice.request("challenge", ruleset=toynet.ID, opponent="bob",
                                    force={"toml": 'ruleset = "nosuch"\nname = "X"\n'})
            with pytest.raises(HubError, match="dave"):
                await alice.request("challenge", ruleset=toynet.ID, opponent="dave",
                                    force={"toml": RED_FORCE})
            with pytest.raises(HubError, match="another member"):
                await alice.request("challenge", ruleset=toynet.ID, opponent="alice",
                                    force={"toml": RED_FORCE})
            with pytest.raises(HubError, match="no shipped force"):
                await alice.request("challenge", ruleset=toynet.ID,
                                    force={"shipped": "../../etc/passwd"})
            open_one = await alice.request("challenge", ruleset=toynet.ID,
                                           force={"toml": RED_FORCE})
            with pytest.raises(HubError, match="your own challenge"):
                await alice.request("accept", challenge=open_one["challenge"]["challenge"],
                                    force={"toml": BLACK_FORCE})
            with pytest.raises(HubError, match="only its maker"):
                await bob.request("decline", challenge=open_one["challenge"]["challenge"])
            await alice.request("challenge", ruleset=toynet.ID, force={"toml": RED_FORCE})
            with pytest.raises(HubError, match="2 challenges in the last hour"):
                await alice.request("challenge", ruleset=toynet.ID, force={"toml": RED_FORCE})
            await alice.request("save_force", toml=RED_FORCE)
            await alice.request("save_force", toml=RED_FORCE)  # the same name: replaced
            with pytest.raises(HubError, match="1 forces already"):
                await alice.request("save_force", toml=BLACK_FORCE)
            await alice.request("decline", challenge=open_one["challenge"]["challenge"])
            with pytest.raises(HubError, match="no such challenge"):
                await bob.request("accept", challenge=open_one["challenge"]["challenge"],
                                  force={"toml": BLACK_FORCE})

    asyncio.run(main())


def test_since_you_last_looked_and_unread(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path / "club.sqlite") as club:
            alice, bob, game = await a_game(club)
            lobbies = {"alice": alice, "bob": bob}
            opened = {m: await c.request("open", game=game) for m, c in lobbies.items()}
            seats = {o["side"]: await Seat.join(o["socket"], o["side"])
                     for o in opened.values()}
            mover = whose(seats["red"].state)
            await play_turn(seats, mover)
            for seat in seats.values():
                await seat.close()
            other = next(m for m, o in opened.items() if o["side"] != mover)
            client = lobbies[other]
            await asyncio.sleep(0.1)
            row, = (await client.request("lobby"))["games"]
            assert row["unread"] == 0  # they were at the table when it happened
            # Their mark is where they left; had they not been there, the next open
            # tells what they missed:
            club.store.mark_seen(game, other, 0)
            row, = (await client.request("lobby"))["games"]
            assert row["unread"] > 0
            again = await client.request("open", game=game)
            assert any("hit" in line.lower() or line for line in again["since"])
            assert again["since"]
            row, = (await client.request("lobby"))["games"]
            assert row["unread"] == 0

    asyncio.run(main())


def test_a_hanging_notify_command_never_delays_a_move(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path / "club.sqlite", notify=notify_script(tmp_path, hang=True),
                           notify_timeout=1.0) as club:
            alice, bob, game = await a_game(club)
            # The challenge and the first your-move are being notified: both hang.
            seats = await seated(game, alice, bob)
            for _ in range(3):
                side = whose(await seats["red"].fresh())
                started = time.monotonic()
                await play_turn(seats, side)
                assert time.monotonic() - started < 0.5
            assert not any("killed" in line for line in club.lines)  # still hanging
            await asyncio.sleep(1.5)
            assert any("still running after 1 s; killed" in line for line in club.lines)
            assert notified(tmp_path) == []  # killed before writing

    asyncio.run(main())


def test_a_store_that_cannot_be_written_stops_the_game_and_loses_nothing(
        tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path / "club.sqlite") as club:
            alice, bob, game = await a_game(club)
            seats = await seated(game, alice, bob)
            side = whose(next(iter(seats.values())).state)
            await play_turn(seats, side)
            kept = club.store.game_info(game).events
            assert kept == 1
            club.store.conn.execute("PRAGMA query_only = ON")  # writes now fail
            side = whose(await seats[side].fresh())
            seat = seats[side]
            option = next(o for o in (await seat.fresh())["intents"] if o.get("side") == side)
            reply = await seat.request("begin", intent=option["intent"])
            assert reply["t"] == "error" and "cannot save" in reply["message"]
            assert "store cannot be used" in reply["message"]
            with pytest.raises(EOFError):
                while True:
                    await seat.next(timeout=5)
            club.store.conn.execute("PRAGMA query_only = OFF")
            again = await alice.request("open", game=game)  # loaded again from the store
            seat = await Seat.join(again["socket"], again["side"])
            assert seat.state["events"] == kept
            await seat.close()

    asyncio.run(main())


def test_bad_tokens_and_messages_are_refused(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path / "club.sqlite") as club:
            club.member("alice", 1)
            with pytest.raises(HubError, match="not known to the club"):
                await HubClient().connect(str(club.hub.path), "forged")
            token = club.hub.issue("alice")
            club.hub.revoke(token)
            with pytest.raises(HubError, match="not known"):
                await HubClient().connect(str(club.hub.path), token)
            alice = await club.lobby("alice")
            with pytest.raises(HubError, match="unknown message type"):
                await alice.request("shell")
            with pytest.raises(HubError, match="a force is one of"):
                await alice.request("challenge", ruleset=toynet.ID, force={"path": "/x"})
            await alice.request("add_key", key=key_line(9))
            assert club.store.member_by_key(PublicKey.parse(key_line(9)).blob).name == "alice"

    asyncio.run(main())


def test_one_game_open_in_two_sessions_of_a_member_stays_consistent(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path / "club.sqlite") as club:
            alice, bob, game = await a_game(club)
            mine = await alice.request("open", game=game)
            theirs = await bob.request("open", game=game)
            one = await Seat.join(mine["socket"], mine["side"])
            two = await Seat.join(mine["socket"], mine["side"])  # her second terminal
            seats = {mine["side"]: one, theirs["side"]: await Seat.join(
                theirs["socket"], theirs["side"])}
            for _ in range(2):
                await play_turn(seats, whose(await one.fresh()))
            a, b = await one.fresh(), await two.fresh()
            assert a["events"] == b["events"] == 2
            assert a["view"] == b["view"] and a["narrative"]["add"][-1:] == \
                b["narrative"]["add"][-1:]

    asyncio.run(main())


def test_game_over_reaches_both_players_and_the_finished_list(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(tmp_path / "club.sqlite",
                           notify=notify_script(tmp_path)) as club:
            alice, bob, game = await a_game(club)
            seats = await seated(game, alice, bob)
            for _ in range(200):
                state = await seats["red"].fresh()
                if state["over"]:
                    break
                await play_turn(seats, whose(state))
            assert state["over"]
            for client in (alice, bob):
                assert (await event(client, "game-over"))["game"] == game
                lobby = await client.request("lobby")
                assert lobby["games"] == []
                done, = lobby["finished"]
                assert done["over"] and not done["yours"]  # the toy names no result
            report = (await alice.request("report", game=game))["report"]
            assert report
            await asyncio.sleep(0.3)
            over = sorted(line for line in notified(tmp_path) if "game-over" in line)
            assert over == [f"alice {game} game-over", f"bob {game} game-over"]

    asyncio.run(main())


def test_a_game_nobody_is_at_is_unloaded_and_loads_again(tmp_path: Path) -> None:
    async def main() -> None:
        limits = ClubLimits(unload_after=0.2, sweep_every=0.05)
        async with running(tmp_path / "club.sqlite", limits=limits) as club:
            alice, _bob, game = await a_game(club)
            opened = await alice.request("open", game=game)
            seat = await Seat.join(opened["socket"], opened["side"])
            await asyncio.sleep(0.5)
            assert game in club.club.hosted  # someone is at the table
            await seat.close()
            await asyncio.sleep(0.5)
            assert game not in club.club.hosted
            assert not Path(opened["socket"]).exists()
            again = await alice.request("open", game=game)
            seat = await Seat.join(again["socket"], again["side"])
            assert seat.state["events"] == 0
            await seat.close()

    asyncio.run(main())

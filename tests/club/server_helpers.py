"""Helpers of the club server tests: a club on a real store file, lobbies speaking
the hub protocol, and seats at a game's referee that play the toy ruleset
(``tests/net/toynet.py``: sides take turns; a hit asks the attacker for cover and
dice, then the target's owner for saves)."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import tempfile
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import toynet

from deathzap_tui.club.hosting import Club, ClubLimits
from deathzap_tui.club.hub import HubClient, HubServer
from deathzap_tui.club.members import PublicKey
from deathzap_tui.club.notify import Notifier
from deathzap_tui.club.sqlstore import open_store
from deathzap_tui.headless.describe import auto_answer
from deathzap_tui.net import protocol
from deathzap_tui.net.wire import answer_out, step_from_data

RED_FORCE = f'ruleset = "{toynet.ID}"\nname = "Reds"\n'
BLACK_FORCE = f'ruleset = "{toynet.ID}"\nname = "Blacks"\n'
LAUNCH = ("import sys; import toynet; toynet.install(); sys.argv = sys.argv[1:]; "
          "from deathzap_tui.__main__ import main; sys.exit(main())")
"""``python -c LAUNCH deathzap ARGS...``, in ``subprocess_env.child_env()``: the CLI with the toy
ruleset known."""


def short_dir() -> Path:
    """A private directory with a short path (Unix socket paths are short)."""
    return Path(tempfile.mkdtemp(prefix="dzc-"))


class Running:
    """A club served in this process: its store, hub, and the log it wrote."""

    def __init__(self, store_path: Path, *, notify: list[str] | None = None,
                 notify_timeout: float = 5.0, limits: ClubLimits | None = None) -> None:
        self.store = open_store(store_path)
        self.rundir = short_dir()
        self.lines: list[str] = []
        self.notifier = Notifier(notify, timeout=notify_timeout, log=self.lines.append) \
            if notify else None
        self.club = Club(self.store, self.rundir, notifier=self.notifier,
                         limits=limits, log=self.lines.append)
        self.hub = HubServer(self.club, self.rundir / "hub.sock", log=self.lines.append)

    def member(self, name: str, n: int) -> str:
        self.store.add_member(name, PublicKey.parse(key_line(n)))
        return name

    async def lobby(self, member: str, *, subscribe: bool = True) -> HubClient:
        client = HubClient()
        await client.connect(str(self.hub.path), self.hub.issue(member))
        if subscribe:
            await client.request("subscribe")
        return client


def autogroup_nice(pid: int | str = "self") -> int | None:
    """The niceness of process ``pid``'s autogroup (its session's CPU share), or None
    where the kernel shows none: autogroups off, or the process in the first session
    (``sid`` 0, as under a CI runner that never calls ``setsid``), whose group is the
    root task group and whose ``/proc/PID/autogroup`` reads empty."""
    try:
        words = Path(f"/proc/{pid}/autogroup").read_text().split()
    except FileNotFoundError:
        return None
    return int(words[-1]) if words else None


def key_line(n: int) -> str:
    import base64

    blob = b"\0\0\0\x0bssh-ed25519\0\0\0\x20" + n.to_bytes(32, "big")
    return "ssh-ed25519 " + base64.b64encode(blob).decode("ascii")


@contextlib.asynccontextmanager
async def running(store_path: Path, **kw: Any) -> AsyncIterator[Running]:
    club = Running(store_path, **kw)
    await club.hub.start()
    await club.club.start()
    try:
        yield club
    finally:
        await club.hub.close()
        await club.club.close()
        if club.notifier is not None:
            await club.notifier.close()
        club.store.close()
        shutil.rmtree(club.rundir, ignore_errors=True)


async def a_game(club: Running) -> tuple[HubClient, HubClient, int]:
    """alice and bob join ``club``, each with a lobby; alice challenges bob, who
    accepts: the two lobbies and the game's number."""
    club.member("alice", 1), club.member("bob", 2)
    alice, bob = await club.lobby("alice"), await club.lobby("bob")
    return alice, bob, await challenge_and_accept(club, alice, bob)


async def challenge_and_accept(club: Running, red: HubClient, black: HubClient,
                               **kw: Any) -> int:
    """``red``'s member challenges ``black``'s, who accepts: the game's number."""
    made = await red.request("challenge", ruleset=toynet.ID, opponent=black.member,
                             force={"toml": RED_FORCE}, **kw)
    got = await black.request("accept", challenge=made["challenge"]["challenge"],
                              force={"toml": BLACK_FORCE})
    return int(got["game"]["game"])


class Seat:
    """A terminal at a game's referee (the protocol of ``net/referee.py``)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.state: dict[str, Any] = {}
        self.ids = 0

    @classmethod
    async def join(cls, path: str, side: str) -> Seat:
        reader, writer = await asyncio.open_unix_connection(path, limit=2**24)
        seat = cls(reader, writer)
        writer.write(protocol.encode({"t": "hello", "v": protocol.VERSION, "side": side}))
        welcome = await seat.next()
        assert welcome["t"] == "welcome", welcome
        await seat.until_state(lambda s: True)
        return seat

    async def next(self, timeout: float = 10.0) -> dict[str, Any]:
        body = await asyncio.wait_for(protocol.read_frame(self.reader, 2**24), timeout)
        if body is None:
            raise EOFError("the referee closed the connection")
        msg = protocol.decode(body)
        if msg["t"] == "state":
            self.state = msg
        return msg

    async def until_state(self, pred: Callable[[dict[str, Any]], bool],
                          timeout: float = 10.0) -> dict[str, Any]:
        async with asyncio.timeout(timeout):
            while True:
                msg = await self.next()
                if msg["t"] == "state" and pred(msg):
                    return msg

    async def shown(self, answers: int) -> dict[str, Any]:
        """The action in progress as this seat is shown it once ``answers`` are given."""
        def ready(state: dict[str, Any]) -> bool:
            return bool(state.get("pending")) and len(state["pending"]["answers"]) == answers
        if not ready(self.state):
            await self.until_state(ready)
        return self.state["pending"]

    async def request(self, t: str, **fields: Any) -> dict[str, Any]:
        self.ids += 1
        self.writer.write(protocol.encode({"t": t, "id": self.ids, **fields}))
        while True:
            msg = await self.next()
            if msg["t"] in ("ok", "error") and msg.get("id") == self.ids:
                return msg

    async def fresh(self) -> dict[str, Any]:
        """The game as it is now (every push before a ping's reply read)."""
        await self.request("ping")
        return self.state

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(Exception):
            await self.writer.wait_closed()


async def seated(game: int, *lobbies: HubClient) -> dict[str, Seat]:
    """Each lobby's member at the game's referee (as their own terminal would be), by
    side."""
    seats = {}
    for lobby in lobbies:
        opened = await lobby.request("open", game=game)
        seats[opened["side"]] = await Seat.join(opened["socket"], opened["side"])
    return seats


async def event(client: HubClient, what: str, timeout: float = 5.0) -> dict[str, Any]:
    """The next event ``what`` pushed to a lobby (others before it are passed over)."""
    async with asyncio.timeout(timeout):
        while True:
            msg = await client.events.get()
            if msg["what"] == what:
                return msg


def whose(state: dict[str, Any]) -> str:
    return state["turn"]["side"]


async def begin(seat: Seat, side: str) -> dict[str, Any]:
    """Begin ``side``'s hit; the pending action as ``side`` sees it."""
    option = next(o for o in (await seat.fresh())["intents"] if o.get("side") == side)
    reply = await seat.request("begin", intent=option["intent"])
    assert reply["t"] == "ok", reply
    return reply["pending"]


async def finish(seats: dict[str, Seat], side: str, pending: dict[str, Any]) -> None:
    """Answer every step of the action in progress (whoever is asked) and commit it;
    ``pending`` is the action as ``side`` saw it last."""
    pending = await answer_every(seats, side, pending)
    reply = await seats[pending["by"]].request("commit", aid=pending["aid"])
    assert reply["t"] == "ok", reply


async def answer_every(seats: dict[str, Seat], side: str,
                       pending: dict[str, Any]) -> dict[str, Any]:
    """Answer every step of the action in progress (whoever is asked), leaving it to
    be committed; ``pending`` is the action as ``side`` saw it last. Returns the
    finished action as its last answerer was told it."""
    seat = seats[side]
    while pending["step"] is not None:
        if pending["yours"]:
            step = pending["step"]
        else:
            seat, answered = seats[pending["step"]["side"]], len(pending["answers"])
            state = await seat.until_state(
                lambda s, n=answered: bool(s["pending"]) and s["pending"]["yours"]
                and len(s["pending"]["answers"]) == n)
            step = state["pending"]["step"]
        answer = answer_out(auto_answer(step_from_data(step)))  # type: ignore[arg-type]
        reply = await seat.request("answer", aid=pending["aid"], answer=answer)
        assert reply["t"] == "ok", reply
        pending = reply["pending"]
    return pending


async def play_turn(seats: dict[str, Seat], side: str) -> None:
    await finish(seats, side, await begin(seats[side], side))

"""The club's SSH front door with real asyncssh clients on loopback and a real store
file: who a key is, registration with --open, a members file, one line for what is
not a terminal session, sessions per key; and ``deathzap club serve`` killed with
SIGKILL mid-action, restarted, resumed."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncssh
import pytest
from server_helpers import (
    BLACK_FORCE,
    LAUNCH,
    RED_FORCE,
    Running,
    Seat,
    autogroup_nice,
    begin,
    finish,
    play_turn,
    running,
    toynet,
    whose,
)
from subprocess_env import child_env

from deathzap_tui.club.members import PublicKey
from deathzap_tui.club.server import ClubSSHServer, load_members
from deathzap_tui.club.zygote import MAX_NICE
from deathzap_tui.net import sshd

HERE = Path(__file__).resolve().parent
PROBE = HERE / "hubprobe.py"


def probe(hub: Path):
    return lambda member: [sys.executable, str(PROBE), "--hub", str(hub), "--member", member]


pytestmark = pytest.mark.usefixtures("toy_ruleset")


@pytest.fixture(scope="module")
def keys() -> dict[str, asyncssh.SSHKey]:
    return {name: asyncssh.generate_private_key("ssh-ed25519")
            for name in ("alice", "bob", "stranger", "dora")}


def line_of(key: asyncssh.SSHKey) -> str:
    return key.export_public_key().decode().strip()


def connect(port: int, key: asyncssh.SSHKey, **kw: Any):
    return asyncssh.connect("127.0.0.1", port, username="whoever", client_keys=[key],
                            known_hosts=None, agent_path=None, **kw)


class Screen:
    """What a session's terminal has shown so far."""

    def __init__(self, proc: asyncssh.SSHClientProcess) -> None:
        self.proc = proc
        self.text = ""

    async def until(self, pattern: str, timeout: float = 15.0) -> re.Match[str]:
        async with asyncio.timeout(timeout):
            while (found := re.search(pattern, self.text)) is None:
                chunk = await self.proc.stdout.read(65536)
                if not chunk:
                    raise EOFError(f"session ended; shown: {self.text!r}")
                self.text += chunk.decode("utf-8", "replace")
        return found

    async def ask(self, **msg: Any) -> dict[str, Any]:
        """Send one hub request through the probe; its reply."""
        mark = self.text.count("REPLY ")
        self.proc.stdin.write(json.dumps(msg).encode() + b"\r")
        await self.until(f"(?:.*?REPLY [^\r\n]*\r\n){{{mark + 1}}}")
        return json.loads(self.text.split("REPLY ")[mark + 1].split("\r\n")[0])


async def session(port: int, key: asyncssh.SSHKey) -> tuple[Any, Screen]:
    conn = await connect(port, key)
    proc = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
    return conn, Screen(proc)


@contextlib.asynccontextmanager
async def serve_in_process(tmp_path: Path, keys,
                           **kw: Any) -> AsyncIterator[tuple[Running, ClubSSHServer]]:
    """A club with alice and bob, and its SSH server (``kw``: its options) serving the
    probe lobby, in this process; closed on leaving."""
    async with running(tmp_path / "club.sqlite") as club:
        club.store.add_member("alice", PublicKey.parse(line_of(keys["alice"])))
        club.store.add_member("bob", PublicKey.parse(line_of(keys["bob"])))
        server = ClubSSHServer(club.club, club.hub, sshd.host_key(tmp_path / "hk"),
                               command=probe(club.hub.path), port=0,
                               log=club.lines.append, **kw)
        await server.start()
        try:
            yield club, server
        finally:
            await server.close()


def test_a_members_key_gets_their_lobby_with_the_server_saying_who(tmp_path, keys) -> None:
    async def main() -> None:
        async with serve_in_process(tmp_path, keys) as (_club, server):
            conn, screen = await session(server.port, keys["bob"])
            await screen.until("member=bob hub=bob")
            assert server.launcher is not None and server.launcher.forked == 1  # zygote
            lobby = await screen.ask(t="lobby")
            assert lobby["games"] == [] and lobby["challenges"] == []
            conn.close()
            with pytest.raises(asyncssh.PermissionDenied):
                await connect(server.port, keys["stranger"])

    asyncio.run(main())


@pytest.mark.parametrize("zygote", [True, False])
def test_a_sessions_app_runs_the_niceness_asked_below_the_server(tmp_path, keys,
                                                                  zygote: bool) -> None:
    """``--app-nice``: a session's app, forked by the zygote or started without it,
    runs that many niceness levels below the server (read from the app process)."""
    ours, our_group = os.getpriority(os.PRIO_PROCESS, 0), autogroup_nice()

    async def main() -> None:
        async with serve_in_process(tmp_path, keys, app_nice=7, zygote=zygote) as (club,
                                                                                  server):
            conn, screen = await session(server.port, keys["bob"])
            await screen.until("member=bob hub=bob")
            assert server.launcher is None or server.launcher.forked == 1
            started = next(line for line in club.lines if "bob session started" in line)
            pid = int(re.search(r"pid (\d+)", started)[1])  # type: ignore[index]
            assert os.getpriority(os.PRIO_PROCESS, pid) == min(MAX_NICE, ours + 7)
            group = autogroup_nice(pid)
            if group is not None:  # the kernel shares the CPU between sessions first
                assert group == min(MAX_NICE, ours + 7)
            assert autogroup_nice() == our_group  # the server's own group and niceness stay
            assert os.getpriority(os.PRIO_PROCESS, 0) == ours
            conn.close()

    asyncio.run(main())


def test_open_registration_asks_once_for_a_name(tmp_path, keys) -> None:
    async def main() -> None:
        async with serve_in_process(tmp_path, keys,
                                                        open_registration=True) as (_club, server):
            conn, screen = await session(server.port, keys["dora"])
            await screen.until("Name: ")
            screen.proc.stdin.write(b"x\r")
            await screen.until("is 1 characters long")
            screen.proc.stdin.write(b"ALICE\r")  # alice's, whatever the case
            await screen.until(r"(?i)alice.*(taken|exists|already)")
            screen.proc.stdin.write(b"Dorx\x7fa\x1b[31m\r")  # Backspace; controls dropped
            await screen.until(r"Welcome, Dora\[31m\.")
            await screen.until(r"member=Dora\[31m hub=Dora\[31m")
            conn.close()
            conn, screen = await session(server.port, keys["dora"])  # known now
            await screen.until(r"member=Dora\[31m hub=Dora\[31m")
            assert "Name:" not in screen.text
            conn.close()

    asyncio.run(main())


def test_a_members_file_lets_in_only_its_keys(tmp_path, keys) -> None:
    members = tmp_path / "members.toml"
    members.write_text(f'[[members]]\nname = "dora"\nkey = "{line_of(keys["dora"])}"\n')

    async def main() -> None:
        listed = load_members(members)
        async with serve_in_process(
            tmp_path, keys, members={key.blob: name for name, key in listed}) as (_club, server):
            with pytest.raises(asyncssh.PermissionDenied):  # in the store, not listed
                await connect(server.port, keys["alice"])
            with pytest.raises(asyncssh.PermissionDenied):
                await connect(server.port, keys["stranger"])

    asyncio.run(main())
    bad = tmp_path / "bad.toml"
    bad.write_text('[[members]]\nname = "a\u202eb"\nkey = "ssh-ed25519 AAAA"\n')
    with pytest.raises(sshd.KeysError, match=r"members\[0\].*U\+202E"):
        load_members(bad)


def test_commands_and_sessions_without_a_terminal_get_one_line(tmp_path, keys) -> None:
    async def main() -> None:
        async with (serve_in_process(tmp_path, keys, sessions_per_key=1) as (entered, server),
                    connect(server.port, keys["alice"]) as conn):
            result = await asyncio.wait_for(conn.run(), 10)
            assert result.exit_status == 1
            assert result.stdout.count("\n") == 1 and "needs a terminal" in result.stdout
            result = await asyncio.wait_for(conn.run("cat /etc/passwd", term_type="xterm"),
                                            10)
            assert result.exit_status == 1 and result.stdout.count("\n") == 1
            assert "runs no commands" in result.stdout and "root:" not in result.stdout
            with pytest.raises(asyncssh.ChannelOpenError):
                await conn.open_unix_connection(str(entered.hub.path))
            first = await conn.create_process(term_type="xterm", encoding=None)
            await Screen(first).until("member=alice")
            second = await conn.run(term_type="xterm")
            assert second.exit_status == 1 and "1 sessions open already" in second.stdout
            async with connect(server.port, keys["alice"]) as again:  # a reconnect
                extra = await connect(server.port, keys["alice"])  # one too many
                await asyncio.wait_for(extra.wait_closed(), 10)
                assert (await again.run()).exit_status == 1  # the reconnect is served

    asyncio.run(main())


def test_sessions_per_key_count_across_front_ends(tmp_path, keys) -> None:
    """Issue 24: two front-ends on one store let a key have ``sessions_per_key``
    sessions in all, not on each; a front-end started again forgets what its earlier
    run left counted."""
    async def main() -> None:
        async with serve_in_process(tmp_path, keys, sessions_per_key=1) as (entered, a):
            b = ClubSSHServer(entered.club, entered.hub, sshd.host_key(tmp_path / "hk"),
                              command=probe(entered.hub.path), port=0, sessions_per_key=1,
                              log=entered.lines.append)
            await b.start()
            try:
                async with connect(a.port, keys["alice"]) as on_a, \
                        connect(b.port, keys["alice"]) as on_b:
                    first = await on_a.create_process(term_type="xterm", encoding=None)
                    await Screen(first).until("member=alice")
                    second = await asyncio.wait_for(on_b.run(term_type="xterm"), 10)
                    assert second.exit_status == 1 and "1 sessions open already" in second.stdout
                    first.stdin.write(b"quit\r")
                    await asyncio.wait_for(first.wait(), 10)
                    third = await on_b.create_process(term_type="xterm", encoding=None)
                    await Screen(third).until("member=alice")  # the one on A is over
                    third.close()
                fingerprint = PublicKey.parse(line_of(keys["bob"])).fingerprint
                entered.store.open_session(fingerprint, b.front_end)  # left by B killed -9
                await b.close()
                b.port = int(b.front_end.rpartition(":")[2])
                await b.start()  # B again, on its port: bob's count is cleared
                assert entered.store.count_sessions(fingerprint) == 0
            finally:
                await b.close()

    asyncio.run(main())


# --- kill -9 ------------------------------------------------------------------------

def start_server(store: Path, saves: Path) -> tuple[subprocess.Popen[str], int]:
    patch = (f"import deathzap_tui.club.server as s; s.lobby_command = lambda hub: "
             f"(lambda m: [sys.executable, {str(PROBE)!r}, '--hub', str(hub), '--member', m]); ")
    proc = subprocess.Popen(
        [sys.executable, "-c", LAUNCH.replace("sys.argv = ", patch + "sys.argv = "),
         "deathzap", "club", "serve", "--store", str(store), "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=child_env(DEATHZAP_SAVES_DIR=str(saves)))
    assert proc.stdout is not None
    first = proc.stdout.readline()
    found = re.search(r"club serving on 127\.0\.0\.1:(\d+)", first)
    assert found, first + proc.stderr.read()  # type: ignore[union-attr]
    return proc, int(found.group(1))


@pytest.mark.slow
def test_kill_9_mid_action_then_restart_loses_nothing_acknowledged(tmp_path, keys) -> None:
    from deathzap_tui.club.sqlstore import open_store

    store_path = tmp_path / "club.sqlite"
    store = open_store(store_path)
    store.add_member("alice", PublicKey.parse(line_of(keys["alice"])))
    store.add_member("bob", PublicKey.parse(line_of(keys["bob"])))
    store.close()

    async def lobbies(port: int) -> dict[str, Screen]:
        screens = {}
        for name in ("alice", "bob"):
            _conn, screens[name] = await session(port, keys[name])
            await screens[name].until(f"member={name}")
        return screens

    async def first_run(port: int) -> tuple[int, int, int]:
        screens = await lobbies(port)
        made = await screens["alice"].ask(t="challenge", ruleset=toynet.ID, opponent="bob",
                                          force={"toml": RED_FORCE})
        got = await screens["bob"].ask(t="accept", challenge=made["challenge"]["challenge"],
                                       force={"toml": BLACK_FORCE})
        game = got["game"]["game"]
        opened = [await screens[m].ask(t="open", game=game) for m in screens]
        seats = {o["side"]: await Seat.join(o["socket"], o["side"]) for o in opened}
        await play_turn(seats, whose(await seats["red"].fresh()))
        side = whose(await seats["red"].fresh())
        pending = await begin(seats[side], side)  # an action in progress...
        reply = await seats[side].request("answer", aid=pending["aid"], answer="open")
        assert reply["t"] == "ok"  # ...one answer acknowledged
        return game, (await seats["red"].fresh())["events"], len(reply["pending"]["answers"])

    async def second_run(port: int, game: int) -> dict[str, Any]:
        screens = await lobbies(port)
        opened = [await screens[m].ask(t="open", game=game) for m in screens]
        seats = {o["side"]: await Seat.join(o["socket"], o["side"]) for o in opened}
        state = await seats["red"].fresh()
        pending = state["pending"]
        side = pending["by"]
        mine = await seats[side].fresh()
        await finish(seats, side, mine["pending"])  # and it goes on to the end
        assert (await seats["red"].fresh())["events"] == state["events"] + 1
        return state

    proc, port = start_server(store_path, tmp_path)
    try:
        game, events, answers = asyncio.run(first_run(port))
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    assert events == 1 and answers == 1
    proc, port = start_server(store_path, tmp_path)
    try:
        state = asyncio.run(second_run(port, game))
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(10)
    assert state["events"] == events
    assert len(state["pending"]["answers"]) == answers


@pytest.mark.parametrize(("extra", "message"), [
    (["--members", "missing.toml"], "missing.toml: no such keys file"),
    (["--notify", "mail 'x"], "--notify: cannot split"),
    (["--login-timeout", "0"], "--login-timeout must be above 0"),
    (["--open", "--members", "m.toml"], "not allowed with argument"),
    (["--app-nice", "20"], "--app-nice: expected a whole number from 0"),
    (["--app-nice", "-1"], "--app-nice: expected a whole number from 0"),
    (["--app-nice", "low"], "--app-nice: expected a whole number from 0"),
])
def test_club_serve_refuses_bad_arguments_in_one_line(tmp_path, extra, message) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "deathzap_tui", "club", "serve", "--store",
         str(tmp_path / "club.sqlite"), "--port", "0", *extra],
        capture_output=True, text=True, cwd=tmp_path, timeout=60,
        env={**os.environ, "DEATHZAP_SAVES_DIR": str(tmp_path)})
    assert result.returncode != 0
    assert message in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("zygote", [True, False])
def test_closing_the_server_ends_its_live_sessions_before_it_returns(tmp_path, keys,
                                                                     zygote: bool) -> None:
    """A front-end stopped with players connected, one playing and one still asked
    for a name: each session's app is ended and its count taken out of the store
    before ``close()`` returns, so the store can be closed right after (as ``club
    serve`` does) without a session writing to it closed; the one asking for a name
    has its connection closed and does not hold the stop up."""
    async def main() -> None:
        async with serve_in_process(tmp_path, keys, zygote=zygote,
                                    open_registration=True) as (club, server):
            conn, screen = await session(server.port, keys["bob"])
            await screen.until("member=bob hub=bob")
            newcomer, asked = await session(server.port, keys["dora"])
            await asked.until("Name: ")
            keys_of = [PublicKey.parse(line_of(keys[who])).fingerprint for who in ("bob", "dora")]
            assert [club.store.count_sessions(key) for key in keys_of] == [1, 1]
            started = asyncio.get_running_loop().time()
            await server.close()
            assert asyncio.get_running_loop().time() - started < 5
            assert [club.store.count_sessions(key) for key in keys_of] == [0, 0]
            assert not [line for line in club.lines if "failed" in line]
            conn.close(), newcomer.close()

    asyncio.run(main())

"""The built-in SSH server on a free loopback port, with asyncssh's client and the
``ssh`` command."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import stat
import sys
from pathlib import Path

import asyncssh
import pytest

from deathzap_tui.net import sshd

HERE = Path(__file__).parent


def probe(side: str) -> list[str]:
    return [sys.executable, str(HERE / "ptyprobe.py"), side]


@pytest.fixture
def keys(tmp_path: Path):
    sides = {"red": "red", "black": "black", "watch": "watch", "watch2": "watch"}
    made = {name: asyncssh.generate_private_key("ssh-ed25519") for name in (*sides, "stranger")}
    f = tmp_path / "keys.toml"
    f.write_text("".join(f'[[players]]\nside = "{side}"\n'
                         f'key = "{made[name].export_public_key().decode().strip()}"\n'
                         for name, side in sides.items()))
    return {**made, "file": f}


async def start(tmp_path: Path, keys, command=probe, **kw) -> sshd.GameSSHServer:
    server = sshd.GameSSHServer(sshd.load_keys(keys["file"]), sshd.host_key(tmp_path / "hk"),
                                command, port=0, log=lambda text: None, **kw)
    await server.start()
    return server


_seen: dict[int, bytes] = {}


async def read_until(stream, text: bytes, timeout: float = 10) -> bytes:
    """Everything read from ``stream`` so far, once it holds ``text``."""
    buf = _seen.get(id(stream), b"")
    async with asyncio.timeout(timeout):
        while text not in buf:
            chunk = await stream.read(4096)
            if not chunk:
                break
            buf += chunk
            _seen[id(stream)] = buf
    return buf


def connect(server, key, **kw):
    return asyncssh.connect("127.0.0.1", server.port, username="anyone", client_keys=[key],
                            known_hosts=None, agent_path=None, **kw)


def test_session_runs_on_a_pty_with_the_clients_terminal_and_resizes(tmp_path, keys) -> None:
    async def main() -> None:
        server = await start(tmp_path, keys)
        try:
            async with connect(server, keys["black"]) as conn:
                proc = await conn.create_process(term_type="xterm-256color",
                                                 term_size=(100, 30), encoding=None)
                out = await read_until(proc.stdout, b"\n")
                assert b"side=black term=xterm-256color size=100x30 ctty=True" in out
                proc.change_terminal_size(120, 40)
                assert b"RESIZED 120x40" in await read_until(proc.stdout, b"RESIZED 120x40")
                proc.stdin.write(b"hello\r")  # raw pty: typed Enter is a CR
                proc.stdin.write(b"\n")
                assert b"GOT hello" in await read_until(proc.stdout, b"GOT hello")
                await asyncio.wait_for(proc.wait(), 10)
        finally:
            await server.close()

    asyncio.run(main())


def test_unknown_key_and_passwords_are_refused(tmp_path, keys) -> None:
    async def main() -> None:
        server = await start(tmp_path, keys)
        try:
            with pytest.raises(asyncssh.PermissionDenied):
                async with connect(server, keys["stranger"]):
                    pass
            with pytest.raises(asyncssh.PermissionDenied):
                async with asyncssh.connect("127.0.0.1", server.port, username="red",
                                            password="red", client_keys=None,
                                            known_hosts=None, agent_path=None):
                    pass
        finally:
            await server.close()

    asyncio.run(main())


def test_session_without_a_pty_gets_one_line(tmp_path, keys) -> None:
    async def main() -> None:
        server = await start(tmp_path, keys)
        try:
            async with connect(server, keys["red"]) as conn:
                result = await asyncio.wait_for(conn.run(), 10)
                assert result.exit_status == 1
                assert result.stdout.count("\n") == 1 and "needs a terminal" in result.stdout
        finally:
            await server.close()

    asyncio.run(main())


def test_idle_sessions_and_extra_connections_are_closed(tmp_path, keys) -> None:
    async def main() -> None:
        server = await start(tmp_path, keys, idle=0.5, max_connections=1)
        try:
            async with connect(server, keys["watch"]):
                with pytest.raises((asyncssh.Error, OSError)):
                    async with connect(server, keys["watch2"]) as second:
                        await second.run("x")
                async with connect(server, keys["black"]) as player:  # players always
                    assert (await asyncio.wait_for(player.run(), 10)).exit_status == 1
            async with connect(server, keys["red"]) as conn:
                proc = await conn.create_process(term_type="xterm", encoding=None)
                out = await read_until(proc.stdout, b"idle too long", timeout=10)
                assert b"idle too long" in out
                await asyncio.wait_for(proc.wait(), 10)
        finally:
            await server.close()

    asyncio.run(main())


def test_a_players_key_holds_a_few_connections_at_most(tmp_path, keys) -> None:
    async def main() -> None:
        server = await start(tmp_path, keys, max_connections=0)
        try:
            async with contextlib.AsyncExitStack() as held:
                for _ in range(sshd.PLAYER_CONNECTIONS):  # a reconnect beside a lingering link
                    conn = await held.enter_async_context(connect(server, keys["red"]))
                    assert (await asyncio.wait_for(conn.run(), 10)).exit_status == 1
                with pytest.raises((asyncssh.Error, OSError)):
                    async with connect(server, keys["red"]) as more:
                        await more.run()
        finally:
            await server.close()

    asyncio.run(main())


async def idle_tcp(server, n: int) -> list[tuple[asyncio.StreamReader, asyncio.StreamWriter]]:
    """``n`` TCP connections to ``server`` that never log in."""
    return [await asyncio.open_connection("127.0.0.1", server.port) for _ in range(n)]


def test_connections_not_logged_in_never_lock_a_player_out(tmp_path, keys) -> None:
    """Issue 19: as many idle TCP connections as --max-connections (and as the budget
    for connections not logged in) once kept every player out for the login timeout."""
    async def main() -> None:
        server = await start(tmp_path, keys, max_connections=8, max_unauthenticated=8)
        idle = await idle_tcp(server, 8)
        try:
            for key in ("red", "black"):
                async with asyncio.timeout(10), connect(server, keys[key]) as conn:
                    result = await conn.run()  # served: a session, without a pty
                    assert result.exit_status == 1 and "needs a terminal" in result.stdout
            # The one waiting longest gave way to them (dropped at once).
            await asyncio.wait_for(idle[0][0].read(), 5)
            assert idle[0][0].at_eof()
        finally:
            for _r, w in idle:
                w.close()
            await server.close()

    asyncio.run(main())


def test_a_connection_not_logged_in_is_dropped_after_the_login_timeout(tmp_path, keys) -> None:
    async def main() -> None:
        server = await start(tmp_path, keys, login_timeout=0.3)
        try:
            [(reader, writer)] = await idle_tcp(server, 1)
            t = asyncio.get_running_loop().time()
            async with asyncio.timeout(5):
                while await reader.read(4096):
                    pass  # the server's banner, then its goodbye
            assert asyncio.get_running_loop().time() - t < 3
            writer.close()
            async with connect(server, keys["red"]) as conn:  # a prompt login is fine
                assert (await asyncio.wait_for(conn.run(), 10)).exit_status == 1
        finally:
            await server.close()

    asyncio.run(main())


class GoneClient:
    """An SSH session whose client has gone without a word: writing to it fails as
    asyncssh's channel does, and its input never ends (the loss is not noticed yet)."""

    def __init__(self) -> None:
        self.stdin, self.stdout, self.env, self.status = self, self, {}, None

    def get_terminal_size(self) -> tuple[int, int, int, int]:
        return 80, 24, 0, 0

    async def read(self, n: int) -> bytes:
        await asyncio.Event().wait()  # never
        return b""

    def write(self, data: bytes) -> None:
        raise BrokenPipeError("Channel not open for sending")

    def exit(self, status: int) -> None:
        self.status = status


def test_a_client_gone_mid_output_ends_the_session_quietly(tmp_path, keys, caplog) -> None:
    """The app writes after its SSH client vanished: the session ends at once, with
    no BrokenPipeError traceback on the host's terminal."""
    chatty = [sys.executable, "-c", "import sys\nwhile True: sys.stdout.write('x' * 4096)"]
    said: list[str] = []
    gone = GoneClient()

    async def main() -> None:
        server = sshd.GameSSHServer(sshd.load_keys(keys["file"]), sshd.host_key(tmp_path),
                                    lambda side: chatty, log=said.append)
        await asyncio.wait_for(server._run_on_pty(gone, "red", "xterm"), 10)

    with caplog.at_level(logging.ERROR, logger="asyncio"):
        asyncio.run(main())
    assert said[-1] == "ssh: red session ended" and gone.status is not None
    assert [r for r in caplog.records if r.exc_info] == []


def test_host_key_is_generated_once_and_kept_private(tmp_path) -> None:
    first = sshd.host_key(tmp_path)
    again = sshd.host_key(tmp_path)
    assert first.public_data == again.public_data
    assert stat.S_IMODE(os.stat(tmp_path / sshd.HOST_KEY_NAME).st_mode) == 0o600


def test_keys_file_problems_name_the_entry(tmp_path) -> None:
    f = tmp_path / "k.toml"
    f.write_text('[[players]]\nside = "green"\nkey = "x"\n')
    with pytest.raises(sshd.KeysError, match=r"players\[0\]\.side"):
        sshd.load_keys(f)
    f.write_text('[[players]]\nside = "red"\nkey = "ssh-ed25519 AAAAnotakey"\n')
    with pytest.raises(sshd.KeysError, match=r"players\[0\]\.key: not a public key"):
        sshd.load_keys(f)


@pytest.mark.skipif(shutil.which("ssh") is None, reason="OpenSSH client (ssh) not installed")
def test_real_ssh_client(tmp_path, keys) -> None:
    keyfile = tmp_path / "id_red"
    keyfile.write_bytes(keys["red"].export_private_key())
    keyfile.chmod(0o600)

    async def main() -> None:
        server = await start(tmp_path, keys)
        try:
            proc = await asyncio.create_subprocess_exec(
                "ssh", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
                "-o", "BatchMode=yes", "-o", "IdentitiesOnly=yes", "-F", "/dev/null",
                "-i", str(keyfile), "-p", str(server.port), "-tt", "player@127.0.0.1",
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE, env={**os.environ, "TERM": "xterm-256color"})
            out = await read_until(proc.stdout, b"\n")
            assert b"side=red term=xterm-256color" in out and b"ctty=True" in out
            proc.stdin.write(b"over ssh\n")
            assert b"GOT over ssh" in await read_until(proc.stdout, b"GOT over ssh")
            await asyncio.wait_for(proc.wait(), 10)
        finally:
            await server.close()

    asyncio.run(main())

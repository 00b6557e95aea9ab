"""The built-in SSH server: each session runs its own app on a pty.

Keys file (TOML), one entry per key; ``side`` is ``red``, ``black`` or ``watch``::

    [[players]]
    side = "red"
    key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI... alice@laptop"

    [[players]]
    side = "watch"
    key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI... carol"

Only public-key authentication is offered; a key not in the file is refused, and the
user name is ignored (the key decides the side). The host key is generated once
(ed25519) into the saves directory, mode 0600, and reused. The server binds
127.0.0.1 unless told otherwise, closes sessions idle for ``idle`` seconds; no
forwarding, no subsystems.

Limits (issue 19): a connection that has not logged in has ``login_timeout`` seconds
to do so, and at most ``max_unauthenticated`` such connections wait at once: one
more drops the one waiting longest, so idle connections never lock a player out.
Once logged in, watchers' connections are at most ``max_connections``; each
player's key always gets in (``PLAYER_CONNECTIONS`` at once, for a reconnect while
the old link lingers).

Each session: a pty (raw before the child starts), a child in its own session with
the pty as controlling terminal, ``TERM`` (and ``COLORTERM`` if the client sent it)
from the session, window changes applied to the pty (the kernel then signals the
app). The child is ``command(side)``, by default ``python -m deathzap_tui join
--socket SOCK --as SIDE``. A session without a pty, and a command (exec) or
subsystem request, gets one line and is closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import pty
import struct
import sys
import termios
import time
import tomllib
import tty
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

import asyncssh

from deathzap_tui.net.limits import Lobby
from deathzap_tui.net.protocol import ROLES, SIDES
from deathzap_tui.safefiles import write_atomic

HOST_KEY_NAME = "ssh_host_ed25519_key"
MAX_KEYS_BYTES = 256 * 1024
PLAYER_CONNECTIONS = 2
"""Logged-in connections a player's key may hold at once."""
CLOSE_GRACE = 1.0
"""Seconds :meth:`GameSSHServer.close` gives the live sessions to end once their apps
are told to, before it closes the connections of those still open (a session still
asking for a name, or whose app is slow to go: the session kills it after 5 s)."""
NO_PTY = ("deathzap: this server runs a full-screen game and needs a terminal; "
          "connect with `ssh -t`.\r\n")
NO_COMMANDS = ("deathzap: this server runs no commands, subsystems or file copies; "
               "connect with `ssh -t` and nothing after the host.\r\n")


class KeysError(ValueError):
    """A keys file that cannot be used; the message names the file and entry."""


def read_keys_toml(path: Path) -> dict[str, Any]:
    """A keys file's TOML table (a players' keys file, a club's members file), or
    :class:`KeysError` naming the file and what is wrong."""
    try:
        if path.stat().st_size > MAX_KEYS_BYTES:
            raise KeysError(f"{path}: larger than {MAX_KEYS_BYTES} bytes")
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except KeysError:
        raise
    except FileNotFoundError:
        raise KeysError(f"{path}: no such keys file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise KeysError(f"{path}: cannot read ({exc})") from None
    except (tomllib.TOMLDecodeError, RecursionError, ValueError) as exc:
        raise KeysError(f"{path}: not valid TOML: {exc}") from None


def load_keys(path: Path) -> dict[bytes, str]:
    """Public key blob -> side, from a keys file (see the module docstring)."""
    data = read_keys_toml(path)
    entries = data.get("players")
    if not isinstance(entries, list) or not entries:
        raise KeysError(f"{path}: expected [[players]] entries with side and key")
    keys: dict[bytes, str] = {}
    for i, entry in enumerate(entries):
        where = f"{path}: players[{i}]"
        if not isinstance(entry, dict):
            raise KeysError(f"{where}: expected a table with side and key")
        side, text = entry.get("side"), entry.get("key")
        if side not in ROLES:
            raise KeysError(f"{where}.side: expected one of {', '.join(ROLES)}")
        if not isinstance(text, str):
            raise KeysError(f"{where}.key: expected an OpenSSH public key line")
        try:
            blob = asyncssh.import_public_key(text.strip()).public_data
        except (asyncssh.KeyImportError, ValueError) as exc:
            raise KeysError(f"{where}.key: not a public key ({exc})") from None
        if keys.get(blob, side) != side:
            raise KeysError(f"{where}.key: the same key is listed for {keys[blob]}")
        keys[blob] = side
    return keys


def host_key(directory: Path) -> asyncssh.SSHKey:
    """The server's host key, generated once into ``directory`` (mode 0600)."""
    path = directory / HOST_KEY_NAME
    if path.exists():
        mode = path.stat().st_mode & 0o077
        if mode:
            raise KeysError(f"{path}: readable by others (chmod 600 it)")
        return asyncssh.read_private_key(path)
    directory.mkdir(parents=True, exist_ok=True)
    key = asyncssh.generate_private_key("ssh-ed25519")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(key.export_private_key())
        f.flush()
        os.fsync(f.fileno())
    with contextlib.suppress(OSError):  # never through a link (issue 19)
        write_atomic(directory / (HOST_KEY_NAME + ".pub"), key.export_public_key(),
                     mode=0o644)
    return key


def join_command(socket_path: Path) -> Callable[[str], Sequence[str]]:
    def command(side: str) -> Sequence[str]:
        return [sys.executable, "-m", "deathzap_tui", "join", "--socket", str(socket_path),
                "--as", side]

    return command


class Child(Protocol):
    """A session's app process as the server handles it (an
    :class:`asyncio.subprocess.Process`, or one a club's zygote forked)."""

    @property
    def pid(self) -> int: ...

    @property
    def returncode(self) -> int | None: ...

    async def wait(self) -> int: ...

    def terminate(self) -> None: ...

    def kill(self) -> None: ...


class GameSSHServer:
    """The server: ``await start()``, ``port``, ``await close()``."""

    def __init__(self, keys: dict[bytes, str], host_key: asyncssh.SSHKey,
                 command: Callable[[str], Sequence[str]], *, host: str = "127.0.0.1",
                 port: int = 2222, idle: float = 1800.0, max_connections: int = 8,
                 max_unauthenticated: int = 8, login_timeout: float = 10.0,
                 log: Callable[[str], None] | None = None) -> None:
        self.keys = keys
        self.key = host_key
        self.command = command
        self.host = host
        self.port = port
        self.idle = idle
        self.max_connections = max_connections
        self.login_timeout = login_timeout
        self.logged_in = {role: 0 for role in ROLES}
        """Connections logged in, by the side of their key."""
        self.unauthenticated: Lobby[asyncssh.SSHServerConnection] = Lobby(
            max_unauthenticated, lambda conn: conn.abort())
        self.log = log or (lambda text: print(text, file=sys.stderr, flush=True))
        self._server: asyncssh.SSHAcceptor | None = None
        self._children: set[Child] = set()
        self._sessions: dict[asyncio.Task[Any], asyncssh.SSHServerConnection] = {}
        """Each live session's handler, and its connection."""

    async def start(self) -> None:
        self._server = await asyncssh.create_server(
            self._connection, self.host, self.port, server_host_keys=[self.key],
            process_factory=self._handle, encoding=None, allow_scp=False,
            agent_forwarding=False, x11_forwarding=False, login_timeout=self.login_timeout,
            keepalive_interval=30, keepalive_count_max=3)
        self.port = self._server.sockets[0].getsockname()[1]

    async def close(self) -> None:
        """Stop listening, end every live session and return once each has finished:
        its app ended, and whatever it does on its way out done (a club server counts
        it out of its store, which its caller closes next). Listening stops first, so
        no session starts meanwhile; the apps are told to end, and a session still
        open after :data:`CLOSE_GRACE` has its connection closed."""
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
        for child in list(self._children):
            with contextlib.suppress(ProcessLookupError):
                child.terminate()
        if self._sessions:
            await asyncio.wait(self._sessions, timeout=CLOSE_GRACE)
        for conn in list(self._sessions.values()):
            conn.close()
        if self._sessions:
            await asyncio.wait(self._sessions)

    async def _handle(self, process: asyncssh.SSHServerProcess) -> None:
        """Run :meth:`_session`, known to :meth:`close` while it runs."""
        task = asyncio.current_task()
        assert task is not None  # asyncssh runs each session's handler as a task
        self._sessions[task] = process.channel.get_connection()
        try:
            await self._session(process)
        finally:
            del self._sessions[task]

    def _connection(self) -> asyncssh.SSHServer:
        return _Auth(self)

    async def _session(self, process: asyncssh.SSHServerProcess) -> None:
        side = process.get_extra_info("deathzap_side") or \
            process.channel.get_connection().get_extra_info("deathzap_side")
        term = self.refuse_unless_terminal(process)
        if term is None:
            return
        try:
            await self._run_on_pty(process, side, term)
        except Exception as exc:  # one broken session must not take the server down
            self.log(f"ssh session for {side} failed: {exc}")
            with contextlib.suppress(Exception):
                process.exit(1)

    @staticmethod
    def refuse_unless_terminal(process: asyncssh.SSHServerProcess) -> str | None:
        """The session's terminal type; or, for a command (exec), a subsystem or a
        session without a pty, ``None`` once it has been told so in one line and
        closed: this server runs one full-screen app and nothing else."""
        term = process.get_terminal_type()
        if process.command is not None or process.subsystem is not None:
            process.stdout.write(NO_COMMANDS.encode())
        elif term is None:
            process.stdout.write(NO_PTY.encode())
        else:
            return term
        process.exit(1)
        return None

    async def _start_child(self, argv: Sequence[str], env: Mapping[str, str],
                           slave: int) -> Child:
        """Start ``argv`` with ``env`` on the pty whose slave end is ``slave``: in a
        session of its own, the pty its controlling terminal and its stdin, stdout
        and stderr, no other descriptor inherited."""
        return await asyncio.create_subprocess_exec(
            *argv, stdin=slave, stdout=slave, stderr=slave, env=env,
            start_new_session=True, preexec_fn=_take_tty, close_fds=True)

    async def _run_on_pty(self, process: asyncssh.SSHServerProcess, side: str,
                          term: str, extra_env: Mapping[str, str] | None = None) -> None:
        """Run ``command(side)`` on a pty for the session, ``extra_env`` added to its
        environment (never what the client sent), until either side ends."""
        width, height, pw, ph = process.get_terminal_size()
        master, slave = pty.openpty()
        tty.setraw(slave)  # before the app starts, or its first input is echoed
        _set_size(master, width or 80, height or 24, pw, ph)
        env = {**os.environ, "TERM": term}
        env.pop("COLORTERM", None)
        client_env = process.env or {}
        for name in ("COLORTERM", "LANG", "LC_ALL"):
            value = client_env.get(name)
            if isinstance(value, str) and value.isprintable() and len(value) < 64:
                env[name] = value
        env.update(extra_env or {})
        try:
            child = await self._start_child(self.command(side), env, slave)
        finally:
            os.close(slave)
        self._children.add(child)
        self.log(f"ssh: {side} session started (pid {child.pid}, {term})")
        loop = asyncio.get_running_loop()
        last_input = time.monotonic()
        done = asyncio.Event()

        def pump_out() -> None:
            try:
                data = os.read(master, 65536)
            except OSError:
                data = b""
            if data:
                try:
                    process.stdout.write(data)
                    return
                except BrokenPipeError:
                    pass  # the SSH client went away without a word: the session ends
            loop.remove_reader(master)
            done.set()

        loop.add_reader(master, pump_out)

        async def pump_in() -> None:
            nonlocal last_input
            while True:
                try:
                    data = await process.stdin.read(65536)
                except asyncssh.TerminalSizeChanged as exc:
                    _set_size(master, exc.width, exc.height, exc.pixwidth, exc.pixheight)
                    continue
                except (asyncssh.BreakReceived, asyncssh.SignalReceived):
                    continue
                if not data:
                    return
                last_input = time.monotonic()
                with contextlib.suppress(OSError):
                    os.write(master, data)

        async def watchdog() -> None:
            while True:
                left = self.idle - (time.monotonic() - last_input)
                if left <= 0:
                    with contextlib.suppress(BrokenPipeError):
                        process.stdout.write(b"\r\ndeathzap: idle too long, disconnecting.\r\n")
                    return
                await asyncio.sleep(min(left, 5))

        tasks = [asyncio.ensure_future(x) for x in (pump_in(), watchdog(), done.wait())]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for t in tasks:
                t.cancel()
            loop.remove_reader(master)
            if child.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    child.terminate()  # SIGTERM; the app also gets SIGHUP from the pty
            try:
                await asyncio.wait_for(child.wait(), 5)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    child.kill()
                await child.wait()
            self._children.discard(child)
            os.close(master)
            self.log(f"ssh: {side} session ended")
            process.exit(child.returncode if child.returncode and child.returncode > 0 else 0)


class _Auth(asyncssh.SSHServer):
    def __init__(self, server: GameSSHServer) -> None:
        self.server = server
        self.conn: asyncssh.SSHServerConnection | None = None
        self.side = ""
        """The side this connection logged in as (counted in ``logged_in``)."""

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        self.server.unauthenticated.enter(conn)

    def auth_completed(self) -> None:
        assert self.conn is not None
        server = self.server
        server.unauthenticated.leave(self.conn)
        side = self.conn.get_extra_info("deathzap_side")
        most = PLAYER_CONNECTIONS if side in SIDES else server.max_connections
        if server.logged_in[side] >= most:
            server.log(f"ssh: {side} has {most} connections already; refusing one")
            self.conn.close()
            return
        server.logged_in[side] += 1
        self.side = side

    def connection_lost(self, exc: Exception | None) -> None:
        if self.conn is not None:
            self.server.unauthenticated.leave(self.conn)
        if self.side:
            self.server.logged_in[self.side] -= 1
            self.side = ""

    def begin_auth(self, username: str) -> bool:
        return True

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return False

    def host_based_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        side = self.server.keys.get(key.public_data)
        if side is None:
            return False
        assert self.conn is not None
        self.conn.set_extra_info(deathzap_side=side)
        return True


def _set_size(fd: int, width: int, height: int, pw: int = 0, ph: int = 0) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, pw, ph))


def _take_tty() -> None:
    """In the child, after setsid: make stdin (the pty) the controlling terminal."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


async def serve(keys: dict[bytes, str], key: Any, command: Callable[[str], Sequence[str]],
                **kw: Any) -> GameSSHServer:
    server = GameSSHServer(keys, key, command, **kw)
    await server.start()
    return server

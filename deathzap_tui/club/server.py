"""``deathzap club serve``: one SSH address for every game of a club (issue 23).

One process holds an SSH server (:mod:`deathzap_tui.net.sshd`'s: public keys only; no
shell, commands, forwarding, agent or subsystems; a pty required; a short budget for
connections not yet logged in; idle sessions closed), the club's hub
(:mod:`.hub`, on a Unix socket in a private run directory) and the games in play
(:mod:`.hosting`).

Who gets in: a key the club store knows is its member. ``--open``: an unknown key
is asked once, on its terminal, for a member name (2-24 printable characters, no
control or bidi characters, unique) and kept as that member. ``--members FILE``:
only the keys listed there (TOML, as ``serve-ssh``'s keys file, with member names)::

    [[members]]
    name = "alice"
    key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI... alice@laptop"

Each SSH session runs the lobby app on its own pty (:func:`lobby_command`), forked
from a pre-imported zygote (:mod:`.zygote`, :mod:`.launcher`: a session starts in a
fraction of the time and shares the imported code's memory), with a
token for the member its key belongs to (:data:`~.hub.TOKEN_ENV`): the server, never
the client, says who a session is. The apps run at a lower CPU priority than the
server (``--app-nice``, :data:`APP_NICE` niceness levels below by default): an app
draws one terminal, the server serves every one, and on a machine out of CPU every
move waits for the server's share of it (issue 24). A key has at most
``sessions_per_key`` sessions at once across all the club's front-ends (counted in
the store: each front-end, named by its host and port, clears what its earlier run
left open when it starts again), and one connection more than that on each
front-end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import shutil
import socket
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import asyncssh

from deathzap_tui.club.hosting import Club, ClubLimits
from deathzap_tui.club.hub import TOKEN_ENV, HubServer
from deathzap_tui.club.launcher import Launcher
from deathzap_tui.club.members import ClubError, PublicKey, check_name, fingerprint
from deathzap_tui.club.notify import Notifier, parse_command
from deathzap_tui.club.sqlstore import open_store
from deathzap_tui.club.store import ClubStore
from deathzap_tui.club.zygote import MAX_NICE, nicer
from deathzap_tui.commands.host import add_login_limits, at_least, login_limits_problem
from deathzap_tui.commands.serving import serve_until_stopped
from deathzap_tui.gamestore import StoreError
from deathzap_tui.headless.text import clean
from deathzap_tui.net import sshd

SESSIONS_PER_KEY = 3
REGISTER_TIMEOUT = 120.0
"""Seconds an unknown key has to choose its member name (``--open``)."""
REGISTER_TRIES = 3
MAX_TYPED = 100
"""Bytes a typed name may take before Enter (a name is at most 24 characters)."""
APP_NICE = 10
"""Niceness levels the sessions' apps run below the server (each app and its
session's autogroup: :func:`~.zygote.nicer`): Linux weighs a process or group at
niceness 10 about a tenth of one at 0 (110 against 1,024), so the server (and
PostgreSQL's backends, at the database's own niceness) get the CPU first whenever
tens of apps are drawing at once, while the apps still have the whole machine when
the server waits; and 10 leaves room below for a server that is itself niced."""


def lobby_command(hub: Path) -> Callable[[str], Sequence[str]]:
    """The lobby app a session of ``member`` runs (see :mod:`.hub`)."""
    def command(member: str) -> Sequence[str]:
        return [sys.executable, "-m", "deathzap_tui", "club", "session", "--hub", str(hub),
                "--member", member]

    return command


def load_members(path: Path) -> list[tuple[str, PublicKey]]:
    """The members and keys a members file lists (see the module doc)."""
    data = sshd.read_keys_toml(path)
    entries = data.get("members")
    if not isinstance(entries, list) or not entries:
        raise sshd.KeysError(f"{path}: expected [[members]] entries with name and key")
    listed: dict[bytes, tuple[str, PublicKey]] = {}
    for i, entry in enumerate(entries):
        where = f"{path}: members[{i}]"
        if not isinstance(entry, dict) or set(entry) - {"name", "key"}:
            raise sshd.KeysError(f"{where}: expected a table with name and key")
        try:
            name = check_name(entry.get("name"))  # type: ignore[arg-type]
            key = PublicKey.parse(entry.get("key"))  # type: ignore[arg-type]
        except ClubError as exc:
            raise sshd.KeysError(f"{where}: {exc}") from None
        if listed.get(key.blob, (name,))[0] != name:
            raise sshd.KeysError(f"{where}.key: the same key is listed for "
                                 f"{listed[key.blob][0]}")
        listed[key.blob] = (name, key)
    return list(listed.values())


def enrol(store: ClubStore, listed: list[tuple[str, PublicKey]]) -> None:
    """Make sure every member a members file lists is in the store with their key."""
    for name, key in listed:
        owner = store.member_by_key(key.blob)
        if owner is not None:
            if owner.name != name:
                raise ClubError(f"the key listed for {name} is {owner.name}'s in the store")
            continue
        if name in {m.name for m in store.members()}:
            store.add_key(name, key)
        else:
            store.add_member(name, key)


class ClubSSHServer(sshd.GameSSHServer):
    """The SSH front door of a club: who a key is, registration, the lobby on a pty."""

    def __init__(self, club: Club, hub: HubServer, host_key: asyncssh.SSHKey, *,
                 members: dict[bytes, str] | None = None, open_registration: bool = False,
                 sessions_per_key: int = SESSIONS_PER_KEY,
                 register_timeout: float = REGISTER_TIMEOUT,
                 command: Callable[[str], Sequence[str]] | None = None, zygote: bool = True,
                 app_nice: int = APP_NICE, **kw: Any) -> None:
        super().__init__({}, host_key, command or lobby_command(hub.path), **kw)
        self.app_nice = app_nice
        """Niceness levels the sessions' apps run below the server (0: as the server)."""
        self.launcher = Launcher(hub.path.parent, log=self.log, nice=app_nice) \
            if zygote else None
        """Where sessions' apps are forked from (:mod:`.zygote`), beside the hub."""
        self.club = club
        self.hub = hub
        self.members = members
        self.open_registration = open_registration
        self.sessions_per_key = sessions_per_key
        self.register_timeout = register_timeout
        self.front_end = ""
        """How the store's session counts name this front-end (its host and port)."""
        self.connections: dict[bytes, int] = {}
        """Connections logged in, by key: at most one more than its sessions."""

    def _connection(self) -> asyncssh.SSHServer:
        return _ClubAuth(self)

    async def start(self) -> None:
        if self.launcher is not None:
            await self.launcher.start()
        await super().start()
        self.front_end = f"{socket.gethostname()}:{self.port}"
        with contextlib.suppress(StoreError):  # each session says so if it stays down
            self.club.store.clear_sessions(self.front_end)  # left by a run killed -9

    async def close(self) -> None:
        await super().close()
        if self.launcher is not None:
            await self.launcher.close()

    async def _start_child(self, argv: Sequence[str], env: Mapping[str, str],
                           slave: int) -> sshd.Child:
        forked = await self.launcher.start_child(argv, env, slave) \
            if self.launcher is not None else None
        if forked is not None:
            return forked  # at its niceness from the start (the zygote's child sets it)
        child = await super()._start_child(argv, env, slave)
        with contextlib.suppress(ProcessLookupError):  # it ended already
            nicer(child.pid, self.app_nice)  # once started: its first moments at ours
        return child

    def _open_session(self, blob: bytes) -> int | None:
        """Count a session of the key ``blob`` in the store (every front-end's
        sessions are there); ``None``: the key has ``sessions_per_key`` already.
        Counted first, then checked, so two front-ends at once never both let in
        one too many. Raises :class:`StoreError`."""
        store, key = self.club.store, fingerprint(blob)
        session_id = store.open_session(key, self.front_end)
        if store.count_sessions(key) > self.sessions_per_key:
            store.close_session(session_id)
            return None
        return session_id

    def member_for(self, blob: bytes) -> str | None:
        """Who this key is: its member, "" for an unknown key that may register, or
        ``None`` for a key that may not log in."""
        if self.members is not None:
            return self.members.get(blob)
        try:
            member = self.club.member_for_key(blob)
        except StoreError as exc:
            self.log(f"ssh: cannot look a key up: {exc}")
            return None
        if member is not None:
            return member
        return "" if self.open_registration else None

    async def _session(self, process: asyncssh.SSHServerProcess) -> None:
        term = self.refuse_unless_terminal(process)
        if term is None:
            return
        conn = process.channel.get_connection()
        blob: bytes = conn.get_extra_info("deathzap_key")
        member: str = conn.get_extra_info("deathzap_member") or ""
        try:
            session_id = self._open_session(blob)
        except StoreError as exc:
            self.log(f"ssh: cannot count a key's sessions: {exc}")
            process.stdout.write(b"deathzap: the club's store is unavailable; try again "
                                 b"in a moment.\r\n")
            process.exit(1)
            return
        if session_id is None:
            process.stdout.write(f"deathzap: this key has {self.sessions_per_key} sessions "
                                 "open already; close one first.\r\n".encode())
            process.exit(1)
            return
        token = ""
        try:
            if not member:
                member = await self._register(process, conn.get_extra_info("deathzap_line"))
                if not member:
                    process.exit(1)
                    return
                conn.set_extra_info(deathzap_member=member)
            token = self.hub.issue(member)
            await self._run_on_pty(process, member, term, {TOKEN_ENV: token})
        except BrokenPipeError:
            pass  # the connection closed while it was written to: nothing has failed
        except Exception as exc:  # one broken session must not take the server down
            self.log(f"ssh session for {member or 'a new member'} failed: {exc!r}")
            with contextlib.suppress(Exception):
                process.exit(1)
        finally:
            self.hub.revoke(token)
            try:
                self.club.store.close_session(session_id)
            except StoreError as exc:  # counted until this front-end starts again
                self.log(f"ssh: cannot count a session's end: {exc}")

    async def _register(self, process: asyncssh.SSHServerProcess, key_line: str) -> str:
        """Ask an unknown key for its member name on its terminal and keep it; "" if
        it gave up (Ctrl-C, Ctrl-D, silence, or too many refused names)."""
        out = process.stdout
        out.write(b"\r\nWelcome. This key is new to the club: choose your member name "
                  b"(2-24 characters).\r\nName: ")
        for _ in range(REGISTER_TRIES):
            try:
                async with asyncio.timeout(self.register_timeout):
                    name = await _read_line(process)
            except TimeoutError:
                out.write(b"\r\ndeathzap: no name given; disconnecting.\r\n")
                return ""
            if name is None:
                out.write(b"\r\n")
                return ""
            try:
                member = self.club.register(name, key_line)
            except StoreError as exc:
                out.write(f"\r\n{clean(exc, oneline=True)}\r\nName: ".encode())
                continue
            self.log(f"ssh: new member {member.name}")
            out.write(f"\r\nWelcome, {clean(member.name)}.\r\n".encode())
            return member.name
        out.write(b"\r\ndeathzap: no name taken; disconnecting.\r\n")
        return ""


async def _read_line(process: asyncssh.SSHServerProcess) -> str | None:
    """A line typed on a raw terminal, echoed as typed (Backspace works); ``None``
    for Ctrl-C, Ctrl-D or the end of input."""
    typed = bytearray()
    while True:
        try:
            data = await process.stdin.read(1024)
        except (asyncssh.TerminalSizeChanged, asyncssh.BreakReceived,
                asyncssh.SignalReceived):
            continue
        if not data:
            return None
        for byte in data:
            if byte in (3, 4):
                return None
            if byte in (10, 13):
                return typed.decode("utf-8", "replace")
            if byte in (8, 127):
                if typed:
                    text = typed.decode("utf-8", "ignore")[:-1]
                    typed[:] = text.encode("utf-8")
                    process.stdout.write(b"\b \b")
                continue
            if byte < 32 or len(typed) >= MAX_TYPED:
                continue
            typed.append(byte)
            process.stdout.write(bytes([byte]))


class _ClubAuth(sshd._Auth):
    """Public keys only: the key decides the member (see :class:`ClubSSHServer`)."""

    server: ClubSSHServer
    key = b""
    """The key this connection logged in with (counted in ``connections``)."""

    def auth_completed(self) -> None:
        assert self.conn is not None
        server = self.server
        server.unauthenticated.leave(self.conn)
        key = self.conn.get_extra_info("deathzap_key")
        most = server.sessions_per_key + 1  # and one for a reconnect while a link lingers
        if server.connections.get(key, 0) >= most:
            server.log(f"ssh: a key has {most} connections already; refusing one")
            self.conn.close()
            return
        server.connections[key] = server.connections.get(key, 0) + 1
        self.key = key

    def connection_lost(self, exc: Exception | None) -> None:
        if self.conn is not None:
            self.server.unauthenticated.leave(self.conn)
        if self.key:
            connections = self.server.connections
            connections[self.key] -= 1
            if not connections[self.key]:
                del connections[self.key]
            self.key = b""

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        member = self.server.member_for(key.public_data)
        if member is None:
            return False
        assert self.conn is not None
        self.conn.set_extra_info(deathzap_key=key.public_data, deathzap_member=member,
                                 deathzap_line=key.export_public_key().decode().strip())
        return True


# --- the command ------------------------------------------------------------------

def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", type=int, default=2222, help="TCP port (default 2222)")
    parser.add_argument("--bind", default="127.0.0.1", metavar="ADDRESS",
                        help="address to listen on (default 127.0.0.1: this machine only)")
    who = parser.add_mutually_exclusive_group()
    who.add_argument("--open", action="store_true",
                     help="let any key in: a new key is asked once for a member name")
    who.add_argument("--members", metavar="FILE",
                     help="only the keys listed in this TOML file ([[members]] name, key)")
    parser.add_argument("--notify", metavar="CMD",
                        help="run CMD MEMBER GAME WHAT (your-move, challenge, game-over) "
                        "for each of those events, in the background")
    parser.add_argument("--notify-timeout", type=float, default=10.0, metavar="SECONDS",
                        help="kill a notify command still running after this (default 10)")
    parser.add_argument("--idle", type=float, default=30.0, metavar="MINUTES",
                        help="close sessions idle this long (default 30)")
    parser.add_argument("--sessions-per-key", type=at_least(1), default=SESSIONS_PER_KEY,
                        metavar="N", help=f"sessions one key may have open at once "
                        f"(default {SESSIONS_PER_KEY})")
    parser.add_argument("--app-nice", type=niceness, default=APP_NICE, metavar="N",
                        help="run the sessions' apps N niceness levels below the server, "
                        f"0-{MAX_NICE}; 0: at the server's priority (default {APP_NICE})")
    parser.add_argument("--games-per-hour", type=at_least(1),
                        default=ClubLimits.new_games_per_hour, metavar="N",
                        help="challenges a member may make in an hour (default "
                        f"{ClubLimits.new_games_per_hour})")
    add_login_limits(parser)


def niceness(text: str) -> int:
    """An argparse type: ``--app-nice``'s levels, a whole number from 0 to 19."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= MAX_NICE:
        raise argparse.ArgumentTypeError(
            f"expected a whole number from 0 (the server's priority) to {MAX_NICE} "
            f"(the lowest), got {text!r}")
    return value


def run(args: argparse.Namespace) -> int:
    def fail(message: object) -> int:
        print(f"deathzap club serve: {message}", file=sys.stderr)
        return 1

    if problem := login_limits_problem(args):
        return fail(problem)
    if not 0 < args.notify_timeout <= 3600:
        return fail("--notify-timeout must be above 0 and at most 3600 seconds")
    try:
        notify_argv = parse_command(args.notify) if args.notify is not None else None
        members = load_members(Path(args.members)) if args.members else None
        store = open_store(args.store)
    except (ValueError, OSError) as exc:  # KeysError, ClubError: ValueErrors naming it
        return fail(exc)
    try:
        if members is not None:
            enrol(store, members)
        hostkey = sshd.host_key(store.folder)
    except (ValueError, OSError) as exc:
        store.close()
        return fail(exc)
    rundir = Path(tempfile.mkdtemp(prefix="deathzap-club-"))  # mode 0700

    def log(text: str) -> None:
        print(f"{time.strftime('%H:%M:%S')} {clean(text)}", file=sys.stderr, flush=True)

    async def serving() -> None:
        notifier = Notifier(notify_argv, timeout=args.notify_timeout, log=log) \
            if notify_argv else None
        club = Club(store, rundir, notifier=notifier, log=log,
                    limits=ClubLimits(new_games_per_hour=args.games_per_hour))
        hub = HubServer(club, rundir / "hub.sock", log=log)
        server = ClubSSHServer(club, hub, hostkey,
                               members=None if members is None else
                               {key.blob: name for name, key in members},
                               open_registration=args.open,
                               sessions_per_key=args.sessions_per_key, host=args.bind,
                               app_nice=args.app_nice,
                               port=args.port, idle=args.idle * 60,
                               max_unauthenticated=args.max_unauthenticated,
                               login_timeout=args.login_timeout, log=log)
        try:
            await hub.start()
            await club.start()
            await server.start()
            who = "open to new keys" if args.open else \
                f"{len(members)} listed keys" if members is not None else "members' keys"
            print(f"club serving on {args.bind}:{server.port} ({who}; store {store.label})",
                  flush=True)
            await asyncio.Event().wait()
        finally:
            await server.close()
            await hub.close()
            await club.close()
            if notifier is not None:
                await notifier.close()

    def release() -> None:
        store.close()
        shutil.rmtree(rundir, ignore_errors=True)

    return serve_until_stopped(serving, SimpleNamespace(release=release), "deathzap club serve")

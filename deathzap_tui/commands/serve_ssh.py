"""``deathzap serve-ssh SAVE --port 2222 --keys FILE``: host a save and serve it over SSH.

One process is the referee (as ``deathzap host``) and an SSH server (asyncssh): each
SSH session runs its own ``deathzap join`` on a pty, as the side its key maps to. See
:mod:`deathzap_tui.net.sshd` for the keys file format.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from deathzap_tui.commands.host import (
    add_dice_rule,
    add_login_limits,
    add_watcher_limit,
    at_least,
    login_limits_problem,
)
from deathzap_tui.net.limits import Limits
from deathzap_tui.paths import saves_dir
from deathzap_tui.savepaths import socket_path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("save", metavar="SAVE", help="the save to host")
    parser.add_argument("--keys", required=True, metavar="FILE",
                        help="TOML file mapping public keys to red / black / watch")
    parser.add_argument("--port", type=int, default=2222, help="TCP port (default 2222)")
    parser.add_argument("--bind", default="127.0.0.1", metavar="ADDRESS",
                        help="address to listen on (default 127.0.0.1: this machine only)")
    parser.add_argument("--socket", metavar="PATH", help="the referee's Unix socket")
    parser.add_argument("--idle", type=float, default=30.0, metavar="MINUTES",
                        help="close sessions idle this long (default 30)")
    parser.add_argument("--max-connections", type=at_least(0), default=8, metavar="N",
                        help="watchers' SSH connections at once (default 8); each player's "
                        "key always gets in")
    add_login_limits(parser)
    add_watcher_limit(parser)
    add_dice_rule(parser)


def run(args: argparse.Namespace) -> int:
    from deathzap_tui.commands import serving  # lazy: the game and asyncio, only to serve
    from deathzap_tui.net import lastseen, sshd  # lazy: asyncssh, only to serve
    from deathzap_tui.net.referee import Referee, Table  # lazy: asyncio, only to serve

    if problem := login_limits_problem(args):
        print(f"deathzap serve-ssh: {problem}", file=sys.stderr)
        return 1
    try:
        keys = sshd.load_keys(Path(args.keys))
        hostkey = sshd.host_key(saves_dir())
        session, lock = serving.resume_locked(args.save)
    except (ValueError, OSError) as exc:
        print(f"deathzap serve-ssh: {exc}", file=sys.stderr)
        return 1
    path = session.path
    sock = Path(args.socket) if args.socket else socket_path(path)

    async def serve() -> None:
        referee = Referee(Table(session, seen=lastseen.Recorder(path),
                                typed_dice=args.dice == "physical"), sock,
                          limits=Limits(max_watchers=args.max_watchers))
        await referee.start()
        server = sshd.GameSSHServer(keys, hostkey, sshd.join_command(sock), host=args.bind,
                                    port=args.port, idle=args.idle * 60,
                                    max_connections=args.max_connections,
                                    max_unauthenticated=args.max_unauthenticated,
                                    login_timeout=args.login_timeout)
        try:
            await server.start()
            print(f"serving {path.stem} over SSH on {args.bind}:{server.port} "
                  f"({len(keys)} keys)", flush=True)
            await referee.serve_until_closed()
        finally:
            await server.close()
            await referee.close()

    return serving.serve_until_stopped(serve, lock, "deathzap serve-ssh")

"""``deathzap join SAVE --as red|black|watch``: play a hosted game from this terminal."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from deathzap_tui import saves
from deathzap_tui.rules.steps import Refused
from deathzap_tui.savepaths import socket_path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("save", nargs="?", metavar="SAVE",
                        help="the hosted save (finds its socket next to it)")
    parser.add_argument("--as", dest="side", required=True,
                        choices=("red", "black", "watch"), help="the side you play")
    parser.add_argument("--socket", metavar="PATH", help="the referee's socket")
    parser.add_argument("--name", default="", help="your name, shown to the other player")


def socket_for(args: argparse.Namespace) -> Path:
    if args.socket:
        return Path(args.socket)
    if not args.save:
        raise ValueError("name the hosted save, or give --socket")

    return socket_path(saves.save_path(args.save))


def connect(args: argparse.Namespace):  # -> RemoteSession
    """The non-UI half of join: a connected :class:`RemoteSession`."""
    from deathzap_tui.net.client import RemoteSession  # lazy: asyncio, only to connect

    return RemoteSession.connect(socket_for(args), args.side, name=args.name)


def run(args: argparse.Namespace) -> int:
    try:
        session = connect(args)
    except (ValueError, OSError, Refused) as exc:
        print(f"deathzap join: {exc}", file=sys.stderr)
        return 1
    from deathzap_tui.app.remote.app import run_app  # lazy: Textual, only to open the app

    try:
        run_app(session, side=None if args.side == "watch" else args.side, joined=True)
    finally:
        session.close()
    if session.error and not session.connected:
        print(f"deathzap join: {session.error}", file=sys.stderr)
    return 0

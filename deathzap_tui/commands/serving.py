"""What ``deathzap host``, ``serve-ssh`` and ``club serve`` do once they serve: the
save opened under the referee's lock (a new game set up first, for ``host``), and the
event loop run until a signal. Imported only to serve (see
:mod:`deathzap_tui.commands.host`)."""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from deathzap_tui import saves
from deathzap_tui.headless.options import parse_options
from deathzap_tui.headless.setup import quick_setup
from deathzap_tui.net import lastseen
from deathzap_tui.net.limits import Limits
from deathzap_tui.net.lock import SaveLock, SaveLocked, describe
from deathzap_tui.net.referee import Table, serve
from deathzap_tui.savepaths import socket_path
from deathzap_tui.session import Session


def open_hosted(args: argparse.Namespace):  # -> (Session, SaveLock)
    """The session to host and its writer's lock; raises ValueError/OSError with a
    message fit for the user (SaveError, InvalidInput and SaveLocked included)."""
    new = args.red or args.black or args.new_save
    if new:
        if args.save or not (args.red and args.black and args.new_save):
            raise ValueError("a new game needs --red, --black and --save (and no SAVE)")
        path = saves.save_path(args.new_save)
        lock = SaveLock.acquire(path, "the referee (deathzap host)")
        try:
            session = Session.new(args.red, args.black, seed=args.seed,
                                  options=parse_options(args.option), save_path=args.new_save)
            if args.quick:
                quick_setup(session)
        except BaseException:
            lock.release()
            raise
        return session, lock
    if not args.save:
        raise ValueError("name the save to host, or start one with --red/--black/--save")
    return resume_locked(args.save)


def resume_locked(save: str):  # -> (Session, SaveLock)
    """A save resumed under the referee's lock (released again if it will not load);
    raises ValueError/OSError with a message fit for the user."""
    path = saves.save_path(save)
    try:
        lock = SaveLock.acquire(path, "the referee (deathzap host)")
    except SaveLocked as exc:
        raise ValueError(str(exc)) from None
    try:
        session = Session.resume(path)
        session.keep_cache()  # the one writer now: the next resume starts from here
        return session, lock
    except BaseException:
        lock.release()
        raise


def serve_until_stopped(serving: Callable[[], Awaitable[None]], lock: Any,
                        command: str) -> int:
    """Run ``serving()`` until Ctrl-C, SIGTERM or SIGHUP, then release the save's
    ``lock`` however it ended. 0, or 1 after saying why on stderr (as ``command``)."""

    async def main() -> None:
        task = asyncio.current_task()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGHUP):
            loop.add_signal_handler(sig, task.cancel)  # type: ignore[union-attr]
        await serving()

    try:
        asyncio.run(main())
    except (KeyboardInterrupt, asyncio.CancelledError):
        pass
    except OSError as exc:
        print(f"{command}: {exc}", file=sys.stderr)
        return 1
    finally:
        lock.release()
    return 0


def host(args: argparse.Namespace) -> int:
    """``deathzap host``: open the game (:func:`open_hosted`) and referee it on its
    socket until stopped."""
    try:
        session, lock = open_hosted(args)
    except (ValueError, OSError, SaveLocked) as exc:
        print(f"deathzap host: {exc}", file=sys.stderr)
        return 1
    if lock.took_over:
        print(f"deathzap host: took over a lock left by {describe(lock.took_over)}, "
              "which is no longer running", file=sys.stderr)
    path = session.path
    sock = Path(args.socket) if args.socket else socket_path(path)
    table = Table(session, seen=lastseen.Recorder(path), typed_dice=args.dice == "physical")
    name = path.stem

    def ready() -> None:
        print(f"hosting {name} on {sock}\n"
              f"  players join with: deathzap join {name} --as red|black"
              + (f" --socket {sock}" if args.socket else ""), flush=True)

    limits = Limits(max_watchers=args.max_watchers)
    status = serve_until_stopped(lambda: serve(table, sock, ready=ready, limits=limits), lock,
                                 "deathzap host")
    if status == 0:
        print(f"saved: {path}")
    return status

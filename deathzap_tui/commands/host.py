"""``deathzap host``: referee a game for players who join from other terminals.

``deathzap host SAVE`` hosts an existing save; ``deathzap host --red F --black F
--save NAME [--seed N] [--quick]`` starts a new game and hosts it. The referee is the
only writer of the save (it holds the save's lock) and listens on a Unix socket that
only the owner and group may use (``<saves>/<name>.sock`` unless ``--socket``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("save", nargs="?", metavar="SAVE",
                        help="the save to host (a name in saves/ or its path)")
    parser.add_argument("--socket", metavar="PATH",
                        help="the Unix socket to listen on (default: next to the save)")
    parser.add_argument("--red", metavar="FILE", help="new game: the red force file")
    parser.add_argument("--black", metavar="FILE", help="new game: the black force file")
    parser.add_argument("--seed", type=int, default=None, metavar="N",
                        help="new game: seed for generated dice (cards are shuffled from "
                        "a secret seed of the game's own)")
    parser.add_argument("--save", dest="new_save", metavar="PATH",
                        help="new game: the save name to create")
    parser.add_argument("--quick", action="store_true",
                        help="new game: skip set-up (every set-up step with generated dice "
                        "and default answers)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="new game: a house-rule option (repeatable)")
    add_watcher_limit(parser)
    add_dice_rule(parser)


def add_dice_rule(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dice", choices=("physical", "generated"), default="physical",
                        help="physical (default): players may type the dice they rolled "
                        "themselves, or have the referee roll; generated: the referee rolls "
                        "every die and refuses typed ones")


def add_watcher_limit(parser: argparse.ArgumentParser) -> None:
    from deathzap_tui.net.limits import Limits

    default = Limits().max_watchers
    parser.add_argument("--max-watchers", type=at_least(0), default=default, metavar="N",
                        help=f"watchers at once (default {default}); each player's side "
                        "always has its own place besides")


def add_login_limits(parser: argparse.ArgumentParser) -> None:
    """The limits an SSH front door (serve-ssh, club serve) puts on connections not yet
    logged in; :func:`login_limits_problem` checks them."""
    parser.add_argument("--max-unauthenticated", type=at_least(1), default=8, metavar="N",
                        help="connections not yet logged in at once (default 8); one more "
                        "drops the one waiting longest")
    parser.add_argument("--login-timeout", type=float, default=10.0, metavar="SECONDS",
                        help="seconds a connection has to log in (default 10)")


def login_limits_problem(args: argparse.Namespace) -> str:
    """What is wrong with :func:`add_login_limits`' arguments ("" if nothing)."""
    if not 0 < args.login_timeout <= 600:
        return "--login-timeout must be above 0 and at most 600 seconds"
    return ""


def at_least(low: int) -> Callable[[str], int]:
    """An argparse type: a whole number no smaller than ``low``."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, got {value}")
        return value

    return parse


def default_socket(save: Path) -> Path:
    return save.with_name(save.name.removesuffix(".toml") + ".sock")


def open_hosted(args: argparse.Namespace):  # -> (Session, SaveLock)
    """The session to host and its writer's lock; raises ValueError/OSError with a
    message fit for the user (SaveError, InvalidInput and SaveLocked included)."""
    from deathzap_tui import saves
    from deathzap_tui.net.lock import SaveLock
    from deathzap_tui.session import Session

    new = args.red or args.black or args.new_save
    if new:
        if args.save or not (args.red and args.black and args.new_save):
            raise ValueError("a new game needs --red, --black and --save (and no SAVE)")
        from deathzap_tui.commands.play import parse_options

        path = saves.save_path(args.new_save)
        lock = SaveLock.acquire(path, "the referee (deathzap host)")
        try:
            session = Session.new(args.red, args.black, seed=args.seed,
                                  options=parse_options(args.option), save_path=args.new_save)
            if args.quick:
                from deathzap_tui.headless.setup import quick_setup

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
    from deathzap_tui import saves
    from deathzap_tui.net.lock import SaveLock, SaveLocked
    from deathzap_tui.session import Session

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
    import asyncio
    import signal

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


def run(args: argparse.Namespace) -> int:
    from deathzap_tui.net import lastseen
    from deathzap_tui.net.limits import Limits
    from deathzap_tui.net.lock import SaveLocked
    from deathzap_tui.net.referee import Table, serve

    try:
        session, lock = open_hosted(args)
    except (ValueError, OSError, SaveLocked) as exc:
        print(f"deathzap host: {exc}", file=sys.stderr)
        return 1
    if lock.took_over:
        from deathzap_tui.net.lock import describe

        print(f"deathzap host: took over a lock left by {describe(lock.took_over)}, "
              "which is no longer running", file=sys.stderr)
    path = session.path
    sock = Path(args.socket) if args.socket else default_socket(path)
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

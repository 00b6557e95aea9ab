"""The ``deathzap club`` subcommands that work on the club store directly (issue 23):
``members``, ``add``, ``remove``, ``export``, ``import``, ``migrate`` and ``copy``,
each an ``args_<name>(parser)`` and a ``run_<name>(args) -> int``
(:mod:`deathzap_tui.commands.club` dispatches to them)."""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from deathzap_tui import saves
from deathzap_tui.club.copy import copy_club
from deathzap_tui.club.members import ClubError, PublicKey, name_key
from deathzap_tui.club.sqlstore import open_store
from deathzap_tui.gamestore import StoreError, copy_game
from deathzap_tui.savestore import SaveFileStore
from deathzap_tui.session import Session


def _fail(args: argparse.Namespace, message: object) -> int:
    print(f"deathzap club {args.club_command}: {message}", file=sys.stderr)
    return 1


@contextlib.contextmanager
def _opened(location: str | None, *, upgrade: bool = False) -> Iterator[Any]:
    """The club store at ``location`` (``None``: the default), closed after the block."""
    store = open_store(location, upgrade=upgrade)
    try:
        yield store
    finally:
        store.close()


def _day(seconds: int) -> str:
    return dt.datetime.fromtimestamp(seconds, dt.UTC).strftime("%Y-%m-%d")


# --- members ----------------------------------------------------------------
def args_members(parser: argparse.ArgumentParser) -> None:
    pass


def run_members(args: argparse.Namespace) -> int:
    try:
        with _opened(args.store) as club:
            members = club.members()
    except StoreError as exc:
        return _fail(args, exc)
    if not members:
        print(f"no members yet in {club.label} (add one with `deathzap club add NAME "
              "--key ...`)")
    for member in members:
        keys = len(member.keys)
        print(f"{member.name}  ({keys} key{'s' if keys != 1 else ''}, member since "
              f"{_day(member.created)})")
        for key in member.keys:
            print(f"  {key.type} {key.fingerprint}" + (f" {key.comment}" if key.comment
                                                      else ""))
    return 0


# --- add / remove -----------------------------------------------------------
def args_add(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", metavar="NAME", help="the member's name (2-24 characters)")
    parser.add_argument("--key", action="append", required=True, metavar="KEY",
                        help='an OpenSSH public key line, quoted ("ssh-ed25519 AAAA... '
                        'you@host"); repeat for more keys')


def run_add(args: argparse.Namespace) -> int:
    try:
        keys = [PublicKey.parse(text) for text in args.key]
        with _opened(args.store) as club:
            club.add_member(args.name, keys[0])
            for key in keys[1:]:
                club.add_key(args.name, key)
    except StoreError as exc:
        return _fail(args, exc)
    print(f"added {args.name} ({', '.join(k.fingerprint for k in keys)})")
    return 0


def args_remove(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", metavar="NAME", help="the member to remove")


def run_remove(args: argparse.Namespace) -> int:
    try:
        with _opened(args.store) as club:
            club.remove_member(args.name)
    except StoreError as exc:
        return _fail(args, exc)
    print(f"removed {args.name}")
    return 0


# --- export / import --------------------------------------------------------
def args_export(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", metavar="GAME", type=int, help="the game's number")
    parser.add_argument("--to", metavar="PATH",
                        help="the save to write (default: club-game-GAME in the saves "
                        "folder)")


def run_export(args: argparse.Namespace) -> int:
    try:
        with _opened(args.store) as club:
            source = club.game_store(args.game)
            game = source.load()
            if args.to:
                to = Path(args.to)
                if not to.parent.is_dir():
                    raise saves.SaveError(f"{to}: no folder {to.parent} to write the save in")
                path = saves.save_path(to.name, to.parent)
            else:
                path = saves.unique_save_path(f"club-game-{args.game}")
            left = copy_game(game, source, SaveFileStore(path))
    except (StoreError, OSError) as exc:
        return _fail(args, exc)
    print(f"exported game {args.game} to {path}")
    _note(left)
    return 0


def _note(left: str) -> None:
    """Tell the host, on stderr, what a copied game left behind ("": nothing)."""
    if left:
        print(left, file=sys.stderr)


def args_import(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("save", metavar="SAVE",
                        help="save name (in the saves folder) or the path of any save file")
    parser.add_argument("--red", required=True, metavar="MEMBER", help="who plays red")
    parser.add_argument("--black", required=True, metavar="MEMBER", help="who plays black")
    parser.add_argument("--public", action="store_true", help="anyone may watch the game")


def run_import(args: argparse.Namespace) -> int:
    try:
        if name_key(args.red) == name_key(args.black):
            raise ClubError("--red and --black must be two different members")
        with _opened(args.store) as club:
            source = SaveFileStore(Session.locate(args.save))
            game = source.load()
            store = club.new_game(red=args.red, black=args.black, public=args.public)
            left = copy_game(game, source, store)
    except (StoreError, OSError) as exc:
        return _fail(args, exc)
    print(f"imported {args.save} as game {store.game_id} ({args.red} red, {args.black} "
          f"black, {len(game.log)} events)")
    _note(left)
    return 0


# --- migrate ----------------------------------------------------------------
def args_migrate(parser: argparse.ArgumentParser) -> None:
    pass


def run_migrate(args: argparse.Namespace) -> int:
    try:
        with _opened(args.store, upgrade=True) as club:
            before, after = club.migrated
    except StoreError as exc:
        return _fail(args, exc)
    if before == after:
        print(f"{club.label}: at schema version {after}, nothing to do")
    elif before == 0:
        print(f"{club.label}: created at schema version {after}")
    else:
        print(f"{club.label}: upgraded from schema version {before} to {after}")
    return 0


# --- copy -------------------------------------------------------------------
def args_copy(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--from", dest="source", metavar="STORE",
                        help="the club to copy (default: --store, or club.sqlite in the "
                        "saves folder)")
    parser.add_argument("--to", required=True, metavar="STORE",
                        help="the store to copy it into (made, or upgraded, to this "
                        "deathzap's schema; refused if it holds a club already)")
    parser.add_argument("--replace", action="store_true",
                        help="empty the target store first if it holds a club")


def run_copy(args: argparse.Namespace) -> int:
    try:
        with (_opened(args.source if args.source is not None else args.store) as source,
              _opened(args.to, upgrade=True) as target):
            copied = copy_club(source, target, replace=args.replace)
    except StoreError as exc:
        return _fail(args, exc)
    print(f"copied {source.label} to {target.label}: {copied.summary()}")
    return 0

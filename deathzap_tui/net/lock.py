"""One writer per save: ``<save>.lock``, held with ``fcntl.flock`` while open.

The lock file holds who has it (pid, host, user, command, since) so a second writer
gets a clear message. ``flock`` is released by the kernel when its holder dies, so a
lock left by a crashed process is simply free: it is taken over, and
:attr:`SaveLock.took_over` describes the previous holder. The lock file is never
opened through a link (:mod:`deathzap_tui.safefiles`), and a writer taking the lock
removes the temporary files that interrupted writes left beside the save. Readers
(watchers) do not lock: they open the save read only (:func:`read_only`).

Usage::

    try:
        lock = SaveLock.acquire(path)
    except SaveLocked as exc:
        print(exc)            # "... is open for writing by red (pid 4242, alice@box, ...)"
        session = read_only(path)
    ...
    lock.release()            # or `with SaveLock.acquire(path):`
"""

from __future__ import annotations

import contextlib
import datetime as dt
import fcntl
import getpass
import json
import os
import socket
import sys
from pathlib import Path
from typing import Any

from deathzap_tui import saves
from deathzap_tui.rules.steps import Refused
from deathzap_tui.safefiles import STALE_AFTER, open_regular, remove_stale_temps
from deathzap_tui.session import Session


class SaveLocked(RuntimeError):
    """The save is open for writing elsewhere; the message names the holder."""

    def __init__(self, path: Path, holder: dict[str, Any]) -> None:
        self.path = path
        self.holder = holder
        super().__init__(f"{path.name} is open for writing by {describe(holder)}. "
                         "Open it read only to watch, or wait until it is closed.")


def lock_path(save: Path) -> Path:
    return save.with_name(save.name + ".lock")


def describe(holder: dict[str, Any]) -> str:
    if not holder:
        return "another process"
    parts = [f"pid {holder.get('pid', '?')}",
             f"{holder.get('user', '?')}@{holder.get('host', '?')}"]
    if holder.get("started"):
        parts.append(f"since {holder['started']}")
    what = holder.get("what") or "a deathzap process"
    return f"{what} ({', '.join(parts)})"


def _read_holder(fd: int) -> dict[str, Any]:
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        data = json.loads(os.read(fd, 4096).decode("utf-8") or "{}")
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


class SaveLock:
    def __init__(self, path: Path, fd: int, took_over: dict[str, Any] | None) -> None:
        self.path = path
        self._fd: int | None = fd
        self.took_over = took_over
        """The previous holder if its lock was left behind by a dead process."""

    @classmethod
    def acquire(cls, save: Path, what: str = "") -> SaveLock:
        """Lock ``save`` for writing, or raise :class:`SaveLocked` naming the holder.

        ``what`` says who holds it ("red in deathzap resume", "the referee")."""
        path = lock_path(Path(save))
        fd = open_regular(path, os.O_RDWR | os.O_CREAT)  # never through a link (issue 19)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise SaveLocked(Path(save), _read_holder(fd)) from None
            previous = _read_holder(fd)
            stale = previous or None  # a released lock is emptied: this one was left
            me = {"pid": os.getpid(), "host": socket.gethostname(), "user": _user(),
                  "what": what, "command": " ".join(sys.argv)[:200],
                  "started": dt.datetime.now().isoformat(timespec="seconds")}
            os.ftruncate(fd, 0)
            os.pwrite(fd, json.dumps(me).encode("utf-8"), 0)
            os.fsync(fd)
        except BaseException:
            os.close(fd)
            raise
        _remove_left_temps(Path(save))
        return cls(Path(save), fd, stale)

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        """Give up the lock; the file is emptied (a left file is not a lock)."""
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
        os.close(fd)  # closing releases the flock

    def __enter__(self) -> SaveLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _remove_left_temps(save: Path) -> None:
    """Every file of an existing save is written by the holder of its lock, so a
    temporary file of it that a new holder finds was left by an interrupted write
    (issue 19). A new save's first snapshot may be written before its lock is taken
    (``Session.new``): before there is a save, only old ones are taken away."""
    remove_stale_temps(save, 0.0 if os.path.lexists(save) else STALE_AFTER)


def holder(save: Path) -> dict[str, Any] | None:
    """Who holds the lock on ``save`` now, or ``None`` if nobody does."""
    path = lock_path(Path(save))
    try:
        fd = open_regular(path, os.O_RDONLY)
    except FileNotFoundError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return _read_holder(fd)
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)


def read_only(save: Path) -> Any:
    """A session on ``save`` that never writes it (for watching a locked save): it
    offers no intents and refuses every change, with a message saying why."""
    class ReadOnlySession(Session):
        read_only = True

        def _refuse(self, *args: Any, **kw: Any) -> Any:
            raise Refused(f"{path.name} is open read only (another process writes it)")

        begin = commit = undo = redo = _refuse

        def intents(self) -> list[Any]:
            return []

        @property
        def can_undo(self) -> bool:
            return False

        @property
        def can_redo(self) -> bool:
            return False

    path = saves.save_path(save)
    session = ReadOnlySession(saves.load_game(path), None)
    session.source = path  # what a watcher re-reads when the writer saves (app.py)
    return session


def _user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return str(os.getuid())

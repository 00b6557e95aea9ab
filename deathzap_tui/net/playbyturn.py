"""Play by turn at different times: ``deathzap resume SAVE --as red``.

One player at a time opens the save (holding its lock: a second writer is told who
has it and may watch read only), sees what happened since they last looked and
whose turn it is, plays, and quits; their "seen" mark is then set. This module holds
the non-UI half so that ``commands/resume.py`` and ``commands/play.py`` stay thin.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from deathzap_tui import saves, standing
from deathzap_tui.net import lastseen
from deathzap_tui.net.lock import SaveLock, SaveLocked, describe, read_only
from deathzap_tui.session import Session


def whose_turn(session: Any) -> str:
    """Whose move it is, in words ("Red to activate (1 of 2 left)")."""
    view = session.view()
    return standing.whose_turn(view, () if view.over else session.intents())


def summary(session: Any, side: str | None) -> list[str]:
    """What ``side`` has not seen yet, in plain words, and whose turn it is."""
    game = session.game
    path = session.path if session.path is not None else getattr(session, "source", None)
    marks = lastseen.read(path) if path is not None and side else {}
    start = marks.get(side, 0) if side else 0
    new = lastseen.since(game, start, side)
    total = len(game.log)
    lines: list[str] = []
    if side and side in marks and start >= total:
        lines.append(f"Nothing has happened since {side} last looked.")
    elif side and side in marks:
        lines.append(f"Since {side} last looked ({total - start} new event"
                     f"{'s' if total - start != 1 else ''}):")
        lines.extend(f"  {line}" for line in new)
    elif new:
        lines.append("The game so far:")
        lines.extend(f"  {line}" for line in new)
    lines.append(f"Now: {whose_turn(session)}")
    return lines


def open_for(save: str | Path, side: str | None, *, read_only_ok: bool = False,
             what: str = "") -> tuple[Any, SaveLock | None, str]:
    """Open ``save`` to write it (taking its lock), or read only.

    Returns ``(session, lock, message)``; ``lock`` is ``None`` when read only.
    ``message`` tells of a stale lock taken over, or of the holder when falling
    back to read only. Raises :class:`SaveLocked` if it is held and ``read_only_ok``
    is false; ``SaveError``/``OSError`` as ``Session.resume`` does.
    """
    path = saves.save_path(save)
    if not path.exists():
        raise FileNotFoundError(f"no save named {path.stem} in {path.parent}")
    who = what or (f"{side} in deathzap resume" if side else "deathzap resume")
    try:
        lock = SaveLock.acquire(path, who)
    except SaveLocked as exc:
        if not read_only_ok:
            raise
        return read_only(path), None, f"{exc} Watching it read only."
    try:
        session = Session.resume(path)
    except BaseException:
        lock.release()
        raise
    session.keep_cache()  # the one writer now: the next resume starts from here
    message = (f"took over a lock left by {describe(lock.took_over)}, which is no longer "
               "running" if lock.took_over else "")
    return session, lock, message


def finish(session: Any, side: str | None, lock: SaveLock | None) -> None:
    """On quit: mark ``side`` as having seen everything, release the lock."""
    try:
        if side and session.path is not None:
            lastseen.mark(session.path, side, len(session.game.log))
    finally:
        if lock is not None:
            lock.release()

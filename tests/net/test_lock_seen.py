"""Save locks for writers, and what a player has seen (play by turn)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from deathzap_tui.net import lastseen
from deathzap_tui.net.lock import SaveLock, SaveLocked, holder, lock_path, read_only
from deathzap_tui.rules.steps import Dice


def test_second_writer_gets_the_holders_name_and_can_read(new_session) -> None:
    session = new_session("locked")
    with SaveLock.acquire(session.path, "red in deathzap resume") as lock:
        assert lock.took_over is None
        with pytest.raises(SaveLocked) as exc:
            SaveLock.acquire(session.path)
        assert f"red in deathzap resume (pid {os.getpid()}" in str(exc.value)
        assert "read only" in str(exc.value)
        assert holder(session.path)["pid"] == os.getpid()
        watcher = read_only(session.path)
        assert watcher.path is None  # never writes
    assert holder(session.path) is None
    SaveLock.acquire(session.path).release()


def test_a_lock_left_by_a_crashed_process_is_taken_over(new_session) -> None:
    session = new_session("crashed")
    code = ("import os, sys; from pathlib import Path; from deathzap_tui.net.lock import SaveLock;"
            "SaveLock.acquire(Path(sys.argv[1]), 'a doomed process'); os._exit(9)")
    subprocess.run([sys.executable, "-c", code, str(session.path)], check=False, timeout=30)
    assert lock_path(session.path).read_text()  # the holder's note is still there
    lock = SaveLock.acquire(session.path)
    assert lock.took_over["what"] == "a doomed process"
    lock.release()


def test_since_tells_what_the_opponent_did(new_session) -> None:
    session = new_session("bymail")
    game = session.game
    game.play({"type": "hit", "side": "red"}, ["open", Dice(faces=(6, 6)), Dice(faces=(1, 6))],
              by="red")
    lastseen.mark(session.path, "red", len(game.log))
    game.play({"type": "hit", "side": "black"}, ["open", Dice(faces=(5, 1)),
                                                 Dice(faces=(2,))], by="black")
    assert lastseen.read(session.path) == {"red": 1}
    lines = lastseen.since(game, lastseen.read(session.path)["red"], "red")
    assert lines == ["black hits 1 time(s)", "red saves 0, loses 1: 5 left"]
    game.undo("black")
    assert lastseen.since(game, 1, "red") == ["black took back black's hit"]
    # black sees their own secret note, red never does
    assert not any("BLACKSECRET" in x for x in lastseen.since(game, 0, "black"))
    game.redo("black")
    assert any("BLACKSECRET" in x for x in lastseen.since(game, 0, "black"))
    assert not any("BLACKSECRET" in x for x in lastseen.since(game, 0, "red"))

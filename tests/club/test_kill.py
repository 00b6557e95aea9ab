"""kill -9 of a real writer process mid-game, then the game opened again: every event
the writer had acknowledged (its store call returned) is there, and the game replays."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest
from subprocess_env import child_env

from deathzap_tui.club.sqlstore import open_store
from deathzap_tui.savestore import SaveFileStore
from deathzap_tui.session import Session

WRITER = r"""
import random, sys
from club_fixtures import new_game, play_random_action
from deathzap_tui.club.members import PublicKey
from deathzap_tui.club.sqlstore import open_store
from deathzap_tui.savestore import SaveFileStore
from deathzap_tui.session import Session
from club_fixtures import key_text

kind, path = sys.argv[1], sys.argv[2]
if kind in ("sqlite", "postgres"):
    club = open_store(path)
    club.add_member("alice", PublicKey.parse(key_text(1)))
    club.add_member("bob", PublicKey.parse(key_text(2)))
    store = club.new_game(red="alice", black="bob")
else:
    store = SaveFileStore(__import__("pathlib").Path(path))
game = new_game()
store.create(game)
session = Session(game, None, store=store)
rnd = random.Random(5)
while True:
    if not play_random_action(session.game, rnd):
        print("over", flush=True)
        break
    print("ack", len(session.game.log), flush=True)
"""


@pytest.mark.parametrize("kind", ["sqlite", "postgres", "files"])
@pytest.mark.parametrize("after", [3, 17])
def test_nothing_acknowledged_is_lost_when_the_writer_is_killed(
        tmp_path: Path, kind: str, after: int, request: pytest.FixtureRequest) -> None:
    path: Path | str = tmp_path / ("club.sqlite" if kind == "sqlite" else "game.toml")
    if kind == "postgres":
        path = request.getfixturevalue("pg").database()
    env = child_env(DEATHZAP_SAVES_DIR=str(tmp_path))
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, kind, str(path)],
        stdout=subprocess.PIPE, text=True, env=env)
    assert writer.stdout is not None
    acked = 0
    try:
        for line in writer.stdout:
            if line.startswith("ack"):
                acked = int(line.split()[1])
            if acked >= after or line.startswith("over"):
                break
        writer.send_signal(signal.SIGKILL)  # mid-game: the writer is still writing
    finally:
        writer.kill()
        writer.wait()
    assert acked >= after
    if kind != "files":
        club = open_store(path)
        store = club.game_store(club.games()[0].id)
    else:
        store = SaveFileStore(Path(path))
    again = Session.open(store)
    assert len(again.game.log) >= acked
    again.game.begin(again.intents()[0].intent)  # and it plays on

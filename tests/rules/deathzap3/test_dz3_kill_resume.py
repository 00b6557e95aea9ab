"""Kill -9 at any moment loses at most the event in flight, never the save; the
game resumes, goes on and undoes (issue 2: saved, killed, resumed, undone)."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from dz3_fixtures import play_random_action
from subprocess_env import child_env

from deathzap_tui import saves
from deathzap_tui.rules.events import effective
from deathzap_tui.savelist import list_saves
from deathzap_tui.session import Session
from deathzap_tui.standing import Standing

ROOT = Path(__file__).resolve().parents[3]

PLAYER = f"""
import random
from dz3_fixtures import play_random_action
from deathzap_tui.session import Session
s = Session.new({str(ROOT / "forces" / "demo-ashfall-legion.toml")!r},
                {str(ROOT / "forces" / "demo-vanta-syndicate.toml")!r},
                seed=5, save_path="victim")
print("started", flush=True)
rnd = random.Random(3)
while not s.over:
    play_random_action(s.game, rnd)
print("over", flush=True)
"""


@pytest.mark.slow
def test_kill_at_random_moments_never_breaks_the_save(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEATHZAP_SAVES_DIR", str(tmp_path))
    path = tmp_path / "victim.toml"
    rnd = random.Random(1)
    seen_events = []
    for _ in range(4):
        path.unlink(missing_ok=True)
        proc = subprocess.Popen([sys.executable, "-c", PLAYER], stdout=subprocess.PIPE,
                                env=child_env(DEATHZAP_SAVES_DIR=str(tmp_path)))
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == b"started"
        time.sleep(rnd.uniform(0.05, 0.6))
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        game = saves.load_game(path)  # always a whole, replayable save
        seen_events.append(len(game.log))
        leftovers = [p.name for p in tmp_path.iterdir()
                     if p.name not in ("victim.toml", "victim.toml.journal",
                                       "victim.toml.cache", "victim.toml.summary")]
        assert all(name.endswith(".tmp") for name in leftovers)
        (listed,) = list_saves(tmp_path)  # its summary, if read, says what loading says
        assert listed.standing in (None, Standing.of(game))
        assert listed.events == len(game.log)
    assert max(seen_events) > 0, "the player never got far enough to test anything"


def test_resume_continue_and_undo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEATHZAP_SAVES_DIR", str(tmp_path))
    s = Session.new(ROOT / "forces" / "mortans-men.toml", ROOT / "forces" / "gutter-saints.toml",
                    seed=9, save_path="g")
    rnd = random.Random(4)
    for _ in range(25):
        play_random_action(s.game, rnd)
    before = s.game.state
    del s  # "killed": nothing kept but the file
    s = Session.resume("g")
    assert s.game.state == before
    play_random_action(s.game, rnd)
    after_one = s.game.state
    s.undo()
    assert s.game.state == before
    s = Session.resume("g")  # the undo was saved too
    assert s.game.state == before
    s.redo()
    assert s.game.state == after_one
    assert len(effective(s.game.log)) == 26

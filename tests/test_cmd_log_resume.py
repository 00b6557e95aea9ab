"""``deathzap log`` into a closed pipe, and ``deathzap resume`` of an unknown save
(issue 11, command-line faults)."""

from __future__ import annotations

import datetime as dt
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from deathzap_tui.cli import SIGPIPE_EXIT, main
from deathzap_tui.rules.steps import ROLL, DiceRequest, Refused
from deathzap_tui.session import Session

FORCES = Path(__file__).resolve().parents[1] / "forces"
RED, BLACK = FORCES / "demo-ashfall-legion.toml", FORCES / "demo-vanta-syndicate.toml"


def play(session: Session, intent: dict[str, Any]) -> None:
    """Play ``intent``: every die rolled, every question at its default."""
    action = session.begin(intent)
    res = action.resolution
    while not res.done:
        step = res.step
        res.answer(ROLL if isinstance(step, DiceRequest) else step.default)
    session.commit(action)


def played(name: str, decks: int) -> Session:
    """A Deathzap 3 game saved as ``name``, played at random until ``decks`` decks ran
    out (DZ3-R2)."""
    session = Session.new(RED, BLACK, seed=3, deal_seed=1, save_path=name,
                          options={"end": "decks", "decks": decks})
    rnd = random.Random(1)
    while not session.over:
        for option in rnd.sample(session.intents(), k=len(session.intents())):
            try:
                play(session, option.intent)
            except Refused:
                continue
            break
    return session


def test_log_into_a_pipe_closed_early_exits_quietly(saves_dir: Path) -> None:
    """``deathzap log SAVE | head -1``: no BrokenPipeError traceback, status 141 (as
    if ended by SIGPIPE)."""
    played("long", decks=4)
    command = f"{sys.executable} -m deathzap_tui log long | head -1; exit ${{PIPESTATUS[0]}}"
    out = subprocess.run(["bash", "-c", command], capture_output=True, text=True,
                         env={**os.environ, "DEATHZAP_SAVES_DIR": str(saves_dir)},
                         timeout=60)
    assert out.stdout.count("\n") == 1 and "(red) vs" in out.stdout
    assert out.stderr == ""
    assert out.returncode == SIGPIPE_EXIT


def test_resume_an_unknown_save_lists_the_saves(saves_dir: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    play(Session.new(RED, BLACK, seed=3, deal_seed=1, save_path="evening-game"),
         {"type": "rolloff"})
    (saves_dir / "broken.toml").write_text("format = \n")  # not TOML
    assert main(["resume", "evening-gaem"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[0] == f"deathzap resume: no save named evening-gaem in {saves_dir.resolve()}"
    assert err[1] == f"  the saves in {saves_dir}, newest first:"
    game = next(line for line in err if "evening-game" in line)
    files = (saves_dir / "evening-game.toml", saves_dir / "evening-game.toml.journal")
    when = dt.datetime.fromtimestamp(max(p.stat().st_mtime for p in files))
    assert game.endswith(f"Ashfall Legion vs Vanta Syndicate, deathzap3, 1 event, "
                         f"{when:%Y-%m-%d %H:%M}")
    assert any("broken" in line and "unreadable" in line for line in err)


def test_resume_with_no_saves_says_where_it_looked(saves_dir: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["resume", "anything"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == [f"deathzap resume: no save named anything in {saves_dir.resolve()}",
                   f"  there are no saves in {saves_dir}"]

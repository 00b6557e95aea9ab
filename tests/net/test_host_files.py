"""``deathzap host`` when its save cannot be written (issue 19): a real referee
process, real clients, the journal replaced under it."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_faults import start_host
from test_referee import hit

from deathzap_tui import saves
from deathzap_tui.net.client import RemoteSession


def test_the_referee_exits_non_zero_with_the_reason_when_it_cannot_save(
        new_session, saves_dir: Path, tmp_path: Path) -> None:
    """It stopped, but exited 0 and printed ``saved:``."""
    session = new_session("broken")
    proc = start_host(saves_dir, "broken")
    sock = saves_dir / "broken.sock"
    red = RemoteSession.connect(sock, "red", timeout=5)
    black = RemoteSession.connect(sock, "black", timeout=5)
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    try:
        hit(red, black)
        journal = saves.journal_path(session.path)
        journal.unlink()
        journal.symlink_to(victim)  # replaced under the referee
        with pytest.raises(Exception, match="cannot save"):
            hit(black, red)
        status = proc.wait(10)
    finally:
        red.close()
        black.close()
        if proc.poll() is None:
            proc.kill()
        proc.wait(5)
    out, err = proc.stdout.read(), proc.stderr.read()
    assert status == 1
    assert "saved:" not in out
    assert err.splitlines()[-1] == (
        "deathzap host: the referee stopped: cannot write the save "
        f"({journal}: a symbolic link, which deathzap never follows)")
    assert victim.read_text() == "keep me\n"

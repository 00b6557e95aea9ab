"""The save journal (issue 11): one appended, fsynced line per event; a torn last
line is dropped on load, never the file; a snapshot folds the journal in."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from dz3_fixtures import play_random_action

from deathzap_tui import saves
from deathzap_tui.saves import SaveError
from deathzap_tui.session import Session

FORCES = Path(__file__).resolve().parents[2] / "forces"


@pytest.fixture
def session(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Session:
    monkeypatch.setenv("DEATHZAP_SAVES_DIR", str(tmp_path))
    s = Session.new(FORCES / "mortans-men.toml", FORCES / "gutter-saints.toml", seed=11,
                    save_path="j")
    rnd = random.Random(11)
    for _ in range(8):
        play_random_action(s.game, rnd)
    assert not s.over
    return s


def _journal(s: Session) -> Path:
    assert s.path is not None
    return saves.journal_path(s.path)


def test_each_event_is_one_journal_line_and_the_snapshot_is_not_rewritten(
        session: Session) -> None:
    assert session.path is not None
    snapshot = session.path.read_bytes()
    lines = _journal(session).read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(session.game.log)
    session.undo()
    assert session.path.read_bytes() == snapshot
    assert len(_journal(session).read_text(encoding="utf-8").splitlines()) == len(lines) + 1
    assert saves.load_game(session.path).state == session.game.state


def test_a_torn_last_line_is_dropped_and_the_files_are_left_alone(session: Session) -> None:
    assert session.path is not None
    journal = _journal(session)
    whole = saves.load_game(session.path)
    with journal.open("ab") as f:
        f.write(b'{"n": 99, "kind": "resol')  # a crash in the middle of a write
    torn = journal.read_bytes()
    again = saves.load_game(session.path)
    assert again.state == whole.state and len(again.log) == len(whole.log)
    assert journal.read_bytes() == torn


def test_a_broken_line_inside_the_journal_names_the_file_and_line(session: Session) -> None:
    assert session.path is not None
    journal = _journal(session)
    lines = journal.read_bytes().split(b"\n")
    lines[2] = b"{not json"
    journal.write_bytes(b"\n".join(lines))
    with pytest.raises(SaveError, match=r"\.journal:3: not a journal record"):
        saves.load_game(session.path)


def test_a_gap_in_the_journal_is_a_broken_save(session: Session) -> None:
    assert session.path is not None
    journal = _journal(session)
    lines = journal.read_bytes().split(b"\n")
    del lines[1]
    journal.write_bytes(b"\n".join(lines))
    with pytest.raises(SaveError, match="events are missing"):
        saves.load_game(session.path)


def test_lines_already_in_a_snapshot_are_skipped(session: Session) -> None:
    """A crash after writing a snapshot but before emptying the journal."""
    assert session.path is not None
    journal = _journal(session)
    kept = journal.read_bytes()
    session.save()
    assert journal.read_bytes() == b""  # emptied, kept: the game goes on in it (issue 19)
    journal.write_bytes(kept)
    again = saves.load_game(session.path)
    assert again.state == session.game.state and len(again.log) == len(session.game.log)


def test_a_finished_game_is_one_file_again(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEATHZAP_SAVES_DIR", str(tmp_path))
    s = Session.new(FORCES / "mortans-men.toml", FORCES / "gutter-saints.toml", seed=2,
                    save_path="done", options={"deck": "half"})
    rnd = random.Random(2)
    while not s.over:
        play_random_action(s.game, rnd)
    assert s.path is not None and not saves.journal_path(s.path).exists()
    assert saves.load_game(s.path).state == s.game.state


def test_the_watch_stamp_changes_with_the_journal(session: Session) -> None:
    assert session.path is not None
    before = saves.stamp(session.path)
    session.undo()
    assert saves.stamp(session.path) != before


def test_after_a_crash_the_next_writer_cuts_the_torn_line_before_appending(
        session: Session) -> None:
    """A crash mid-write leaves half a line; the writer who resumes must not append
    onto it (which would make one bad line in the middle: a broken save)."""
    assert session.path is not None
    journal = _journal(session)
    with journal.open("ab") as f:
        f.write(b'{"n": 99, "kind": "resol')
    resumed = Session.resume(session.path)
    rnd = random.Random(5)
    for _ in range(3):
        play_random_action(resumed.game, rnd)
    again = saves.load_game(session.path)
    assert again.state == resumed.game.state and len(again.log) == len(resumed.game.log)


@pytest.mark.parametrize("what", ["fifo", "link", "device"])
def test_a_save_file_that_is_not_a_regular_file_is_refused(
        session: Session, tmp_path: Path, what: str) -> None:
    """A saves folder is not to be trusted: a journal or cache that is a link, a FIFO
    or a device gives a clear error (or is ignored), never a hang or a traceback."""
    import os

    assert session.path is not None
    journal, cache = _journal(session), saves.cache_path(session.path)
    kept = journal.read_bytes()
    journal.unlink()
    if what == "fifo":
        os.mkfifo(journal)
    elif what == "link":
        (tmp_path / "elsewhere").write_text("x\n")
        journal.symlink_to(tmp_path / "elsewhere")
    else:
        journal.symlink_to("/dev/zero")
    with pytest.raises(SaveError, match="journal: cannot read"):
        saves.load_game(session.path)
    journal.unlink()
    journal.write_bytes(kept)  # a game in progress is not read without it (issue 19)
    cache.unlink(missing_ok=True)
    cache.symlink_to("/dev/zero")
    saves.load_game(session.path)  # a cache that is not a file is only ignored


def test_an_event_is_never_appended_through_a_link(session: Session, tmp_path: Path) -> None:
    assert session.path is not None
    journal = _journal(session)
    journal.unlink()
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    journal.symlink_to(victim)
    with pytest.raises(OSError):
        saves.append_event(session.path, 0, session.game.log[0])
    assert victim.read_text() == "keep me\n"

"""Save files: names stay inside the saves folder, broken files give clear errors
and are never modified, writes are atomic."""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path
from typing import Any

import pytest

from deathzap_tui import saves
from deathzap_tui.saves import SaveError, save_path


@pytest.mark.parametrize("name", ["game1", "game1.toml", "Red-vs-Black_2.v2"])
def test_plain_names_land_in_the_saves_folder(saves_dir: Path, name: str) -> None:
    path = save_path(name)
    assert path.parent == saves_dir.resolve() and path.suffix == ".toml"


def test_a_path_into_the_saves_folder_is_accepted(saves_dir: Path) -> None:
    assert save_path(saves_dir / "x.toml") == saves_dir.resolve() / "x.toml"
    assert save_path("saves/x.toml") == saves_dir.resolve() / "x.toml"


@pytest.mark.parametrize("name", [
    "../evil", "../../etc/passwd", "/tmp/evil.toml", "sub/dir.toml", "saves/../x",
    ".hidden", "", "a b", "na\x1bme", "x" * 200, "..", "game.",
])
def test_names_that_escape_or_look_odd_are_refused(saves_dir: Path, name: str) -> None:
    with pytest.raises(SaveError):
        save_path(name)


def test_default_names_come_from_the_forces_and_date() -> None:
    import datetime as dt

    name = saves.default_save_name("Mortan's Men", "The Iron Choir!",
                                   dt.datetime(2026, 11, 21, 9, 5))
    assert name == "mortan-s-men-vs-the-iron-choir-20261121-0905"
    save_path(name, Path("/tmp"))  # and it is a valid save name


@pytest.mark.parametrize(("content", "reason"), [
    (b"format = \"deathzap-save\"\nversion = 1\nseed = ", "not valid TOML"),
    (b"\xff\xfe\x00garbage", "not a text"),
    (b"format = \"something-else\"\n", "not a deathzap save"),
    (b"format = \"deathzap-save\"\nversion = 99\n", "version 99"),
    (b"format = \"deathzap-save\"\nversion = 1\nruleset = \"chess\"\n", "unknown ruleset"),
    (b"format = \"deathzap-save\"\nversion = 1\nruleset = \"deathzap3\"\n", "'seed'"),
    (b"[" * 5000, "unreadable|not valid TOML"),
])
def test_broken_saves_give_a_clear_error_and_stay_untouched(
        saves_dir: Path, content: bytes, reason: str) -> None:
    path = saves_dir / "broken.toml"
    path.write_bytes(content)
    with pytest.raises(SaveError, match=reason) as info:
        saves.load_game(path)
    assert str(path) in str(info.value)
    assert path.read_bytes() == content


def test_missing_save(saves_dir: Path) -> None:
    with pytest.raises(SaveError, match="no such save"):
        saves.load_game(saves_dir / "nope.toml")


def test_atomic_write_replaces_whole_file_and_leaves_no_temp(saves_dir: Path) -> None:
    path = saves_dir / "a.toml"
    saves.write_atomic(path, "one = 1\n")
    saves.write_atomic(path, "two = 2\n")
    assert path.read_text() == "two = 2\n"
    assert sorted(os.listdir(saves_dir)) == ["a.toml"]


# --- issue 19: never follow a link, never take a lost journal for "no events" ---------

FORCES = Path(__file__).resolve().parents[1] / "forces"
RED, BLACK = FORCES / "demo-ashfall-legion.toml", FORCES / "demo-vanta-syndicate.toml"


def game_in_progress(name: str = "g1", events: int = 1):  # -> Session
    """A Deathzap 3 save in progress with ``events`` events in its journal."""
    from deathzap_tui.session import Session

    session = Session.new(RED, BLACK, seed=3, deal_seed=1, save_path=name)
    while len(session.game.log) < events:
        play_one(session)
    return session


def play_one(session: Any) -> None:
    """The first action offered, every die rolled, every question at its default."""
    from deathzap_tui.rules.steps import ROLL, DiceRequest

    action = session.begin(session.intents()[0].intent)
    res = action.resolution
    while not res.done:
        res.answer(ROLL if isinstance(res.step, DiceRequest) else res.step.default)
    session.commit(action)


def victim_file(tmp_path: Path) -> Path:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    return victim


def test_the_lock_is_never_opened_through_a_link(saves_dir: Path, tmp_path: Path) -> None:
    """A link planted at NAME.toml.lock: refused, and what it points to untouched
    (it was truncated and overwritten with the holder's details)."""
    from deathzap_tui.net.lock import SaveLock, holder
    from deathzap_tui.safefiles import UnsafeFile

    save, victim = saves_dir / "g1.toml", victim_file(tmp_path)
    (saves_dir / "g1.toml.lock").symlink_to(victim)
    with pytest.raises(UnsafeFile, match=r"g1\.toml\.lock: a symbolic link"):
        SaveLock.acquire(save)
    with pytest.raises(UnsafeFile):
        holder(save)
    assert victim.read_text() == "keep me\n"


def test_the_host_keys_public_half_is_never_written_through_a_link(tmp_path: Path) -> None:
    from deathzap_tui.net import sshd

    victim, keys = victim_file(tmp_path), tmp_path / "keys"
    keys.mkdir()
    pub = keys / (sshd.HOST_KEY_NAME + ".pub")
    pub.symlink_to(victim)
    key = sshd.host_key(keys)
    assert victim.read_text() == "keep me\n"
    assert not pub.is_symlink() and pub.read_bytes() == key.export_public_key()


@pytest.mark.parametrize("what", ["snapshot", "journal", "cache", "settings", "seen",
                                  "lock"])
def test_no_file_of_a_save_is_written_through_a_link(saves_dir: Path, tmp_path: Path,
                                                     what: str) -> None:
    """Every file the app writes beside a save, replaced by a link to a file
    elsewhere: whatever the write does, the file elsewhere is untouched."""
    from deathzap_tui import savecache
    from deathzap_tui.net import lastseen
    from deathzap_tui.net.lock import SaveLock, lock_path

    session = game_in_progress()
    save, victim = session.path, victim_file(tmp_path)
    path = {"snapshot": save, "journal": saves.journal_path(save),
            "cache": saves.cache_path(save), "settings": saves.settings_path(save),
            "seen": lastseen.seen_path(save), "lock": lock_path(save)}[what]
    path.unlink(missing_ok=True)
    path.symlink_to(victim)
    write = {"snapshot": lambda: saves.save_game(session.game, save),
             "journal": lambda: saves.append_event(save, 1, session.game.log[0]),
             "cache": lambda: savecache.write(save, session.game, 0, b""),
             "settings": lambda: saves.write_setting(save, "dice", "generated"),
             "seen": lambda: lastseen.mark(save, "red", 1),
             "lock": lambda: SaveLock.acquire(save).release()}[what]
    with contextlib.suppress(OSError):
        write()
    assert victim.read_text() == "keep me\n"


def test_marks_and_settings_are_never_read_through_a_link(saves_dir: Path,
                                                          tmp_path: Path) -> None:
    from deathzap_tui.net import lastseen

    save = saves_dir / "g1.toml"
    marks, settings = tmp_path / "marks.toml", tmp_path / "settings.toml"
    marks.write_text("red = 5\n")
    settings.write_text('dice = "generated"\n')
    lastseen.seen_path(save).symlink_to(marks)
    saves.settings_path(save).symlink_to(settings)
    assert lastseen.read(save) == {} and saves.read_settings(save) == {}


def test_a_save_given_as_a_path_to_a_link_is_refused_not_resolved(saves_dir: Path) -> None:
    """``saves/ln.toml -> saves/g1.toml``: the path stays the link's (and is refused
    when opened), never swapped for the save it points to."""
    game_in_progress()
    (saves_dir / "ln.toml").symlink_to(saves_dir / "g1.toml")
    assert save_path(saves_dir / "ln.toml") == saves_dir.resolve() / "ln.toml"
    with pytest.raises(SaveError, match=r"ln\.toml: cannot read \(a symbolic link"):
        saves.load_game(save_path("saves/ln.toml"))


def test_a_game_in_progress_without_its_journal_is_refused(saves_dir: Path,
                                                           tmp_path: Path) -> None:
    session = game_in_progress(events=3)
    snapshot = session.path.read_bytes()
    saves.journal_path(session.path).unlink()
    with pytest.raises(SaveError, match=r"g1\.toml\.journal is missing .* after the first 0"):
        saves.load_game(session.path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    copy = elsewhere / "g1.toml"
    copy.write_bytes(snapshot)  # only NAME.toml copied
    with pytest.raises(SaveError, match=r"g1\.toml\.journal is missing"):
        saves.load_game(copy)
    assert session.path.read_bytes() == snapshot


def test_a_journal_deleted_while_the_game_is_open_is_not_made_anew(saves_dir: Path) -> None:
    """The next event is refused (the referee then stops, saying why) rather than
    begun in a new journal that would hide the lost events."""
    session = game_in_progress(events=2)
    journal = saves.journal_path(session.path)
    journal.unlink()
    with pytest.raises(FileNotFoundError, match=r"g1\.toml\.journal was deleted while"):
        play_one(session)
    assert not journal.exists()
    with pytest.raises(SaveError, match=r"g1\.toml\.journal is missing"):
        saves.load_game(session.path)


def test_a_new_game_has_an_empty_journal_and_a_finished_one_none(saves_dir: Path) -> None:
    """A snapshot that says it has a journal always has one, from the start."""
    session = game_in_progress(events=0)
    journal = saves.journal_path(session.path)
    assert journal.read_bytes() == b"" and saves.read_save_data(session.path)["journal"]
    assert len(saves.load_game(session.path).log) == 0


def _temp(directory: Path, name: str, age: float) -> Path:
    path = directory / name
    path.write_text("half a write")
    when = time.time() - age
    os.utime(path, (when, when))
    return path


def test_a_writer_removes_the_temporary_files_left_beside_its_save(
        saves_dir: Path, tmp_path: Path) -> None:
    """Temporary files of interrupted atomic writes are removed when a writer takes
    the save (every file of a save is written under its lock, so any left is stale):
    only those of this save, named as ours, regular files."""
    from deathzap_tui.net.lock import SaveLock
    from deathzap_tui.safefiles import STALE_AFTER

    game_in_progress()
    old = 2 * STALE_AFTER
    stale = [_temp(saves_dir, ".g1.toml.k2j4h5g6.tmp", old),
             _temp(saves_dir, ".g1.toml.y7u8i9o0.tmp", 0),
             _temp(saves_dir, ".g1.toml.cache.a_b1c2d3.tmp", old),
             _temp(saves_dir, ".g1.toml.settings.zzzzzzzz.tmp", 0)]
    kept = [_temp(saves_dir, ".g2.toml.k2j4h5g6.tmp", old),  # another save's
            _temp(saves_dir, ".g1.toml.notours.tmp", old),
            _temp(saves_dir, "g1.toml.k2j4h5g6.tmp", old)]
    link = saves_dir / ".g1.toml.aaaaaaaa.tmp"
    link.symlink_to(victim_file(tmp_path))
    with SaveLock.acquire(saves_dir / "g1.toml"):
        pass
    assert not any(p.exists() for p in stale)
    assert all(p.exists() for p in kept) and link.is_symlink()
    assert (tmp_path / "victim.txt").read_text() == "keep me\n"


def test_before_a_save_exists_only_old_temporary_files_are_removed(saves_dir: Path) -> None:
    """A new game's first snapshot is written before its lock is taken: a fresh
    temporary file may be that write, going on now."""
    from deathzap_tui.net.lock import SaveLock
    from deathzap_tui.safefiles import STALE_AFTER

    old = _temp(saves_dir, ".new.toml.k2j4h5g6.tmp", 2 * STALE_AFTER)
    fresh = _temp(saves_dir, ".new.toml.y7u8i9o0.tmp", 0)
    SaveLock.acquire(saves_dir / "new.toml").release()
    assert not old.exists() and fresh.exists()


def test_an_interrupted_atomic_write_leaves_a_temp_that_the_next_writer_removes(
        saves_dir: Path) -> None:
    """A write killed between its temporary file and the rename (simulated: the
    rename fails), then a writer opening the save."""
    from deathzap_tui.net.lock import SaveLock

    session = game_in_progress()

    def killed(*_args: object) -> None:
        raise KeyboardInterrupt  # what a kill between fsync and rename leaves: the temp

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(os, "unlink", lambda *_a, **_k: None)  # dying: no clean-up either
        mp.setattr(os, "replace", killed)
        with pytest.raises(KeyboardInterrupt):
            saves.write_setting(session.path, "dice", "generated")
    left = [p for p in saves_dir.iterdir() if p.name.endswith(".tmp")]
    assert len(left) == 1
    SaveLock.acquire(session.path).release()
    assert not left[0].exists()

"""`deathzap club ...` on the host, run as a real process: every subcommand, and its
refusals as one clean line (exit 1, never a traceback)."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from club_fixtures import FORCES, ROOT, key_text, play
from dz3_fixtures import random_answer

from deathzap_tui.club import migrate
from deathzap_tui.savestore import SaveFileStore
from deathzap_tui.session import Session


def deathzap(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DEATHZAP_SAVES_DIR": str(tmp_path / "saves"),
           "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "deathzap_tui", *args], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=60)


def ok(tmp_path: Path, *args: str) -> str:
    done = deathzap(tmp_path, *args)
    assert done.returncode == 0, done.stderr
    return done.stdout


def refused(tmp_path: Path, *args: str) -> str:
    """The one line a refused subcommand prints on stderr."""
    done = deathzap(tmp_path, *args)
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stderr.startswith(f"deathzap club {args[1]}: ")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    return done.stderr


@pytest.fixture
def saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "saves").mkdir()
    monkeypatch.setenv("DEATHZAP_SAVES_DIR", str(tmp_path / "saves"))
    return tmp_path / "saves"


@pytest.mark.slow
def test_members_add_and_remove(tmp_path: Path, saves: Path) -> None:
    assert "no members yet" in ok(tmp_path, "club", "members")
    out = ok(tmp_path, "club", "add", "alice", "--key", key_text(1, "alice@home"),
             "--key", key_text(2))
    assert out.startswith("added alice (SHA256:")
    ok(tmp_path, "club", "add", "bob", "--key", key_text(3))
    listing = ok(tmp_path, "club", "members").splitlines()
    assert listing[0].startswith("alice  (2 keys, member since ")
    assert listing[1].startswith("  ssh-ed25519 SHA256:") and listing[1].endswith(" alice@home")
    assert listing[3].startswith("bob  (1 key, ")
    assert (saves / "club.sqlite").is_file()  # the default store: beside the saves
    assert ok(tmp_path, "club", "remove", "bob") == "removed bob\n"
    assert "bob" not in ok(tmp_path, "club", "members")


@pytest.mark.slow
def test_add_and_remove_refusals(tmp_path: Path, saves: Path) -> None:
    ok(tmp_path, "club", "add", "alice", "--key", key_text(1))
    assert "is taken" in refused(tmp_path, "club", "add", "Alice", "--key", key_text(2))
    assert "already \"alice\"'s" in refused(tmp_path, "club", "add", "bob", "--key",
                                            key_text(1))
    assert "not an SSH public key" in refused(tmp_path, "club", "add", "bob", "--key",
                                              "hello there")
    assert "not base64" in refused(tmp_path, "club", "add", "bob", "--key",
                                   "ssh-ed25519 @@@@")
    assert "U+001B" in refused(tmp_path, "club", "add", "b\x1b[2Jb", "--key", key_text(4))
    assert "\x1b" not in refused(tmp_path, "club", "add", "b\x1b[2Jb", "--key", key_text(4))
    assert "1 characters long" in refused(tmp_path, "club", "add", "b", "--key", key_text(4))
    assert 'no member named "carol"' in refused(tmp_path, "club", "remove", "carol")
    members = [line.split()[0] for line in ok(tmp_path, "club", "members").splitlines()
               if not line.startswith(" ")]
    assert members == ["alice"]  # nothing refused was kept


def _not_stores(tmp_path: Path) -> list[tuple[Path, str]]:
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database " * 200)
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE recipes (name TEXT)")
    return [(junk, "not a club store"), (other, "not a club store"),
            (tmp_path, "is a folder"), (tmp_path / "no" / "c.sqlite", "no folder")]


@pytest.mark.slow
def test_what_is_not_a_club_store_is_named(tmp_path: Path, saves: Path) -> None:
    for store, why in _not_stores(tmp_path):
        assert why in refused(tmp_path, "club", "members", "--store", str(store))


@pytest.mark.parametrize("sub", [["add", "x1", "--key", key_text(1)], ["remove", "x1"],
                                 ["export", "1"], ["migrate"],
                                 ["import", "s", "--red", "a", "--black", "b"]])
def test_a_bad_store_is_one_clean_line_for_every_subcommand(tmp_path: Path, saves: Path,
                                                            sub: list[str]) -> None:
    store, why = _not_stores(tmp_path)[0]
    assert why in refused(tmp_path, "club", *sub, "--store", str(store))


@pytest.mark.slow
def test_migrate_creates_upgrades_and_refuses_a_newer_store(tmp_path: Path,
                                                            saves: Path) -> None:
    store = str(tmp_path / "c.sqlite")
    latest = migrate.LATEST
    assert ok(tmp_path, "club", "migrate", "--store", store) == \
        f"{store}: created at schema version {latest}\n"
    assert ok(tmp_path, "club", "migrate", "--store", store) == \
        f"{store}: at schema version {latest}, nothing to do\n"
    with sqlite3.connect(store) as conn:
        conn.execute("UPDATE schema_version SET version = ?", (latest + 1,))
    for sub in (["migrate"], ["members"]):
        assert f"schema version {latest + 1}, newer than this deathzap's {latest}" in \
            refused(tmp_path, "club", *sub, "--store", store)


def _save(saves: Path) -> Session:
    session = Session.new(FORCES / "mortans-men.toml", FORCES / "gutter-saints.toml",
                          seed=11, save_path="friendly")
    play(session, 12)
    return session


@pytest.mark.slow
def test_import_then_export_gives_a_save_log_and_report_read(tmp_path: Path,
                                                             saves: Path) -> None:
    original = _save(saves)
    ok(tmp_path, "club", "add", "alice", "--key", key_text(1))
    ok(tmp_path, "club", "add", "bob", "--key", key_text(2))
    out = ok(tmp_path, "club", "import", "friendly", "--red", "alice", "--black", "bob")
    assert out == f"imported friendly as game 1 (alice red, bob black, " \
                  f"{len(original.game.log)} events)\n"
    to = tmp_path / "exported.toml"
    assert ok(tmp_path, "club", "export", "1", "--to", str(to)) == \
        f"exported game 1 to {to}\n"
    assert ok(tmp_path, "log", str(to)) == ok(tmp_path, "log", "friendly")
    assert ok(tmp_path, "report", str(to)) == ok(tmp_path, "report", "friendly")
    out = ok(tmp_path, "club", "export", "1")  # default: a save in the saves folder
    assert out == f"exported game 1 to {saves / 'club-game-1.toml'}\n"
    resumed = Session.resume("club-game-1")  # what `deathzap resume club-game-1` opens
    assert resumed.game.state == original.game.state
    play(resumed, 2, seed=4)  # and it plays on as a save
    assert len(Session.resume("club-game-1").game.log) == len(original.game.log) + 2
    assert ok(tmp_path, "club", "export", "1") == \
        f"exported game 1 to {saves / 'club-game-1-2.toml'}\n"


@pytest.mark.slow
def test_import_and_export_carry_the_action_in_progress(tmp_path: Path,
                                                        saves: Path) -> None:
    """Issue 24: the action in flight is part of where a game stands; a game moved
    into the club and out again goes on at the same step with the same answers."""
    original = _save(saves)
    action = original.begin(original.intents()[0].intent)
    while not action.resolution.done and not action.resolution.answers:
        action.resolution.answer(random_answer(action.resolution.step, random.Random(5)))
    original.keep_action(action)
    record = (saves / "friendly.toml.inflight").read_text()
    ok(tmp_path, "club", "add", "alice", "--key", key_text(1))
    ok(tmp_path, "club", "add", "bob", "--key", key_text(2))
    done = deathzap(tmp_path, "club", "import", "friendly", "--red", "alice", "--black", "bob")
    assert done.returncode == 0 and done.stderr == "", done.stderr
    done = deathzap(tmp_path, "club", "export", "1", "--to", str(tmp_path / "back.toml"))
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert (tmp_path / "back.toml.inflight").read_text() == record
    kept, message = Session.open(SaveFileStore(tmp_path / "back.toml")).kept_action()
    assert message == "" and kept is not None
    assert (kept.intent, kept.resolution.answers) == (action.intent, action.resolution.answers)
    (saves / "friendly.toml.inflight").write_text("{")  # damaged: the game still moves
    done = deathzap(tmp_path, "club", "import", "friendly", "--red", "bob", "--black", "alice")
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith("the action in progress was left behind: its record "
                                  "cannot be read (") and done.stderr.count("\n") == 1
    done = deathzap(tmp_path, "club", "export", "2", "--to", str(tmp_path / "two.toml"))
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert not (tmp_path / "two.toml.inflight").exists()


@pytest.mark.slow
def test_import_and_export_refusals(tmp_path: Path, saves: Path) -> None:
    _save(saves)
    ok(tmp_path, "club", "add", "alice", "--key", key_text(1))
    assert 'no member named "carol"' in refused(
        tmp_path, "club", "import", "friendly", "--red", "alice", "--black", "carol")
    assert "two different members" in refused(
        tmp_path, "club", "import", "friendly", "--red", "alice", "--black", "ALICE")
    assert "no such save" in refused(
        tmp_path, "club", "import", "nothing", "--red", "alice", "--black", "bob")
    assert "no game 4 in this club" in refused(tmp_path, "club", "export", "4")
    ok(tmp_path, "club", "add", "bob", "--key", key_text(2))
    ok(tmp_path, "club", "import", "friendly", "--red", "alice", "--black", "bob")
    (tmp_path / "taken.toml").write_text("x")
    assert "already exists" in refused(tmp_path, "club", "export", "1", "--to",
                                       str(tmp_path / "taken.toml"))
    assert "no folder" in refused(tmp_path, "club", "export", "1", "--to",
                                  str(tmp_path / "no" / "x.toml"))
    assert "a save name uses letters" in refused(tmp_path, "club", "export", "1", "--to",
                                                 str(tmp_path / "bad name!.toml"))


def test_other_commands_never_load_the_club_server() -> None:
    """`deathzap points` and the rest build the dispatcher's parser: no command's
    module loads but the chosen one's, and the club's subcommands in modules of their
    own (the SSH server: asyncssh, Textual) load only to run."""
    code = ("import sys; from deathzap_tui.cli import build_parser; build_parser(); "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'asyncssh', 'textual'}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60, check=True)
    assert done.stdout == "[]\n"

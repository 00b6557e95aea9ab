"""A save's summary (issue 21): how its game stands, kept beside it by its writer
after every event and with the cache and the snapshot, read by a listing without
loading the game; read only while it holds the save's files as they stand, by this
user's key and this code, else the game is loaded as before."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from dz3_fixtures import play_random_action
from signed_files import SPOILS, spoil
from subprocess_env import child_env

from deathzap_tui import saves, savesign, savesummary
from deathzap_tui.headless.savestate import save_state
from deathzap_tui.net import playbyturn
from deathzap_tui.rules.ruleset import END
from deathzap_tui.savelist import SaveInfo, list_saves
from deathzap_tui.savepaths import summary_path
from deathzap_tui.savesign import code_identity, fingerprint, sign
from deathzap_tui.session import Session
from deathzap_tui.standing import Standing

FORCES = Path(__file__).resolve().parent.parent / "forces"
RED, BLACK = FORCES / "demo-ashfall-legion.toml", FORCES / "demo-vanta-syndicate.toml"


def _played(events: int, name: str = "going") -> Session:
    session = Session.new(RED, BLACK, seed=5, deal_seed=1, save_path=name,
                          options={"end": "agreement"})
    rnd = random.Random(5)
    while len(session.game.log) < events:
        assert play_random_action(session.game, rnd, skip=("end",))
    return session


def _listed(name: str) -> SaveInfo:
    (info,) = [i for i in list_saves() if i.path.stem == name]
    return info


def _loaded(info: SaveInfo) -> tuple[str, str, bool]:
    """What :func:`save_state` says of the save with its game loaded."""
    return save_state(replace(info, standing=None))


def _no_loading(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*_args: object) -> None:
        raise AssertionError("the game was loaded")

    monkeypatch.setattr(Session, "read", refused)


def test_the_writer_keeps_the_summary_after_every_event(saves_dir: Path) -> None:
    session = _played(3)
    for _ in range(3):
        info = _listed("going")
        assert info.standing == Standing.of(session.game)
        assert save_state(info) == _loaded(info)
        assert save_state(info)[1].startswith("in progress: ")
        play_random_action(session.game, random.Random(len(session.game.log)), skip=("end",))
    session.undo()
    info = _listed("going")
    assert info.standing == Standing.of(session.game)
    summary_path(session.path).unlink()
    assert _listed("going") == replace(info, standing=None)  # as the snapshot says


def test_a_listing_reads_the_summary_without_loading_the_game(
        saves_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    session = _played(20)
    expected = (session.ruleset.title, f"in progress: {playbyturn.whose_turn(session)}", True)
    _no_loading(monkeypatch)
    assert save_state(_listed("going")) == expected


def test_the_cache_and_the_snapshot_write_it_too(saves_dir: Path) -> None:
    """A writer opening a save (as ``deathzap resume`` does) writes the summary with
    the cache; ending the game writes the finished game's, with its result."""
    session = _played(10)
    summary_path(session.path).unlink()
    opened, lock, _ = playbyturn.open_for("going", None)
    try:
        assert _listed("going").standing == Standing.of(opened.game)
        (end,) = [o for o in opened.intents() if o.group == END]
        action = opened.begin(end.intent)
        while not action.resolution.done:
            action.resolution.answer(action.resolution.step.default)  # type: ignore[union-attr]
        opened.commit(action)
    finally:
        playbyturn.finish(opened, None, lock)
    assert opened.over and not saves.journal_path(opened.path).exists()
    info = _listed("going")
    assert info.standing == Standing(opened.ruleset.title, opened.view().result, True)
    assert save_state(info) == _loaded(info) == (
        opened.ruleset.title, f"finished: {opened.view().result}", True)
    summary_path(opened.path).unlink()
    assert _listed("going") == replace(info, standing=None)


def test_a_listing_of_saves_with_summaries_imports_no_game_code(saves_dir: Path) -> None:
    """The start screen lists the saves in a thread beside its first frame: with
    their summaries, neither the saves' reader nor the rules' game is imported."""
    _played(3)
    _played(4, "other")
    code = ("import sys\n"
            "from deathzap_tui.headless.savestate import save_state\n"
            "from deathzap_tui.savelist import list_saves\n"
            "states = [save_state(info) for info in list_saves()]\n"
            "assert [s[2] for s in states] == [True, True], states\n"
            "print(sorted(m for m in ('deathzap_tui.saves', 'deathzap_tui.rules.game',\n"
            "    'deathzap_tui.session', 'deathzap_tui.savecache') if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=child_env(), timeout=60, check=True)
    assert out.stdout == "[]\n"


def test_a_summary_of_other_files_is_ignored(saves_dir: Path) -> None:
    """The journal grown by events the summary does not hold (an undo, another
    action), or cut back to fewer: the game is loaded instead."""
    session = _played(12)
    path = summary_path(session.path)
    older = path.read_bytes()
    session.undo()
    newer = path.read_bytes()
    path.write_bytes(older)
    info = _listed("going")
    assert info.standing is None
    assert save_state(info) == _loaded(info)
    assert save_state(info)[1] == f"in progress: {playbyturn.whose_turn(session)}"
    journal = saves.journal_path(session.path)
    lines = journal.read_bytes().splitlines(keepends=True)
    path.write_bytes(newer)
    journal.write_bytes(b"".join(lines[:-1]))  # the undo taken off the journal
    assert _listed("going").standing is None


@pytest.mark.parametrize("how", SPOILS)
def test_a_spoiled_summary_is_ignored(saves_dir: Path, how: str) -> None:
    session = _played(6)
    spoil(summary_path(session.path), how, savesummary.MAGIC)
    info = _listed("going")
    assert info.standing is None
    assert save_state(info) == _loaded(info)


@pytest.mark.parametrize("payload", [
    b"", b"not json", b"[]", b'{"title": "X"', b"[" * 100_000,
    b'{"code": "?", "files": "?", "title": "X", "now": "Y", "over": false}',
])
def test_a_signed_summary_that_is_not_one_is_ignored(saves_dir: Path, payload: bytes) -> None:
    """Signed by this user's key but not a summary of this code and these files (or
    not one at all): ignored, never a traceback."""
    session = _played(2)
    sign(summary_path(session.path), savesummary.MAGIC, lambda: payload)
    assert _listed("going").standing is None


def test_a_summary_with_fields_of_the_wrong_kind_is_ignored(saves_dir: Path) -> None:
    session = _played(2)
    snapshot, journal = saves.read_files(session.path)
    good = {"code": code_identity().decode(),
            "files": fingerprint(snapshot, journal).hexdigest(), "ruleset": "deathzap3",
            "red": "R", "black": "B", "events": 2, "title": "T", "now": "N", "over": False}
    for key, value in (("title", 1), ("over", "no"), ("events", True), ("events", "2"),
                       ("red", None), ("ruleset", ["deathzap3"]), ("now", None)):
        wrong = json.dumps({**good, key: value}).encode()
        sign(summary_path(session.path), savesummary.MAGIC, lambda w=wrong: w)
        assert _listed("going").standing is None, key
    sign(summary_path(session.path), savesummary.MAGIC, lambda: json.dumps(good).encode())
    assert _listed("going") == SaveInfo(session.path, "R", "B", "deathzap3", 2,
                                        _listed("going").modified,
                                        standing=Standing("T", "N", False))


def test_a_summary_of_other_code_or_another_key_is_ignored(
        saves_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _played(4)
    assert _listed("going").standing is not None
    with monkeypatch.context() as patch:  # other rules code made it
        patch.setattr(savesign, "RULES_VERSION", savesign.RULES_VERSION + 1)
        assert _listed("going").standing is None
    monkeypatch.setenv("DEATHZAP_CACHE_KEY", str(tmp_path / "another.key"))
    assert _listed("going").standing is None


def test_a_save_without_a_summary_is_loaded(saves_dir: Path) -> None:
    session = _played(7)
    summary_path(session.path).unlink()
    info = _listed("going")
    assert info.standing is None
    assert save_state(info) == (session.ruleset.title,
                                f"in progress: {playbyturn.whose_turn(session)}", True)


def test_a_save_whose_journal_is_lost_is_unreadable_whatever_its_summary(
        saves_dir: Path) -> None:
    """Just written whole (its journal empty), its summary holds it as it stands; its
    journal then deleted, the save is refused, not listed as in progress."""
    session = _played(3)
    session.save()
    assert _listed("going").standing == Standing.of(session.game)
    saves.journal_path(session.path).unlink()
    info = _listed("going")
    assert info.problem and info.standing is None
    assert save_state(info)[1:] == (f"unreadable: {info.problem}", False)

"""A finished game's report kept beside its save (issue 21): ``Session.report()``
keeps it when it first makes it, and it and ``deathzap report`` read it back instead
of replaying the game. A kept report never disagrees with a replay: it is the same for
every golden game and for random games of every ruleset, and one that is stale (other
events, forces or code), tampered with or signed by another key is never read.

Expected reports are never written out: they are what a replay of the save makes
(``build_report`` of the game read back from its files)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from conformance_kit import RULESETS, golden_session, new_session, play_to_end
from signed_files import SPOILS
from signed_files import spoil as spoil_file

from deathzap_tui import savecache, saves, savesign
from deathzap_tui import session as session_module
from deathzap_tui.cli import main
from deathzap_tui.commands import report as report_command
from deathzap_tui.rules import report as report_module
from deathzap_tui.rules.report import GameReport, build_report
from deathzap_tui.savepaths import report_path
from deathzap_tui.session import Session


def replayed(path: Path) -> GameReport:
    """The report a replay of the save's log makes (nothing kept read)."""
    return build_report(saves.game_from_data(saves.read_save_data(path), path))


def kept(session: Session) -> GameReport | None:
    assert session.path is not None
    return savecache.read_report(session.path,
                                 savecache.report_key(session.game, session.game.events()))


def no_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on a report made by replaying fails the test (the session's, and
    ``deathzap report``'s: imported above, so that it never keeps this stand-in)."""
    def refuse(*_args: object, **_kwargs: object) -> GameReport:
        raise AssertionError("the report was made again by a replay")

    monkeypatch.setattr(report_module, "build_report", refuse)
    monkeypatch.setattr(report_command, "build_report", refuse)
    monkeypatch.setattr(session_module, "build_report", refuse)


def command_json(capsys: pytest.CaptureFixture[str], save: str) -> object:
    assert main(["report", save, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("rs", RULESETS)
def test_every_golden_game_keeps_the_report_a_replay_makes(
        rs: str, saves_dir: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    session = golden_session(rs)
    assert session.path is not None and session.over
    assert not report_path(session.path).exists()  # made only when asked for
    made = session.report()
    assert report_path(session.path).exists()
    truth = replayed(session.path)
    assert made == truth and kept(session) == truth
    no_replay(monkeypatch)
    assert Session.resume(session.path.stem).report() == truth
    assert Session.resume(session.path.stem).report(session.game.events()) == truth
    assert command_json(capsys, session.path.stem) == json.loads(json.dumps(truth.to_json()))


@pytest.mark.parametrize("rs", RULESETS)
def test_random_games_keep_the_report_a_replay_makes(
        rs: str, saves_dir: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Played from the force files, the report kept is found from the save."""
    played = []
    for seed in (3, 11):
        session = new_session(rs, seed, f"random-{rs}-{seed}")
        play_to_end(session.game, random.Random(seed))
        assert session.path is not None
        made = session.report()
        truth = replayed(session.path)
        assert made == truth and kept(session) == truth
        played.append((session.path.stem, truth))
    no_replay(monkeypatch)
    for name, truth in played:
        assert command_json(capsys, name) == json.loads(json.dumps(truth.to_json()))


def test_a_game_in_progress_keeps_no_report(saves_dir: Path) -> None:
    session = golden_session("deathzap3")
    assert session.path is not None
    session.undo()
    assert not session.over
    session.report()
    session.report(session.game.events())
    assert not report_path(session.path).exists()


@pytest.mark.parametrize("spoil", ["payload", "mac", "truncate", "key", "code"])
def test_a_report_tampered_with_or_not_ours_is_ignored(
        spoil: str, saves_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    session = golden_session("classic")
    assert session.path is not None
    truth = session.report()
    if spoil in SPOILS:
        spoil_file(report_path(session.path), spoil, savecache.REPORT_MAGIC)
    elif spoil == "key":
        monkeypatch.setenv("DEATHZAP_CACHE_KEY", str(tmp_path / "another.key"))
    else:  # other rules code made it
        monkeypatch.setattr(savesign, "RULES_VERSION", savesign.RULES_VERSION + 1)
    assert kept(session) is None
    assert command_json(capsys, session.path.stem) == json.loads(json.dumps(truth.to_json()))


def test_a_report_of_another_game_is_never_read(
        saves_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Signed by this user but made from other events (the game undone and ended
    again otherwise) or other forces (the save edited): a replay is made instead."""
    session = golden_session("deathzap3")
    assert session.path is not None
    first = session.report()
    stale = report_path(session.path).read_bytes()
    session.undo()
    session.undo()
    rnd = random.Random(5)
    play_to_end(session.game, rnd)
    report_path(session.path).write_bytes(stale)  # the first ending's report
    truth = replayed(session.path)
    assert kept(session) is None and session.report() == truth != first
    assert command_json(capsys, session.path.stem) == json.loads(json.dumps(truth.to_json()))

    text = session.path.read_text(encoding="utf-8")
    red = str(session.game.red.name)
    session.path.write_text(text.replace(f'name = "{red}"', 'name = "Renamed"', 1),
                            encoding="utf-8")
    assert command_json(capsys, session.path.stem)["forces"]["red"] == "Renamed"

"""``deathzap report SAVE [--json|--markdown]`` (issue 14): the end-of-game report of
every registered ruleset's golden playthrough (the conformance kit's), an unfinished
game, and saves that cannot be read.

Expected text is never written out: it is what :mod:`deathzap_tui.reporttext` makes
of ``Session.report()`` (other changes add harm and luck to the rules; the numbers
follow them)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conformance_kit import golden_session

from deathzap_tui.cli import main
from deathzap_tui.commands.report import MAX_WIDTH, MIN_WIDTH
from deathzap_tui.reporttext import as_markdown, as_text
from deathzap_tui.rules import registry
from deathzap_tui.session import Session


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["report", *argv]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("rs", registry.ids())
def test_every_ruleset_reports_its_golden_game(
        rs: str, saves_dir: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    session = golden_session(rs)
    report = session.report()
    assert report.over and report.events == len(session.game.events())
    monkeypatch.setenv("COLUMNS", "100")
    assert run(capsys, session.path.stem) == as_text(report, 100)
    assert run(capsys, str(session.path), "--markdown") == as_markdown(report)
    data = json.loads(run(capsys, session.path.stem, "--json"))
    assert data == json.loads(json.dumps(report.to_json()))


def test_json_keys_and_types(saves_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    session = golden_session("deathzap3")
    data = json.loads(run(capsys, session.path.stem, "--json"))
    assert {"ruleset", "title", "forces", "over", "result", "score_label", "score",
            "events", "score_over_time", "units", "luck", "rolls"} <= set(data)
    assert data["ruleset"] == session.ruleset.id and data["over"] is True
    assert set(data["forces"]) == set(data["score"]) == set(data["luck"]) == {"red", "black"}
    assert all(isinstance(v, int) for v in data["score"].values())
    first, last = data["score_over_time"][0], data["score_over_time"][-1]
    assert first["event"] == 0 and last["event"] == data["events"]
    assert {k: last[k] for k in ("red", "black")} == data["score"]
    for unit in data["units"]:
        assert set(unit) == {"id", "side", "name", "kills", "damage_dealt", "damage_taken",
                             "figures_lost", "gone"}
        assert all(isinstance(unit[k], int) for k in ("kills", "damage_dealt",
                                                     "damage_taken", "figures_lost"))
    for side, luck in data["luck"].items():
        assert 0 <= luck["percentile"] <= 100 and luck["method"] in ("exact", "normal")
        assert luck["sentence"].startswith(f"{side.capitalize()}'s dice were in the ")
        assert luck["rolls"] == sum(1 for r in data["rolls"] if r["side"] == side)
    for roll in data["rolls"]:
        assert 0 < roll["p_at_least"] <= 1 and 0 <= roll["rank"] <= 1
        assert isinstance(roll["faces"], list) and isinstance(roll["more_is_better"], bool)


def test_text_follows_the_terminal_width(saves_dir: Path, capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    session = golden_session("classic")
    for columns, width in ((40, MIN_WIDTH), (120, 120), (500, MAX_WIDTH)):
        monkeypatch.setenv("COLUMNS", str(columns))
        out = run(capsys, session.path.stem)
        assert out == as_text(session.report(), width)
        assert max(len(line) for line in out.splitlines()) == width  # the chart fills it


def test_an_unfinished_game_reports_in_progress(
        saves_dir: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    session = golden_session("deathzap3")
    session.undo()  # the last event: the game is not over any more
    assert not session.over
    report = Session.resume(session.path.stem).report()
    assert not report.over and report.events == len(session.game.events())
    text = run(capsys, session.path.stem)
    assert text.splitlines()[1].startswith("In progress")
    assert "Current VP" in text and text == as_text(report, 80)
    assert json.loads(run(capsys, session.path.stem, "--json"))["over"] is False
    assert "**In progress" in run(capsys, session.path.stem, "--markdown")


def test_a_bad_save_is_one_clear_line_and_exit_1(
        saves_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "no-such-game"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("deathzap report: ") and "no such save" in err
    assert err.count("\n") == 1
    junk = tmp_path / "junk.toml"
    junk.write_text("this is not = a save = at all\n", encoding="utf-8")
    assert main(["report", str(junk)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("deathzap report: ") and err.count("\n") == 1
    missing = tmp_path / "nowhere" / "game.toml"
    assert main(["report", str(missing)]) == 1
    assert capsys.readouterr().err == f"deathzap report: no save file {missing}\n"
    assert main(["report", str(tmp_path)]) == 1
    assert capsys.readouterr().err == f"deathzap report: {tmp_path} is a folder, not a save file\n"


def test_json_and_markdown_cannot_be_asked_together(
        saves_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["report", "golden", "--json", "--markdown"])
    assert exit_.value.code == 2
    assert "not allowed with" in capsys.readouterr().err


def test_a_log_that_does_not_replay_names_the_event(
        saves_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The event is named by its number in the log, undone events counted (as
    ``deathzap log`` and loading the save name it), not by its place among the events
    in force."""
    from deathzap_tui.saves import read_save_data, snapshot_text

    session = golden_session("deathzap3")
    data = read_save_data(session.path)
    events = data["events"]
    # Event 4 played, taken back and played again: the log's 6th event is the 4th in
    # force. Breaking it breaks the replay there.
    events[3:3] = [events[3], {"kind": "undo", "data": {}}]
    events[5] = {**events[5], "data": {**events[5]["data"], "intent": {"type": "nope"}}}
    session.path.write_text(snapshot_text(data), encoding="utf-8")
    assert main(["report", session.path.stem]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"deathzap report: {session.path.stem}: the event log does not "
                          "replay: event 6 (resolve): ")
    assert err.count("\n") == 1 and "Traceback" not in err
    assert main(["log", session.path.stem]) == 1
    assert "the event log does not replay: event 6 (resolve): " in capsys.readouterr().err

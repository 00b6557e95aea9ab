"""A snapshot keeps its events as one JSON record a line in a TOML literal string
(issue 21: a 5,000-event game's snapshot parsed as TOML tables took a tenth of a
second of every ``deathzap report`` and ``log``); older snapshots, whose events are
TOML tables, read the same."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
import tomli_w
from conformance_kit import golden

from deathzap_tui import saves
from deathzap_tui.cli import main
from deathzap_tui.saves import SaveError, snapshot_text


def test_a_finished_game_keeps_one_json_record_a_line(saves_dir: Path) -> None:
    played = golden("deathzap3")
    path = played.saved()
    table = tomllib.loads(path.read_text(encoding="utf-8"))
    lines = table["events"].splitlines()
    assert lines[0] == "[" and lines[-1] == "]"
    game = played.played.game
    assert [json.loads(line.rstrip(",")) for line in lines[1:-1]] == [
        e.to_data() for e in game.log]
    again = saves.load_game(path)
    assert again.log == game.log and again.state == game.state


def test_a_snapshot_with_event_tables_reads_the_same(
        saves_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    played = golden("classic")
    path = played.saved()
    assert main(["report", path.stem, "--json"]) == 0
    report = capsys.readouterr().out
    data = saves.read_save_data(path)
    old = tomli_w.dumps(data)  # as every save was written before
    assert "[[events]]" in old
    path.write_text(old, encoding="utf-8")
    again = saves.load_game(path)
    game = played.played.game
    assert again.log == game.log and again.state == game.state
    assert main(["report", path.stem, "--json"]) == 0
    assert capsys.readouterr().out == report


@pytest.mark.parametrize("text", ["it's", "'''", "x'''y\\'", "\x7f", "é ♣ \u2028", "\\"])
def test_any_string_in_an_event_comes_back_as_it_was(text: str, tmp_path: Path) -> None:
    """An apostrophe (which could end the TOML string) and DEL (which TOML refuses in
    one) are written as JSON escapes."""
    data = {"format": saves.FORMAT, "options": {"a": 1}, "forces": {"red": {"n": text}},
            "events": [{"kind": "resolve", "data": {"intent": {"note": text}}},
                       {"kind": "undo"}]}
    written = snapshot_text(data)
    inside = written.split("'''")[1]
    assert "'" not in inside and "\x7f" not in inside
    path = tmp_path / "x.toml"
    assert saves.parse_snapshot(path, written.encode(), b"") == data
    assert saves.parse_snapshot(path, snapshot_text({**data, "events": []}).encode(),
                                b"")["events"] == []


def test_events_that_are_not_json_records_are_refused_naming_the_save(
        saves_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = golden("deathzap3").saved()
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("events = '''\n[\n", "events = '''\n[\n{,", 1),
                    encoding="utf-8")
    with pytest.raises(SaveError, match="events: not JSON records") as info:
        saves.load_game(path)
    assert str(path) in str(info.value)
    for command in ("report", "log"):
        assert main([command, path.stem]) == 1
        err = capsys.readouterr().err
        assert err.startswith(f"deathzap {command}: {path}: events: not JSON")
        assert err.count("\n") == 1

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

FORCES = Path(__file__).resolve().parents[2] / "forces"
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


@pytest.mark.slow
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


@pytest.fixture
def launched(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The apps ``deathzap resume`` would run, recorded instead of run."""
    from deathzap_tui.app.app import DeathzapApp

    apps: list[Any] = []
    monkeypatch.setattr(DeathzapApp, "run", lambda self, *a, **kw: apps.append(self))
    return apps


def test_resume_with_no_name_lists_the_saves_and_resumes_the_one_picked(
        saves_dir: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch, launched: list[Any]) -> None:
    """Issue 26: "deathzap resume" was a usage error. Each save says its ruleset,
    players, and whose turn it is or how it ended; a number picks one."""
    done = played("finished", decks=1)
    going = Session.new(RED, BLACK, seed=3, deal_seed=1, save_path="going")
    play(going, {"type": "rolloff"})
    (saves_dir / "going.toml").touch()  # the newest: listed first
    for old in saves_dir.glob("finished.toml*"):
        os.utime(old, (1, 1))
    monkeypatch.setattr("builtins.input", lambda prompt="": "2")
    assert main(["resume"]) == 0
    out = capsys.readouterr().out
    first, second = out.index("  1. going (Deathzap 3"), out.index("  2. finished (Deathzap 3")
    assert first < second
    assert out.count("Ashfall Legion vs Vanta Syndicate") == 2
    assert "in progress: " in out[first:second]
    assert f"finished: {done.view().result}" in out[second:]
    assert [app.session.path.stem for app in launched] == ["finished"]


def test_resume_lists_how_games_stand_from_their_summaries(
        saves_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each save's summary says how its game stands: no game is loaded to list them."""
    from deathzap_tui.commands.resume import save_menu
    from deathzap_tui.net.playbyturn import whose_turn

    done = played("finished", decks=1)
    going = Session.new(RED, BLACK, seed=3, deal_seed=1, save_path="going")
    play(going, {"type": "rolloff"})

    def not_loaded(*_args: Any) -> None:
        raise AssertionError("a save's game was loaded to list it")

    monkeypatch.setattr(Session, "read", not_loaded)
    menu = dict(save_menu())
    assert menu["finished"][1:] == ["Ashfall Legion vs Vanta Syndicate",
                                    f"finished: {done.view().result}"]
    assert menu["going"][1:] == ["Ashfall Legion vs Vanta Syndicate",
                                 f"in progress: {whose_turn(going)}"]
    assert all(lines[0].startswith(f"{name} (Deathzap 3, ") for name, lines in menu.items())


def test_resume_with_no_name_and_no_pick_resumes_nothing(
        saves_dir: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch, launched: list[Any]) -> None:
    assert main(["resume"]) == 1
    assert capsys.readouterr().err == f"deathzap resume: there are no saves in {saves_dir}\n"
    play(Session.new(RED, BLACK, seed=3, deal_seed=1, save_path="going"), {"type": "rolloff"})
    for answer in ("", "7"):
        monkeypatch.setattr("builtins.input", lambda prompt="", a=answer: a)
        assert main(["resume"]) == 1
    assert "7 is not one of the saves 1-1" in capsys.readouterr().err
    assert launched == []


def test_resume_dice_given_wins_over_the_saves_setting(
        saves_dir: Path, launched: list[Any]) -> None:
    """Issue 26: `resume --dice generated` was ignored once the save kept "physical";
    given, the flag wins (and is kept with the save); not given, the save's holds."""
    from deathzap_tui import saves

    play(Session.new(RED, BLACK, seed=3, deal_seed=1, save_path="going"), {"type": "rolloff"})
    saves.write_setting(saves_dir / "going.toml", "dice", "physical")

    def mode(*flags: str) -> str:
        from deathzap_tui.app.app import DeathzapApp

        assert main(["resume", "going", *flags]) == 0
        app = launched[-1]
        assert isinstance(app, DeathzapApp)
        app._restore_dice(saves_dir / "going.toml")  # what mounting it does
        return app.dice_mode

    assert mode("--dice", "generated") == "generated"
    assert saves.read_settings(saves_dir / "going.toml")["dice"] == "generated"
    assert mode() == "generated"  # kept from the last sitting
    assert mode("--dice", "physical") == "physical"


def test_log_prints_as_it_replays(saves_dir: Path, capsys: pytest.CaptureFixture[str],
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """``deathzap log`` streams (issue 21): the narrative of the first events is out
    before the last event is replayed, and the whole is the game's narrative."""
    from deathzap_tui.rules.game import Game

    session = played("streamed", decks=2)
    events = session.game.events()
    lines = session.narrative()
    view = session.view()
    out_before_last: list[str] = []
    real = Game._resolve
    count = [0]

    def resolving(self: Game, state: Any, event: Any, **kwargs: Any) -> Any:
        count[0] += 1
        if count[0] == len(events):  # the last one: what has been printed so far?
            out_before_last.append(capsys.readouterr().out)
        return real(self, state, event, **kwargs)

    monkeypatch.setattr(Game, "_resolve", resolving)
    assert main(["log", "streamed"]) == 0
    assert count[0] == len(events)  # one replay, no more
    printed = out_before_last[0] + capsys.readouterr().out
    first = out_before_last[0].splitlines()
    assert "(red) vs" in first[0]
    assert first[1:] == lines[:len(first) - 1] and len(first) > len(lines) // 2
    assert printed.splitlines() == [first[0], *lines, "", view.result or view.prompt,
                                    *view.score_lines]


def test_log_of_a_log_that_does_not_replay_says_which_event(
        saves_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from deathzap_tui.saves import read_save_data, snapshot_text

    session = played("broken", decks=1)
    assert session.path is not None
    data = read_save_data(session.path)
    data["events"][3]["data"]["intent"] = {"type": "no-such-thing"}
    session.path.write_text(snapshot_text(data), encoding="utf-8")
    assert main(["log", "broken"]) == 1
    captured = capsys.readouterr()
    assert "the event log does not replay: event 4 (resolve)" in captured.err
    assert "Traceback" not in captured.err

"""The commands and the files of a save (issue 19), as real processes on real files
and links: one rule for every command, clean errors, nothing followed or lost."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from test_saves_files import BLACK, RED, game_in_progress, victim_file

from deathzap_tui import saves
from deathzap_tui.rules.steps import ROLL, DiceRequest

FILES = Path(__file__).resolve().parents[2] / "forces"
SAVE_COMMANDS = ["log", "report", "host", "resume"]
"""The commands that open a save by name."""


def deathzap(saves_dir: Path, *args: str, memory: int | None = None,
             ) -> subprocess.CompletedProcess[str]:
    """``deathzap *args`` in a process of its own (at most ``memory`` bytes)."""
    def limit() -> None:
        if memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    env = {**os.environ, "DEATHZAP_SAVES_DIR": str(saves_dir)}
    return subprocess.run([sys.executable, "-m", "deathzap_tui", *args], env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=60, preexec_fn=limit)


def refused(out: subprocess.CompletedProcess[str], command: str) -> str:
    """A command that stopped with one clean line on stderr: that line."""
    assert out.returncode == 1, out.stdout + out.stderr
    assert "Traceback" not in out.stderr and not out.stdout
    assert out.stderr.startswith(f"deathzap {command}: ") and out.stderr.count("\n") == 1
    return out.stderr


def test_a_symlinked_save_is_refused_by_every_command(saves_dir: Path) -> None:
    """``host`` hosted the link's target (at 0 events, under the link's lock) where
    ``log`` and ``resume`` refused: one rule for all, the same words."""
    session = game_in_progress(events=2)
    (saves_dir / "ln.toml").symlink_to(session.path)
    before = session.path.read_bytes(), saves.journal_path(session.path).read_bytes()
    reasons = {c: refused(deathzap(saves_dir, c, "ln"), c).split(": ", 1)[1]
               for c in SAVE_COMMANDS}
    assert set(reasons.values()) == {f"{saves_dir.resolve() / 'ln.toml'}: cannot read "
                                     "(a symbolic link, which deathzap never follows)\n"}
    assert (session.path.read_bytes(), saves.journal_path(session.path).read_bytes()) == before


def test_host_never_writes_through_a_linked_lock(saves_dir: Path, tmp_path: Path) -> None:
    game_in_progress()
    victim = victim_file(tmp_path)
    (saves_dir / "g1.toml.lock").symlink_to(victim)
    err = refused(deathzap(saves_dir, "host", "g1"), "host")
    assert "g1.toml.lock: a symbolic link" in err
    assert victim.read_text() == "keep me\n"


@pytest.mark.parametrize("command", SAVE_COMMANDS)
def test_a_deleted_journal_is_said_and_nothing_is_written(saves_dir: Path,
                                                          command: str) -> None:
    """It silently reset the game to event 0 (``log``, ``host``): now refused, and
    the snapshot is not written over nor a new journal begun."""
    session = game_in_progress(events=3)
    saves.journal_path(session.path).unlink()
    snapshot = session.path.read_bytes()
    err = refused(deathzap(saves_dir, command, "g1"), command)
    assert "g1.toml.journal is missing" in err and "put it back" in err
    assert session.path.read_bytes() == snapshot
    assert not saves.journal_path(session.path).exists()


@pytest.mark.parametrize("command", ["log", "report"])
def test_a_snapshot_copied_without_its_journal_is_refused(saves_dir: Path, tmp_path: Path,
                                                          command: str) -> None:
    session = game_in_progress(events=3)
    copy = tmp_path / "sent" / "g1.toml"
    copy.parent.mkdir()
    copy.write_bytes(session.path.read_bytes())
    err = refused(deathzap(saves_dir, command, str(copy)), command)
    assert f"{copy}: g1.toml.journal is missing" in err


@pytest.mark.parametrize("command", [*SAVE_COMMANDS, "join", "play", "odds", "edit"])
def test_a_name_too_long_for_a_file_is_a_clean_error(saves_dir: Path, command: str) -> None:
    """``log`` and ``report`` (and ``odds`` of a force file, ``edit`` of one) ended in
    an OSError traceback (ENAMETOOLONG)."""
    name = "x" * 300
    args = {"join": ["join", name, "--as", "red"],
            "play": ["play", "--red", str(FILES / "demo-ashfall-legion.toml"), "--black",
                     str(FILES / "demo-vanta-syndicate.toml"), "--save", name],
            "odds": ["odds", "--attacker", f"{name}:1", "--target", f"{name}:1"],
            }.get(command, [command, name])
    err = refused(deathzap(saves_dir, *args), command)
    assert any(why in err for why in ("a save name is at most", "no save file",
                                      "File name too long"))


@pytest.mark.parametrize("command", SAVE_COMMANDS)
def test_a_save_name_too_long_says_the_length_limit(saves_dir: Path, command: str) -> None:
    """A long name of letters only was refused as if its characters were wrong ("a
    save name uses letters, digits..."): the refusal names what is wrong, its length."""
    err = refused(deathzap(saves_dir, command, "x" * 300), command)
    assert f"at most {saves.MAX_NAME} characters (this one has 300)" in err
    assert "uses letters" not in err


@pytest.mark.parametrize("command", SAVE_COMMANDS)
def test_errors_never_echo_control_characters(saves_dir: Path, command: str) -> None:
    """The user's own argument, quoted in an error, carried an OSC 52 (clipboard)
    sequence and a BEL to the terminal."""
    for name in ("bad\x1b]52;c;QUFB\x07name", "dir/\x1b[2Jx.toml"):
        out = deathzap(saves_dir, command, name)
        assert out.returncode == 1 and "Traceback" not in out.stderr
        assert "\x1b" not in out.stderr and "\x07" not in out.stderr
        assert "52;c;QUFB" in out.stderr or "[2Jx" in out.stderr  # still named


BARE = ["odds", "--skill", "basic", "--target-skill", "basic", "--power", "light",
        "--strength", "light", "--cover", "open"]


@pytest.mark.parametrize(("args", "limit"), [
    (["--shots", "24", "--shields", "1000000000", "--figures", "10"],
     "--shields 1000000000: at most 999 (the most shields a force file gives a unit)"),
    (["--shots", "24", "--shields", "6", "--figures", "10000000"],
     "--figures 10000000: at most 100 (the most figures a force file gives a unit)"),
    (["--shots", "1000000", "--shields", "6", "--figures", "10"],
     "--shots 1000000: at most 99900 (a force file's unit has at most 100 figures"),
    (["--melee-dice", "1000000", "--shields", "6", "--figures", "10"],
     "--melee-dice 1000000: at most 99900"),
])
def test_dz3_odds_refuse_numbers_beyond_the_force_file_limits(saves_dir: Path,
                                                              args: list[str],
                                                              limit: str) -> None:
    """``--shields 1000000000`` took 7.8 GB before it was killed (here: 1 GB at most,
    so that today's code fails fast instead)."""
    out = deathzap(saves_dir, *BARE, *args, memory=1 << 30)
    assert out.returncode == 2 and out.stderr.startswith(f"deathzap odds: {limit}")
    assert "Traceback" not in out.stderr


def test_dz3_odds_at_the_limits_still_work(saves_dir: Path) -> None:
    out = deathzap(saves_dir, *BARE, "--shots", "100", "--shields", "999", "--figures",
                   "100", "--json")
    assert out.returncode == 0, out.stderr



@pytest.mark.parametrize(("ruleset", "attacker", "target", "flag", "limit"), [
    ("deathzap3", "demo-ashfall-legion.toml", "demo-vanta-syndicate.toml", "--shields",
     "at most 3 (Director's Retinue's full shields: DZ3 §8)"),
    ("deathzap3", "demo-ashfall-legion.toml", "demo-vanta-syndicate.toml", "--figures",
     "at most 3 (Director's Retinue's figures)"),
    ("command-hand", "ch-cinder-collective.toml", "ch-ironbark-rangers.toml", "--shields",
     "at most 3 (Ranger Section's starting shields: CH §3 Recharge)"),
    ("command-hand", "ch-cinder-collective.toml", "ch-ironbark-rangers.toml", "--figures",
     "at most 5 (Ranger Section's figures)"),
])
def test_odds_from_force_files_refuse_more_than_the_target_has(
        saves_dir: Path, ruleset: str, attacker: str, target: str, flag: str,
        limit: str) -> None:
    """Shields never rise above the unit's full value (DZ3 §8 Protect, CH §3
    Recharge) and figures never above the unit's."""
    out = deathzap(saves_dir, "odds", "--attacker", f"{FILES / attacker}:1", "--target",
                   f"{FILES / target}:1", "--cover", "open", flag, "10000000",
                   memory=1 << 30)
    assert out.returncode == 2
    assert out.stderr == f"deathzap odds: {flag} 10000000: {limit}\n"


def commit_over_a_linked_journal(monkeypatch: pytest.MonkeyPatch, victim: Path) -> None:
    """The app, when run, runs headless: its pilot replaces the save's journal by a
    link to ``victim``, then commits the first action from the battle screen."""
    from deathzap_tui.app.app import DeathzapApp

    run = DeathzapApp.run

    async def player(pilot: Any) -> None:
        await pilot.pause()
        app = pilot.app
        journal = saves.journal_path(app.session.path)
        journal.unlink()
        journal.symlink_to(victim)
        action = app.session.begin(app.session.intents()[0].intent)
        while not action.resolution.done:
            step = action.resolution.step
            action.resolution.answer(ROLL if isinstance(step, DiceRequest) else step.default)
        app.call_later(app.screen.commit, action)
        await pilot.pause()

    monkeypatch.setattr(DeathzapApp, "run",
                        lambda self: run(self, headless=True, auto_pilot=player))


def test_resume_exits_non_zero_without_saved_when_the_save_fails(
        saves_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Hot seat: the journal replaced by a link under the app, then an action
    committed. The app stopped on the error, and ``resume`` still said ``saved:``
    and exited 0. (The real app, run headless: no terminal in a test.)"""
    from deathzap_tui.cli import main

    game_in_progress()
    victim = victim_file(tmp_path)
    commit_over_a_linked_journal(monkeypatch, victim)
    assert main(["resume", "g1"]) == 1
    out, err = capsys.readouterr()
    assert "saved:" not in out and "a symbolic link" in err
    assert victim.read_text() == "keep me\n"


@pytest.mark.parametrize("command", ["play", "resume"])
def test_a_save_that_cannot_be_written_stops_the_app_cleanly(
        saves_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], command: str) -> None:
    """Hot seat, the journal replaced by a link under the app, then an action
    committed from the battle screen: the app stops with one line naming the save and
    the reason, exits 1, and nobody says ``saved:``. (It ended in a traceback from the
    battle screen, and ``play`` said ``saved:``.)"""
    from deathzap_tui.cli import main

    victim = victim_file(tmp_path)
    commit_over_a_linked_journal(monkeypatch, victim)
    if command == "play":
        args = ["play", "--red", str(RED), "--black", str(BLACK), "--quick",
                "--save", "g2", "--seed", "3"]
    else:
        game_in_progress()
        args = ["resume", "g1"]
    assert main(args) == 1
    out, err = capsys.readouterr()
    assert "saved:" not in out and "Traceback" not in err
    assert "could not save" in err and "a symbolic link" in err
    assert victim.read_text() == "keep me\n"

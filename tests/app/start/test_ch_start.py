"""Command Hand is selectable everywhere a game starts: the start screen (ruleset,
its forces, its house rules), ``deathzap play`` (options checked against the
forces' ruleset) and the force files themselves."""

from __future__ import annotations

from pathlib import Path

import pytest
from app_helpers import aiotest
from ch_helpers import ch_forces

from deathzap_tui.app.app import DeathzapApp, Launch
from deathzap_tui.app.battle.battle import BattleScreen
from deathzap_tui.cli import build_parser
from deathzap_tui.headless.forcelist import forces_for, pair_for, ruleset_of


@pytest.fixture
def ch_paths(workdir):
    return ch_forces(workdir)


def test_force_files_name_their_ruleset(ch_paths, demo_paths) -> None:
    assert [ruleset_of(p) for p in ch_paths] == ["command-hand"] * 2
    assert [ruleset_of(p) for p in demo_paths] == ["deathzap3"] * 2
    files = sorted([*ch_paths, *demo_paths])
    assert forces_for(files, "command-hand") == sorted(ch_paths)
    assert set(pair_for(files, "command-hand")) == set(ch_paths)
    # Forces already of the ruleset are kept; one of another ruleset is replaced.
    assert pair_for(files, "deathzap3", (demo_paths[1], ch_paths[0])) == \
        (demo_paths[1], demo_paths[0])


def test_ruleset_of_reads_top_level_keys_only(tmp_path: Path) -> None:
    f = tmp_path / "f.toml"
    f.write_text('name = "x"\n[weapons.a]\nruleset = "command-hand"\n')
    assert ruleset_of(f) == "deathzap3"
    f.write_text("# c\nruleset = 'command-hand'  # the edition\n")
    assert ruleset_of(f) == "command-hand"
    assert ruleset_of(tmp_path / "missing.toml") == ""


@aiotest
async def test_start_screen_offers_command_hand_forces_and_options(ch_paths) -> None:
    from textual.widgets import Input, Select

    app = DeathzapApp(Launch("start", seed=7))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        ruleset = screen.query_one("#ruleset", Select)
        assert ruleset.value == "deathzap3"
        assert {"deathzap3", "command-hand"} <= {v for _l, v in ruleset._options}
        ruleset.value = "command-hand"
        await pilot.pause()
        await pilot.pause()
        paths = {Path(screen.query_one(f"#{s}-path", Input).value).name
                 for s in ("red", "black")}
        assert paths == {p.name for p in ch_paths}
        listed = {Path(v).name for _l, v in screen.query_one("#red-pick", Select)._options
                  if isinstance(v, str)}
        assert listed == {p.name for p in ch_paths}
        assert {s.key for s in screen.option_specs} == {"distances", "victory"}
        screen.query_one("#opt-victory", Select).value = "objectives"
        await pilot.press("ctrl+g")  # quick start
        await pilot.pause()
        assert isinstance(app.screen, BattleScreen)
        game = app.session.game
        assert game.ruleset.id == "command-hand"
        assert game.options["victory"] == "objectives"
        assert game.state.phase == "battle"


def play_args(*argv: str):
    return build_parser().parse_args(["play", *argv])


def test_play_checks_options_against_the_forces_ruleset(ch_paths, monkeypatch,
                                                        capsys) -> None:
    from deathzap_tui.commands import play

    launched = []
    monkeypatch.setattr(DeathzapApp, "run", lambda self, **kw: launched.append(self))
    red, black = (str(p) for p in ch_paths)
    # A Command Hand option is accepted for Command Hand forces (short -o too)...
    assert play.run(play_args("--red", red, "--black", black, "--seed", "7",
                              "-o", "victory=objectives", "--option", "distances=double")) == 0
    plan = launched[-1].launch.plan
    assert plan.options == {"victory": "objectives", "distances": "double"}
    # ...and with --quick the game itself is Command Hand, set up.
    assert play.run(play_args("--red", red, "--black", black, "--seed", "7", "--quick",
                              "-o", "victory=objectives")) == 0
    session = launched[-1].session
    assert session.ruleset.id == "command-hand" and session.game.state.phase == "battle"
    # A Deathzap 3 option is refused for them, before any screen opens.
    n = len(launched)
    assert play.run(play_args("--red", red, "--black", black, "-o", "deck=half")) == 1
    assert "unknown option" in capsys.readouterr().err
    assert len(launched) == n


def test_play_refuses_forces_of_two_rulesets(ch_paths, demo_paths, monkeypatch,
                                             capsys) -> None:
    from deathzap_tui.commands import play

    monkeypatch.setattr(DeathzapApp, "run", lambda self, **kw: pytest.fail("launched"))
    assert play.run(play_args("--red", str(ch_paths[0]), "--black", str(demo_paths[0]))) == 1
    assert "different rulesets" in capsys.readouterr().err

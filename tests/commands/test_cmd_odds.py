"""``deathzap odds`` (issue 4): bare numbers, force files, JSON and text."""

from __future__ import annotations

import math

import pytest
from cli_helpers import run_json
from force_texts import force_text, unit_text

from deathzap_tui.cli import main
from deathzap_tui.rules.deathzap3.odds import Attack, Target, attack_odds

BARE = ["odds", "--shots", "24", "--skill", "basic", "--power", "light", "--cover", "open",
        "--shields", "6", "--strength", "light", "--target-skill", "basic",
        "--figures", "10"]


def test_bare_numbers_json_has_the_issue_fields(capsys):
    out = run_json(capsys, BARE)
    for key in ("casualties", "mean_casualties", "p_any_casualty", "p_wiped_out", "p_break"):
        assert key in out
    assert all(isinstance(p, float) for p in out["casualties"])
    assert len(out["casualties"]) == 11 and math.isclose(sum(out["casualties"]), 1.0)
    want = attack_odds(Attack(24, 4, 4), Target(6, 10, 6, 6))
    assert out["casualties"] == list(want.casualties)
    assert out["p_break"] == want.p_break


def test_leader_near_and_morale_option_change_p_break(capsys):
    base = run_json(capsys, BARE)["p_break"]
    leader = run_json(capsys, [*BARE, "--leader-near"])["p_break"]
    per_cas = run_json(capsys, [*BARE, "--morale-option", "per-casualty"])["p_break"]
    assert leader < base < per_cas


def test_text_form_has_a_table_and_a_bar_chart(capsys):
    assert main(BARE) == 0
    text = capsys.readouterr().out
    assert "P(at least one casualty)" in text and "P(breaks on morale)" in text
    assert "█" in text and "Casualties" in text


def test_melee_and_vehicle_and_morale_test(capsys):
    melee = run_json(capsys, ["odds", "--melee-dice", "7", "--skill", "regular",
                              "--target-skill", "basic", "--shields", "1", "--figures", "4"])
    assert melee["kind"] == "melee"
    assert melee["casualties"] == list(attack_odds(Attack(7, 3, None),
                                                   Target(1, 4, 6, 6)).casualties)
    veh = run_json(capsys, ["odds", "--shots", "4", "--skill", "elite", "--power", "heavy",
                            "--cover", "open", "--shields", "2", "--strength", "heavy",
                            "--target-skill", "regular", "--vehicle"])
    assert set(veh["vehicle"]) >= {"destroyed", "immobilised", "no-effect"}
    assert veh["p_break"] == 0.0
    mor = run_json(capsys, ["odds", "--morale-test", "--figures", "2",
                            "--target-skill", "basic"])
    assert math.isclose(mor["p_break"], (5 / 6) ** 2)


def test_known_hits_condition_the_odds(capsys):
    out = run_json(capsys, [*BARE, "--hits", "0"])
    assert out["casualties"][0] == 1.0 and out["hits_mean"] == 0.0


@pytest.mark.parametrize("argv,message", [
    (["odds"], "say what attacks"),
    (["odds", "--shots", "3", "--skill", "basic"], "missing"),
    ([*BARE, "--melee-dice", "3"], "not both"),
    ([*BARE, "--failed-saves", "1"], "needs damage"),
    ([*BARE, "--hits", "30"], "impossible"),
    (["odds", "--shots", "-1"], "0 or more"),
])
def test_bad_arguments_say_why(capsys, argv, message):
    assert main(argv) == 2
    assert message in capsys.readouterr().err


# --- force files ----------------------------------------------------------------
FORCE = force_text(
    unit_text("Squad 1",
              'name = "Cultist", count = 5, weapons = ["small-arms"]',
              'name = "Cultist", weapons = ["destroyer"]'),
    unit_text("Tank", 'name = "Tank", weapons = ["destroyer"]', skill="regular", move=8,
              shield_strength="heavy", shields=4, vehicle=True),
)


@pytest.fixture
def force_file(tmp_path):
    path = tmp_path / "force.toml"
    path.write_text(FORCE)
    return str(path)


def test_force_files_fire_every_weapon_group_in_order(capsys, force_file):
    out = run_json(capsys, ["odds", "--attacker", f"{force_file}:Squad 1",
                            "--target", f"{force_file}:1", "--cover", "soft"])
    want = attack_odds([Attack(5, 5, 4), Attack(1, 5, 2, strike=True)], Target(6, 6, 6, 6))
    assert out["casualties"] == pytest.approx(list(want.casualties), abs=1e-15)


def test_weapons_and_profiles_select_what_fires(capsys, force_file):
    out = run_json(capsys, ["odds", "--attacker", f"{force_file}:1", "--target",
                            f"{force_file}:1", "--cover", "open", "--weapons",
                            "destroyer:Spread", "--figures", "3", "--shields", "0"])
    want = attack_odds(Attack(2, 4, 4), Target(0, 3, 6, 6))
    assert out["casualties"] == pytest.approx(list(want.casualties), abs=1e-15)


def test_vehicle_target_and_melee_from_files(capsys, force_file):
    veh = run_json(capsys, ["odds", "--attacker", f"{force_file}:1", "--target",
                            f"{force_file}:Tank", "--cover", "open"])
    assert veh["figures"] == 1 and "vehicle" in veh
    mel = run_json(capsys, ["odds", "--attacker", f"{force_file}:1", "--target",
                            f"{force_file}:1", "--melee"])
    want = attack_odds(Attack(6, 4, None), Target(6, 6, 6, 6))
    assert mel["casualties"] == pytest.approx(list(want.casualties), abs=1e-15)
    assert main(["odds", "--attacker", f"{force_file}:1", "--target", f"{force_file}:1",
                 "--cover", "open"]) == 0
    assert "Squad 1" in capsys.readouterr().out


@pytest.mark.parametrize("attacker,extra,message", [
    ("{f}:Nobody", [], "units: 1. Squad 1; 2. Tank"),
    ("{f}:3", [], "no unit 3"),
    ("{f}", [], "FILE:UNIT"),
    ("{f}:1", ["--weapons", "laser"], "carries no weapon 'laser'"),
    ("{f}:1", ["--weapons", "destroyer:Nope"], "profiles: Strike, Spread"),
    ("{f}:1", ["--shots", "3"], "leave out --shots"),
])
def test_force_file_errors_are_clear(capsys, force_file, attacker, extra, message):
    argv = ["odds", "--attacker", attacker.format(f=force_file), "--target",
            f"{force_file}:1", "--cover", "open", *extra]
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_a_broken_force_file_reports_its_problems(capsys, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("name = 3\n")
    assert main(["odds", "--attacker", f"{bad}:1", "--target", f"{bad}:1",
                 "--cover", "open"]) == 1
    assert "bad.toml" in capsys.readouterr().err

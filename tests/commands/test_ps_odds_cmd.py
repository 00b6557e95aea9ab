"""``deathzap odds --ruleset plasmashok`` (PS §4, §5, §6): bare numbers, force files,
JSON and text, and clear errors (exit 2)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from cli_helpers import fails, run_json

from deathzap_tui.cli import main
from deathzap_tui.rules.plasmashok.odds import shooting_odds, special_odds
from deathzap_tui.rules.plasmashok.oddsmath import Group

FORCES = Path(__file__).resolve().parents[2] / "forces"
CHOIR = FORCES / "ps-iron-choir.toml"
SWARM = FORCES / "ps-verdant-swarm.toml"
BARE = ["odds", "--ruleset", "plasmashok", "--shots", "12", "--strength", "2", "--damage",
        "1", "--defence", "4", "--size", "6", "--save", "5"]


def test_ps_bare_numbers_json_has_damage_and_wounds_ps_s5(capsys) -> None:
    out = run_json(capsys, BARE)
    want = shooting_odds(Group(12, 2, 1), 4, 6, 5, 6)
    assert out == json.loads(json.dumps(want.to_json()))
    assert out["figures"] == 6 and len(out["casualties"]) == 7
    assert len(out["damage"]) == 25 and len(out["wounds"]) == 25
    assert math.isclose(sum(out["wounds"]), 1.0)
    assert out["mean_damage"] == pytest.approx(out["hits_mean"])
    assert out["mean_wounds"] == pytest.approx(out["mean_damage"] * 4 / 6)
    assert out["p_any_wound"] == pytest.approx(1 - out["wounds"][0])
    assert out["p_break"] is None


def test_ps_save_7_is_no_save_ps_s5_step5(capsys) -> None:
    out = run_json(capsys, [*BARE[:-1], "7"])
    assert out["wounds"] == out["damage"]


def test_ps_models_and_wounds_per_model_give_the_casualties_app_reading_1(capsys) -> None:
    out = run_json(capsys, [*BARE, "--models", "2", "--wounds-per-model", "6",
                            "--wounded", "5", "--pending", "3"])
    want = shooting_odds(Group(12, 2, 1), 4, 6, 5, 2, 6, 5, 3)
    assert out["casualties"] == list(want.casualties)
    assert out["figures"] == 1  # the 3 pending wounds already kill the wounded model


def test_ps_text_shows_the_damage_and_wound_distributions(capsys) -> None:
    assert main(BARE) == 0
    text = capsys.readouterr().out
    assert "Shooting (PS §5)" in text and "save 5+" in text
    assert "Expected hits 7.70, damage 7.70, wounds 5.13" in text
    for title in ("\nHits\n", "\nDamage\n", "\nWounds\n", "\nCasualties\n"):
        assert title in text
    assert "P(at least one wound)" in text and "P(wiped out)" in text
    assert "P(breaks" not in text and "unit gone" not in text  # no after-effect


def test_ps_special_combat_from_bare_numbers_ps_s4(capsys) -> None:
    out = run_json(capsys, ["odds", "--ruleset", "plasmashok", "--special", "2",
                            "--special-defence", "1"])
    assert out["kind"] == "special"
    assert out["wounds"] == list(special_odds(2, 3, 2).wounds)
    assert "damage" not in out and "hits" not in out
    assert main(["odds", "--ruleset", "plasmashok", "--special", "3", "--special-defence",
                 "0", "--models", "5"]) == 0
    text = capsys.readouterr().out
    assert "3 dice against 2 dice (0 + 2)" in text and "\nWounds\n" in text
    assert "\nExpected wounds " in text and "hits" not in text  # the dice are the wounds


@pytest.mark.parametrize("extra,message", [
    ([], "say what attacks"),
    (["--shots", "3", "--strength", "2"], "missing --damage, --defence, --size, --save"),
    (["--special", "2"], "missing --special-defence"),
    (["--special", "2", "--special-defence", "1", "--shots", "3"], "give one or the other"),
    ([*BARE[3:-1], "8"], "--save 8"),
    ([*BARE[3:-1], "1"], "--save 1"),
    ([*BARE[3:], "--models", "0"], "--models"),
    ([*BARE[3:], "--wounded", "1"], "--wounded 1"),
    ([*BARE[3:], "--wounds-per-model", "0"], "--wounds-per-model"),
    ([*BARE[3:6], "0", *BARE[7:]], "--strength and --damage are 1 or more"),
    (["--shots", "-1", *BARE[5:]], "--shots must be 0 or more"),
    (["--shots", "400", "--strength", "6", *BARE[7:]], "too large"),
    ([*BARE[3:], "--melee"], "--melee is for force files"),
])
def test_ps_bad_numbers_give_one_line_and_exit_2(capsys, extra, message) -> None:
    assert message in fails(capsys, ["odds", "--ruleset", "plasmashok", *extra])


def test_ps_help_lists_the_plasmashok_flags(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["odds", "--ruleset", "plasmashok", "--help"])
    text = capsys.readouterr().out
    for flag in ("--shots", "--strength", "--damage", "--defence", "--size", "--save",
                 "--special", "--special-defence", "--models", "--wounds-per-model",
                 "--cover", "--distance", "--in-blast", "--special-combat"):
        assert flag in text


# --------------------------------------------------------------------------- force files
def files(attacker: str, target: str, *extra: str) -> list[str]:
    return ["odds", "--attacker", attacker, "--target", target, *extra]


def test_ps_force_files_fire_every_weapon_at_one_target_ps_s5(capsys) -> None:
    """Line Choristers (an Advanced Repeater, 5 Basic Rifles, a Medium Repeater) at
    Thorn Hounds (8 beasts) in soft cover at 13": defence 2 + 1 + 2, size 8, 5+."""
    out = run_json(capsys, files(f"{CHOIR}:Line Choristers", f"{SWARM}:1", "--cover", "soft",
                                 "--distance", "13"))
    want = shooting_odds([Group(2, 2, 1), Group(5, 2, 1), Group(6, 1, 1)], 5, 8, 5, 8)
    assert out["damage"] == pytest.approx(list(want.damage), abs=1e-15)
    assert out["casualties"] == pytest.approx(list(want.casualties), abs=1e-15)
    assert main(files(f"{CHOIR}:2", f"{SWARM}:1", "--cover", "soft", "--distance", "13",
                      "--weapons", "medium-repeater")) == 0
    text = capsys.readouterr().out
    assert "Medium Repeater: 6 dice, strength 1, damage 1" in text
    assert "Beasts 2 + 1 soft cover + 2 for 13\"" in text and "Basic Rifle" not in text


def test_ps_a_weapon_out_of_range_holds_fire_ps_r2(capsys) -> None:
    """Choir Wardens: 5 Advanced Rifles and a Spike (6" reach, PS-R2)."""
    near = run_json(capsys, files(f"{CHOIR}:1", f"{SWARM}:1", "--cover", "open",
                                  "--distance", "6"))
    far = run_json(capsys, files(f"{CHOIR}:1", f"{SWARM}:1", "--cover", "open",
                                 "--distance", "7"))
    assert near["damage"] == list(shooting_odds([Group(5, 2, 2), Group(1, 2, 1)], 3, 8, 5,
                                                8).damage)
    assert far["damage"] == list(shooting_odds(Group(5, 2, 2), 3, 8, 5, 8).damage)
    assert main(files(f"{CHOIR}:1", f"{SWARM}:1", "--cover", "open", "--distance", "7")) == 0
    assert "Spike: reaches 6\", holds fire at 7\"" in capsys.readouterr().out
    assert "reaches 8\"" in fails(capsys, files(f"{CHOIR}:1", f"{SWARM}:1", "--cover",
                                                "open", "--distance", "8", "--weapons",
                                                "spike"))


def test_ps_arc_and_radius_dice_come_from_the_target_ps_s5(capsys) -> None:
    """Arc Weapon: one die per point of the target's size (Old Tusks: 3 x 3 = 9, two
    skiffs: 18); Radius Weapon: one per model in the blast (--in-blast)."""
    out = run_json(capsys, files(f"{CHOIR}:Arc Skiffs", f"{SWARM}:Old Tusks", "--cover",
                                 "hard", "--distance", "13", "--models", "2"))
    want = shooting_odds([Group(4, 2, 1), Group(12, 2, 1)], 7, 6, 4, 2, 6)
    assert out["wounds"] == pytest.approx(list(want.wounds), abs=1e-15)
    assert "--in-blast N" in fails(capsys, files(f"{SWARM}:5", f"{CHOIR}:2", "--cover",
                                                 "open", "--distance", "3"))
    out = run_json(capsys, files(f"{SWARM}:5", f"{CHOIR}:2", "--cover", "open",
                                 "--distance", "3", "--in-blast", "4"))
    want = shooting_odds([Group(4, 3, 2), Group(7, 2, 1)], 2, 7, 5, 7)
    assert out["damage"] == pytest.approx(list(want.damage), abs=1e-15)


def test_ps_melee_from_files_adds_the_size_dice_ps_s6(capsys) -> None:
    """Line Choristers (7 models, 1/1/1) at Old Tusks: size 9 > 7, +1 defence die."""
    out = run_json(capsys, files(f"{CHOIR}:2", f"{SWARM}:4", "--melee"))
    want = shooting_odds(Group(7, 1, 1), 4, 9, 4, 3, 6, kind="melee")
    assert out["kind"] == "melee" and out["wounds"] == list(want.wounds)
    assert "is for shooting" in fails(capsys, files(f"{CHOIR}:2", f"{SWARM}:4", "--melee",
                                                    "--cover", "open"))


def test_ps_melee_needs_a_known_profile_ps_r1(capsys, tmp_path) -> None:
    force = tmp_path / "ps.toml"
    force.write_text('name = "Raw"\nruleset = "plasmashok"\n[[units]]\nname = "Mob"\n'
                     'type = "infantry"\ntraining = "recruit"\nbase_cost = 3\n'
                     'figures = [ { name = "Lout", count = 3, weapons = ["basic-rifle"] } ]\n')
    err = fails(capsys, files(f"{force}:1", f"{SWARM}:4", "--melee"))
    assert "Mob cannot attack in melee" in err and "(PS-R1)" in err


def test_ps_special_combat_from_files_ps_s4(capsys) -> None:
    """Grove Tenders (special 3) at Choir Wardens (special 1: 3 defence dice)."""
    out = run_json(capsys, files(f"{SWARM}:Grove Tenders", f"{CHOIR}:1",
                                 "--special-combat"))
    assert out["wounds"] == list(special_odds(3, 3, 5).wounds)
    assert "no special combat" in fails(capsys, files(f"{SWARM}:1", f"{CHOIR}:1",
                                                      "--special-combat"))
    assert "leave it out" in fails(capsys, files(f"{SWARM}:3", f"{CHOIR}:1",
                                                 "--special-combat", "--cover", "open"))


@pytest.mark.parametrize("extra,message", [
    (["--distance", "6"], "missing --cover"),
    (["--cover", "open"], "missing --distance"),
    (["--cover", "open", "--distance", "6", "--shots", "3"], "leave out --shots"),
    (["--cover", "open", "--distance", "6", "--models", "9"], "has 8 models"),
    (["--cover", "open", "--distance", "6", "--wounds-per-model", "2"], "type gives it"),
    (["--cover", "open", "--distance", "6", "--weapons", "laser"], "no weapon 'laser'"),
])
def test_ps_force_file_errors_are_one_line(capsys, extra, message) -> None:
    assert message in fails(capsys, files(f"{CHOIR}:2", f"{SWARM}:1", *extra))

"""``deathzap odds --ruleset double-tap`` (DT §4-§7): bare numbers with signed
modifiers, force files, JSON and text, and clear errors (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import fails, run_json

from deathzap_tui.cli import main
from deathzap_tui.rules.doubletap.odds import Attack, attack_odds
from deathzap_tui.rules.doubletap.tables import NOT_TOUGH

FORCES = Path(__file__).resolve().parents[2] / "forces"
KESTREL = FORCES / "dt-kestrel-cell.toml"
RUSTMOTH = FORCES / "dt-rustmoth-gang.toml"
BARE = ["odds", "--ruleset", "double-tap", "--attacks", "3", "--hit", "-1", "--block", "0"]


def want(**kwargs):
    return json.loads(json.dumps(attack_odds(Attack(**kwargs)).to_json()))


# --------------------------------------------------------------------------- bare numbers
def test_dt_bare_numbers_take_signed_modifiers_dt_s1(capsys) -> None:
    out = run_json(capsys, BARE)
    assert out == want(attacks=3, hit=-1)
    assert out["figures"] == 1 and len(out["casualties"]) == 2 and len(out["hits"]) == 4
    assert out["p_break_means"] == "falls back 2\" on morale"
    out = run_json(capsys, [*BARE[:-1], "+1", "--cancel-dice", "2", "--cancel-modifier",
                            "-2", "--tough", "1", "--regeneration", "--morale", "-2"])
    assert out == want(attacks=3, hit=-1, block=1, cancel_dice=2, cancel_modifier=-2,
                       tough=1, regeneration=True, morale=-2)


def test_dt_bare_melee_and_grenade_dt_s5_s7(capsys) -> None:
    out = run_json(capsys, [*BARE, "--melee"])
    assert out == want(kind="melee", attacks=3, hit=-1)
    assert out["p_break_means"] == "stunned on morale"
    out = run_json(capsys, ["odds", "--ruleset", "double-tap", "--grenade", "--hit", "0",
                            "--block", "-1"])
    assert out == want(kind="grenade", attacks=2, block=-1)
    assert out["hits"] == [0.25, 0.75, 0.0]  # lands short, or one hit (app reading 12)


def test_dt_r1_8_plus_to_hit_is_a_6_then_a_4_plus_not_impossible(capsys) -> None:
    """DT-R1 (seed double-tap-2.1.txt, Modifiers: "If you need to roll a 7+ or higher
    to succeed, then a roll of 6+ followed by 4+ is a success."): 2 attacks needing 8+
    each hit 1 in 12, so the hits are Binomial(2, 1/12), not [1, 0, 0]."""
    out = run_json(capsys, ["odds", "--ruleset", "double-tap", "--attacks", "2",
                            "--hit=-4", "--block", "0"])
    p = 1 / 6 * 3 / 6
    assert out["hits"] == pytest.approx([(1 - p) ** 2, 2 * p * (1 - p), p * p], abs=1e-12)
    assert main(["odds", "--ruleset", "double-tap", "--attacks", "2", "--hit=-4",
                 "--block", "0"]) == 0
    text = capsys.readouterr().out
    assert "2 attacks at -4: needs 8+ (a 6, then 4+)" in text
    assert "cannot succeed" not in text


@pytest.mark.parametrize("attacks,hits,killed", [("0", [1.0], 0.0),
                                                 ("1", [0.5, 0.5], 0.25)])
def test_dt_bare_grenade_of_fewer_tests_app_reading_12(capsys, attacks, hits, killed
                                                       ) -> None:
    """A throw of no test can only land short; of one, it flies on its success."""
    out = run_json(capsys, ["odds", "--ruleset", "double-tap", "--grenade", "--attacks",
                            attacks, "--hit", "0", "--block", "0"])
    assert out == want(kind="grenade", attacks=int(attacks))
    assert out["hits"] == hits and out["casualties"] == [1.0 - killed, killed]


def test_dt_text_says_what_the_numbers_are(capsys) -> None:
    assert main([*BARE[:6], "-3", "--block", "-4", "--cancel-dice", "2", "--tough", "2"]) == 0
    text = capsys.readouterr().out
    assert "Shooting (DT §4)\n  3 attacks at -3: needs 7+ (a 6, then 4+)" in text
    assert "Target 2 tests at +0: needs 4+; each success cancels one" in text
    assert "Blocks at -4: needs 8+ (a 6, then 4+)" in text  # DT-R1
    assert "Tough with 2 wound markers: killed at the 3rd (DT §7)" in text
    assert "Wounds are failed blocks" in text
    for title in ("\nHits\n", "\nWounds\n", "\nCasualties\n"):
        assert title in text
    assert "P(at least one casualty)" in text and "P(falls back 2\" on morale)" in text
    assert "unit gone" not in text  # falling back or stunned: it stays (DT §5)


@pytest.mark.parametrize("extra,message", [
    ([], "say what attacks"),
    (["--attacks", "3", "--block", "0"], "missing --hit"),
    (["--attacks", "3", "--hit", "0"], "missing --block"),
    (["--attacks", "-1", "--hit", "0", "--block", "0"], "--attacks must be 0 or more"),
    (["--attacks", "201", "--hit", "0", "--block", "0"], "--attacks 201: 0 to 200 dice"),
    ([*BARE[3:], "--cancel-dice", "201"], "--cancel-dice 201: 0 to 200 dice"),
    ([*BARE[3:], "--tough", "3"], "--tough 3: a Tough unit has 0 to 2 wound markers"),
    ([*BARE[3:], "--cancel-modifier", "-2"], "needs --cancel-dice"),
    ([*BARE[3:], "--cancel-dice", "-1"], "--cancel-dice must be 0 or more"),
    ([*BARE[3:], "--melee", "--grenade"], "one attack at a time"),
    (["--grenade", "--hit", "0", "--block", "0", "--cancel-dice", "2"], "never cancelled"),
    ([*BARE[3:], "--distance", "12", "--dodge"], "--distance, --dodge are for force files"),
    ([*BARE[3:], "--weapons", "rifle"], "--weapons is for force files"),
])
def test_dt_bad_numbers_give_one_line_and_exit_2(capsys, extra, message) -> None:
    assert message in fails(capsys, ["odds", "--ruleset", "double-tap", *extra])


def test_dt_help_lists_the_double_tap_flags(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["odds", "--ruleset", "double-tap", "--help"])
    text = capsys.readouterr().out
    for flag in ("--attacks", "--hit", "--block", "--cancel-dice", "--cancel-modifier",
                 "--tough", "--regeneration", "--morale", "--grenade", "--distance",
                 "--cover", "--down", "--engineer", "--spotted", "--doctor", "--hacked",
                 "--flashed", "--react", "--dodge", "--camo", "--react-cover"):
        assert flag in text


def test_dt_other_rulesets_still_refuse_negative_numbers(capsys) -> None:
    assert "--shots must be 0 or more" in fails(capsys, [
        "odds", "--ruleset", "plasmashok", "--shots", "-1", "--strength", "2", "--damage",
        "1", "--defence", "4", "--size", "6", "--save", "5"])


# --------------------------------------------------------------------------- force files
def files(attacker: str, target: str, *extra: str) -> list[str]:
    return ["odds", "--attacker", attacker, "--target", target, *extra]


VEY, ORO, HALE, IMRE, NADIR = (f"{KESTREL}:{i}" for i in range(1, 6))
KARN, MOTT, SIKE, VESS, CUTTER = (f"{RUSTMOTH}:{i}" for i in range(1, 6))


def test_dt_shooting_from_files_uses_the_band_and_the_target_dt_r2(capsys) -> None:
    """Sergeant Vey's Rifle (+1 at 19-27") at Boss Karn (Tough) in cover: 2 attacks at
    +1 -1; with --tough 1 one wound marker already."""
    out = run_json(capsys, files(VEY, KARN, "--distance", "20", "--cover"))
    assert out == want(attacks=2, hit=0, tough=0)
    out = run_json(capsys, files(VEY, KARN, "--distance", "30", "--down", "--engineer",
                                 "--spotted", "--tough", "1"))
    assert out == want(attacks=2, hit=3, tough=1)
    assert main(files(VEY, KARN, "--distance", "20", "--cover")) == 0
    text = capsys.readouterr().out
    assert text.startswith("Shooting (DT §4): Sergeant Vey at Boss Karn\n")
    assert "2 attacks at +0: needs 4+ — Rifle at 20\" +1 (DT-R2), cover -1" in text


def test_dt_block_modifiers_from_files_dt_s4_s7(capsys) -> None:
    """Gunner Mott's LMG (-1 at 0-9") at Sergeant Vey: Armored +1, a Doctor near +1,
    hacked -1, flashed -2."""
    out = run_json(capsys, files(MOTT, VEY, "--distance", "5", "--doctor"))
    assert out == want(attacks=4, hit=-1, block=2)
    out = run_json(capsys, files(VEY, MOTT, "--distance", "5", "--hacked", "target",
                                 "--flashed", "target"))
    assert out == want(attacks=2, hit=0, block=-3, morale=-2)


def test_dt_reactions_from_files_cancel_dt_s6_s7(capsys) -> None:
    """Marksman Oro (Sniper Rifle -1 at 0-9", Camouflage) at Gunner Mott at 5": Mott
    dodges (2 tests) or shoots back with its LMG (-1), -2 at a camouflaged attacker."""
    out = run_json(capsys, files(ORO, MOTT, "--distance", "5", "--dodge", "--camo"))
    assert out == want(attacks=2, hit=-1, cancel_dice=2, cancel_modifier=-2)
    out = run_json(capsys, files(ORO, MOTT, "--distance", "5", "--react", "shoot", "--camo",
                                 "--react-cover", "--hacked", "target"))
    assert out == want(attacks=2, hit=-1, cancel_dice=1, cancel_modifier=-5)  # hack used
    assert main(files(ORO, MOTT, "--distance", "5", "--react", "shoot")) == 0
    assert "Target reacts by shooting, 1 test at -1: needs 5+ — LMG -1" in capsys.readouterr().out


def test_dt_melee_from_files_sums_the_melee_weapons_app_reading_11(capsys) -> None:
    """Boss Karn's Sword (4) at Sergeant Vey (Armored), who strikes back in melee."""
    out = run_json(capsys, files(KARN, VEY, "--melee", "--react", "melee"))
    assert out == want(kind="melee", attacks=4, block=1, cancel_dice=1)
    assert out["p_break_means"] == "stunned on morale"
    out = run_json(capsys, files(VEY, KARN, "--melee", "--flashed", "attacker"))
    assert out == want(kind="melee", attacks=2, hit=-2, tough=0)


def test_dt_grenade_from_files_one_automatic_hit_app_reading_12(capsys) -> None:
    """Runner Sike throws its frag grenade at Stalker Vess (Regeneration), and hacked
    at Sergeant Vey (Armored)."""
    out = run_json(capsys, files(SIKE, VESS, "--grenade"))
    assert out == want(kind="grenade", attacks=2, regeneration=True)
    out = run_json(capsys, files(SIKE, VEY, "--grenade", "--hacked", "attacker"))
    assert out == want(kind="grenade", attacks=2, hit=-1, block=1)
    assert "no Grenade" in fails(capsys, files(VEY, VESS, "--grenade"))


@pytest.mark.parametrize("argv,message", [
    (files(VEY, KARN), "missing --distance"),
    (files(VEY, KARN, "--distance", "37"), "reaches 36\""),
    (files(VEY, KARN, "--distance", "5", "--weapons", "knife"), "a melee weapon"),
    (files(VEY, KARN, "--distance", "5", "--weapons", "rifle", "knife"), "one weapon"),
    (files(VEY, KARN, "--distance", "5", "--weapons", "lmg"), "no weapon 'lmg'"),
    (files(NADIR, KARN, "--distance", "5"), "carries no ranged weapon"),
    (files(KARN, VEY, "--melee", "--distance", "5"), "--distance is for shooting"),
    (files(KARN, VEY, "--melee", "--react", "shoot"), "cancels a shooting attack only"),
    (files(SIKE, VEY, "--grenade", "--dodge"), "never cancelled"),
    (files(VEY, KARN, "--distance", "5", "--camo", "--dodge"), "has no Camouflage"),
    (files(VEY, KARN, "--distance", "5", "--camo"), "add --react"),
    (files(VEY, KARN, "--distance", "5", "--dodge", "--react", "shoot"), "DT-R3"),
    (files(VEY, MOTT, "--distance", "5", "--react", "shoot", "--dodge"), "DT-R3"),
    (files(VEY, KARN, "--distance", "5", "--react", "shoot"), "cannot react by shooting"),
    (files(VEY, MOTT, "--distance", "5", "--tough", "1"), "not Tough"),
    (files(VEY, KARN, "--distance", "5", "--tough", "3"), "--tough 3"),
    (files(VEY, MOTT, "--distance", "5", "--doctor"), "no other unit with Doctor"),
    (files(IMRE, MOTT, "--distance", "5", "--engineer"), "no other unit with Engineer"),
    (files(MOTT, VEY, "--distance", "5", "--spotted"), "no other unit with Spotter"),
    (files(MOTT, VEY, "--distance", "5", "--hacked", "target"), "no Hacker"),
    (files(VEY, KARN, "--distance", "5", "--regeneration"), "leave out --regeneration"),
    (files(VEY, KARN, "--melee", "--grenade"), "one attack at a time"),
])
def test_dt_force_file_errors_are_one_line(capsys, argv, message) -> None:
    assert message in fails(capsys, argv)


def test_dt_not_tough_is_the_facts_minus_one() -> None:
    assert NOT_TOUGH == -1

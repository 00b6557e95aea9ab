"""``deathzap odds`` of every ruleset refuses numbers no force file can give (issue 19
fix-up: ``--ruleset plasmashok --size 600000`` ended in a RecursionError traceback,
``--special 600000`` and Classic's ``--figures 600000`` took seconds of work).

Every whole-number flag of every ruleset's odds, huge or hugely negative, with each
form the ruleset offers (bare numbers, force files): a clean one-line answer, never a
traceback, in well under a second's work."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pytest

from deathzap_tui.cli import main
from deathzap_tui.commands import odds as odds_command
from deathzap_tui.rules import registry
from deathzap_tui.rules.classic import oddscli as classic_cli
from deathzap_tui.rules.deathzap3 import oddscli as dz3_cli
from deathzap_tui.rules.plasmashok import oddscli as ps_cli

FORCES = Path(__file__).resolve().parents[2] / "forces"


def files(attacker: str, target: str, *extra: str) -> list[str]:
    return ["--attacker", f"{FORCES / attacker}:1", "--target", f"{FORCES / target}:1",
            *extra]


FORMS = {
    "deathzap3": [
        ["--shots", "24", "--skill", "basic", "--power", "light", "--cover", "open",
         "--shields", "6", "--strength", "light", "--target-skill", "basic", "--figures",
         "10"],
        ["--melee-dice", "7", "--skill", "regular", "--target-skill", "basic", "--shields",
         "2", "--figures", "5"],
        ["--morale-test", "--figures", "4", "--target-skill", "basic"],
        files("demo-ashfall-legion.toml", "demo-vanta-syndicate.toml", "--cover", "open"),
    ],
    "command-hand": [
        files("ch-ironbark-rangers.toml", "ch-cinder-collective.toml", "--cover", "open",
              "--range", "near"),
    ],
    "classic": [
        ["--guns", "6", "--weapon", "basic", "--cover", "open", "--target-type", "infantry",
         "--figures", "6"],
        ["--guns", "1", "--weapon", "radius", "--in-blast", "4", "--cover", "open",
         "--target-type", "infantry", "--figures", "6"],
        ["--melee", "--attacker-type", "beasts", "--attacker-figures", "6", "--target-type",
         "infantry", "--figures", "5"],
        files("cl-red-dawn-irregulars.toml", "cl-black-maw-brood.toml", "--cover", "open"),
    ],
    "double-tap": [
        ["--attacks", "3", "--hit", "+1", "--block", "0"],
        ["--grenade", "--hit", "0", "--block", "0"],
        files("dt-kestrel-cell.toml", "dt-rustmoth-gang.toml", "--distance", "12"),
    ],
    "plasmashok": [
        ["--shots", "12", "--strength", "2", "--damage", "1", "--defence", "4", "--size",
         "6", "--save", "5"],
        ["--special", "2", "--special-defence", "1"],
        files("ps-iron-choir.toml", "ps-verdant-swarm.toml", "--cover", "open",
              "--distance", "12"),
        files("ps-iron-choir.toml", "ps-verdant-swarm.toml", "--special-combat"),
    ],
}
"""Each ruleset's odds forms, each answered as written."""
HUGE = ("600000", str(10**18), str(-10**18))


def int_flags(ruleset_id: str) -> list[str]:
    """The whole-number flags of ``deathzap odds --ruleset ruleset_id``."""
    parser = argparse.ArgumentParser()
    odds_command.add_arguments(parser)
    registry.get(ruleset_id).odds_arguments(parser)
    return sorted({a.option_strings[-1] for a in parser._actions
                   if a.type is int and a.option_strings})


def without(form: list[str], name: str) -> list[str]:
    """``form`` without flag ``name`` and its value."""
    if name not in form:
        return form
    i = form.index(name)
    return form[:i] + form[i + 2:]


def test_every_ruleset_with_odds_is_covered() -> None:
    with_odds = [r for r in registry.ids() if registry.get(r).optional_part("odds_arguments")
                 or registry.get(r).optional_part("odds")]
    assert sorted(FORMS) == sorted(with_odds)


@pytest.mark.parametrize("ruleset_id,form", [(r, f) for r, forms in FORMS.items()
                                             for f in forms])
def test_each_form_is_answered(capsys, ruleset_id: str, form: list[str]) -> None:
    assert main(["odds", "--ruleset", ruleset_id, *form]) == 0, capsys.readouterr().err


@pytest.mark.parametrize("ruleset_id", sorted(FORMS))
def test_a_huge_number_in_any_flag_is_a_clean_quick_answer(capsys, ruleset_id: str) -> None:
    for form in FORMS[ruleset_id]:
        for name in int_flags(ruleset_id):
            for value in HUGE:
                argv = ["odds", "--ruleset", ruleset_id, *without(form, name), name, value]
                start = time.perf_counter()
                status = main(argv)
                took = time.perf_counter() - start
                err = capsys.readouterr().err
                assert status in (0, 2), (argv, err)
                assert status == 0 or (err.startswith("deathzap odds: ")
                                       and err.count("\n") == 1), (argv, err)
                assert took < 3, (argv, took)


@pytest.mark.parametrize("ruleset_id,limits", [
    ("deathzap3", dz3_cli.LIMITS), ("classic", classic_cli.LIMITS),
    ("plasmashok", ps_cli.LIMITS)])
def test_bare_numbers_beyond_a_limit_are_refused_naming_it(
        capsys, ruleset_id: str, limits: tuple[tuple[str, int, str], ...]) -> None:
    bare = FORMS[ruleset_id][0]
    for key, most, why in limits:
        name = "--" + key.replace("_", "-")
        status = main(["odds", "--ruleset", ruleset_id, *without(bare, name), name,
                       str(most + 1)])
        err = capsys.readouterr().err
        assert status == 2
        assert f"{name} {most + 1}: at most {most} ({why})" in err


def test_plasmashok_size_600000_is_refused_not_a_recursion_error(capsys) -> None:
    bare = FORMS["plasmashok"][0]
    for others in ([], without(bare, "--size")):
        assert main(["odds", "--ruleset", "plasmashok", *others, "--size", "600000"]) == 2
        assert f"--size 600000: at most {ps_cli.MAX_SIZE}" in capsys.readouterr().err


def test_plasmashok_force_files_refuse_a_distance_the_game_never_takes(capsys) -> None:
    from deathzap_tui.rules.plasmashok import tables

    argv = ["odds", "--ruleset", "plasmashok",
            *files("ps-iron-choir.toml", "ps-verdant-swarm.toml", "--cover", "open")]
    assert main([*argv, "--distance", str(tables.MAX_DISTANCE)]) == 0
    capsys.readouterr()
    assert main([*argv, "--distance", str(tables.MAX_DISTANCE + 1)]) == 2
    assert f"at most {tables.MAX_DISTANCE}" in capsys.readouterr().err

"""``deathzap odds --json`` stays byte-identical for every ruleset (issue 20, part 2:
``Odds`` became a common core plus labelled rows each plugin supplies; what the JSON
says must not move). ``tests/commands/data/odds_json.json`` holds the JSON printed by the code
before that change, one entry per command line below; each ruleset with odds has
commands here (bare numbers of every kind it offers, and force files)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from deathzap_tui.cli import main
from deathzap_tui.rules import registry

ROOT = Path(__file__).resolve().parents[2]
PINNED = Path(__file__).resolve().parent / "data" / "odds_json.json"


def files(attacker: str, target: str, *extra: str) -> list[str]:
    return ["--attacker", f"forces/{attacker}", "--target", f"forces/{target}", *extra]


COMMANDS: dict[str, list[list[str]]] = {
    "deathzap3": [
        ["--shots", "24", "--skill", "basic", "--power", "light", "--cover", "open",
         "--shields", "6", "--strength", "light", "--target-skill", "basic", "--figures",
         "10"],
        ["--shots", "6", "--skill", "regular", "--power", "medium", "--cover", "open",
         "--shields", "2", "--strength", "light", "--target-skill", "regular",
         "--figures", "5", "--leader-near"],
        ["--melee-dice", "7", "--skill", "regular", "--target-skill", "basic", "--shields",
         "2", "--figures", "5"],
        ["--shots", "4", "--skill", "elite", "--power", "heavy", "--cover", "open",
         "--shields", "2", "--strength", "heavy", "--target-skill", "regular", "--vehicle"],
        ["--morale-test", "--figures", "4", "--target-skill", "basic"],
        files("demo-ashfall-legion.toml:1", "demo-vanta-syndicate.toml:1", "--cover", "open"),
        files("demo-ashfall-legion.toml:1", "demo-vanta-syndicate.toml:2", "--melee"),
    ],
    "command-hand": [
        files("ch-ironbark-rangers.toml:1", "ch-cinder-collective.toml:1", "--cover", "open",
              "--range", "near"),
        files("ch-cinder-collective.toml:2", "ch-ironbark-rangers.toml:2", "--cover", "open",
              "--range", "near"),
    ],
    "classic": [
        ["--guns", "6", "--weapon", "basic", "--cover", "open", "--target-type", "infantry",
         "--figures", "6"],
        ["--guns", "4", "--weapon", "basic", "--cover", "open", "--target-type", "infantry",
         "--figures", "6", "--pending", "1"],
        ["--guns", "1", "--weapon", "radius", "--in-blast", "4", "--cover", "open",
         "--target-type", "infantry", "--figures", "6"],
        ["--melee", "--attacker-type", "beasts", "--attacker-figures", "6", "--target-type",
         "infantry", "--figures", "5"],
        files("cl-red-dawn-irregulars.toml:1", "cl-black-maw-brood.toml:1", "--cover", "open"),
    ],
    "double-tap": [
        ["--attacks", "3", "--hit", "+1", "--block", "0"],
        ["--grenade", "--hit", "0", "--block", "0"],
        files("dt-kestrel-cell.toml:1", "dt-rustmoth-gang.toml:1", "--distance", "12"),
    ],
    "plasmashok": [
        ["--shots", "12", "--strength", "2", "--damage", "1", "--defence", "4", "--size",
         "6", "--save", "5"],
        ["--special", "2", "--special-defence", "1"],
        files("ps-iron-choir.toml:1", "ps-verdant-swarm.toml:1", "--cover", "open",
              "--distance", "12"),
        files("ps-iron-choir.toml:1", "ps-verdant-swarm.toml:1", "--special-combat"),
    ],
}
"""Each ruleset's odds command lines (after ``odds --ruleset ID``)."""

CASES = [(r, i, argv) for r, forms in COMMANDS.items() for i, argv in enumerate(forms)]


def key(ruleset_id: str, i: int) -> str:
    return f"{ruleset_id}/{i}"


def printed(capsys, monkeypatch, ruleset_id: str, argv: list[str]) -> str:
    monkeypatch.chdir(ROOT)  # the force files by relative path: the same JSON anywhere
    assert main(["odds", "--ruleset", ruleset_id, *argv, "--json"]) == 0, \
        capsys.readouterr().err
    return capsys.readouterr().out


def test_every_ruleset_with_odds_is_pinned() -> None:
    with_odds = [r for r in registry.ids() if registry.get(r).optional_part("odds")
                 or registry.get(r).optional_part("odds_arguments")]
    assert sorted(COMMANDS) == sorted(with_odds)
    assert sorted(json.loads(PINNED.read_text())) == sorted(key(r, i) for r, i, _ in CASES)


@pytest.mark.parametrize("ruleset_id,i,argv", CASES, ids=[key(r, i) for r, i, _ in CASES])
def test_json_is_byte_identical(capsys, monkeypatch, ruleset_id: str, i: int,
                                argv: list[str]) -> None:
    assert printed(capsys, monkeypatch, ruleset_id, argv) == \
        json.loads(PINNED.read_text())[key(ruleset_id, i)]

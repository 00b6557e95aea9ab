"""A whole scripted Double Tap game between the two demo armies (Kestrel Cell, red;
Rustmoth Gang, black): the deployment roll-off, deployment with a unit kept in Ambush
reserve, an Infiltrator and a Scout placed last, three objective markers, then four
rounds of activation points (DT §2, §3) with spotting, hacking, shooting, a frag
grenade, charges and melee, dodge / shoot / melee reactions (a reaction killing the
acting unit, DT §6), Tough wounds, Regeneration, poison and its test on activation,
stuns and recovery, cloak and detect (DT §5, §7), a turn passed with a point left,
the Ambush arrival in round 2, markers seized and made neutral, and the end on
markers after round 4 — played with given dice, saved, reloaded and printed by
``deathzap log``; the narrative must match ``tests/golden/dt_game.txt`` line for line.

The script is fixed (:func:`dt_fixtures.play_script`): in each turn the activations
listed for it, each taking the first of its actions the unit may take (a stunned
unit recovers first), then the player passes. Questions take the script's answers or
their defaults; the markers die is a 5 (three markers); every other die is entered as
faces from a seeded ``random.Random`` (physical-dice entry, not ``ROLL``). Rebuild the
golden file on purpose with ``DEATHZAP_REGOLD=1`` and read the diff.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from dt_fixtures import FORCES, face, given_dice, play_script, reacting
from golden_games import assert_golden, play_once

from deathzap_tui.cli import main
from deathzap_tui.session import Session

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "tests" / "golden" / "dt_game.txt"
DICE = 455
SETUP = {"deploy.8": "reserve:black.3", "markers": face(5)}
"""Black Stalker Vess (Ambush) waits in reserve; three markers."""
FIGHT = ("recover", "charge")
FIGHT_OR_SHOOT = ("recover", "charge", "hold")
SHOOT = ("recover", "hold")
TURNS = {
    # Red: Kestrel Cell: red.0 Sergeant Vey (rifle, Armored), red.1 Marksman Oro
    # (sniper, Camouflage, Scout), red.2 Medic Hale (Doctor), red.3 Tech Imre
    # (carbine, Engineer), red.4 Signaller Nadir (Spotter, Hacker).
    # Black: Rustmoth Gang: black.0 Boss Karn (sword, Tough), black.1 Gunner Mott (LMG,
    # Sixth Sense), black.2 Runner Sike (SMG, grenade, Infiltrate), black.3 Stalker
    # Vess (shotgun, Ambush, Regeneration), black.4/5 Cutter 1/2 (poison knives).
    (1, "red"): [
        ("red.4", "spot", {"target": "black.1"}),
        ("red.3", "hold", {"split.black.0": 0, "split.black.1": 3, "distance.black.1": 15,
                           **reacting("black", {"black.1": "shoot"}),
                           "reaction.black.1.distance": 15}),
        ("red.4", "hack", {"target": "black.2"}),
        ("red.0", "advance", {"split.black.0": 0, "split.black.2": 2,
                              "distance.black.2": 20, "cover.black.2": "yes",
                              **reacting("black", {"black.2": "dodge"})}),
        ("red.1", "hold", {"split.black.0": 2, "distance.black.0": 30}),
    ],
    (1, "black"): [
        ("black.2", "hold", {"weapon": "grenade", "grenade": "frag", "target": "red.3",
                             **reacting("red", {"red.3": "dodge"})}),
        ("black.0", "charge", {"target": "red.0", **reacting("red", {"red.0": "melee"})}),
        ("black.5", "charge", {"target": "red.2", **reacting("red", {"red.2": "dodge"})}),
        ("black.4", "charge", {"target": "red.4", **reacting("red", {"red.4": "melee"})}),
    ],
    (2, "red"): [
        ("red.4", FIGHT, {}),
        ("red.2", FIGHT, {}),
        ("red.0", FIGHT, {}),
        ("red.1", "cloak", {}),
    ],
    (2, "black"): [
        ("black.3", "hold", {"split.red.0": 0, "split.red.2": 0}),
        ("black.2", ("detect", "hold"), {}),
        ("black.0", FIGHT, {**reacting("red", {"red.0": "melee"})}),
        ("black.5", FIGHT, {}),
    ],
    (3, "red"): [
        ("red.4", ("recover", "hack"), {"target": "black.0"}),
        ("red.0", FIGHT_OR_SHOOT, {**reacting("black", {"black.0": "melee"})}),
        ("red.1", SHOOT, {**reacting("black", {"black.3": "shoot"})}),
    ],
    (3, "black"): [
        ("black.3", SHOOT, {}),
        ("black.5", FIGHT, {}),
        ("black.2", ("recover", "advance"), {}),
    ],
    (4, "red"): [
        ("red.4", ("recover", "charge", "rush"), {}),
        ("red.0", FIGHT_OR_SHOOT, {}),
        ("red.1", SHOOT, {"distance.black.3": 20}),
    ],
    (4, "black"): [
        ("black.5", FIGHT, {}),
    ],
}
"""(round, side) -> that turn's activations: (unit, action or first legal of several,
answers by question key)."""
ROUND_ENDS = {1: {"marker.1": "black", "marker.2": "red"},
              2: {"marker.1": "both", "marker.3": "red"},
              3: {"marker.2": "black", "marker.1": "red"},
              4: {"marker.3": "black"}}
"""Round -> which sides have a unit within 3" of each marker (unlisted: neither)."""


def script() -> Session:
    """The golden game, played (:func:`golden_games.play_once` plays it once)."""
    session = Session.new(FORCES / "dt-kestrel-cell.toml", FORCES / "dt-rustmoth-gang.toml",
                          seed=2026, save_path="dt-golden")
    play_script(session.game, given_dice(DICE), TURNS, SETUP, ROUND_ENDS)
    return session


def play_scripted_game() -> Session:
    """The golden game as a session of the caller's own, saved in its saves folder."""
    return play_once(script).resumed()


def test_dt_scripted_game_matches_the_golden_narrative(
        saves_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    golden = play_once(script)
    state = golden.played.game.state
    assert golden.played.over and state.round == 4, "the game must be played to its last round"
    assert "round 4 of 4 is over" in state.end_reason
    intents = [e.data["intent"] for e in golden.played.game.log]
    assert {i["type"] for i in intents} == {"rolloff", "deploy", "markers", "act", "pass"}
    assert {i["action"] for i in intents if i["type"] == "act"} == {
        "hold", "advance", "charge", "spot", "hack", "cloak", "detect", "recover"}
    golden.saved()
    assert main(["log", "dt-golden"]) == 0
    text = capsys.readouterr().out
    for words in ("dodge tests", "shoot reaction", "melee reaction", "frag grenade",
                  "tests against its poison", "Regeneration", "recovers", "arrives from "
                  "reserve", "wound marker", "seizes", "neutral again", "is stunned"):
        assert words in text, words
    assert_golden(text, GOLDEN)


def test_dt_saved_game_reloads_to_the_same_state(saves_dir: Path) -> None:
    golden = play_once(script)
    again = golden.resumed()
    assert again.game.state == golden.played.game.state
    assert again.narrative() == golden.played.narrative()

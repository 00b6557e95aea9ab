"""The odds panel for Deathzap Classic facts (CL §5, §6): the generic fields of the
shared ``Odds`` (the hits distribution, what ``p_break`` means) shown for any
ruleset, with no shields or damage where the edition has none."""

from __future__ import annotations

import pytest

from deathzap_tui import oddstext as ot
from deathzap_tui.app.wizard.odds import panel_text
from deathzap_tui.headless.oddsview import odds_entries
from deathzap_tui.rules.classic import RULESET
from deathzap_tui.rules.odds import Odds

SHOT = {"kind": "shooting", "target": "black.2", "weapon": "Basic x4", "dice": 4,
        "to_hit": 4, "save": 4, "figures": 6, "pending": 1, "stage": "declared"}
MELEE = {"kind": "melee", "target": "black.1", "weapon": "melee",
         "groups": [[6, 1], [3, 6]], "defenders": [[3, 6], [2, 4]], "stage": "declared"}
NAMES = {"black.2": "Spitters", "black.1": "Brood Guard"}
LAYOUTS = [(False, False, 78, 8), (True, False, 78, 8), (True, True, 44, 14)]


@pytest.mark.parametrize("full,side,width,height", LAYOUTS)
def test_shooting_panel_shows_hits_and_panicked(full, side, width, height) -> None:
    entries = odds_entries(RULESET, None, {"attacks": [SHOT, MELEE], "attack": SHOT}, NAMES)
    assert [e.target for e in entries] == ["black.2", "black.1"]
    assert isinstance(entries[0].odds, Odds)
    text = panel_text(entries, full=full, side=side, width=width, height=height).plain
    assert "Spitters" in text and "Brood Guard" in text
    assert "Expected hits 2 (0 " in text and "panicked" in text
    assert "shields" not in text and "damage" not in text and "breaks" not in text


LONE = {"kind": "shooting", "target": "black.2", "weapon": "Mortar", "dice": 1,
        "to_hit": 4, "save": 5, "figures": 2, "pending": 0, "stage": "declared",
        "target_type": "beasts", "target_panicked": False}
"""Issue 25: one Radius die at 2 Beasts in hard cover: 13.9% by suppression, 33.3%
ending panicked (the survivor of a casualty is a lone Beast, CL §4)."""


@pytest.mark.parametrize("full,side,width,height", LAYOUTS)
def test_shooting_panel_shows_the_whole_chance_of_ending_panicked(full, side, width,
                                                                  height) -> None:
    """CL §4 (seed, Movement: "1 figure infantry/beast/heavy infantry units are
    automatically panicked"): the panel keeps suppression's chance and adds the
    chance the target ends the shooting panicked from any cause."""
    entries = odds_entries(RULESET, None, {"attacks": [LONE], "attack": LONE}, NAMES)
    odds = entries[0].odds
    assert odds.p_break_any_cause == pytest.approx(1 / 3)
    text = panel_text(entries, full=full, side=side, width=width, height=height).plain
    flat = " ".join(text.split())
    assert "panicked 14% (any cause 33%)" in flat or "panicked 13.9% (any cause 33.3%)" in flat


@pytest.mark.parametrize("full,side,width,height", LAYOUTS)
def test_melee_panel_keeps_a_long_hits_distribution_short(full, side, width, height) -> None:
    entries = odds_entries(RULESET, None, {"attacks": [MELEE], "attack": MELEE}, NAMES)
    assert entries[0].what == "melee"
    text = panel_text(entries, full=full, side=side, width=width, height=height).plain
    hits_line = next(line for line in text.splitlines() if line.startswith("Expected"))
    assert len(hits_line) <= 70, hits_line
    assert "panicked" not in text  # one direction: the end of the melee is unknown


def test_spark_span_trims_tails_and_groups_neighbours() -> None:
    assert ot.spark_span([0.0, 0.0, 0.5, 0.5, 0.0]) == (2, "██", 3)
    lo, line, hi = ot.spark_span([1 / 40] * 40, width=10)
    assert (lo, hi, len(line)) == (0, 39, 10)
    assert ot.spark_span([1.0]) == (0, "█", 0)

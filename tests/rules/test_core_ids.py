"""Unit and figure ids (issue 20): one formatter and one parser (rules/ids.py), the
state's look-ups built on them, and the unit an intent option is about."""

from __future__ import annotations

import re

import pytest

from deathzap_tui.rules.deathzap3 import RULESET
from deathzap_tui.rules.ids import UnitId, figure_id, side_of, split_figure_id, unit_id
from deathzap_tui.rules.ruleset import IntentOption


def test_ids_are_written_and_read_back() -> None:
    assert unit_id("red", 3) == str(UnitId("red", 3)) == "red.3"
    assert UnitId.parse("black.12") == UnitId("black", 12)
    assert figure_id("red", 3, 0) == "red.3.0"
    assert split_figure_id("red.3.10") == ("red.3", 10)
    assert side_of("black.2") == side_of("black.2.5") == "black"


@pytest.mark.parametrize("text", ["red", "red.", ".3", "red.x", "red.-1", "red.3.0", ""])
def test_a_bad_unit_id_is_refused_naming_it(text: str) -> None:
    with pytest.raises(ValueError, match=re.escape(f"{text!r} is not a unit id")):
        UnitId.parse(text)


@pytest.mark.parametrize("text", ["red.3", "red.3.x", "red.x.0", "red.3.-1"])
def test_a_bad_figure_id_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="is not a"):
        split_figure_id(text)


def test_the_state_finds_units_and_figures_by_id(squad1: dict) -> None:
    force = RULESET.parse_force(squad1)
    state = RULESET.new_state(force, force, RULESET.options(), 1, None)
    assert state.unit("black.0").id == "black.0"
    unit, figure = state.figure("red.0.6")
    assert (unit.id, figure.id) == ("red.0", "red.0.6")
    for bad in ("red.1", "green.0", "red.x", "red.-1", "red"):
        with pytest.raises(KeyError, match="no unit"):
            state.unit(bad)
    for bad in ("red.0.7", "red.0.x", "red.0"):
        with pytest.raises(KeyError, match=r"no (figure|unit)"):
            state.figure(bad)


def test_an_intent_option_carries_its_unit() -> None:
    assert IntentOption({"type": "shoot", "unit": "red.1"}, "Shoot").unit == "red.1"
    assert IntentOption({"type": "draw"}, "Draw").unit is None
    assert IntentOption({"type": "x", "unit": 3}, "X").unit is None  # not an id
    assert IntentOption({"type": "rally", "target": "red.2"}, "Rally",
                        unit="red.2").unit == "red.2"

"""Issue 22: each ruleset's busiest board at 80x24 (long names and states: every name
whole, states wrapped, columns given way named in a legend) and a unit's card reached
by keys (down to the next row, c). Look at each SVG before accepting it."""

from __future__ import annotations

import pytest
from app_helpers import battle_app
from board_helpers import BUSY, busy_session

SMALL = (80, 24)


@pytest.mark.parametrize("ruleset", list(BUSY))
def test_busiest_board_small(snap_compare, ruleset, workdir) -> None:
    assert snap_compare(battle_app(busy_session(ruleset, workdir)), terminal_size=SMALL)


@pytest.mark.parametrize("ruleset", list(BUSY))
def test_unit_card_small(snap_compare, ruleset, workdir) -> None:
    assert snap_compare(battle_app(busy_session(ruleset, workdir)), press=["down", "c"],
                        terminal_size=SMALL)

"""Board views survive the wire whole, for every ruleset (hands included)."""

from __future__ import annotations

import json
import random

import ch_fixtures
import dz3_fixtures
import pytest

from deathzap_tui.net.wire import to_data, view_from_data
from deathzap_tui.rules.game import Game
from deathzap_tui.rules.ruleset import WATCH


@pytest.mark.parametrize("fixtures", [dz3_fixtures, ch_fixtures],
                         ids=["deathzap3", "command-hand"])
@pytest.mark.parametrize("viewer", [None, "red", "black", WATCH])
def test_view_round_trips_through_json(fixtures, viewer) -> None:
    game: Game = fixtures.new_game()
    fixtures.play_random_game(game, random.Random(3), max_actions=30)
    view = game.ruleset.view(game.state, viewer)
    assert view_from_data(json.loads(json.dumps(to_data(view)))) == view

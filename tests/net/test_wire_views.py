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


def test_to_data_takes_every_kind_of_value_the_views_hold() -> None:
    """Dataclasses (nested, in lists and mappings of any kind), tuples (named ones
    too), keys made strings; classes, enums and scalars as they are."""
    import dataclasses
    import enum
    from types import MappingProxyType
    from typing import NamedTuple

    class Pair(NamedTuple):
        a: int
        b: str

    class Kind(enum.Enum):
        ONE = 1

    @dataclasses.dataclass(frozen=True)
    class Inner:
        x: tuple[int, ...]
        kind: Kind = Kind.ONE

    @dataclasses.dataclass
    class Outer:
        inner: list[Inner]
        by: MappingProxyType
        pair: Pair
        cls: type = Inner

    value = Outer([Inner((1, 2))], MappingProxyType({1: Inner(()), "k": None}), Pair(3, "c"))
    assert to_data(value) == {
        "inner": [{"x": [1, 2], "kind": Kind.ONE}],
        "by": {"1": {"x": [], "kind": Kind.ONE}, "k": None},
        "pair": [3, "c"], "cls": Inner}
    assert to_data(True) is True and to_data(2.5) == 2.5 and to_data("s") == "s"

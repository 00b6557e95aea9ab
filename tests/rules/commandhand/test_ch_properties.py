"""Property tests over random legal Command Hand games (hypothesis): counts stay in
bounds, replay gives the same state, random games end."""

from __future__ import annotations

import random

import pytest
from ch_fixtures import new_game, play_random_action, play_random_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deathzap_tui.rules.cards import Card
from deathzap_tui.rules.commandhand import RULESET
from deathzap_tui.rules.commandhand.state import State

SETTINGS = settings(max_examples=10, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
OPTIONS = st.fixed_dictionaries({"victory": st.sampled_from(["elimination", "objectives"]),
                                 "distances": st.sampled_from(["normal", "double"])})


def check_bounds(s: State) -> None:
    for u in s.all_units():
        assert 0 <= u.shields <= u.max_shields
        assert 0 <= u.figures_left <= len(u.figures)
        assert u.in_play == (u.figures_left > 0)
        assert not (u.token and not u.in_play)
    for side in ("red", "black"):
        assert 0 <= len(s.hands[side]) <= s.ratings[side]  # CH-R2: never refilled
        assert all(Card.parse(c).colour == side for c in s.hands[side])
    for g in s.grants:
        assert 0 <= g.used + g.forfeited <= g.granted
    cards = s.deck + s.discard + s.played + s.hands["red"] + s.hands["black"]
    assert len(cards) == len(set(cards)) <= 54
    assert all(v >= 0 for v in s.vp.values())
    # CH §6: after any resolution no side with units in play has them all tokened
    for side in ("red", "black") if not s.over else ():
        live = [u for u in s.units[side] if u.in_play]
        assert not live or not all(u.token for u in live)


@pytest.mark.slow
@SETTINGS
@given(seed=st.integers(0, 2**32), play=st.integers(0, 2**32), options=OPTIONS)
def test_random_games_keep_invariants_and_replay(seed: int, play: int, options) -> None:
    g = new_game(seed=seed, options=options)
    rnd = random.Random(play)
    for _ in range(120):
        if g.state.over or not play_random_action(g, rnd, by_side=rnd.random() < 0.5):
            break
        check_bounds(g.state)
        if rnd.random() < 0.03 and g.can_undo:
            g.undo()
    assert new_game(seed=seed, options=options, log=g.log).state == g.state


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), play=st.integers(0, 2**32), options=OPTIONS)
def test_random_games_end(seed: int, play: int, options) -> None:
    g = play_random_game(new_game(seed=seed, options=options), random.Random(play))
    assert g.state.over and RULESET.intents(g.state) == []
    assert g.state.winner in ("red", "black", "draw")

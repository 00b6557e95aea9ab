"""Property tests over random legal games (hypothesis): bounds, token resets, replay."""

from __future__ import annotations

import random

from dz3_fixtures import new_game, play_random_action
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deathzap_tui.rules.deathzap3 import RULESET
from deathzap_tui.rules.deathzap3.state import State

SETTINGS = settings(max_examples=8, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def check_bounds(s: State) -> None:
    for u in s.all_units():
        assert 0 <= u.shields <= u.max_shields
        assert 0 <= u.figures_left <= len(u.figures)
        assert not (u.figures_left == 0 and u.in_play)
        assert all(f.command >= 0 for f in u.figures)
    assert all(v >= 0 for v in s.vp.values())
    assert s.vp == {side: sum(e.vp for e in s.score if e.side == side) for side in s.vp}
    assert 0 <= s.used + s.forfeited <= s.granted


def check_tokens(s: State) -> None:
    """DZ3 §4 / DZ3-R4: after any resolution no side with units in play has them all
    tokened (the reset would have fired)."""
    for side in ("red", "black"):
        units = [u for u in s.units[side] if u.in_play]
        assert not units or not all(u.token for u in units)
    assert not any(u.token for u in s.all_units() if not u.in_play)


@SETTINGS
@given(seed=st.integers(0, 2**32), play=st.integers(0, 2**32),
       deck=st.sampled_from(["full", "half"]), morale=st.sampled_from(["per-attack",
                                                                         "per-casualty"]))
def test_random_games_keep_invariants_and_replay(seed: int, play: int, deck: str,
                                                 morale: str) -> None:
    g = new_game(seed=seed, options={"deck": deck, "morale": morale})
    rnd = random.Random(play)
    for _ in range(90):
        if g.state.over or not play_random_action(g, rnd):
            break
        check_bounds(g.state)
        check_tokens(g.state)
        if rnd.random() < 0.02 and g.can_undo:
            g.undo()
    assert new_game(seed=seed, options={"deck": deck, "morale": morale},
                    log=g.log).state == g.state


@SETTINGS
@given(seed=st.integers(0, 2**32), play=st.integers(0, 2**32))
def test_joker_and_resets_happen_exactly_when_the_rule_says(seed: int, play: int) -> None:
    g = new_game(seed=seed, options={"deck": "half"})
    rnd = random.Random(play)
    for _ in range(80):
        before = g.state
        if before.over or not play_random_action(g, rnd):
            break
        after = g.state
        intent = g.log[-1].data["intent"]
        if intent["type"] == "draw" and after.card.startswith("JOKER"):
            assert not any(u.token for u in after.all_units())
            assert not any(o.token for o in after.objectives)
        elif intent["type"] == "draw":
            # a normal card never changes tokens
            assert [u.token for u in after.all_units()] == [u.token for u in
                                                            before.all_units()]
        if intent["type"] == "activate":
            unit = after.unit(intent["unit"])
            tokens_left = any(u.token for u in after.all_units())
            # either the unit kept its token, or a reset cleared every token
            assert unit.token or not tokens_left or not unit.in_play
    assert RULESET.intents(g.state) or g.state.over

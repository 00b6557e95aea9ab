"""Property tests over random legal Deathzap Classic games (hypothesis): figures and
VP are never lost or made up, contacts stay consistent, every refusal is a
``Refused`` and a replay of the log gives the same state."""

from __future__ import annotations

import random

import pytest
from cl_fixtures import brood, irregulars, new_game, play_random_action
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deathzap_tui.rules.classic import RULESET, tables
from deathzap_tui.rules.classic.state import State
from deathzap_tui.rules.game import Game
from deathzap_tui.rules.ruleset import SIDES, other_side
from deathzap_tui.rules.steps import Refused

SETTINGS = settings(max_examples=8, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
RED, BLACK = irregulars(), brood()
START = {"red": sum(len(u.figures) for u in RED.units),
         "black": sum(len(u.figures) for u in BLACK.units)}


def check(s: State) -> None:
    for side in SIDES:
        alive = sum(u.figures_left for u in s.units[side])
        # CL §4 merging moves figures without losing any; only the enemy kills (CL §8)
        assert alive + s.killed[other_side(side)] == START[side]
        assert s.vp[side] == sum(e.vp for e in s.score if e.side == side) >= 0
        exterminated = sum(e.vp for e in s.score
                           if e.side == side and e.reason.startswith("Extermination"))
        if "extermination" in s.objectives:
            big = s.killed_big[side]
            assert exterminated == (s.killed[side] - big) // tables.EXTERMINATION_STEP + big
        assert sum(1 for u in s.units[side] for f in u.figures if f.general and f.alive) <= 1
    for u in s.all_units():
        assert 0 <= u.pending <= u.figures_left
        assert u.in_play or not u.engaged
        for e in u.engaged:
            other = s.unit(e)
            assert other.side != u.side and other.in_play and u.id in other.engaged
    assert (s.step == "movement") == bool(s.mover) or s.over
    assert s.over or RULESET.intents(s)


@SETTINGS
@given(seed=st.integers(0, 2**32), play=st.integers(0, 2**32),
       game=st.sampled_from(["advanced", "basic"]), turns=st.integers(1, 4))
def test_random_games_keep_figures_and_vp_and_replay(seed: int, play: int, game: str,
                                                     turns: int) -> None:
    options = {"game": game, "turns": turns}
    g = new_game(RED, BLACK, options=options, seed=seed)
    rnd = random.Random(play)
    for _ in range(150):
        if g.state.over or not play_random_action(g, rnd, allow_end=rnd.random() < 0.01):
            break
        check(g.state)
        if rnd.random() < 0.03 and g.can_undo:
            g.undo()
    again = Game(RULESET, RED, BLACK, RULESET.options(options), seed, g.log)
    assert again.state == g.state
    if game == "advanced" and g.state.over and g.state.turn >= turns:
        assert g.state.winner in ("red", "black", "draw")


def random_intent(s: State, rnd: random.Random) -> dict[str, object]:
    """Any intent type with unit ids picked from every unit, and some nonsense."""
    ids = [u.id for u in s.all_units()] + ["red.99", "nobody", "", "black.-1"]
    kind = rnd.choice(["rolloff", "generals", "next", "engage", "merge", "macguffin",
                       "shoot", "fight", "end", "draw"])
    return {"type": kind, "unit": rnd.choice(ids), "target": rnd.choice(ids),
            "into": rnd.choice(ids)}


@pytest.mark.slow
@SETTINGS
@given(seed=st.integers(0, 2**32), play=st.integers(0, 2**32))
def test_any_intent_is_either_legal_or_refused_saying_why(seed: int, play: int) -> None:
    g = new_game(RED, BLACK, seed=seed)
    rnd = random.Random(play)
    for _ in range(60):
        for _ in range(5):
            intent = random_intent(g.state, rnd)
            by = rnd.choice(["", "red", "black"])
            try:
                g.begin(intent, by)
            except Refused as exc:
                assert str(exc)
        if g.state.over or not play_random_action(g, rnd):
            break

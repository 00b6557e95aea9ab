"""Every registered ruleset with odds: the exact odds of an attack as declared agree
with a Monte Carlo run of the engine itself (issue 20; a ruleset that gives no odds
is skipped). The attack is the first one of a seeded random game whose outcome the
ruleset's own odds read back once it is resolved (at its ``done`` stage they are
certain: one casualty count with chance 1); each trial resolves it again on a copy
of the state with dice from a fresh seed, the questions answered as they were before
the first dice and with their defaults after."""

from __future__ import annotations

import copy
import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from conformance_kit import new_game
from fixtures_common import play_random_action, random_answer

from deathzap_tui.rules.dice import Rng
from deathzap_tui.rules.game import Game
from deathzap_tui.rules.ruleset import END
from deathzap_tui.rules.steps import ROLL, Answer, DiceRequest, Refused, Resolution

TRIALS = 400


class Attack:
    """An intent whose resolution declares an attack with odds before its first dice."""

    def __init__(self, game: Game, state: Any, intent: Mapping[str, Any],
                 answers: Sequence[Answer]) -> None:
        self.game, self.state, self.intent, self.answers = game, state, intent, answers

    def trial(self, seed: int) -> tuple[Any, int | None]:
        """(the odds as declared, the casualties the engine caused as the ruleset's odds
        read them once resolved, or ``None`` if they do not say)."""
        state = copy.deepcopy(self.state)
        state.rng = Rng.from_seed(seed)  # a fresh stream of dice per trial
        res = Resolution(state, self.game.ruleset.resolution(state, self.intent))
        given = iter(self.answers)
        declared = fact = None
        while not res.done:
            step = res.step
            if isinstance(step, DiceRequest):
                if fact is None:
                    fact = res.ctx.facts["attack"]
                    declared = self.game.ruleset.attack_odds(res.ctx.state, fact)
                res.answer(ROLL)
            else:
                res.answer(next(given, step.default))
        assert fact is not None
        final = self.game.ruleset.attack_odds(res.ctx.state, fact)
        certain = [k for k, p in enumerate(final.casualties) if p > 0.999] if final else []
        return declared, certain[0] if certain else None


def _first_dice(game: Game, intent: Mapping[str, Any], rnd: random.Random,
                ) -> Attack | None:
    """The attack ``intent`` declares, answering at random until its first dice."""
    before = copy.deepcopy(game.state)
    try:
        action = game.begin(intent)
    except Refused:
        return None
    res, answers = action.resolution, []
    while not res.done and not isinstance(res.step, DiceRequest):
        answer = random_answer(res.step, rnd)
        try:
            res.answer(answer)
        except Refused:
            break
        answers.append(answer)
    found = None
    if not res.done and isinstance(res.step, DiceRequest):
        fact = res.ctx.facts.get("attack")
        if fact and game.ruleset.attack_odds(res.ctx.state, fact) is not None:
            found = Attack(game, before, dict(intent), answers)
    game.cancel(action)
    return found


def find_attack(ruleset_id: str) -> Attack | None:
    """The first attack of a seeded random game with odds that are not certain and
    an outcome its odds read back; ``None`` when the ruleset gave odds of no attack
    (it has none)."""
    game = new_game(ruleset_id, 31)
    rnd = random.Random(31)
    any_odds = False
    while not game.ruleset.is_over(game.state):
        options = [o for o in game.ruleset.intents(game.state) if o.group != END]
        for option in options:
            attack = _first_dice(game, option.intent, rnd)
            any_odds = any_odds or attack is not None
            if attack is not None and all(attack.trial(s)[1] is not None for s in range(20)):
                declared = attack.trial(0)[0]
                if len([p for p in declared.casualties if p > 0.01]) > 1:  # not certain
                    return attack
        if not play_random_action(game, rnd, skip=(END,)):
            break
    assert not any_odds, f"{ruleset_id}: no attack whose outcome its odds read back"
    return None


@pytest.mark.slow
def test_exact_odds_agree_with_the_engine(ruleset_id: str) -> None:
    attack = find_attack(ruleset_id)
    if attack is None:
        pytest.skip(f"{ruleset_id} gives no odds")
    outcomes: Counter[int] = Counter()
    declared = None
    for seed in range(1000, 1000 + TRIALS):
        declared, casualties = attack.trial(seed)
        assert casualties is not None
        outcomes[casualties] += 1
    assert declared is not None
    dist = declared.casualties
    for k, p in enumerate(dist):
        err = 5 * math.sqrt(max(p * (1 - p), 1e-4) / TRIALS)
        assert abs(outcomes[k] / TRIALS - p) <= err, (k, outcomes[k] / TRIALS, p, dist)
    assert set(outcomes) <= set(range(len(dist)))


"""Every registered ruleset's attacks read as the odds panel reads them (issue 20):
each fact it publishes while resolving (``ctx.facts["attack"]`` and ``["attacks"]``)
is an :class:`~deathzap_tui.rules.odds.AttackFacts` naming a unit of the game, a kind
and a stage; and the ruleset's exact odds of it, where it has odds, are a
distribution (every casualty count's chance, summing to 1)."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any

from conformance_kit import new_game
from fixtures_common import random_answer

from deathzap_tui.rules.game import Game
from deathzap_tui.rules.odds import AttackFacts
from deathzap_tui.rules.ruleset import END
from deathzap_tui.rules.steps import Refused


def _facts(facts: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    attacks = [a for a in facts.get("attacks") or () if isinstance(a, Mapping)]
    current = facts.get("attack")
    return [*attacks, current] if isinstance(current, Mapping) else attacks


def _check(game: Game, state: Any, facts: Mapping[str, Any]) -> int:
    checked = 0
    for fact in _facts(facts):
        read = AttackFacts.read(fact)
        assert state.unit(read.target).id == read.target, fact
        assert read.kind and read.stage, fact
        odds = None if read.done else game.ruleset.attack_odds(state, fact)
        if odds is not None:
            assert all(p >= -1e-9 for p in odds.casualties), (fact, odds)
            assert math.isclose(sum(odds.casualties), 1, abs_tol=1e-6), (fact, odds)
        checked += 1
    return checked


def test_every_attack_reads_as_attack_facts(ruleset_id: str) -> None:
    game = new_game(ruleset_id, 13)
    rnd = random.Random(13)
    checked = 0
    while not game.ruleset.is_over(game.state):
        options = [o for o in game.ruleset.intents(game.state) if o.group != END]
        rnd.shuffle(options)
        for option in options:
            action = game.begin(option.intent)
            res = action.resolution
            for _ in range(200):
                if res.done:
                    break
                checked += _check(game, res.ctx.state, res.ctx.facts)
                try:
                    res.answer(random_answer(res.step, rnd))
                except Refused:
                    continue
            if res.done:
                game.commit(action)
                break
            game.cancel(action)
        else:
            break
    assert checked, "no attack was resolved in a whole game"

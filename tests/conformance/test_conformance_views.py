"""Every registered ruleset shows each viewer only what it may see (issue 20): a
player's view holds secrets (``BoardView.private``) of its own side only, a spectator's
(``WATCH``) none; no other side's secret line shows anywhere in a view or an offered
intent; a viewer is offered nothing the whole table is not, and no option names a
unit the game lacks; a private note is addressed to a side."""

from __future__ import annotations

import random

from conformance_kit import new_game, play
from fixtures_common import play_random_action

from deathzap_tui.rules.game import Game
from deathzap_tui.rules.ruleset import END, SIDES, WATCH

VIEWERS = (*SIDES, WATCH)


def _check_views(game: Game) -> None:
    rules, state = game.ruleset, game.state
    offered = [dict(o.intent) for o in rules.intents(state)]
    secrets = {side: rules.view(state, side).private.get(side, ()) for side in SIDES}
    for viewer in VIEWERS:
        view = rules.view(state, viewer)
        assert set(view.private) <= ({viewer} & set(SIDES)), (viewer, set(view.private))
        intents = rules.intents(state, viewer)
        assert all(dict(o.intent) in offered for o in intents), viewer
        for option in intents:  # the unit an option carries is one of the game's
            assert option.unit is None or state.unit(option.unit).id == option.unit
        shown = repr(view) + repr([(o.label, o.intent) for o in intents])
        own = secrets.get(viewer, ())
        hidden = [line for side in SIDES if side != viewer for line in secrets[side]
                  if line and line not in own]
        assert not [line for line in hidden if line in shown], viewer
    for _event, notes in game.history(1):
        assert all(n.to in (None, *SIDES) for n in notes), "a private note names a side"


def test_every_viewer_sees_only_what_it_may(ruleset_id: str) -> None:
    game = new_game(ruleset_id, 9, deal_seed=1234)
    rnd = random.Random(9)
    for _ in range(300):
        _check_views(game)
        if game.ruleset.is_over(game.state) or not play_random_action(game, rnd,
                                                                      skip=(END,)):
            break
    play(game, rnd)
    _check_views(game)

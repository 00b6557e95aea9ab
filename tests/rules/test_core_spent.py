"""Chance once shown is spent (issue 19): the rules' half of the fair-chance tests
(the wire half is ``tests/net/test_fair_chance.py``).

An action cancelled after the game's RNG rolled its dice leaves a ``spent`` event:
replaying it moves the RNG on past those dice and changes nothing else, so replay,
resume and undo give the same game; an undo takes the spent chances back only with
the action before them, so it never puts shown dice back for another action, and
re-playing the undone action still gets its own dice (undo never re-rolls). A card
turned by a draw stays turned: cancelling the draw confirms it.
"""

from __future__ import annotations

from typing import Any

import pytest
from fixtures_common import answer_all
from shipped import shipped_forces

from deathzap_tui.forcefile import load_force
from deathzap_tui.net.lastseen import since
from deathzap_tui.rules import registry
from deathzap_tui.rules.dice import Rng
from deathzap_tui.rules.events import REDO, RESOLVE, SPENT, UNDO, Event, fold
from deathzap_tui.rules.game import Action, CorruptLog, Game
from deathzap_tui.rules.steps import ROLL, Dice, DiceRequest, Refused

SEED = 41
DEAL_SEED = 2**60 + 77


def new_game(ruleset_id: str, log: Any = ()) -> Game:
    red, black = (load_force(p) for p in shipped_forces(ruleset_id))
    rs = red.ruleset
    return Game(rs, red.force, black.force, rs.options({}), SEED, log, deal_seed=DEAL_SEED)


def again(game: Game) -> Game:
    """The same game replayed from its log."""
    return Game(game.ruleset, game.red, game.black, game.options, game.seed, game.log,
                deal_seed=game.deal_seed)


def to_roll(game: Game) -> Action:
    """The first offered action that rolls dice, begun and answered (defaults, first
    choices, minimums) up to and including its first roll (generated)."""
    for option in game.ruleset.intents(game.state):
        action = game.begin(option.intent)
        res = action.resolution
        while res.step is not None and not isinstance(res.step, DiceRequest):
            step = res.step
            res.answer(step.default if step.default is not None else
                       step.choices[0].value if step.choices else step.minimum or 0)
        if res.step is not None:
            res.answer(ROLL)
            return action
    raise AssertionError("no offered action rolls dice")


def faces(action: Action) -> tuple[int, ...]:
    last = action.resolution.answers[-1]
    assert isinstance(last, Dice) and last.generated
    return last.faces


def play_through(game: Game, action: Action) -> None:
    answer_all(action.resolution, {}, dice=ROLL)
    game.commit(action)


@pytest.mark.parametrize("ruleset_id", registry.ids())
def test_cancelled_dice_are_spent_and_replay_the_same(ruleset_id: str) -> None:
    game = new_game(ruleset_id)
    start = Rng(game.state.rng.state)
    shown = faces(action := to_roll(game))
    assert start.roll(len(shown)) == shown
    event = game.cancel(action)
    assert event is not None and event.kind == SPENT
    assert game.state.rng == start, "the RNG is where the shown dice left it"
    # The next action of any kind gets the dice after them, not the same ones.
    next_action = to_roll(game)
    assert faces(next_action) == start.roll(len(shown))
    play_through(game, next_action)
    replayed = again(game)
    assert replayed.state.rng == game.state.rng
    assert game.ruleset.view(replayed.state, None) == game.ruleset.view(game.state, None)
    assert [e.kind for e in replayed.events()] == [SPENT, RESOLVE]
    assert "dice once rolled stay rolled" in replayed.history()[0][1][0].text


@pytest.mark.parametrize("ruleset_id", registry.ids())
def test_a_cancel_before_any_roll_records_nothing(ruleset_id: str) -> None:
    game = new_game(ruleset_id)
    option = game.ruleset.intents(game.state)[0]
    assert game.cancel(game.begin(option.intent)) is None
    assert game.log == []


def test_undo_takes_spent_dice_back_only_with_the_action_before_them() -> None:
    game = new_game("plasmashok")
    first = to_roll(game)
    kept = faces(first)
    play_through(game, first)
    after_first = Rng(game.state.rng.state)
    game.cancel(to_roll(game))  # dice shown after the first action, then cancelled
    spent = Rng(game.state.rng.state)
    assert spent != after_first
    assert game.can_undo
    game.undo()
    assert game.events() == [] and not game.can_undo
    # Undo never re-rolls: the action played again gets its own dice again...
    replay = to_roll(game)
    assert faces(replay) == kept
    # ...and redo brings the action back with the dice spent after it.
    game.redo()
    assert [e.kind for e in game.events()] == [RESOLVE, SPENT]
    assert game.state.rng == spent
    assert again(game).state.rng == spent


def test_spent_dice_before_the_first_action_are_never_taken_back() -> None:
    game = new_game("classic")
    game.cancel(to_roll(game))
    spent = Rng(game.state.rng.state)
    assert not game.can_undo
    with pytest.raises(Refused, match="nothing to undo"):
        game.undo()
    play_through(game, to_roll(game))
    game.undo()
    assert [e.kind for e in game.events()] == [SPENT]
    assert game.state.rng == spent


def test_fold_groups_spent_events_with_the_action_before_them() -> None:
    a, b, s0, s1 = (Event(RESOLVE, {"n": 1}), Event(RESOLVE, {"n": 2}),
                    Event(SPENT, {"n": 0}), Event(SPENT, {"n": 3}))
    undo, redo = Event(UNDO), Event(REDO)
    assert fold([s0, a, b, s1, undo]) == ([s0, a], [s1, b])
    assert fold([s0, a, b, s1, undo, undo]) == ([s0], [s1, b, a])
    assert fold([s0, a, b, s1, undo, undo, redo]) == ([s0, a], [s1, b])
    assert fold([s0, a, b, s1, undo, redo]) == ([s0, a, b, s1], [])
    assert fold([s0, undo]) == ([s0], [])
    # A log without spent events folds as it always did (older saves).
    assert fold([a, b, undo, undo, redo]) == ([a], [b])
    assert fold([a, undo, b, redo]) == ([b], [])


def test_a_turned_card_stays_turned_when_the_draw_is_cancelled() -> None:
    from deathzap_tui.headless.flow import quick_setup
    from deathzap_tui.session import Session

    red, black = shipped_forces("command-hand")
    session = Session.new(red, black, seed=SEED, deal_seed=DEAL_SEED)
    quick_setup(session)
    game = session.game
    deck = list(game.state.deck)
    action = game.begin({"type": "draw"})
    assert action.resolution.shown
    event = session.cancel(action)
    assert event is not None and event.kind == RESOLVE, "the draw stands"
    assert game.state.deck == deck[1:] and game.state.card == deck[0]
    assert again(game).state.deck == deck[1:]


def test_a_spent_event_never_puts_a_turned_card_back() -> None:
    """A log whose spent event would undo a draw does not replay."""
    from deathzap_tui.headless.flow import quick_setup
    from deathzap_tui.session import Session

    red, black = shipped_forces("deathzap3")
    session = Session.new(red, black, seed=SEED, deal_seed=DEAL_SEED)
    quick_setup(session)
    log = [*session.game.log, Event(SPENT, {"intent": {"type": "draw"}, "answers": []})]
    with pytest.raises(CorruptLog, match="turned card"):
        Game(session.game.ruleset, session.game.red, session.game.black,
             session.game.options, session.game.seed, log, deal_seed=DEAL_SEED)


@pytest.mark.parametrize("ruleset_id", ["deathzap3", "command-hand"])
def test_a_player_terminal_cannot_name_the_card_drawn(ruleset_id: str) -> None:
    """Naming the card is for a physical deck at a shared table (by no side); from a
    player's own terminal it is refused before the card is looked at."""
    from deathzap_tui.headless.flow import quick_setup
    from deathzap_tui.session import Session

    red, black = shipped_forces(ruleset_id)
    session = Session.new(red, black, seed=SEED, deal_seed=DEAL_SEED)
    quick_setup(session)
    game = session.game
    last = game.state.deck[-1]
    refusals = set()
    for by in ("red", "black"):
        for code in (last, game.state.deck[0], "AS", "2H", "JOKER1", "nonsense"):
            with pytest.raises(Refused) as refused:
                game.begin({"type": "draw", "card": code}, by)
            refusals.add(str(refused.value))
    assert len(refusals) == 1 and "shuffled" in refusals.pop()
    game.play({"type": "draw", "card": last})  # at the shared table
    assert game.state.card == last


def test_generated_dice_cannot_be_stepped_back_over() -> None:
    game = new_game("plasmashok")
    action = to_roll(game)
    res = action.resolution
    rolled = list(res.answers)
    with pytest.raises(Refused, match="cannot be taken back"):
        res.back()
    assert res.answers == rolled
    # Physical dice typed at the table can be corrected.
    typed = game.begin(action.intent)
    while not isinstance(typed.resolution.step, DiceRequest):
        typed.resolution.answer(rolled[len(typed.resolution.answers)])
    count = typed.resolution.step.count
    typed.resolution.answer(Dice(faces=(1,) * count))
    typed.resolution.back()
    assert isinstance(typed.resolution.step, DiceRequest)


def test_a_wrong_guess_of_generated_faces_leaves_the_rng_alone() -> None:
    game = new_game("double-tap")
    action = game.begin(game.ruleset.intents(game.state)[0].intent)
    res = action.resolution
    while not isinstance(res.step, DiceRequest):
        step = res.step
        res.answer(step.default if step.default is not None else step.choices[0].value)
    count = res.step.count
    next_faces = Rng(res.ctx.state.rng.state).roll(count)
    wrong = tuple(f % 6 + 1 for f in next_faces)
    with pytest.raises(Refused, match="do not match"):
        res.answer(Dice(faces=wrong, generated=True))
    res.answer(ROLL)
    assert res.answers[-1].faces == next_faces


def test_save_and_resume_keep_the_spent_dice(saves_dir: Any) -> None:
    from deathzap_tui.session import Session

    red, black = shipped_forces("double-tap")
    session = Session.new(red, black, seed=SEED, deal_seed=DEAL_SEED, save_path="spent")
    session.cancel(to_roll(session.game))
    play_through(session.game, to_roll(session.game))
    resumed = Session.resume("spent")
    assert [e.kind for e in resumed.game.log] == [SPENT, RESOLVE]
    assert resumed.game.state.rng == session.game.state.rng
    assert resumed.narrative()[0].startswith("Cancelled (Roll off")


def test_what_happened_since_tells_an_undo_over_spent_dice() -> None:
    game = new_game("plasmashok")
    game.cancel(to_roll(game))
    play_through(game, to_roll(game))
    game.cancel(to_roll(game))
    game.undo("red")
    lines = since(game, 0, "red")
    assert any("took back" in line and "rolloff" in line for line in lines)
    assert any(line.startswith("Cancelled (Roll off") for line in lines)
    assert sum("dice once rolled stay rolled" in line for line in lines) == 1

"""Game, events and undo/redo on a toy ruleset: the shared machinery knows no
Deathzap rule."""

from __future__ import annotations

import pytest
from toy_ruleset import Toy

from deathzap_tui.rules.events import REDO, UNDO, Event, effective, redoable
from deathzap_tui.rules.game import CorruptLog, Game
from deathzap_tui.rules.steps import ROLL, Dice, Refused


def new_game(seed: int = 7, log=()) -> Game:
    return Game(Toy(), {}, {}, Toy().options(), seed, log)


def test_state_is_forces_plus_replayed_log() -> None:
    game = new_game()
    game.play({"type": "hit", "side": "red"}, ["open", "4 5"])
    game.play({"type": "hit", "side": "black"}, ["open", ROLL])
    again = new_game(log=game.log)
    assert again.state == game.state
    assert again.state.points["black"] == 3


def test_generated_dice_are_recorded_and_replayed_not_rerolled() -> None:
    game = new_game()
    event = game.play({"type": "hit", "side": "red"}, ["open", ROLL])
    faces = event.data["answers"][1]["faces"]
    assert len(faces) == 2 and event.data["answers"][1]["generated"] is True
    game.undo()
    game.redo()
    assert effective(game.log)[-1].data["answers"][1]["faces"] == faces
    # After an undo the RNG is back where it was: rolling again gives the same dice.
    game.undo()
    again = game.play({"type": "hit", "side": "red"}, ["open", ROLL])
    assert again.data["answers"][1]["faces"] == faces


def test_tampered_generated_dice_do_not_replay() -> None:
    game = new_game()
    game.play({"type": "hit", "side": "red"}, ["open", ROLL])
    data = game.log[0].to_data()
    real = data["data"]["answers"][1]["faces"]
    data["data"]["answers"][1]["faces"] = [7 - f for f in real]
    with pytest.raises(CorruptLog, match="event 1"):
        new_game(log=[Event.from_data(data)])


def test_refused_answer_leaves_the_resolution_where_it_was() -> None:
    game = new_game()
    action = game.begin({"type": "hit", "side": "red"})
    with pytest.raises(Refused, match="hard cover"):
        action.resolution.answer("hard")
    assert action.resolution.step.key == "cover"
    action.resolution.answer("open")
    with pytest.raises(Refused, match="1 of 2 dice"):
        action.resolution.answer("4")
    assert action.resolution.step.key == "hit"
    action.resolution.back()
    assert action.resolution.step.key == "cover"
    assert game.state.points == {"red": 5, "black": 5}  # nothing committed yet


def test_cancel_is_dropping_the_action() -> None:
    game = new_game()
    action = game.begin({"type": "hit", "side": "red"})
    action.resolution.answer("open")
    action.resolution.answer(Dice(faces=(6, 6)))
    assert action.resolution.done
    assert game.state.points["black"] == 5 and game.log == []


def test_wrong_player_is_refused() -> None:
    with pytest.raises(Refused, match="black cannot act for red"):
        new_game().begin({"type": "hit", "side": "red"}, by="black")


def test_undo_redo_fold() -> None:
    a, b, c = (Event("resolve", {"n": i}) for i in range(3))
    log = [a, b, Event(UNDO), Event(UNDO), Event(REDO), c]
    assert effective(log) == [a, c]
    assert redoable(log) == []
    assert redoable([a, b, Event(UNDO), Event(UNDO)]) == [a, b]
    assert effective([Event(UNDO), a]) == [a]


def test_undo_and_redo_need_something_to_act_on() -> None:
    game = new_game()
    with pytest.raises(Refused, match="nothing to undo"):
        game.undo()
    with pytest.raises(Refused, match="nothing to redo"):
        game.redo()


def test_listeners_hear_every_event() -> None:
    game = new_game()
    heard: list[str] = []
    game.listeners.append(lambda g, e: heard.append(e.kind))
    game.play({"type": "hit", "side": "red"}, ["open", "11"])
    game.undo()
    game.redo()
    assert heard == ["resolve", UNDO, REDO]


def test_a_borrowed_state_is_changed_in_place_and_cannot_go_back() -> None:
    """Replay borrows the state it builds (no copies); interactive resolutions never
    touch the game's state until committed."""
    from deathzap_tui.rules.steps import Resolution

    game = new_game()
    state = game.ruleset.new_state({}, {}, game.options, 1)
    res = Resolution(state, game.ruleset.resolution(state, {"type": "hit", "side": "red"}),
                     borrow=True)
    res.replay(["open", "66"])
    assert res.ctx.state is state and state.points["black"] == 3
    with pytest.raises(RuntimeError, match="borrowed"):
        res.back()


def test_replaying_a_long_log_matches_the_live_game() -> None:
    game = new_game()
    for i in range(30):
        game.play({"type": "hit", "side": ("red", "black")[i % 2]}, ["open", ROLL])
        if i % 7 == 3:
            game.undo()
    assert new_game(log=game.log).state == game.state


def test_a_shared_terminal_narrative_never_shows_private_notes(tmp_path, monkeypatch) -> None:
    from deathzap_tui.rules.steps import Context
    from deathzap_tui.session import Session

    class Secretive(Toy):
        def resolution(self, state, intent, by=""):
            inner = super().resolution(state, intent, by)

            def make(ctx: Context):
                ctx.say("red holds the ace", to="red")
                yield from inner(ctx)

            return make

    game = Game(Secretive(), {}, {}, Toy().options(), 1)
    game.play({"type": "hit", "side": "red"}, ["open", "11"])
    session = Session(game, None)
    assert "red holds the ace" not in session.narrative()
    assert "red holds the ace" not in session.narrative("black")
    assert "red holds the ace" in session.narrative("red")

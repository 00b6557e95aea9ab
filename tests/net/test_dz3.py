"""Two real clients play real Deathzap 3 against a real referee over a Unix socket."""

from __future__ import annotations

from dz3play import force_names, play, play_one

from deathzap_tui.rules.events import effective
from deathzap_tui.rules.ruleset import WATCH


def test_two_clients_play_dz3_activations_and_see_the_same_game(dz3_host, dz3_clients) -> None:
    red, black = dz3_clients("red"), dz3_clients("black")
    watch = dz3_clients("watch")
    assert red.ruleset.id == "deathzap3"
    assert red.wait_for(lambda s: s.presence == {"red": 1, "black": 1, "watch": 1})
    assert (red.game.red.name, red.game.black.name) == force_names()
    answered: list[tuple[str, str, str]] = []
    done = play({"red": red, "black": black}, activations=3, log=answered)
    acts = [side for side, intent in done if intent["type"] == "activate"]
    assert acts.count("red") >= 3 and acts.count("black") >= 3
    # Steps of one side's activation were answered by the other side's terminal
    # (cover of the target, saving throws: DZ3 §6), never by the actor.
    assert answered and all(actor != who for actor, who, _ in answered)
    table = dz3_host.table
    events = len(table.game.log)
    for c in (red, black, watch):
        assert c.wait_for(lambda s: s.events == events)
    assert red.seq == black.seq == watch.seq
    public = table.ruleset.view(table.game.state, WATCH)
    assert red.view().units == black.view().units == watch.view().units == public.units
    assert red.view().deck == black.view().deck == public.deck
    assert red.view().score == black.view().score
    assert red.narrative() == black.narrative() == watch.narrative() == table.narrative(None)
    assert red.turn == black.turn == watch.turn
    # The referee's save holds every event, replaying to the same state.
    from deathzap_tui import saves

    again = saves.load_game(table.session.path)
    assert len(again.log) == events and again.state == table.game.state


def test_saves_are_rolled_by_the_targets_owner(dz3_host, dz3_clients) -> None:
    red, black = dz3_clients("red"), dz3_clients("black")
    answered: list[tuple[str, str, str]] = []
    clients = {"red": red, "black": black}
    for _ in range(60):
        play_one(clients, log=answered)
        if any("saving throws" in what for _, _, what in answered):
            break
    saves_by = [(actor, who) for actor, who, what in answered if "saving throws" in what]
    assert saves_by, "no shot got through to a save in 60 intents"
    assert all(actor != who for actor, who in saves_by)
    # The recorded answers say who rolled: the save faces came from the referee's RNG
    # when the owner asked it to roll (generated), recorded in the log like any dice.
    last = effective(dz3_host.table.game.log)[-1]
    assert last.by in ("red", "black")

"""Hidden information (CH §2): a player's view and intents never hold the other
player's Command Hand; the hand is in ``BoardView.private`` for its owner only."""

from __future__ import annotations

import dataclasses
import json
import random
import re

import pytest
from ch_fixtures import draw, new_game, play_random_action, ready_game

from deathzap_tui.rules.cards import Card
from deathzap_tui.rules.commandhand import RULESET
from deathzap_tui.rules.commandhand.state import State
from deathzap_tui.rules.ruleset import WATCH


def serialised(state: State, viewer: str | None) -> str:
    view = RULESET.view(state, viewer)
    options = RULESET.intents(state, viewer)
    return (repr(view) + repr(options)
            + json.dumps(dataclasses.asdict(view), ensure_ascii=False)
            + json.dumps([dataclasses.asdict(o) for o in options], ensure_ascii=False))


def leaks(text: str, hand: list[str]) -> list[str]:
    found = []
    for code in hand:
        card = Card.parse(code)
        if re.search(rf"(?<![0-9A-Za-z]){re.escape(code)}(?![0-9A-Za-z])", text):
            found.append(code)
        if re.search(rf"(?<![0-9]){re.escape(card.label)}", text):
            found.append(card.label)
        if card.words in text:
            found.append(card.words)
    return found


@pytest.mark.slow
def test_view_and_intents_never_show_the_other_hand_ch_s2() -> None:
    """Through a whole random game, interrupt windows included."""
    for seed in range(4):
        g = new_game(seed=seed)
        rnd = random.Random(seed)
        windows = 0
        for _ in range(400):
            s = g.state
            windows += bool(s.window)
            assert not leaks(serialised(s, "black"), s.hands["red"])
            assert not leaks(serialised(s, "red"), s.hands["black"])
            for viewer in (WATCH, "spectator"):
                assert not leaks(serialised(s, viewer), s.hands["red"] + s.hands["black"])
            if s.over or not play_random_action(g, rnd, by_side=True):
                break
        assert windows, "the game should have offered interrupts"


def test_private_holds_the_viewers_own_hand_only_ch_s2() -> None:
    g = ready_game()
    s = g.state
    red = RULESET.view(s, "red").private
    assert set(red) == {"red"}
    assert all(Card.parse(c).label in red["red"][0] for c in s.hands["red"])
    assert set(RULESET.view(s, "black").private) == {"black"}
    assert RULESET.view(s, WATCH).private == {}
    assert set(RULESET.view(s, None).private) == {"red", "black"}  # shared terminal


def test_window_intents_go_to_the_hand_owner_only_ch_s2() -> None:
    g = ready_game()
    spade = next(c for c in g.state.deck if c.endswith("S"))
    draw(g, spade)
    s = g.state
    assert s.window == "red"
    mine = RULESET.intents(s, "red")
    assert {o.intent["type"] for o in mine} == {"interrupt", "pass"}
    assert {o.intent["card"] for o in mine if o.intent["type"] == "interrupt"} == set(
        s.hands["red"])
    assert RULESET.intents(s, "black") == []
    assert RULESET.intents(s, WATCH) == []
    assert "Red may interrupt" in RULESET.view(s, "black").prompt
    assert RULESET.view(s, None).secret_turn == "red"  # hot seat: cover screen for Red
    g.play({"type": "pass"})
    assert RULESET.view(g.state, None).secret_turn == ""


def test_hand_sizes_are_public_ch_s2() -> None:
    s = ready_game().state
    lines = RULESET.view(s, "black").score_lines
    assert "4 cards in hand" in lines[0] and "3 cards in hand" in lines[1]

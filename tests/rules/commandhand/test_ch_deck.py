"""The activation deck and the Command Hands: CH §2 (split by colour, hands dealt by
Command Rating, flipping as DZ3), CH §6 (tokens), CH-R5 (deck end)."""

from __future__ import annotations

import pytest
from ch_fixtures import (
    activate,
    cinders,
    draw,
    force,
    new_game,
    pass_window,
    rangers,
    ready_game,
    unit,
)

from deathzap_tui.rules.cards import Card
from deathzap_tui.rules.commandhand import RULESET
from deathzap_tui.rules.steps import Refused


def test_hands_dealt_by_command_rating_from_own_colour_ch_s2() -> None:
    s = new_game().state
    assert len(s.hands["red"]) == rangers().command_rating == 4
    assert len(s.hands["black"]) == cinders().command_rating == 3
    assert all(Card.parse(c).colour == "red" for c in s.hands["red"])
    assert all(Card.parse(c).colour == "black" for c in s.hands["black"])


def test_deck_is_everything_else_with_both_jokers_ch_s2() -> None:
    s = new_game().state
    assert len(s.deck) == 54 - 4 - 3
    assert {"JOKER1", "JOKER2"} <= set(s.deck)
    assert not set(s.deck) & set(s.hands["red"] + s.hands["black"])
    assert len(set(s.deck)) == len(s.deck)
    by_colour = [Card.parse(c).colour for c in s.deck]
    assert by_colour.count("red") == 22 and by_colour.count("black") == 23


def test_hands_and_deck_follow_the_seed_ch_s2() -> None:
    a, b, c = new_game(seed=5).state, new_game(seed=5).state, new_game(seed=6).state
    assert (a.hands, a.deck) == (b.hands, b.deck)
    assert (a.hands, a.deck) != (c.hands, c.deck)


def test_rating_zero_deals_no_hand_and_26_deals_the_whole_colour_ch_s2() -> None:
    red = force("All Red", 26, unit("A"))
    black = force("No Hand", 0, unit("B"))
    s = new_game(red, black).state
    assert len(s.hands["red"]) == 26 and s.hands["black"] == []
    assert sorted(Card.parse(c).colour or "joker" for c in s.deck) == ["black"] * 26 + [
        "joker"] * 2


@pytest.mark.parametrize(("card", "side", "n"), [
    ("2H", "red", 1), ("10D", "red", 1), ("JC", "black", 2), ("QS", "black", 2),
    ("KH", "red", 2), ("AS", "black", 3)])
def test_card_grants_as_deathzap_3_ch_s2(card: str, side: str, n: int) -> None:
    g = ready_game(red=force("R", 0, unit("A")), black=force("B", 0, unit("B")))
    draw(g, card)
    assert (g.state.card_side, g.state.active_side, g.state.remaining) == (side, side, n)


def test_a_hand_card_cannot_be_named_as_a_draw_ch_s2() -> None:
    g = ready_game()
    with pytest.raises(Refused, match="Command Hand"):
        g.begin({"type": "draw", "card": g.state.hands["red"][0]})


def test_joker_removes_all_tokens_ch_s2_s6() -> None:
    g = ready_game(red=force("R", 0, unit("A"), unit("B")), black=force("B", 0, unit("C")))
    draw(g, "2H")
    activate(g, "red.0", "run")
    assert g.state.unit("red.0").token
    draw(g, "JOKER1")
    assert not any(u.token for u in g.state.all_units())
    assert g.state.remaining == 0 and g.state.card_side == ""


def test_token_reset_when_a_side_is_all_tokened_ch_s6() -> None:
    g = ready_game(red=force("R", 0, unit("A"), unit("B")), black=force("B", 0, unit("C")))
    draw(g, "KH")
    activate(g, "red.0", "run")
    assert g.state.unit("red.0").token
    activate(g, "red.1", "run")
    assert not any(u.token for u in g.state.all_units())


def test_tokened_unit_cannot_activate_ch_s6() -> None:
    g = ready_game(red=force("R", 0, unit("A"), unit("B")), black=force("B", 0, unit("C")))
    draw(g, "KH")
    activate(g, "red.0", "run")
    with pytest.raises(Refused, match="token"):
        g.begin({"type": "activate", "unit": "red.0", "action": "run"})


def test_activations_must_be_used_before_the_next_flip_ch_s2() -> None:
    g = ready_game()
    draw(g, "KH")
    pass_window(g)
    with pytest.raises(Refused, match="still has 2 activations"):
        g.begin({"type": "draw"})


def test_elimination_game_reshuffles_the_flipped_cards_ch_r5_ch_r2() -> None:
    red, black = force("R", 2, unit("A")), force("B", 0, unit("B"))
    g = ready_game(red=red, black=black)
    hand = list(g.state.hands["red"])
    n = len(g.state.deck)
    for _ in range(n):
        draw(g, g.state.deck[0])
        pass_window(g)
        while g.state.grant:
            u = g.state.active_side + ".0"
            activate(g, u, "recharge")
    g.play({"type": "draw"})
    s = g.state
    assert s.decks_used == 2 and len(s.deck) == n - 1
    assert not set(hand) & set(s.deck + s.discard)


def test_objectives_game_ends_when_the_deck_runs_out_ch_r5() -> None:
    g = ready_game(red=force("R", 0, unit("A")), black=force("B", 0, unit("B")),
                   options={"victory": "objectives"})
    for _ in range(54):
        draw(g, g.state.deck[0])
        while g.state.grant:
            activate(g, g.state.active_side + ".0", "recharge")
    g.play({"type": "draw"})
    assert g.state.over and "deck is exhausted" in g.state.end_reason
    assert g.state.winner == "draw"


def test_options_are_validated() -> None:
    from deathzap_tui.rules.problems import InvalidInput

    with pytest.raises(InvalidInput):
        RULESET.options({"victory": "points"})
    with pytest.raises(InvalidInput):
        RULESET.options({"distances": "triple"})

"""Interrupts from the Command Hand: CH §2 (equal-or-lower first, aces high, only
against the opponent's colour, hand cards cannot be interrupted), CH-R2 (played card
discarded, no refill), CH-R3 (one interrupt per flipped card)."""

from __future__ import annotations

import pytest
from ch_fixtures import activate, draw, force, notes, ready_game, unit

from deathzap_tui.rules.commandhand import RULESET
from deathzap_tui.rules.game import Game
from deathzap_tui.rules.steps import Refused


def red_holds_everything() -> Game:
    """Red's hand is every red card (rating 26); Black has no hand."""
    return ready_game(red=force("Red", 26, unit("A"), unit("B")),
                      black=force("Black", 0, unit("C"), unit("D")))


def both_hold_cards() -> Game:
    return ready_game(red=force("Red", 5, unit("A"), unit("B")),
                      black=force("Black", 5, unit("C"), unit("D")))


def order(g: Game) -> list[tuple[str, str]]:
    return [(x.side, x.card) for x in g.state.grants]


def test_window_opens_for_the_opponent_of_the_flipped_colour_ch_s2() -> None:
    g = red_holds_everything()
    draw(g, "5S")
    assert g.state.window == "red"
    labels = [o.intent for o in RULESET.intents(g.state)]
    assert {"type": "pass"} in labels and {"type": "interrupt", "card": "2H"} in labels
    assert all(o.side == "red" for o in RULESET.intents(g.state))


def test_equal_or_lower_goes_first_ch_s2() -> None:
    g = red_holds_everything()
    draw(g, "5S")
    g.play({"type": "interrupt", "card": "5H"})
    assert order(g) == [("red", "5H"), ("black", "5S")]
    assert g.state.active_side == "red"
    g = red_holds_everything()
    draw(g, "QS")
    g.play({"type": "interrupt", "card": "3D"})
    assert order(g) == [("red", "3D"), ("black", "QS")]
    assert "equal to or lower" in notes(g)[0]


def test_higher_goes_straight_after_ch_s2() -> None:
    g = red_holds_everything()
    draw(g, "5S")
    g.play({"type": "interrupt", "card": "6H"})
    assert order(g) == [("black", "5S"), ("red", "6H")]
    activate(g, "black.0", "run")
    assert g.state.active_side == "red"
    activate(g, "red.0", "run")
    assert g.state.grant is None


@pytest.mark.parametrize(("hand", "flipped", "first"), [
    ("AH", "KS", False), ("KH", "AS", True), ("AH", "AS", True), ("2H", "AS", True),
    ("10H", "JS", True), ("JH", "10S", False)])
def test_aces_are_high_ch_s2(hand: str, flipped: str, first: bool) -> None:
    g = red_holds_everything()
    draw(g, flipped)
    g.play({"type": "interrupt", "card": hand})
    assert (order(g)[0][0] == "red") is first


def test_hand_card_grants_its_rank_activations_ch_s2() -> None:
    g = red_holds_everything()
    draw(g, "2S")
    g.play({"type": "interrupt", "card": "AH"})
    assert [x.granted for x in g.state.grants] == [1, 3]


def test_cannot_interrupt_own_colour_ch_s2() -> None:
    g = both_hold_cards()
    draw(g, g.state.deck[[c[-1] for c in g.state.deck].index("H")])
    assert g.state.window == "black"
    with pytest.raises(Refused, match="own colour"):
        g.begin({"type": "interrupt", "card": g.state.hands["red"][0]})


def test_a_hand_card_cannot_be_interrupted_ch_s2() -> None:
    g = both_hold_cards()
    spade = next(c for c in g.state.deck if c.endswith("S"))
    draw(g, spade)
    g.play({"type": "interrupt", "card": g.state.hands["red"][0]}, by="red")
    # Black now faces Red's hand card: it cannot answer it with its own hand.
    with pytest.raises(Refused, match="cannot itself be interrupted"):
        g.begin({"type": "interrupt", "card": g.state.hands["black"][0]}, by="black")
    assert not any(o.intent["type"] == "interrupt" for o in RULESET.intents(g.state))


def test_one_interrupt_per_flipped_card_ch_r3() -> None:
    g = red_holds_everything()
    draw(g, "KS")
    g.play({"type": "interrupt", "card": "2H"})
    with pytest.raises(Refused, match="CH-R3"):
        g.begin({"type": "interrupt", "card": "3H"})


def test_played_card_is_discarded_and_not_refilled_ch_r2() -> None:
    g = red_holds_everything()
    draw(g, "KS")
    g.play({"type": "interrupt", "card": "2H"})
    s = g.state
    assert "2H" not in s.hands["red"] and len(s.hands["red"]) == 25
    assert s.played == ["2H"] and "2H" not in s.deck
    activate(g, "red.0", "run")
    activate(g, "black.0", "run")
    activate(g, "black.1", "run")
    draw(g, "QS")
    assert len(g.state.hands["red"]) == 25  # never refilled
    with pytest.raises(Refused, match="not in Red's Command Hand"):
        g.begin({"type": "interrupt", "card": "2H"})


def test_window_blocks_everything_else_until_play_or_pass_ch_s2() -> None:
    g = red_holds_everything()
    draw(g, "KS")
    with pytest.raises(Refused, match="interrupt"):
        g.begin({"type": "activate", "unit": "black.0", "action": "run"})
    with pytest.raises(Refused, match="interrupt"):
        g.begin({"type": "draw"})
    g.play({"type": "pass"})
    assert g.state.window == "" and order(g) == [("black", "KS")]
    with pytest.raises(Refused, match="passed"):
        g.begin({"type": "interrupt", "card": "2H"})
    activate(g, "black.0", "run")


def test_only_the_hand_owner_may_interrupt_or_pass_ch_s2() -> None:
    g = red_holds_everything()
    draw(g, "KS")
    with pytest.raises(Refused):
        g.begin({"type": "pass"}, by="black")
    with pytest.raises(Refused, match="only Red"):
        g.begin({"type": "interrupt", "card": "2H"}, by="black")
    g.play({"type": "interrupt", "card": "2H"}, by="red")


def test_no_window_for_a_side_with_an_empty_hand_ch_s2() -> None:
    g = ready_game(red=force("Red", 1, unit("A")), black=force("Black", 0, unit("B")))
    hearts = [c for c in g.state.deck if c[-1] in "HD"]
    draw(g, hearts[0])
    assert g.state.window == ""  # black holds no card
    assert g.state.active_side == "red"
    draw_after = next(c for c in g.state.deck if c.startswith("JOKER"))
    while g.state.grant:
        activate(g, "red.0", "recharge")
    draw(g, draw_after)
    assert g.state.window == ""


def test_interrupt_with_a_joker_or_nonsense_refused() -> None:
    g = red_holds_everything()
    draw(g, "KS")
    with pytest.raises(Refused):
        g.begin({"type": "interrupt", "card": "JOKER1"})
    with pytest.raises(Refused):
        g.begin({"type": "interrupt", "card": "ZZ"})

"""The activation deck: DZ3 §2, DZ3-R1 (composition), DZ3-R2 (end), DZ3-R3 (carry)."""

from __future__ import annotations

import pytest
from dz3_fixtures import act, draw, enter, force, new_game, ready_game, setup, small_forces

from deathzap_tui.rules.deathzap3 import RULESET
from deathzap_tui.rules.deathzap3.state import deck_cards
from deathzap_tui.rules.problems import InvalidInput
from deathzap_tui.rules.steps import Refused


def test_deck_compositions_dz3_r1() -> None:
    assert len(deck_cards(RULESET.options())) == 54
    half = deck_cards(RULESET.options({"deck": "half"}))
    assert len(half) == 27
    assert {c.suit for c in half} == {"hearts", "spades", "joker"}
    custom = deck_cards(RULESET.options({"deck": "custom", "suits": "diamonds,clubs",
                                         "jokers": 0}))
    assert len(custom) == 26 and {c.suit for c in custom} == {"diamonds", "clubs"}
    assert len(new_game(options={"deck": "half"}).state.deck) == 27


def test_bad_options_refused_dz3_r1_r2() -> None:
    with pytest.raises(InvalidInput):
        RULESET.options({"deck": "tarot"})
    with pytest.raises(InvalidInput):
        RULESET.options({"suits": "spades,hearts,bells"})
    with pytest.raises(InvalidInput):
        RULESET.options({"end": "never"})


def test_deck_is_shuffled_by_seed() -> None:
    assert new_game(seed=1).state.deck == new_game(seed=1).state.deck
    assert new_game(seed=1).state.deck != new_game(seed=2).state.deck


@pytest.mark.parametrize(("card", "side", "n"), [
    ("2H", "red", 1), ("10D", "red", 1), ("JC", "black", 2), ("QS", "black", 2),
    ("KH", "red", 2), ("AS", "black", 3)])
def test_card_grants_dz3_s2(card: str, side: str, n: int) -> None:
    g = ready_game()
    draw(g, card)
    assert (g.state.card_side, g.state.granted, g.state.remaining) == (side, n, n)
    assert card not in g.state.deck


def test_top_card_is_drawn_without_a_name() -> None:
    g = ready_game()
    top = g.state.deck[0]
    g.play({"type": "draw"})
    assert g.state.card == top and g.state.discard == [top]


def test_named_card_must_still_be_in_the_deck() -> None:
    g = ready_game()
    draw(g, "JOKER1")
    with pytest.raises(Refused, match="not in the deck"):
        g.begin({"type": "draw", "card": "JOKER1"})
    with pytest.raises(Refused):
        g.begin({"type": "draw", "card": "1Z"})


def test_cannot_draw_while_activations_remain_dz3_s2() -> None:
    g = ready_game()
    draw(g, "KH")
    with pytest.raises(Refused, match="2 activations"):
        g.begin({"type": "draw"})


def test_joker_removes_all_tokens_units_and_objectives_dz3_s4() -> None:
    g = ready_game()
    enter(g, "red.0", "2H")
    enter(g, "black.0", "2C")
    draw(g, "JOKER1")
    assert not g.state.unit("red.0").token
    draw(g, "3H")
    act(g, {"type": "activate", "unit": "red.0", "action": "signal"},
        {"signal.objective": "2", "signal.shoot.target": "hold"})
    assert g.state.unit("red.0").token and g.state.objective(2).token
    draw(g, "JOKER2")
    assert not any(u.token for u in g.state.all_units())
    assert not any(o.token for o in g.state.objectives)
    assert g.state.card_side == "" and g.state.granted == 0


def test_extra_activations_carry_over_the_token_reset_dz3_r3() -> None:
    red, black = small_forces()
    g = setup(new_game(force("Solo", red.units[1]), black))
    draw(g, "AH")  # 3 activations, red has 1 unit
    enter_steps = {"type": "activate", "unit": "red.0", "action": "cover-ground"}
    for _ in range(3):
        g.play(enter_steps, ["3"])  # the token reset frees the unit each time
    assert g.state.remaining == 0
    g.play({"type": "draw", "card": "2C"})


def test_card_spent_when_side_has_no_unit_in_play_dz3_r3() -> None:
    red, _ = small_forces()
    g = setup(new_game(red, force("Nobody")))
    draw(g, "KS")
    assert g.state.forfeited == 2 and g.state.remaining == 0
    draw(g, "2S")  # the draw is allowed at once


def test_deck_exhausted_ends_the_game_dz3_r2() -> None:
    g = ready_game(options={"deck": "custom", "suits": "hearts", "jokers": 1})
    while g.state.deck or g.state.remaining:
        if g.state.remaining:
            unit = next(u for u in g.state.units["red"] if u.ready)
            act(g, {"type": "activate", "unit": unit.id, "action": "cover-ground"}, {},
                dice="4")
            continue
        g.play({"type": "draw"})
    while g.state.remaining:
        unit = next(u for u in g.state.units["red"] if u.ready)
        act(g, {"type": "activate", "unit": unit.id, "action": "cover-ground"}, {}, dice="4")
    assert not g.state.deck
    opts = RULESET.intents(g.state)
    assert any(o.intent == {"type": "draw"} for o in opts)
    g.play({"type": "draw"})
    assert g.state.over and g.state.winner == "draw"
    assert "exhausted" in g.state.end_reason
    assert RULESET.intents(g.state) == []
    with pytest.raises(Refused, match="over"):
        g.begin({"type": "draw"})


def _burn(g, decks_expected: int) -> None:  # type: ignore[no-untyped-def]
    while not g.state.over and g.state.decks_used <= decks_expected:
        if g.state.remaining:
            unit = next(u for u in g.state.units[g.state.card_side] if u.ready)
            act(g, {"type": "activate", "unit": unit.id, "action": "cover-ground"}, {},
                dice="4")
        else:
            g.play({"type": "draw"})


def test_play_n_decks_then_end_dz3_r2() -> None:
    g = ready_game(options={"deck": "custom", "suits": "clubs", "jokers": 0, "end": "decks",
                            "decks": 2})
    _burn(g, 5)
    assert g.state.over and g.state.decks_used == 2


def test_agreement_reshuffles_and_ends_on_request_dz3_r2() -> None:
    g = ready_game(options={"deck": "custom", "suits": "clubs", "jokers": 0,
                            "end": "agreement"})
    _burn(g, 2)
    assert not g.state.over and g.state.decks_used == 3
    assert any(o.intent == {"type": "end"} for o in RULESET.intents(g.state))
    g.play({"type": "end"})
    assert g.state.over and "agreement" in g.state.end_reason


def test_end_by_agreement_refused_without_the_option_dz3_r2() -> None:
    g = ready_game()
    with pytest.raises(Refused, match="agreement"):
        g.begin({"type": "end"})

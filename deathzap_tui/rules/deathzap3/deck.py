"""The activation deck (DZ3 §2, DZ3-R1..R3) and the end of the game (DZ3-R2)."""

from __future__ import annotations

from deathzap_tui.rules.activations import activations_for, fresh_deck, take_card
from deathzap_tui.rules.activations import normalise_card as normalise_card
from deathzap_tui.rules.deathzap3.common import (
    card_label,
    finish,
    forfeit_if_stranded,
    in_play,
    plural,
    reset_tokens,
    side_name,
)
from deathzap_tui.rules.deathzap3.state import State, deck_cards
from deathzap_tui.rules.steps import Context, Refused


def draw_refusal(state: State) -> str:
    """Why a card may not be drawn now ("" if it may).

    Activations of the current card must be used first (DZ3 §2), unless its side has
    no unit in play — then they are forfeited at the draw (DZ3-R3). A unit of the
    card's side can always act otherwise: every unit in play may at least Advance or
    Cover Ground on entry and Protect afterwards, and the token reset (DZ3 §4) makes
    sure one of them has no token — so "none possible" only ever means "no unit in
    play". The optional command activation (DZ3 §11) never blocks a draw.
    """
    if state.remaining and in_play(state, state.card_side):
        return (f"{side_name(state.card_side)} still has "
                f"{plural(state.remaining, 'activation')} of {card_label(state.card)} to use")
    return ""


def exhausted_action(state: State) -> str:
    """What drawing from an empty deck does: "end" or "reshuffle" (DZ3-R2)."""
    mode = state.options.get("end", "deck")
    if mode == "agreement":
        return "reshuffle"
    if mode == "decks" and state.decks_used < int(state.options.get("decks", 1)):
        return "reshuffle"
    return "end"


def check_named_card(state: State, code: str) -> str:
    """A named card (a physical deck) must still be in the draw pile."""
    card = normalise_card(code)
    pool = state.deck if state.deck else (
        [c.code for c in deck_cards(state.options)] if exhausted_action(state) == "reshuffle"
        else [])
    if card not in pool:
        raise Refused(f"{card_label(card)} is not in the deck (already drawn this deck?)")
    return card


def draw(ctx: Context, named: str = "") -> None:
    """Flip the top card (or the named one) and set what it grants (DZ3 §2)."""
    state: State = ctx.state
    forfeit_if_stranded(ctx)
    if not state.deck:
        if exhausted_action(state) == "end":
            finish(ctx, "the deck is exhausted (DZ3-R2)")
            return
        fresh_deck(state, deck_cards(state.options))
        ctx.say(f"The deck is exhausted: a fresh deck is shuffled (deck {state.decks_used}, "
                f"DZ3-R2).")
    card = take_card(ctx, state.deck, state.discard, named)
    state.card = card.code
    state.used = 0
    state.forfeited = 0
    state.command_used = False
    drawn = f"Card drawn: {card.label} ({card.words}), {len(state.deck)} left"
    if card.is_joker:
        state.card_side = ""
        state.granted = 0
        reset_tokens(state)
        ctx.say(f"{drawn}. A joker: nobody activates; all activation tokens are removed, "
                f"units and objectives (DZ3 §4).")
        return
    side = card.colour or ""
    state.card_side = side
    state.granted = activations_for(card)
    ctx.say(f"{drawn}. {side_name(side)} may activate "
            f"{plural(state.granted, 'unit')} (DZ3 §2).")
    forfeit_if_stranded(ctx)


def end_by_agreement(ctx: Context) -> None:
    finish(ctx, "ended by agreement (DZ3-R2)")

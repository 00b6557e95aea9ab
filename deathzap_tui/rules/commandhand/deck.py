"""The activation deck and the Command Hands (CH §2, CH-R2, CH-R3).

Flipping is Deathzap 3's (``rules/activations.py``); what is new is the interrupt:
when a card of one colour is flipped, the *other* side, if it holds hand cards, gets
a window to play one of them against it (or pass). Nothing else happens while the
window is open.
"""

from __future__ import annotations

from deathzap_tui.rules.activations import (
    activations_for,
    fresh_deck,
    normalise_card,
    take_card,
)
from deathzap_tui.rules.cards import RANK_NAMES, Card
from deathzap_tui.rules.commandhand.common import (
    finish,
    forfeit_if_stranded,
    in_play,
    reset_tokens,
)
from deathzap_tui.rules.commandhand.state import Grant, State, deck_pool
from deathzap_tui.rules.narration import card_label, plural, side_name
from deathzap_tui.rules.ruleset import SIDES, other_side
from deathzap_tui.rules.steps import Context, Refused


def rank_name(card: Card) -> str:
    return RANK_NAMES.get(card.rank, str(card.rank))


def goes_first(hand: Card, flipped: Card) -> bool:
    """CH §2: a hand card of equal or lower rank (aces high: 2 < ... < 10 < J < Q < K <
    A) is used before the flipped card; a higher one straight after it."""
    return hand.rank <= flipped.rank


# --- drawing --------------------------------------------------------------------


def deck_runs_out_ends_game(state: State) -> bool:
    """CH-R5: with objectives the game ends when the deck runs out (as DZ3-R2); in an
    elimination game the flipped cards are shuffled into a fresh deck."""
    return state.objectives_mode


def draw_refusal(state: State) -> str:
    if state.window:
        return (f"{side_name(state.window)} may first interrupt {card_label(state.card)} "
                "with a Command Hand card, or pass (CH §2)")
    g = state.grant
    if g is not None and in_play(state, g.side):
        return (f"{side_name(g.side)} still has {plural(g.remaining, 'activation')} of "
                f"{card_label(g.card)} to use" + (
                    f" (then {plural(state.remaining - g.remaining, 'more')})"
                    if state.remaining > g.remaining else ""))
    return ""


def check_named_card(state: State, code: str) -> str:
    """A card named from a physical deck must still be in the draw pile (a hand card
    never is, CH §2)."""
    card = normalise_card(code)
    pool = state.deck or ([c.code for c in deck_pool(state.hands, state.played)]
                          if not deck_runs_out_ends_game(state) else [])
    if card not in pool:
        raise Refused(f"{card_label(card)} is not in the activation deck (already flipped, "
                      "or dealt to a Command Hand)")
    return card


def draw(ctx: Context, named: str = "") -> None:
    """Flip a card (CH §2): its colour activates, a joker removes every token; the
    opponent may then interrupt."""
    state: State = ctx.state
    forfeit_if_stranded(ctx)
    if not state.deck:
        if deck_runs_out_ends_game(state):
            finish(ctx, "the deck is exhausted (CH-R5, as DZ3-R2)")
            return
        fresh_deck(state, deck_pool(state.hands, state.played))
        ctx.say(f"The deck is exhausted: the flipped cards are shuffled into a fresh deck "
                f"(deck {state.decks_used}; hand cards never return, CH-R2).")
    card = take_card(ctx, state.deck, state.discard, named)
    state.card = card.code
    state.grants = []
    state.interrupted = False
    state.window = ""
    drawn = f"Card flipped: {card.label} ({card.words}), {len(state.deck)} left"
    if card.is_joker:
        state.card_side = ""
        reset_tokens(state)
        ctx.say(f"{drawn}. A joker: nobody activates; all activation tokens are removed "
                "(CH §2, §6).")
        return
    side = card.colour or ""
    state.card_side = side
    state.grants = [Grant(card.code, side, activations_for(card))]
    ctx.say(f"{drawn}. {side_name(side)} may activate "
            f"{plural(state.grants[0].granted, 'unit')} (CH §2).")
    forfeit_if_stranded(ctx)
    foe = other_side(side)
    if state.hands[foe] and in_play(state, foe):
        state.window = foe
        ctx.say(f"{side_name(foe)} may interrupt it with a Command Hand card (CH §2).")


# --- interrupting -----------------------------------------------------------------


def interrupt_refusal(state: State, code: str, by: str = "") -> str:
    """Why ``code`` cannot be played from a hand now ("" if it can)."""
    if state.over:
        return "the game is over"
    if not state.card or not state.card_side:
        return "there is no flipped coloured card to interrupt (a joker activates nobody)"
    try:
        card = Card.parse(code)
    except ValueError as exc:
        return str(exc)
    side = card.colour or ""
    if side not in SIDES:
        return "a joker is never in a Command Hand (CH §2)"
    if by and by != side:
        return f"only {side_name(side)} can play {side_name(side)}'s Command Hand"
    flipped = card_label(state.card)
    if side == state.card_side:
        if state.interrupted:
            return ("a card played from a Command Hand cannot itself be interrupted, and "
                    f"{flipped} is your own colour (CH §2)")
        return f"{flipped} is {side_name(side)}'s own colour: you cannot interrupt it (CH §2)"
    if state.interrupted:
        return f"{flipped} has already been interrupted: at most one interrupt per card (CH-R3)"
    if state.window != side:
        return (f"the chance to interrupt {flipped} has passed (activations have begun, or "
                f"{side_name(side)} passed)")
    if card.code not in state.hands[side]:
        return f"{card.label} is not in {side_name(side)}'s Command Hand"
    return ""


def interrupt(ctx: Context, code: str) -> None:
    """Play a hand card against the flipped card (CH §2, CH-R2, CH-R3)."""
    state: State = ctx.state
    card = Card.parse(code)
    flipped = Card.parse(state.card)
    side = card.colour or ""
    state.hands[side].remove(card.code)
    state.played.append(card.code)
    state.interrupted = True
    state.window = ""
    g = Grant(card.code, side, activations_for(card), from_hand=True)
    first = goes_first(card, flipped)
    if first:
        state.grants.insert(0, g)
        order = (f"{rank_name(card)} is equal to or lower than {rank_name(flipped)}, so "
                 f"{side_name(side)}'s {plural(g.granted, 'activation')} "
                 f"{_verb(g.granted)} first, then {card_label(flipped.code)}'s")
    else:
        state.grants.append(g)
        order = (f"{rank_name(card)} is higher than {rank_name(flipped)}, so "
                 f"{card_label(flipped.code)} is used first and {side_name(side)}'s "
                 f"{plural(g.granted, 'activation')} {_verb(g.granted)} straight after")
    ctx.say(f"{side_name(side)} interrupts {flipped.label} with {card.label} from the Command "
            f"Hand: {order} (CH §2). {card.label} is discarded; "
            f"{plural(len(state.hands[side]), 'card')} left in hand, never refilled (CH-R2).")
    forfeit_if_stranded(ctx)


def _verb(n: int) -> str:
    return "comes" if n == 1 else "come"


def pass_refusal(state: State, by: str = "") -> str:
    if not state.window:
        return "nobody is being asked whether to interrupt"
    if by and by != state.window:
        return f"it is {side_name(state.window)}'s choice whether to interrupt"
    return ""


def pass_interrupt(ctx: Context) -> None:
    state: State = ctx.state
    side = state.window
    state.window = ""
    ctx.say(f"{side_name(side)} does not interrupt {card_label(state.card)}.")

"""Card-driven activation shared by the Deathzap family (DZ3 §2, §4; CH §2, §6 "as
Deathzap 3"): what a card grants, flipping cards off a deck, and activation tokens.

Rulesets keep their own state; these helpers work on plain lists of card codes and
on any units having ``token`` and ``in_play``, and leave narration (and the rule
ids it cites) to the ruleset.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from deathzap_tui.rules.cards import Card, shuffled
from deathzap_tui.rules.ruleset import SIDES
from deathzap_tui.rules.steps import Refused

ACTIVATIONS = {**{r: 1 for r in range(2, 11)}, 11: 2, 12: 2, 13: 2, 14: 3}
"""DZ3 §2 (and CH §2): activations granted by a card's rank (2-10: 1, J/Q/K: 2,
A: 3)."""


class HasToken(Protocol):
    token: bool


class Activatable(Protocol):
    token: bool

    @property
    def in_play(self) -> bool: ...


def activations_for(card: Card) -> int:
    """What ``card`` grants its colour (DZ3 §2); a joker grants nobody anything."""
    return 0 if card.is_joker else ACTIVATIONS[card.rank]


def normalise_card(code: str) -> str:
    """A card code typed by a player, in normal form; ``Refused`` if it is none."""
    try:
        return Card.parse(code).code
    except ValueError as exc:
        raise Refused(str(exc)) from None


def named_card(intent: Mapping[str, Any], by: str) -> str:
    """The card a draw ``intent`` names ("" for the top of the deck), as it was typed.

    Only a shared table (``by`` empty: hot seat) names the card it flipped from a
    physical deck. A player acting from their own terminal (hosted, play by turn)
    draws the top of the deck the app shuffled: a named card is refused before it is
    looked at, so the refusal is the same whatever the card, and never tells where a
    card is (another player's Command Hand, the deck)."""
    named = str(intent.get("card", "") or "")
    if named and by:
        raise Refused("the app shuffled this deck: a draw takes its top card, and "
                      "naming the card is only for a physical deck at a shared table")
    return named


def take_card(ctx: Any, deck: list[str], discard: list[str], named: str = "") -> Card:
    """Flip the top card of ``deck`` (or the ``named`` one a player flipped from a
    physical deck) onto ``discard``. The card is turned for good (``ctx.turned``): the
    draw can no longer be cancelled, only confirmed."""
    code = named or deck[0]
    deck.remove(code)
    discard.append(code)
    ctx.turned = True
    return Card.parse(code)


def in_play(units: Iterable[Activatable]) -> list[Activatable]:
    return [u for u in units if u.in_play]


def side_to_reset(units: Mapping[str, Sequence[Activatable]]) -> str:
    """DZ3 §4, DZ3-R4 (CH §6): the first side (red, then black) every unit in play of
    which carries a token, or "". A side with no unit in play never triggers the
    reset (nothing "has activated")."""
    for side in SIDES:
        live = in_play(units[side])
        if live and all(u.token for u in live):
            return side
    return ""


def clear_tokens(*groups: Iterable[HasToken]) -> None:
    """Remove every activation token (units, objectives...): the reset and the joker."""
    for group in groups:
        for item in group:
            item.token = False


def deck_counts(codes: Iterable[str]) -> tuple[int, int, dict[str, int]]:
    """(cards, jokers, cards by colour) of a pile of card codes, for a deck view."""
    cards = [Card.parse(c) for c in codes]
    by_colour = {"red": sum(1 for c in cards if c.colour == "red"),
                 "black": sum(1 for c in cards if c.colour == "black")}
    return len(cards), sum(1 for c in cards if c.is_joker), by_colour


def activation_start(state: Any, unit_id: str, action: str, actions: Sequence[str],
                     setup_first: str) -> tuple[str, Any]:
    """The checks every activation starts with (DZ3 §3 / CH §3): the game goes on,
    the set-up is done (else ``setup_first``, the ruleset's words), the unit exists
    and ``action`` is one of ``actions``. ``(why not, None)`` or ``("", unit)``."""
    if state.over:
        return "the game is over", None
    if state.phase != "battle":
        return setup_first, None
    try:
        unit = state.unit(unit_id)
    except KeyError:
        return f"there is no unit {unit_id!r}", None
    if action not in actions:
        return f"unknown action {action!r}; one of {', '.join(actions)}", None
    return "", unit


def fresh_deck(state: Any, cards: list[Card]) -> None:
    """Start a new activation deck: ``cards`` shuffled with the game's secret deal RNG
    (``state.deal_rng``, not the dice's), an empty discard pile, one more deck used
    (DZ3-R2 / CH-R5 "as DZ3-R2")."""
    state.deck = [c.code for c in shuffled(cards, state.deal_rng)]
    state.discard = []
    state.decks_used += 1

"""Command Hand engine: intents -> resolutions, and what may be done now.

Intents (plain dicts, saved in the log):

- ``{"type": "rolloff"}`` — set-up: roll off for home edges (CH §1).
- ``{"type": "objectives"}`` — set-up, CH-R5 objectives option only: board depth and
  the five objectives' distances from Red's home edge (as DZ3 §1).
- ``{"type": "draw"}`` or ``{"type": "draw", "card": "10H"}`` — flip the next card of
  the activation deck (or the one flipped from a physical deck, only at a shared
  table: ``activations.named_card``) (CH §2).
- ``{"type": "interrupt", "card": "5S"}`` — play a card from the Command Hand against
  the flipped card of the other colour (CH §2, CH-R2, CH-R3). Only while the
  interrupt window is open (``state.window``), only by that side.
- ``{"type": "pass"}`` — the side with the window declines to interrupt.
- ``{"type": "activate", "unit": "red.2", "action": A}`` with A one of ``run``,
  ``charge``, ``fight``, ``walk-shoot``, ``aimed``, ``disengage``, ``recharge``
  (CH §3); ``"flank": true`` for an entering unit trying to come on from a side edge.

``resolution`` raises :class:`~deathzap_tui.rules.steps.Refused` with the reason when
an intent is not legal now; ``intents(state, viewer)`` lists only legal ones, and
never another player's hand cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from deathzap_tui.rules.activations import activations_for, named_card
from deathzap_tui.rules.cards import Card
from deathzap_tui.rules.commandhand import deck as deckmod
from deathzap_tui.rules.commandhand import setup
from deathzap_tui.rules.commandhand.actions import (
    ACTION_NAMES,
    ACTIONS,
    activate,
    activation_refusal,
)
from deathzap_tui.rules.commandhand.common import uname
from deathzap_tui.rules.commandhand.state import State
from deathzap_tui.rules.narration import card_label, plural, side_name
from deathzap_tui.rules.ruleset import ADVANCE, OTHER, SIDES, UNIT, IntentOption
from deathzap_tui.rules.setup import SetupSequence, SetupStep
from deathzap_tui.rules.steps import Maker, Refused, at_once, intent_kind, refuse_if

INTENT_TYPES = ("rolloff", "objectives", "draw", "interrupt", "pass", "activate")
SECRET_TYPES = ("interrupt", "pass")
"""Intents that only the side holding the hand may see: they name its cards."""
ROLLOFF = SetupStep("rolloff", "rolloff", "Roll off for home edges", "the roll-off is done",
                    "CH §1", setup.rolloff)
OBJECTIVES = SetupStep("objectives", "objectives", "Place the objectives",
                       "the objectives are already placed", "CH-R5 / DZ3 §1", setup.objectives)


def setup_steps(state: State) -> SetupSequence:
    """Set-up (CH §1): the roll-off for home edges, then the objectives only with the
    CH-R5 'objectives' victory option."""
    return SetupSequence((ROLLOFF, OBJECTIVES) if state.objectives_mode else (ROLLOFF,))


def resolution(state: State, intent: Mapping[str, Any], by: str = "") -> Maker:
    """The resolution for ``intent``; raises ``Refused`` saying why it is not legal."""
    kind = intent_kind(intent, INTENT_TYPES, state.over)
    if kind == "objectives" and not state.objectives_mode:
        raise Refused("objectives are only used with the 'objectives' victory option "
                      "(CH-R5)")
    pregame = setup_steps(state).resolution(state.phase, kind)
    if pregame is not None:
        return pregame
    if kind == "draw":
        refuse_if(deckmod.draw_refusal(state))
        named = named_card(intent, by)
        if named:
            named = deckmod.check_named_card(state, named)
        return at_once(partial(deckmod.draw, named=named))
    if kind == "interrupt":
        code = str(intent.get("card", ""))
        refuse_if(deckmod.interrupt_refusal(state, code, by))
        return at_once(partial(deckmod.interrupt, code=Card.parse(code).code))
    if kind == "pass":
        refuse_if(deckmod.pass_refusal(state, by))
        return at_once(deckmod.pass_interrupt)
    unit_id = str(intent.get("unit", ""))
    action = str(intent.get("action", ""))
    flank = intent.get("flank", False)
    if not isinstance(flank, bool):
        raise Refused("flank is true or false")
    refuse_if(activation_refusal(state, unit_id, action, flank, by))
    return partial(activate, unit_id=unit_id, action=action, flank=flank)


def _all_intents(state: State) -> list[IntentOption]:
    if state.over:
        return []
    if state.phase != "battle":
        return setup_steps(state).intents(state.phase)
    if state.window:
        side = state.window
        flipped = Card.parse(state.card)
        out = []
        for code in state.hands[side]:
            card = Card.parse(code)
            when = "first" if deckmod.goes_first(card, flipped) else f"after {flipped.label}"
            out.append(IntentOption(
                {"type": "interrupt", "card": code},
                f"Interrupt {flipped.label} with {card.label}: "
                f"{plural(activations_for(card), 'activation')}, {when}",
                side, "CH §2", OTHER))
        out.append(IntentOption({"type": "pass"}, f"Do not interrupt {flipped.label}", side,
                                "CH §2", OTHER))
        return out
    out = []
    if not deckmod.draw_refusal(state):
        label = "Flip a card" if state.deck else (
            "The deck is exhausted: end the game" if deckmod.deck_runs_out_ends_game(state)
            else "Shuffle a fresh deck and flip a card")
        out.append(IntentOption({"type": "draw"}, label, rule="CH §2", group=ADVANCE))
    g = state.grant
    if g is not None:
        for u in state.units[g.side]:
            if not u.ready:
                continue
            for a in ACTIONS:
                if not activation_refusal(state, u.id, a):
                    out.append(IntentOption({"type": "activate", "unit": u.id, "action": a},
                                            f"{uname(state, u)}: {ACTION_NAMES[a]}", g.side,
                                            "CH §3", UNIT))
                if not u.entered and not activation_refusal(state, u.id, a, flank=True):
                    out.append(IntentOption(
                        {"type": "activate", "unit": u.id, "action": a, "flank": True},
                        f"{uname(state, u)}: flank (4+ from a side edge), then "
                        f"{ACTION_NAMES[a]}", g.side, "CH §3", UNIT))
    return out


def intents(state: State, viewer: str | None = None) -> list[IntentOption]:
    """What may be done now. ``viewer`` None: the whole table (everything);
    ``"red"``/``"black"``: what that side may do plus the shared ones (drawing), never
    the other side's hand; ``WATCH``: only intents that reveal no hand."""
    out = _all_intents(state)
    if viewer is None:
        return out
    if viewer in SIDES:
        return [o for o in out if o.side in (None, viewer)]
    # WATCH (or anything else): nothing that names a hand card
    return [o for o in out if o.intent.get("type") not in SECRET_TYPES]


def prompt(state: State) -> str:
    """Whose move it is and what comes next, in words (public: no hand cards)."""
    if state.over:
        return "Game over"
    if state.phase != "battle":
        return setup_steps(state).prompt(state.phase)
    if state.window:
        return (f"{side_name(state.window)} may interrupt {card_label(state.card)} with a "
                "Command Hand card, or pass")
    g = state.grant
    if g is not None and deckmod.draw_refusal(state):
        return (f"{side_name(g.side)} to activate ({g.remaining} of {g.granted} left from "
                f"{card_label(g.card)})")
    if not state.deck and deckmod.deck_runs_out_ends_game(state):
        return "The deck is exhausted: flip to end the game"
    return "Flip a card"

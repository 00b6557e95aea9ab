"""Deathzap 3 engine: intents -> resolutions, and what may be done now.

Intents (plain dicts, saved in the log):

- ``{"type": "rolloff"}`` — set-up 1: roll off for entry edges (DZ3 §1).
- ``{"type": "objectives"}`` — set-up 2: board depth and the five objectives'
  distances from Red's edge (DZ3 §1, §12).
- ``{"type": "draw"}`` or ``{"type": "draw", "card": "10H"}`` — flip the next card
  (or the one the players flipped from a physical deck, only at a shared table:
  ``activations.named_card``) (DZ3 §2, §4, DZ3-R1..R3).
- ``{"type": "activate", "unit": "red.3", "action": A}`` with A one of ``advance``,
  ``charge``, ``cover-ground``, ``signal``, ``protect``; optionally
  ``"command": "red.0.0"`` (a leader figure spending a command point for the one
  extra activation of this card, DZ3 §11, DZ3-R14).
- ``{"type": "end"}`` — end the game by agreement (only with the ``end =
  "agreement"`` option, DZ3-R2). With the other options the game ends when a draw
  finds the deck exhausted for good.

``resolution`` raises :class:`~deathzap_tui.rules.steps.Refused` with the reason when
an intent is not legal now; ``intents`` lists only legal ones.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from deathzap_tui.rules.activations import named_card
from deathzap_tui.rules.deathzap3 import deck as deckmod
from deathzap_tui.rules.deathzap3 import setup
from deathzap_tui.rules.deathzap3.activation import (
    ACTION_NAMES,
    ACTIONS,
    activate,
    activation_refusal,
)
from deathzap_tui.rules.deathzap3.common import side_name, uname
from deathzap_tui.rules.deathzap3.state import State
from deathzap_tui.rules.ruleset import ADVANCE, END, UNIT, IntentOption
from deathzap_tui.rules.setup import SetupSequence, SetupStep
from deathzap_tui.rules.steps import Maker, Refused, at_once, intent_kind, refuse_if

INTENT_TYPES = ("rolloff", "objectives", "draw", "activate", "end")
SETUP_STEPS = SetupSequence((
    SetupStep("rolloff", "rolloff", "Roll off for entry edges", "the roll-off is done",
              "DZ3 §1", setup.rolloff),
    SetupStep("objectives", "objectives", "Place the objectives",
              "the objectives are already placed", "DZ3 §1", setup.objectives),
))
"""Set-up (DZ3 §1): the roll-off for entry edges, then the objectives."""


def resolution(state: State, intent: Mapping[str, Any], by: str = "") -> Maker:
    """The resolution for ``intent``; raises ``Refused`` saying why it is not legal."""
    kind = intent_kind(intent, INTENT_TYPES, state.over)
    pregame = SETUP_STEPS.resolution(state.phase, kind)
    if pregame is not None:
        return pregame
    if kind == "draw":
        refuse_if(deckmod.draw_refusal(state))
        named = named_card(intent, by)
        if named:
            named = deckmod.check_named_card(state, named)
            if not state.deck and deckmod.exhausted_action(state) == "end":
                raise Refused("the deck is exhausted: no card to name")
        return at_once(partial(deckmod.draw, named=named))
    if kind == "end":
        if state.options.get("end") != "agreement":
            raise Refused("ending by agreement needs the 'agreement' game-end option (DZ3-R2); "
                          "this game ends when the deck runs out")
        return at_once(deckmod.end_by_agreement)
    unit_id = str(intent.get("unit", ""))
    action = str(intent.get("action", ""))
    command = str(intent.get("command", "") or "")
    refuse_if(activation_refusal(state, unit_id, action, command, by))
    return partial(activate, unit_id=unit_id, action=action, command=command)


def intents(state: State) -> list[IntentOption]:
    """Everything legal now, as menu entries."""
    if state.over:
        return []
    if state.phase != "battle":
        return SETUP_STEPS.intents(state.phase)
    out: list[IntentOption] = []
    if not deckmod.draw_refusal(state):
        if state.deck:
            label = "Draw a card"
        elif deckmod.exhausted_action(state) == "reshuffle":
            label = "Shuffle a fresh deck and draw"
        else:
            label = "The deck is exhausted: end the game"
        out.append(IntentOption({"type": "draw"}, label, rule="DZ3 §2 / DZ3-R2",
                                group=ADVANCE))
    side = state.card_side
    if side:
        units = [u for u in state.units[side] if u.ready]
        if state.remaining:
            for u in units:
                for a in ACTIONS:
                    if not activation_refusal(state, u.id, a):
                        out.append(IntentOption(
                            {"type": "activate", "unit": u.id, "action": a},
                            f"{uname(state, u)}: {ACTION_NAMES[a]}", side, "DZ3 §3", UNIT))
        if not state.command_used:
            leaders = [f for lu in state.units[side] if lu.in_play for f in lu.figures
                       if f.alive and f.leader and f.command > 0]
            for f in leaders:
                for u in units:
                    for a in ACTIONS:
                        if not activation_refusal(state, u.id, a, f.id):
                            out.append(IntentOption(
                                {"type": "activate", "unit": u.id, "action": a,
                                 "command": f.id},
                                f"{uname(state, u)}: {ACTION_NAMES[a]} (command: {f.name}, "
                                f"{f.command} CP)", side, "DZ3 §11", UNIT))
    if state.options.get("end") == "agreement":
        out.append(IntentOption({"type": "end"}, "End the game by agreement", rule="DZ3-R2",
                                group=END))
    return out


def prompt(state: State) -> str:
    """Whose move it is and what comes next, in words."""
    if state.over:
        return "Game over"
    if state.phase != "battle":
        return SETUP_STEPS.prompt(state.phase)
    if state.card_side and state.remaining and deckmod.draw_refusal(state):
        return (f"{side_name(state.card_side)} to activate ({state.remaining} of "
                f"{state.granted} left)")
    if not state.deck and deckmod.exhausted_action(state) == "end":
        return "The deck is exhausted: draw to end the game"
    return "Draw a card"

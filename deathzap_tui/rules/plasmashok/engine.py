"""Deathzap Plasmashok engine: intents -> resolutions, and what may be done now.

Intents (plain dicts, saved in the log):

- ``{"type": "rolloff"}`` — set-up: roll off for base lines (PS §1).
- ``{"type": "next"}`` — move the turn on (PS §3): the movement roll-off, handing
  movement to the other side, ending a training bracket (its casualties come off),
  the end-of-melee rolls, the morale phase.
- ``{"type": "engage", "unit": "red.1", "target": "black.0"}`` — movement: the unit
  moves into base contact with an enemy unit (the resolution asks about others)
  (PS §3, app reading 4).
- ``{"type": "special", "unit": "red.0"}`` — special combat: one unit attacks (PS §4).
- ``{"type": "shoot", "unit": "black.0"}`` — shooting: one unit fires (PS §5).
- ``{"type": "fight", "unit": "red.1"}`` — melee: one unit attacks (PS §6).
- ``{"type": "end"}`` — end the game by agreement (decided as PS §8).

``resolution`` raises :class:`~deathzap_tui.rules.steps.Refused` saying why an intent
is not legal now; ``intents`` lists only legal ones. Plasmashok has no hidden
information: every viewer is offered the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from deathzap_tui.rules.plasmashok import movement, setup, tables, turn
from deathzap_tui.rules.plasmashok.common import in_play, uname
from deathzap_tui.rules.plasmashok.state import State
from deathzap_tui.rules.plasmashok.victory import POINTS_RULE, end_by_agreement, end_refusal
from deathzap_tui.rules.ruleset import ADVANCE, END, UNIT, IntentOption, other_side
from deathzap_tui.rules.setup import SetupSequence, SetupStep
from deathzap_tui.rules.steps import Maker, at_once, intent_kind, refuse_if

INTENT_TYPES = ("rolloff", "next", "engage", "special", "shoot", "fight", "end")
SETUP_STEPS = SetupSequence((
    SetupStep("rolloff", "rolloff", "Roll off for base lines", "the roll-off is done",
              "PS §1", setup.rolloff),
))
"""Set-up (PS §1): the roll-off for base lines."""


def resolution(state: State, intent: Mapping[str, Any], by: str = "") -> Maker:
    """The resolution for ``intent``; raises ``Refused`` saying why it is not legal."""
    kind = intent_kind(intent, INTENT_TYPES, state.over)
    pregame = SETUP_STEPS.resolution(state.stage, kind)
    if pregame is not None:
        return pregame
    unit = str(intent.get("unit", ""))
    if kind == "next":
        refuse_if(turn.next_refusal(state, by))
        return turn.advance
    if kind == "engage":
        target = str(intent.get("target", ""))
        refuse_if(movement.engage_refusal(state, unit, target, by))
        return partial(movement.engage, unit_id=unit, target_id=target)
    if kind in turn.BY_INTENT:
        phase = turn.BY_INTENT[kind]
        refuse_if(turn.act_refusal(state, phase.id, unit, by))
        assert phase.action is not None
        return partial(phase.action, unit_id=unit)
    refuse_if(end_refusal(state))
    return at_once(end_by_agreement)


def intents(state: State) -> list[IntentOption]:
    """Everything legal now, as menu entries (the same for every viewer)."""
    if state.over:
        return []
    if state.stage != "battle":
        return SETUP_STEPS.intents(state.stage)
    out: list[IntentOption] = []
    if not turn.next_refusal(state):
        out.append(IntentOption({"type": "next"}, turn.next_label(state),
                                state.mover or None, "PS §3", ADVANCE))
    if state.step == "movement":
        out += _movement_intents(state)
    elif state.step in tables.BRACKET_PHASES:
        phase = turn.PHASES[state.step]
        out += [IntentOption({"type": phase.intent, "unit": u.id},
                             f"{uname(state, u)}: {phase.label}", u.side, phase.rule, UNIT)
                for u in turn.able(state, state.bracket)]
    if not end_refusal(state):
        out.append(IntentOption({"type": "end"}, f"End the game by agreement ({POINTS_RULE})",
                                rule="PS §8", group=END))
    return out


def _movement_intents(state: State) -> list[IntentOption]:
    side = state.mover
    out = []
    for u in in_play(state, side):
        for e in in_play(state, other_side(side)):
            if not movement.engage_refusal(state, u.id, e.id):
                out.append(IntentOption({"type": "engage", "unit": u.id, "target": e.id},
                                        f"{uname(state, u)}: move into contact with "
                                        f"{uname(state, e)}", side, "PS §3", UNIT))
    return out

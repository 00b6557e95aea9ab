"""Deathzap Classic engine: intents -> resolutions, and what may be done now.

Intents (plain dicts, saved in the log):

- ``{"type": "rolloff"}`` — set-up: roll off for base lines (CL §1).
- ``{"type": "generals"}`` — set-up: each side names its general (CL §1).
- ``{"type": "next"}`` — move the turn on (CL §3): roll for impetus, hand movement
  to the other side, end shooting (casualties come off, CL-R2), end the melee phase,
  play the morale phase.
- ``{"type": "engage", "unit": "red.1", "target": "black.0"}`` — movement: the unit
  moves into contact with an enemy unit (the resolution asks about others) (CL §4).
- ``{"type": "merge", "unit": "red.2", "into": "red.1"}`` — movement: rallying by
  merging, the moving unit (a steady one joining a panicked one, or a lone figure)
  joins the second (CL §4).
- ``{"type": "macguffin", "unit": "red.1"}`` — movement, MacGuffin objective: the
  unit carries it off the table (CL §8).
- ``{"type": "shoot", "unit": "black.0"}`` — shooting: one unit fires (CL §5).
- ``{"type": "fight", "unit": "red.1"}`` — melee: the melee holding that unit (CL §6).
- ``{"type": "end"}`` — end the game by agreement.

``resolution`` raises :class:`~deathzap_tui.rules.steps.Refused` saying why an intent
is not legal now; ``intents`` lists only legal ones. Classic has no hidden
information: every viewer is offered the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from deathzap_tui.rules.classic import combat, movement, setup, turn
from deathzap_tui.rules.classic.common import in_play, melees, names, uname
from deathzap_tui.rules.classic.state import State
from deathzap_tui.rules.classic.victory import agreement_rule, end_by_agreement, end_refusal
from deathzap_tui.rules.ruleset import ADVANCE, END, SIDES, UNIT, IntentOption, other_side
from deathzap_tui.rules.setup import SetupSequence, SetupStep
from deathzap_tui.rules.steps import Maker, at_once, intent_kind, refuse_if

INTENT_TYPES = ("rolloff", "generals", "next", "engage", "merge", "macguffin", "shoot",
                "fight", "end")
SETUP_STEPS = SetupSequence((
    SetupStep("rolloff", "rolloff", "Roll off for base lines", "the roll-off is done",
              "CL §1", setup.rolloff),
    SetupStep("general", "generals", "Name the generals", "the generals are already named",
              "CL §1", setup.generals),
))
"""Set-up (CL §1): the roll-off for base lines, then each side names its general."""


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
    if kind == "merge":
        into = str(intent.get("into", ""))
        refuse_if(movement.merge_refusal(state, unit, into, by))
        return partial(movement.merge, unit_id=unit, into_id=into)
    if kind == "macguffin":
        refuse_if(movement.macguffin_refusal(state, unit, by))
        return at_once(partial(movement.macguffin, unit_id=unit))
    if kind == "shoot":
        refuse_if(turn.shoot_refusal(state, unit, by))
        return partial(combat.shoot, unit_id=unit)
    if kind == "fight":
        refuse_if(turn.fight_refusal(state, unit))
        return partial(turn.fight, unit_id=unit)
    refuse_if(end_refusal(state))
    return end_by_agreement


def intents(state: State) -> list[IntentOption]:
    """Everything legal now, as menu entries (the same for every viewer)."""
    if state.over:
        return []
    if state.stage != "battle":
        return SETUP_STEPS.intents(state.stage)
    out: list[IntentOption] = []
    if not turn.next_refusal(state):
        out.append(IntentOption({"type": "next"}, turn.next_label(state),
                                state.mover or None, "CL §3", ADVANCE))
    if state.step == "movement":
        out += _movement_intents(state)
    elif state.step == "shooting":
        out += [IntentOption({"type": "shoot", "unit": u.id}, f"{uname(state, u)}: shoot",
                             u.side, "CL §5", UNIT)
                for side in SIDES for u in state.units[side]
                if not turn.shoot_refusal(state, u.id)]
    elif state.step == "melee":
        out += [IntentOption({"type": "fight", "unit": group[0].id},
                             f"Fight the melee: {names(state, group)}", None, "CL §6", UNIT)
                for group in melees(state)]
    if not end_refusal(state):
        out.append(IntentOption({"type": "end"}, "End the game by agreement ("
                                f"{agreement_rule(state)})", rule="CL §8", group=END))
    return out


def _movement_intents(state: State) -> list[IntentOption]:
    side = state.mover
    out = []
    units = in_play(state, side)
    for u in units:
        name = uname(state, u)
        for e in in_play(state, other_side(side)):
            if not movement.engage_refusal(state, u.id, e.id):
                out.append(IntentOption({"type": "engage", "unit": u.id, "target": e.id},
                                        f"{name}: move into contact with {uname(state, e)}",
                                        side, "CL §4", UNIT))
        for other in units:
            if not movement.merge_refusal(state, u.id, other.id):
                out.append(IntentOption({"type": "merge", "unit": u.id, "into": other.id},
                                        f"{name}: join {uname(state, other)} (rally by "
                                        "merging)", side, "CL §4", UNIT))
        if not movement.macguffin_refusal(state, u.id):
            out.append(IntentOption({"type": "macguffin", "unit": u.id},
                                    f"{name}: carry the MacGuffin off the table", side,
                                    "CL §8", UNIT))
    return out

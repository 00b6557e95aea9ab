"""Double Tap engine: intents -> resolutions, and what may be done now.

Intents (plain dicts, saved in the log):

- ``{"type": "rolloff"}`` — set-up: roll off for edges; the winner deploys first
  (DT §2).
- ``{"type": "deploy"}`` — set-up: the sides place their units in turn (DT §2, §7;
  app reading 2).
- ``{"type": "markers"}`` — set-up: D3 objective markers; round 1 begins (DT §2;
  app reading 3).
- ``{"type": "act", "unit": "red.2", "action": "advance"}`` — one activation point:
  the unit takes one action of :data:`tables.ACTIONS` or
  :data:`tables.SPECIAL_ACTIONS` (DT §3, §5, §7).
- ``{"type": "pass"}`` — the player ends its turn, forfeiting the points left (DT §3).
- ``{"type": "end"}`` — end the game by agreement (decided on markers, DT §2).

``resolution`` raises :class:`~deathzap_tui.rules.steps.Refused` saying why an intent
is not legal now; ``intents`` lists only legal ones. Double Tap has no hidden
information: every viewer is offered the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from deathzap_tui.rules.doubletap import actions, setup, tables, turn
from deathzap_tui.rules.doubletap.common import in_play, uname
from deathzap_tui.rules.doubletap.state import State
from deathzap_tui.rules.doubletap.victory import MARKERS_RULE, end_by_agreement
from deathzap_tui.rules.narration import side_name
from deathzap_tui.rules.ruleset import ADVANCE, END, UNIT, IntentOption
from deathzap_tui.rules.setup import SetupSequence, SetupStep
from deathzap_tui.rules.steps import Maker, at_once, intent_kind, refuse_if

INTENT_TYPES = ("rolloff", "deploy", "markers", "act", "pass", "end")
SETUP_STEPS = SetupSequence((
    SetupStep("rolloff", "rolloff", "Roll off for deployment edges", "the roll-off is done",
              "DT §2", setup.rolloff),
    SetupStep("deploy", "deploy", "Deploy the units", "the units are deployed", "DT §2",
              setup.deploy),
    SetupStep("markers", "markers", "Place the objective markers",
              "the markers are placed", "DT §2", setup.markers),
))
"""Set-up (DT §2): the roll-off for edges, deployment, the objective markers."""


def resolution(state: State, intent: Mapping[str, Any], by: str = "") -> Maker:
    """The resolution for ``intent``; raises ``Refused`` saying why it is not legal."""
    kind = intent_kind(intent, INTENT_TYPES, state.over)
    pregame = SETUP_STEPS.resolution(state.stage, kind)
    if pregame is not None:
        return pregame
    if kind == "end":
        return at_once(end_by_agreement)
    refuse_if(turn_refusal(state, by))
    if kind == "pass":
        return turn.pass_turn
    unit, action = str(intent.get("unit", "")), str(intent.get("action", ""))
    refuse_if(actions.action_refusal(state, unit, action, state.player))
    return partial(turn.act, unit_id=unit, action=action)


def turn_refusal(state: State, by: str = "") -> str:
    """Why ``by`` may not act or pass now ("" if it may): only on its turn, with a
    point left (DT §3)."""
    player = state.player
    if by and by != player:
        return f"it is {side_name(player)}'s turn (DT §3)"
    if not state.points[player]:
        return f"{side_name(player)} has no activation point left (DT §3)"
    return ""


def intents(state: State) -> list[IntentOption]:
    """Everything legal now, as menu entries (the same for every viewer)."""
    if state.over:
        return []
    if state.stage != "battle":
        return SETUP_STEPS.intents(state.stage)
    side = state.player
    out = [IntentOption({"type": "act", "unit": u.id, "action": a},
                        f"{uname(state, u)}: {tables.action_name(a)}", side,
                        turn.action_rule(a), UNIT)
           for u in in_play(state, side) for a in actions.ALL_ACTIONS
           if not actions.action_refusal(state, u.id, a, side)]
    out.append(IntentOption({"type": "pass"}, f"{side_name(side)} ends its turn (forfeits "
                            f"{turn.points_word(state.points[side])})", side, "DT §3",
                            ADVANCE))
    out.append(IntentOption({"type": "end"}, f"End the game by agreement ({MARKERS_RULE})",
                            rule="DT §2", group=END))
    return out

"""Set-up (PS §1): the roll-off for base lines; then the turns begin."""

from __future__ import annotations

from deathzap_tui.rules.narration import Gen
from deathzap_tui.rules.plasmashok import tables
from deathzap_tui.rules.plasmashok.state import State
from deathzap_tui.rules.plasmashok.victory import check_victory
from deathzap_tui.rules.setup import base_line_rolloff
from deathzap_tui.rules.steps import Context


def rolloff(ctx: Context) -> Gen:
    """PS §1: each side rolls a die (ties roll again); the higher picks its base-line
    edge and deploys first, the other side deploys on the opposite edge, every model
    within 6" of its own. A side without a unit loses at once (PS §8)."""
    state: State = ctx.state
    yield from base_line_rolloff(ctx, tables.EDGES, tables.DEPLOYMENT_ZONE, "model",
                                 "PS §1")
    state.stage = "battle"
    if not check_victory(ctx):
        ctx.say("Set-up done: roll off for movement to begin turn 1 (PS §3).")

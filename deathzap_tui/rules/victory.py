"""The end of a game, shared by the Deathzap-family rulesets: the state records the
result and the narration says it in one shape ("Game over: <reason>: Red wins (CL §8).").
"""

from __future__ import annotations

from deathzap_tui.rules.narration import side_name
from deathzap_tui.rules.steps import Context


def declare(ctx: Context, winner: str, reason: str, rule: str, score: str = "") -> None:
    """The game is over for ``reason``: ``winner`` is "red", "black" or "draw". The
    phase under way and the side moving are cleared; ``score`` (". Final score ...")
    is said after the reason but not kept in ``end_reason``."""
    state = ctx.state
    state.over = True
    state.winner = winner
    state.end_reason = reason
    state.step = ""
    state.mover = ""
    result = "a draw" if winner == "draw" else f"{side_name(winner)} wins"
    ctx.say(f"Game over: {reason}{score}: {result} ({rule}).")

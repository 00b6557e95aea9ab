"""The morale phase (CL §7), always the last phase of a turn."""

from __future__ import annotations

from deathzap_tui.rules.classic import tables
from deathzap_tui.rules.classic.common import uname
from deathzap_tui.rules.classic.state import State, UnitState
from deathzap_tui.rules.narration import Gen
from deathzap_tui.rules.steps import SUCCESSES, UNJUDGED, Context, DiceRequest, Luck


def morale_phase(ctx: Context) -> Gen:
    """CL §7: every panicked unit in play tests, Red's first.

    - A unit panicked during this turn fails without rolling and does not move.
    - A lone Infantry, Heavy Infantry or Beast figure (CL §4) fails without a test;
      app ruling: it still falls back, a D6 giving the distance as for a failed test.
    - Otherwise a D6: 4+ recovers; 1-3 falls back twice the roll in inches towards
      its deployment zone and stays panicked.

    App ruling: a unit in melee that fails does not fall back, since units in melee
    cannot move (CL §4); it stays panicked.

    Dice luck: a test is judged as a 4+ success (it recovers or it does not; the
    distance a failed unit falls back is no better or worse for it). A lone figure's
    die is only that distance: not judged.
    """
    state: State = ctx.state
    for unit in [u for u in state.all_units() if u.is_panicked]:
        name = uname(state, unit)
        if unit.panicked_turn == state.turn:
            ctx.say(f"{name} was panicked this turn: it fails its morale test but does not "
                    "move (CL §7).")
            continue
        alone = unit.alone
        d = yield DiceRequest(
            f"morale.{unit.id}", 1,
            f"{name}: fall-back distance" if alone else f"{name}: morale test", None,
            "a lone figure always fails; the die sets how far it falls back" if alone else
            f"{tables.MORALE_RECOVERS}+ recovers; 1-{tables.MORALE_RECOVERS - 1} falls back "
            f"{tables.MORALE_FALLBACK_FACTOR} x the roll", "CL §7", unit.side,
            luck=Luck(UNJUDGED) if alone else Luck(SUCCESSES, target=tables.MORALE_RECOVERS))
        roll = d.faces[0]
        if not alone and roll >= tables.MORALE_RECOVERS:
            unit.panicked = False
            ctx.say(f"{name} rolls {roll}: it recovers and is no longer panicked (CL §7).")
            continue
        why = "a lone figure always fails" if alone else "it fails"
        ctx.say(f"{name} rolls {roll}: {why}, {fall_back(state, unit, roll)} and stays "
                "panicked (CL §7).")


def fall_back(state: State, unit: UnitState, roll: int) -> str:
    """Where a unit that failed its morale test moves (CL §7), in words."""
    if unit.engaged:
        return "cannot move, being in melee (CL §4),"
    inches = roll * tables.MORALE_FALLBACK_FACTOR
    return (f"falls back {inches}\" towards its deployment zone (the "
            f"{state.edges[unit.side]} edge)")

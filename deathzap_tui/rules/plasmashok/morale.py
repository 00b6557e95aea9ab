"""The morale phase (PS §7), the last phase of every turn."""

from __future__ import annotations

from deathzap_tui.rules.dice import D3, d3_request
from deathzap_tui.rules.narration import Gen, plural
from deathzap_tui.rules.plasmashok import casualties
from deathzap_tui.rules.plasmashok.common import uname
from deathzap_tui.rules.plasmashok.state import State, UnitState
from deathzap_tui.rules.steps import TOTAL, Context, DiceRequest, Luck


def testing(state: State) -> list[UnitState]:
    """The units that test this turn, Red's first (PS §7, app reading 9): in play and
    with models removed this turn (app reading 2: a vehicle that took wounds but lives
    has no casualties)."""
    return [u for u in state.all_units() if u.in_play and u.lost_turn > 0]


def morale_phase(ctx: Context) -> Gen:
    """PS §7, app reading 9: every unit that lost models this turn rolls a D6 x its
    models left against a D6 x its casualties this turn (two dice, asked separately);
    a strictly higher casualty product routs one D6 read as a D3
    (:data:`~deathzap_tui.rules.dice.D3`) more models, the owner picking them
    (:func:`.casualties.remove_models`).

    Dice luck, for the unit's side that rolls all three: the die for the models left
    is better high, the die for the casualties better low (a higher casualty product
    routs), and the D3 die better low (fewer models rout), judged by its D3 value: a 1
    and a 2 rout the same one model."""
    state: State = ctx.state
    for unit in testing(state):
        name = uname(state, unit)
        left, lost = unit.figures_left, unit.lost_turn
        why = (f"D6 x {plural(left, 'model')} left against D6 x "
               f"{plural(lost, 'casualty', 'casualties')} this turn; casualties higher: "
               "D3 more models rout")
        kept = yield DiceRequest(f"morale.{unit.id}.left", 1,
                                 f"{name} morale: die for the {plural(left, 'model')} left",
                                 None, why, "PS §7", unit.side, luck=Luck(TOTAL))
        gone = yield DiceRequest(f"morale.{unit.id}.lost", 1,
                                 f"{name} morale: die for the "
                                 f"{plural(lost, 'casualty', 'casualties')}", None, why,
                                 "PS §7", unit.side, luck=Luck(TOTAL, more=False))
        stay, flee = kept.faces[0] * left, gone.faces[0] * lost
        head = (f"{name} morale: {kept.faces[0]} x {left} left = {stay} against "
                f"{gone.faces[0]} x {lost} lost = {flee}")
        if flee <= stay:
            ctx.say(f"{head}: it carries on (PS §7).")
            continue
        d3 = yield d3_request(f"morale.{unit.id}.rout", f"{name}: D3 models rout",
                              "PS §7", unit.side, more=False)
        count = D3[d3.faces[0]]
        ctx.say(f"{head}: the casualties are higher; the D3 die shows {d3.faces[0]}, so "
                f"{plural(count, 'more model')} {'routs' if count == 1 else 'rout'} (PS §7).")
        yield from casualties.remove_models(ctx, unit, count, f"morale.{unit.id}.pick",
                                            "PS §7")

"""The turn (CL §3): the impetus roll, the objectives (advanced game, first turn),
and moving from phase to phase with the ``next`` intent: movement hands over from the
impetus side to the other (CL §4), shooting ends by removing the casualties (CL §5,
CL-R2), melee ends once every melee is fought (CL §6), morale ends the turn (CL §7).
"""

from __future__ import annotations

from itertools import permutations

from deathzap_tui.rules.classic import combat, tables
from deathzap_tui.rules.classic.common import melees, names, uname
from deathzap_tui.rules.classic.morale import morale_phase
from deathzap_tui.rules.classic.state import State
from deathzap_tui.rules.classic.victory import advanced, check_victory, end_of_turn
from deathzap_tui.rules.narration import Gen, plural, side_name
from deathzap_tui.rules.phases import MOVEMENT, finish_moving, moving_label, moving_refusal
from deathzap_tui.rules.ruleset import SIDES, other_side
from deathzap_tui.rules.steps import TOTAL, Choice, Context, DiceRequest, Luck, Question

PHASE_NAMES = {p: p.capitalize() for p in tables.PHASES}
ORDERS = tuple(",".join(o) for o in permutations(tables.ORDERABLE))
"""CL §3: the six orders of movement, shooting and melee, as "movement,shooting,melee"
(the first is the default)."""


def order_words(order: str) -> str:
    return ", ".join(order.split(","))


def phases(state: State) -> tuple[str, ...]:
    """This turn's phases in play order: impetus, the chosen order (the default one
    before the impetus roll), morale (CL §3)."""
    middle = state.order or ORDERS[0].split(",")
    return ("impetus", *middle, "morale")


def next_phase(state: State) -> str:
    """The phase after the one under way ("morale" after the last ordered one)."""
    sequence = phases(state)
    return sequence[sequence.index(state.step) + 1]


def next_label(state: State) -> str:
    """What the ``next`` intent does now, in words (its menu entry)."""
    if state.step == MOVEMENT:
        return moving_label(state)
    if state.step == "shooting":
        return "End shooting: remove casualties"
    if state.step == "melee":
        return "End the melee phase"
    if state.step == "morale":
        return "Morale phase"
    return "Roll for impetus"


ADVANCE_KEYS = {"movement": "Done moving", "shooting": "End shooting", "melee": "End melee",
                "morale": "Morale"}
"""The advance key's label by the phase under way: short, for an 80-column key bar."""


def advance_label(state: State) -> str:
    """The advance key's label (:func:`next_label` is the whole sentence)."""
    return ADVANCE_KEYS.get(state.step, "Impetus")


def next_refusal(state: State, by: str = "") -> str:
    """Why ``next`` may not be played now ("" if it may)."""
    why = moving_refusal(state, by, "CL §4")
    if why:
        return why
    if state.step == "melee":
        unfought = melees(state)
        if unfought:
            return (f"fight every melee first: {names(state, unfought[0])} have not fought "
                    "yet (CL §6)")
    return ""


def advance(ctx: Context) -> Gen:
    """The ``next`` intent: finish what is under way and start what comes next."""
    state: State = ctx.state
    if state.step == "":
        yield from _impetus(ctx)
        _enter(ctx, state.order[0])
    elif state.step == MOVEMENT:
        if not finish_moving(ctx, state.impetus, "CL §4"):
            _enter(ctx, next_phase(state))
    elif state.step == "morale":
        yield from morale_phase(ctx)
        state.step = ""
        ctx.say(f"End of turn {state.turn}.")
        yield from end_of_turn(ctx)
    else:
        if state.step == "shooting":
            yield from combat.end_of_shooting(ctx)
            if (yield from check_victory(ctx)):
                return
        _enter(ctx, next_phase(state))


def _enter(ctx: Context, phase: str) -> None:
    state: State = ctx.state
    state.step = phase
    head = f"Turn {state.turn}, {phase} phase"
    if phase == MOVEMENT:
        state.mover = state.impetus
        ctx.say(f"{head}: {side_name(state.mover)} has the impetus and moves first (CL §4).")
    elif phase == "shooting":
        ctx.say(f"{head}: both sides shoot; casualties come off once everyone has fired "
                "(CL §5, CL-R2).")
    elif phase == "melee":
        count = len(melees(state))
        ctx.say(f"{head}: {plural(count, 'melee') if count else 'no melee'} to fight "
                "(CL §6).")
    else:
        count = sum(1 for u in state.all_units() if u.is_panicked)
        ctx.say(f"{head}: {plural(count, 'panicked unit') if count else 'no panicked unit'} "
                "to test (CL §7).")


def _impetus(ctx: Context) -> Gen:
    """CL §3: each side rolls a D6 + 1 per panicked enemy unit; equal totals roll
    again (CL-R1). In the advanced game's first turn the objectives are rolled right
    after (CL §8); then the winner chooses the order of the turn."""
    state: State = ctx.state
    state.turn += 1
    for unit in state.all_units():
        unit.shot = False
    bonus = {s: sum(1 for u in state.units[other_side(s)] if u.is_panicked) for s in SIDES}
    attempt = 1
    while True:
        totals = {}
        for side in SIDES:
            d = yield DiceRequest(
                f"impetus.{attempt}.{side}", 1, f"Impetus: {side_name(side)}'s die", None,
                f"D6 + {bonus[side]} for panicked enemy units; the higher total chooses "
                "the order of the turn", "CL §3", side, luck=Luck(TOTAL))
            totals[side] = d.faces[0] + bonus[side]
            extra = f" + {bonus[side]} (panicked enemy units) = {totals[side]}"
            ctx.say(f"Turn {state.turn} impetus: {side_name(side)} rolls {d.faces[0]}"
                    + (extra if bonus[side] else "") + ".")
        if totals["red"] != totals["black"]:
            break
        ctx.say("Equal totals: both roll again (CL-R1).")
        attempt += 1
    winner = "red" if totals["red"] > totals["black"] else "black"
    state.impetus = winner
    state.impetus_totals = totals
    ctx.say(f"{side_name(winner)} has the impetus ({totals[winner]} v "
            f"{totals[other_side(winner)]}) (CL §3).")
    if advanced(state) and state.turn == 1:
        yield from _roll_objectives(ctx)
    order = yield Question(
        "order", f"{side_name(winner)} has the impetus: in which order are movement, "
        "shooting and melee played this turn?",
        tuple(Choice(o, order_words(o).capitalize()) for o in ORDERS), rule="CL §3",
        side=winner, default=ORDERS[0])
    state.order = order.split(",")
    ctx.say(f"{side_name(winner)} chooses {order_words(order)}, then morale (CL §3).")


def _roll_objectives(ctx: Context) -> Gen:
    """CL §8: one D6 on each objective table; both sides play for the same two
    (CL-R5)."""
    state: State = ctx.state
    for number, table in enumerate((tables.OBJECTIVES_1, tables.OBJECTIVES_2), 1):
        d = yield DiceRequest(f"objective.{number}", 1, f"Objective table {number}", None,
                              "one D6 on each table", "CL §8")
        objective = table[d.faces[0]]
        state.objectives.append(objective)
        ctx.say(f"Objective table {number}: rolled {d.faces[0]}, "
                f"{tables.OBJECTIVE_NAMES[objective]} (CL §8).")
    ctx.say("Both sides play for these two objectives (CL-R5).")


# --- what units do in the shooting and melee phases ----------------------------------


def shoot_refusal(state: State, unit_id: str, by: str = "") -> str:
    """CL §5: units shoot in the shooting phase, each once, if :mod:`.combat` lets
    them; only their owner fires them."""
    if state.step != "shooting":
        return "units shoot only in the shooting phase (CL §5)"
    why = combat.shoot_refusal(state, unit_id)
    if why:
        return why
    unit = state.unit(unit_id)
    if by and by != unit.side:
        return f"{uname(state, unit)} is {side_name(unit.side)}'s unit"
    return ""


def fight_refusal(state: State, unit_id: str) -> str:
    """CL §6: melees are fought in the melee phase, each once."""
    if state.step != "melee":
        return "melees are fought in the melee phase (CL §6)"
    return combat.fight_refusal(state, unit_id)


def fight(ctx: Context, unit_id: str) -> Gen:
    """The whole melee containing the unit (CL §6); then the game may be won at once
    (CL §8, :func:`.victory.check_victory`)."""
    yield from combat.fight(ctx, unit_id)
    yield from check_victory(ctx)

"""Rounds and turns (DT §2, §3): each round the side that deployed first plays a turn,
then the other (app reading 1). A turn is spent in activation points, one per living
unit of the player when it begins, one per action, the same unit as often as the
player likes; it ends when the points are spent or the player passes (forfeiting
the rest). After both turns the markers are seized (app reading 4) and, after the
last round, the game is decided on them; otherwise the next round begins with the
Ambush arrivals (from round 2, app reading 5).

Before a poisoned unit's action it tests against its poison (DT §7, app reading 9);
the action itself, with its reactions, is :func:`.actions.perform`."""

from __future__ import annotations

from deathzap_tui.rules.doubletap import actions, tables
from deathzap_tui.rules.doubletap.attacks import regenerates
from deathzap_tui.rules.doubletap.common import in_play, kill, living, names, uname
from deathzap_tui.rules.doubletap.state import MarkerState, State, UnitState
from deathzap_tui.rules.doubletap.victory import (
    check_victory,
    end_of_round,
    held_words,
    holding,
)
from deathzap_tui.rules.narration import Gen, ask_yes_no, dice_text, plural, side_name
from deathzap_tui.rules.ruleset import SIDES, other_side
from deathzap_tui.rules.setup import roll_off
from deathzap_tui.rules.steps import Choice, Context, DiceRequest, Question

ACTION_RULES = {"recover": "DT §5"}
"""The rule of each action that is not a DT §3 action or a DT §7 special action."""


def action_rule(action: str) -> str:
    """The rule an action comes from: DT §3 (the table), DT §5 (recover), DT §7."""
    return "DT §3" if action in tables.ACTIONS else ACTION_RULES.get(action, "DT §7")


def points_word(n: int) -> str:
    return plural(n, "activation point")


# --------------------------------------------------------------------------- rounds
def begin_battle(ctx: Context) -> Gen:
    """After the set-up: a side without a unit loses at once (app reading 4), else
    round 1 begins."""
    if not check_victory(ctx):
        yield from _new_round(ctx)


def _new_round(ctx: Context) -> Gen:
    state: State = ctx.state
    state.round += 1
    state.turns_played = 0
    ctx.say(f"Round {state.round} of {state.options['rounds']}: "
            f"{side_name(state.first)} plays the first turn, then "
            f"{side_name(other_side(state.first))} (DT §3).")
    if state.round > 1:
        yield from arrivals(ctx)
    start_turn(ctx, state.first)


def start_turn(ctx: Context, side: str) -> None:
    """App reading 1: the player gets one point per living unit, reserve included."""
    state: State = ctx.state
    state.player = side
    state.points[side] = len(living(state, side))
    ctx.say(f"{side_name(side)}'s turn: {points_word(state.points[side])}, one per "
            "living unit (DT §3).")


def arrivals(ctx: Context) -> Gen:
    """App reading 5, DT §7 Ambush: each unit in reserve may arrive now, its owner
    says; with reserves on both sides a roll-off says who places first, then the
    sides alternate."""
    state: State = ctx.state
    reserves = {s: [u for u in state.units[s] if u.alive and u.reserve] for s in SIDES}
    if not any(reserves.values()):
        return
    if all(reserves.values()):
        first = yield from roll_off(ctx, "the higher roll places the first unit arriving "
                                    "from reserve", "DT §7")
    else:
        first = next(s for s in SIDES if reserves[s])
    order = (first, other_side(first))
    for i in range(max(len(us) for us in reserves.values())):
        for side in (s for s in order if i < len(reserves[s])):
            yield from _arrive(ctx, reserves[side][i])


def _arrive(ctx: Context, unit: UnitState) -> Gen:
    state: State = ctx.state
    name = uname(state, unit)
    away = f"anywhere over {tables.AMBUSH_DISTANCE}\" from enemy units"
    if (yield from ask_yes_no(f"arrive.{unit.id}", f"{name}: arrive from reserve now, "
                              f"{away}?", "DT §7", unit.side)):
        unit.reserve = False
        unit.placed = True
        ctx.say(f"{name} arrives from reserve: it is placed {away} (DT §7 Ambush).")
    else:
        ctx.say(f"{name} stays in reserve (DT §7 Ambush).")


# --------------------------------------------------------------------------- a turn
def act(ctx: Context, unit_id: str, action: str) -> Gen:
    """One activation point (DT §3): spent first; a poisoned unit then tests (DT §7,
    app reading 9), and only if it lives does it act. After the action a side with
    no living unit loses (app reading 4); with no point left the turn ends."""
    state: State = ctx.state
    side = state.player
    unit = state.unit(unit_id)
    state.points[side] -= 1
    ctx.say(f"{uname(state, unit)}: {tables.action_name(action)} "
            f"({points_word(state.points[side])} left) ({action_rule(action)}).")
    if not unit.poisoned or (yield from poison_check(ctx, unit)):
        yield from actions.perform(ctx, unit_id, action)
    if check_victory(ctx):
        return
    if not state.points[side]:
        ctx.say(f"{side_name(side)} has spent its activation points (DT §3).")
        yield from end_turn(ctx)


def poison_check(ctx: Context, unit: UnitState) -> Gen:
    """DT §7 Poison Gear, app reading 9: the poisoned unit rolls one die before its
    action: 3+ cures it, anything else would kill it (the point stays spent).
    Regeneration works "whenever this unit would be killed" (DT §7), so it rolls
    first (``regen.<unit>``); app reading: a unit it saves acts, still poisoned, and
    tests again at its next action. Returns whether it lives.

    Harm (the end-of-game report): a failed test is one damage by the unit that
    poisoned it (``None`` when the state does not know it), with a kill unless
    Regeneration saved it."""
    state: State = ctx.state
    name = uname(state, unit)
    d = yield DiceRequest(f"poison.{unit.id}", 1, f"{name}: poison", tables.POISON_CURE,
                          f"{tables.POISON_CURE}+ cures the poison, else it is killed",
                          "DT §7", unit.side)
    text = dice_text(d, tables.POISON_CURE)
    if d.count(tables.POISON_CURE):
        unit.poisoned, unit.poisoned_by = False, ""
        ctx.say(f"{name} tests against its poison: {text}: cured (DT §7 Poison Gear).")
        return True
    saved = False
    if unit.has("regeneration"):
        ctx.say(f"{name} tests against its poison: {text}: it would be killed (DT §7 "
                "Poison Gear).")
        saved = yield from regenerates(ctx, unit)
    ctx.harm(unit.id, unit.poisoned_by or None, damage=1, kills=int(not saved))
    if saved:
        ctx.say(f"{name} survives its poison and acts, still poisoned (app reading).")
        return True
    kill(state, unit)
    ctx.say(f"{name} tests against its poison: {text}: it is killed before it can act "
            "(DT §7 Poison Gear).")
    return False


def pass_turn(ctx: Context) -> Gen:
    """DT §3: the player ends its turn now, its points left unspent are lost."""
    state: State = ctx.state
    side = state.player
    ctx.say(f"{side_name(side)} ends its turn, forfeiting "
            f"{points_word(state.points[side])} (DT §3).")
    yield from end_turn(ctx)


def end_turn(ctx: Context) -> Gen:
    """The player's turn is over: its flash grenades wear off (DT §7: until the end of
    the thrower's turn); the other side plays, or the round ends (app reading 1)."""
    state: State = ctx.state
    side = state.player
    state.points[side] = 0
    cleared = [u for u in state.all_units() if u.flashed_until == side]
    for unit in cleared:
        unit.flashed_until = ""
    if cleared:
        ctx.say(f"{side_name(side)}'s turn is over: the flash wears off "
                f"{names(state, cleared)} (DT §7 Grenade).")
    state.turns_played += 1
    if state.turns_played < len(SIDES):
        start_turn(ctx, other_side(side))
        return
    state.player = ""
    yield from seize_markers(ctx)
    ctx.say(f"End of round {state.round}: {held_words(state)} (DT §2).")
    if not end_of_round(ctx):
        yield from _new_round(ctx)


# --------------------------------------------------------------------------- markers
STUNNED = "-stunned"
"""A marker answer "red-stunned": only stunned units of that side are within 3"."""


def marker_choices(state: State) -> tuple[Choice, ...]:
    """The answers to "which units are within 3\" of the marker?" (DT §2, app reading
    4), offered only when the table allows them: a side seizes it with a unit that is
    not stunned and no enemy within 3"; units of both sides, stunned or not, make it
    neutral (a stunned unit cannot seize but still contests); only stunned units of
    one side, or none at all, change nothing."""
    placed = {s: in_play(state, s) for s in SIDES}
    choices = [Choice(s, f"{side_name(s)} only, some not stunned")
               for s in SIDES if any(not u.stunned for u in placed[s])]
    if all(placed.values()):
        choices.append(Choice("both", "Units of both sides (stunned or not): neutral"))
    choices += [Choice(s + STUNNED, f"Only stunned {side_name(s)} units: no change")
                for s in SIDES if any(u.stunned for u in placed[s])]
    choices.append(Choice("none", "No unit"))
    return tuple(choices)


def seize_markers(ctx: Context) -> Gen:
    """DT §2, app reading 4: for each marker the players say which units are within
    3" of it (:func:`marker_choices`): one side's, some not stunned, seize it (it
    stays seized when they leave); both sides' make it neutral; only stunned units
    of one side, or none, leave it as it was."""
    state: State = ctx.state
    choices = marker_choices(state)
    for marker in state.markers:
        answer = yield Question(
            f"marker.{marker.number}", f"Marker {marker.number} ({holding(marker)}): which "
            f"units are within {tables.MARKER_REACH}\" of it? Stunned units cannot seize "
            "it but still contest it.", choices, rule="DT §2", default="none")
        ctx.say(f"Marker {marker.number}: {_seize(marker, answer)} (DT §2).")


def _seize(marker: MarkerState, answer: str) -> str:
    """Change ``marker`` by the players' ``answer``; what happened, in words."""
    was = marker.holder
    if answer == "none":
        return f"no unit within {tables.MARKER_REACH}\"; it stays {holding(marker)}"
    if answer.endswith(STUNNED):
        side = answer.removesuffix(STUNNED)
        return (f"only stunned {side_name(side)} units are within reach: they cannot "
                f"seize it; it stays {holding(marker)}")
    if answer == "both":
        marker.holder = ""
        return "both sides are within reach; it is neutral" + (" again" if was else "")
    marker.holder = answer
    if was == answer:
        return f"{side_name(answer)} still holds it"
    return f"{side_name(answer)} seizes it"

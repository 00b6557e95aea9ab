"""The turn (PS §3) and the ``next`` intent that moves it on.

- Between turns: the movement roll-off (app reading 4: the higher roll moves first,
  ties roll again), then the movement phase.
- Movement: the side moving first says it has finished, then the other side.
- Special combat, shooting and melee are played for both sides at once, training
  bracket by training bracket (elite, regular, recruit): the units of the bracket act,
  then ``next`` removes their casualties (:func:`.casualties.end_of_bracket`) and the
  game may end (PS §8). A bracket, or a whole phase, in which no unit can act is
  skipped with a line of narration.
- Melee is compulsory (PS §6): ``next`` waits for every unit of the bracket that can
  fight. After the last bracket every melee ends with its end-of-melee roll; melees
  tied twice fight another round at once (app reading 8).
- Morale: ``next`` plays every test (PS §7) and ends the turn; after the last turn
  the game is decided on points lost (PS §8).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from deathzap_tui.rules.narration import Gen, side_name
from deathzap_tui.rules.phases import MOVEMENT, finish_moving, moving_label, moving_refusal
from deathzap_tui.rules.plasmashok import casualties, combat, melee, tables
from deathzap_tui.rules.plasmashok.common import bracket_units, melees, names, uname
from deathzap_tui.rules.plasmashok.morale import morale_phase, testing
from deathzap_tui.rules.plasmashok.state import State, UnitState
from deathzap_tui.rules.plasmashok.victory import check_victory, end_of_turn
from deathzap_tui.rules.ruleset import other_side
from deathzap_tui.rules.setup import roll_off
from deathzap_tui.rules.steps import Context


@dataclass(frozen=True)
class Phase:
    """One phase of the turn (PS §3) and what the engine, the menus and the
    narration need of it; the bracket phases also name the unit intent played in
    them, its resolution and its unit-level refusal."""

    id: str
    """A key of :data:`tables.PHASES`."""
    rule: str
    advance_key: str
    """The advance key's label: short, for an 80-column key bar."""
    intent: str = ""
    """Bracket phases: the intent a unit acts with."""
    verb: str = ""
    """What a unit does, in words ("use special combat")."""
    label: str = ""
    """A unit intent's menu entry, after the unit's name ("Red Strike Squad: shoot")."""
    refusal: Callable[[State, str], str] | None = None
    """The unit-level reasons a unit cannot act (:mod:`.combat`, :mod:`.melee`);
    :func:`act_refusal` adds the phase, the bracket and the owner."""
    action: Callable[..., Gen] | None = None
    """What the unit intent resolves (called with ``unit_id``)."""


PHASES: dict[str, Phase] = {p.id: p for p in (
    Phase("movement", "PS §3", "Done moving"),
    Phase("special", "PS §4", "End bracket", "special", "use special combat",
          "special combat", combat.special_refusal, combat.special),
    Phase("shooting", "PS §5", "End bracket", "shoot", "shoot", "shoot",
          combat.shoot_refusal, combat.shoot),
    Phase("melee", "PS §6", "End bracket", "fight", "fight", "fight", melee.fight_refusal,
          melee.fight),
    Phase("morale", "PS §7", "Morale"),
)}
"""The PS §3 phases by id, in order."""
BY_INTENT: dict[str, Phase] = {p.intent: p for p in PHASES.values() if p.intent}
"""The bracket phase of each unit intent ("shoot" -> shooting)."""


def phase_name(phase: str) -> str:
    return tables.PHASE_NAMES[phase]


def act_refusal(state: State, phase: str, unit_id: str, by: str = "",
                bracket: str = "") -> str:
    """Why the unit may not act now in bracket phase ``phase`` ("" if it may): only in
    that phase, only units of the bracket acting now (PS §3; ``bracket``: as if that
    one were), and only at its owner's word; before those, the unit-level reasons of
    :mod:`.combat` and :mod:`.melee` (in play, not yet acted, a target...). In an
    extra round of melee (app reading 8) the units in contact are those of the melees
    fighting it (``state.again``): no other unit acts in it."""
    bracket = bracket or state.bracket
    info = PHASES[phase]
    assert info.refusal is not None
    if state.step != phase or not bracket:
        return (f"units {info.verb} only in the {phase_name(phase).lower()} phase "
                f"({info.rule})")
    why = info.refusal(state, unit_id)
    if why:
        return why
    unit = state.unit(unit_id)
    name = uname(state, unit)
    if state.again and unit.id not in state.again:
        return (f"{name} is not in the melee fighting another round: only its units "
                "fight now (PS §6)")
    if unit.training != bracket:
        return (f"{name} is a {unit.training} unit: the {bracket} bracket is acting now "
                "(PS §3)")
    if by and by != unit.side:
        return f"{name} is {side_name(unit.side)}'s unit"
    return ""


def candidates(state: State, bracket: str) -> list[UnitState]:
    """The units in play of ``bracket`` that the phase under way concerns: in an
    extra round of melee only those of the melees fighting it (``state.again``, app
    reading 8)."""
    return [u for u in bracket_units(state, bracket)
            if not state.again or u.id in state.again]


def able(state: State, bracket: str) -> list[UnitState]:
    """The units of ``bracket`` that can act in the phase under way (both sides, Red
    first), as if that bracket were acting."""
    return [u for u in candidates(state, bracket)
            if not act_refusal(state, state.step, u.id, bracket=bracket)]


def next_label(state: State) -> str:
    """What the ``next`` intent does now, in words (its menu entry)."""
    if state.step == MOVEMENT:
        return moving_label(state)
    if state.step in tables.BRACKET_PHASES:
        return (f"End the {state.bracket} bracket of {phase_name(state.step).lower()}: "
                "remove casualties")
    if state.step == "morale":
        return "Morale phase: test, then end the turn"
    return "Roll off for movement"


def advance_label(state: State) -> str:
    """The advance key's label (:func:`next_label` is the whole sentence)."""
    return PHASES[state.step].advance_key if state.step else "Roll off"


def next_refusal(state: State, by: str = "") -> str:
    """Why ``next`` may not be played now ("" if it may): in movement only the side
    moving says it has finished (PS §3); in melee every unit of the bracket that can
    fight must fight first (PS §6: every model in base contact attacks)."""
    why = moving_refusal(state, by, "PS §3")
    if why:
        return why
    if state.step == "melee":
        waiting = able(state, state.bracket)
        if waiting:
            return (f"{uname(state, waiting[0])} must fight first: every unit in base "
                    "contact attacks in its bracket (PS §6)")
    return ""


def advance(ctx: Context) -> Gen:
    """The ``next`` intent: finish what is under way and start what comes next."""
    state: State = ctx.state
    if state.step == "":
        yield from _new_turn(ctx)
    elif state.step == MOVEMENT:
        if not finish_moving(ctx, state.move_first, "PS §3"):
            _enter(ctx, "special")
            yield from _go_on(ctx, "")
    elif state.step == "morale":
        yield from morale_phase(ctx)
        if check_victory(ctx):
            return
        state.step = ""
        ctx.say(f"End of turn {state.turn}.")
        end_of_turn(ctx)
    else:
        yield from casualties.end_of_bracket(ctx)
        if check_victory(ctx):
            return
        yield from _go_on(ctx, state.bracket)


def _new_turn(ctx: Context) -> Gen:
    """PS §3, app reading 4: a new turn begins with the movement roll-off."""
    state: State = ctx.state
    state.turn += 1
    for unit in state.all_units():
        unit.lost_turn = 0
        unit.acted = False
    ctx.say(f"Turn {state.turn}: roll off to see who moves first (PS §3).")
    winner = yield from roll_off(ctx, "the higher roll moves first this turn", "PS §3")
    state.move_first = state.mover = winner
    state.step = MOVEMENT
    ctx.say(f"Turn {state.turn}, movement phase: {side_name(winner)} moves first, then "
            f"{side_name(other_side(winner))}; units in base contact cannot move (PS §3).")


def _enter(ctx: Context, phase: str) -> None:
    """Start ``phase``: a bracket phase clears what units did in the last one (and
    melee the models lost in melee, PS §6); morale says who tests (PS §7)."""
    state: State = ctx.state
    state.step = phase
    state.bracket = ""
    state.again = []
    state.melee_round = 1 if phase == "melee" else 0
    for unit in state.all_units():
        unit.acted = False
        if phase == "melee":
            unit.lost_melee = 0
    if phase == "morale":
        tests = testing(state)
        who = f"{names(state, tests)} lost models this turn and test" if tests else (
            "no unit lost models this turn")
        ctx.say(f"Turn {state.turn}, morale phase: {who} (PS §7).")


def _go_on(ctx: Context, after: str) -> Gen:
    """Find the next bracket after ``after`` ("" at the start of the phase or of an
    extra round of melee) in which a unit can act, and let it act. Brackets whose units
    cannot act are skipped (only brackets with units the phase concerns are named,
    :func:`candidates`), and so is a phase in which nobody can; when the phase is over
    (melee: after its end-of-melee rolls) the next one starts, until a bracket has
    units to act or the morale phase is reached."""
    state: State = ctx.state
    while True:
        phase = PHASES[state.step]
        rule = f"PS §3, {phase.rule.removeprefix('PS ')}"
        rest = tables.BRACKETS[tables.BRACKETS.index(after) + 1:] if after else tables.BRACKETS
        skipped, bracket, acting = [], "", []
        for b in rest:
            acting = able(state, b)
            if acting:
                bracket = b
                break
            skipped.append(b)
        head = _phase_head(state)
        if not after and not bracket:
            ctx.say(f"{head}: no unit can {phase.verb}; skipped ({rule}).")
        else:
            if not after:
                ctx.say(f"{head}: elite, then regular, then recruit units act, casualties "
                        f"coming off after each bracket ({rule}).")
            for b in skipped:
                if candidates(state, b):
                    ctx.say(f"{phase_name(phase.id)}, {b} bracket: no unit can "
                            f"{phase.verb} (PS §3).")
        if bracket:
            state.bracket = bracket
            ctx.say(f"{phase_name(phase.id)}, {bracket} bracket: {names(state, acting)} "
                    f"can {phase.verb} ({rule}).")
            return
        state.bracket = ""
        after = ""
        if phase.id == "melee" and (yield from _end_of_melees(ctx)):
            continue
        following = tables.PHASES[tables.PHASES.index(phase.id) + 1]
        _enter(ctx, following)
        if following == "morale":
            return


def _phase_head(state: State) -> str:
    """"Turn 2, shooting phase" or, in an extra round of melee, "Turn 2, melee round 2"."""
    if state.step == "melee" and state.melee_round > 1:
        return f"Turn {state.turn}, melee round {state.melee_round}"
    return f"Turn {state.turn}, {phase_name(state.step).lower()} phase"


def _end_of_melees(ctx: Context) -> Gen:
    """App reading 8: after the last bracket every melee makes its end-of-melee roll
    (:func:`.melee.end_of_melee`); those tied twice fight another round at once, by
    their units only (``state.again``). In an extra round the melees left are those
    fighting it: every other one ended with a retreat, its contacts broken. Returns
    whether a melee fights another round."""
    state: State = ctx.state
    again: list[UnitState] = []
    for group in melees(state):
        if (yield from melee.end_of_melee(ctx, group)):
            again.extend(group)
    if not again:
        return False
    state.again = [u.id for u in again]
    state.melee_round += 1
    for unit in again:
        unit.acted = False
    ctx.say(f"{names(state, again)} fight round {state.melee_round} at once (PS §6).")
    return True

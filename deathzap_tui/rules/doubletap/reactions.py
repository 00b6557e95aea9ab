"""Double Tap reactions (DT §6, DT-R3; app readings 6 and 7).

Once an action and its attacks are declared, and before any die is rolled, the other
side says whether it reacts (``react.<side>``), then which of its units react, one
at a time (``reactor.<side>.<n>``: one of the units that may still react, or none
more), and how each does (``reaction.<unit>``): each unit at most once per enemy
action (DT-R3), never a stunned one (DT §5), and a unit in base contact only with
the acting unit it touches, only by dodging or in melee (DT §6). A shooting reaction
asks its weapon, distance and cover under ``reaction.<unit>.<stem>``. A camouflaged
acting unit may first lose its marker to the reacting side's Sixth Sense
(``sense.<actor>``), and may be the target of a detect reaction (DT §7: detect "when
acting or reacting").

The action and its reactions are simultaneous: the detect reactions are rolled first
(:func:`detect`, ``detect.<actor>.<unit>``); then the action's attacks, each
cancelled by its target's reaction (:func:`cancel`); then the reactions' own attacks
hit the acting unit, which blocks them all before one morale test and finishes its
action even if they kill it (:func:`strike_back`); last the units that moved or
dodged without being attacked move (:func:`afterwards`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from deathzap_tui.rules.doubletap import tables
from deathzap_tui.rules.doubletap.attacks import (
    Plan,
    Strike,
    aim,
    camo_mods,
    declare,
    land,
    own_mods,
    refresh_block,
    roll_hits,
    take_morale,
)
from deathzap_tui.rules.doubletap.common import disengage, in_play, names, sixth_sense, uname
from deathzap_tui.rules.doubletap.quality import Mods, quality_test, total, why_words
from deathzap_tui.rules.doubletap.state import State, UnitState
from deathzap_tui.rules.doubletap.tables import WEAPONS, Weapon
from deathzap_tui.rules.narration import Gen, ask_yes_no, plural, side_name
from deathzap_tui.rules.ruleset import other_side
from deathzap_tui.rules.steps import Choice, Question

NONE = "none"
LABELS = {"move": "Move (after the attacks, up to its Advance)",
          "dodge": f"Dodge (up to {tables.DODGE_MOVE}\"; cancels successes against it)",
          "shoot": f"Shoot ({tables.REACTION_ATTACKS} attack at the acting unit)",
          "melee": f"Melee ({tables.REACTION_ATTACKS} attack at the acting unit)",
          "detect": "Detect (a quality test: success removes its camo marker)"}
DOES = {"move": "moves", "dodge": "dodges", "shoot": "shoots", "melee": "attacks in melee",
        "detect": "tries to detect it"}
CANCELS = {"shoot": "shooting", "melee": "melee"}
"""DT §6: a shoot reaction cancels a shooting attack at it, a melee one a melee attack."""


@dataclass
class Reaction:
    """One unit's reaction to the action under way."""

    unit: UnitState
    choice: str
    """One of :data:`tables.REACTIONS`."""
    mods: Mods = field(default_factory=list)
    """The modifiers of its tests: dodging, or its one attack."""
    head: str = ""
    """What its tests are ("Rifle, 1 attack"), before the modifiers."""
    weapon: str = ""
    """The weapon of its one attack."""
    against: Strike | None = None
    """The action's attack at it that it cancels (app reading 7)."""
    strike: Strike | None = None
    """Its own attack at the acting unit, when it does not cancel."""
    leftover: int = 0
    """Cancelling successes beyond the attacker's: hits on the acting unit."""
    moved: bool = False
    """Already moved (a dodge resolved against an attack or a grenade)."""


def ranged(unit: UnitState) -> list[Weapon]:
    """The unit's ranged weapons, in force order."""
    return [WEAPONS[w] for w in unit.figures[0].weapons if not WEAPONS[w].melee]


def melee_weapons(unit: UnitState) -> list[Weapon]:
    return [WEAPONS[w] for w in unit.figures[0].weapons if WEAPONS[w].melee]


def touching(state: State, unit: UnitState) -> list[UnitState]:
    """The enemy units in play ``unit`` is in base contact with."""
    return [u for u in (state.unit(e) for e in unit.engaged) if u.in_play]


def options(state: State, unit: UnitState, actor: UnitState) -> tuple[str, ...]:
    """The reactions ``unit`` may take to ``actor``'s action (DT §6, app reading 6);
    none when it is stunned (DT §5) or in base contact with other enemies only. A
    camouflaged actor cannot be attacked, but a unit not in base contact may try to
    detect it (DT §7)."""
    if unit.stunned:
        return ()
    attackable = not actor.camo
    if touching(state, unit):
        if actor not in touching(state, unit):
            return ()
        return tuple(r for r in tables.CONTACT_REACTIONS
                     if r == "dodge" or (attackable and melee_weapons(unit)))
    return tuple(r for r in tables.REACTIONS if r in ("move", "dodge")
                 or (r == "shoot" and attackable and ranged(unit))
                 or (r == "detect" and actor.camo))


def ask(plan: Plan) -> Gen:
    """The reactions to ``plan`` (app reading 6): the reacting side's yes/no; then,
    one at a time, which of the units that may still react does (or none more), and
    how, with a shooting reaction's weapon, distance and cover. Only the units that
    react are asked about, each once (DT-R3). Returns the :class:`Reaction` list (the
    units that react, in the order chosen)."""
    state, actor = plan.state, plan.unit
    side = other_side(actor.side)
    yield from _sense(plan, side)
    able = [(u, opts) for u in in_play(state, side) if (opts := options(state, u, actor))]
    if not able:
        return []
    if not (yield from ask_yes_no(f"react.{side}", f"Does {side_name(side)} react to "
                                  f"{plan.words}?", "DT §6", side, default="no")):
        return []
    out: list[Reaction] = []
    while able:
        picked = yield from _next_reactor(plan, side, able, len(out))
        if picked is None:
            break
        able.remove(picked)
        unit, opts = picked
        choice = yield Question(
            f"reaction.{unit.id}", f"{uname(state, unit)}: react to {plan.words} how?",
            tuple(Choice(o, LABELS[o]) for o in opts), rule="DT §6", side=side)
        reaction = Reaction(unit, choice)
        out.append(reaction)
        yield from _declare(plan, reaction)
    if out:
        plan.ctx.say(f"{side_name(side)} reacts: " + "; ".join(
            f"{uname(state, r.unit)} {DOES[r.choice]}" for r in out) + " (DT §6).")
    else:
        plan.ctx.say(f"{side_name(side)} does not react after all (DT §6).")
    for reaction in out:
        yield from _link(plan, reaction)
    return out


def _next_reactor(plan: Plan, side: str, able: list[tuple[UnitState, tuple[str, ...]]],
                  chosen: int) -> Gen:
    """Which of the units in ``able`` (those that may still react) reacts next, or
    ``None`` for no more; ``chosen`` units have reacted already (DT §6, DT-R3)."""
    state = plan.state
    first = f"Which {side_name(side)} unit reacts to {plan.words}?"
    more = f"Does another {side_name(side)} unit react to {plan.words}?"
    answer = yield Question(
        f"reactor.{side}.{chosen + 1}",
        f"{more if chosen else first} Only a unit that can see it may react (DT §6); "
        "once per enemy action (DT-R3).",
        (Choice(NONE, "No more reactions" if chosen else "None after all"),
         *(Choice(u.id, uname(state, u), ", ".join(LABELS[o].split(" (")[0] for o in opts))
           for u, opts in able)),
        rule="DT §6, DT-R3", side=side, default=NONE)
    return next((pair for pair in able if pair[0].id == answer), None)


def _sense(plan: Plan, side: str) -> Gen:
    """DT §7 Sixth Sense ("enemies within 8\" lose camo"), app reading 10: a
    camouflaged acting unit is asked about when ``side`` has a Sixth Sense unit in
    play; within 8" of one, it loses its marker before the reactions are chosen."""
    state, actor = plan.state, plan.unit
    sense = sixth_sense(state, side)
    if not (actor.camo and sense):
        return
    if (yield from ask_yes_no(
            f"sense.{actor.id}", f"Is {plan.name} (camouflaged) within "
            f"{tables.SIXTH_SENSE_RANGE}\" of {names(state, sense)} (Sixth Sense)?",
            "DT §7", side, default="no")):
        actor.camo = False
        plan.ctx.say(f"{plan.name} loses its camo marker to Sixth Sense (DT §7).")


def _declare(plan: Plan, reaction: Reaction) -> Gen:
    """The modifiers of a reaction's tests (DT §6, app reading 10): a dodge has the
    unit's own; a shot also its weapon's band, cover, height, Engineer and mark; and
    every reaction to a camouflaged unit's attack is at -2 (DT §7)."""
    unit, actor = reaction.unit, plan.unit
    attacking = reaction.choice in CANCELS
    head = "dodge tests"
    if reaction.choice == "shoot":
        guns = ranged(unit)
        key = f"reaction.{unit.id}"
        weapon = guns[0]
        if len(guns) > 1:
            answer = yield Question(
                f"{key}.weapon", f"{uname(plan.state, unit)} shoots with which weapon?",
                tuple(Choice(w.id, w.name) for w in guns), rule="DT §4", side=unit.side,
                default=weapon.id)
            weapon = WEAPONS[answer]
        reaction.weapon = weapon.name
        reaction.mods = yield from aim(plan, unit, actor, weapon,
                                       lambda stem: f"{key}.{stem}")
        head = f"{weapon.name}, {tables.REACTION_ATTACKS} attack"
    elif reaction.choice == "melee":
        reaction.weapon = melee_weapons(unit)[0].name
        head = f"melee, {tables.REACTION_ATTACKS} attack"
    elif reaction.choice == "detect":
        head = "detect test"
    if reaction.choice in ("dodge", "detect", *CANCELS):
        hacked = unit.hacked
        reaction.mods += own_mods(unit, attacking) + camo_mods(plan)
        if hacked and not unit.hacked:
            refresh_block(plan, unit)
        if attacking and unit.camo:
            unit.camo = False
            plan.ctx.say(f"{uname(plan.state, unit)} attacks and loses its camo marker "
                         "(DT §7).")
    reaction.head = head


def _link(plan: Plan, reaction: Reaction) -> Gen:
    """A reaction cancels the action's attack at its unit when it dodges a shooting or
    melee attack, or answers it in kind (app reading 7; the attack's ``cancel`` fact
    says so); any other shoot or melee reaction is an attack of its own at the acting
    unit."""
    against = next((s for s in plan.strikes if s.target is reaction.unit), None)
    choice = reaction.choice
    if against and against.kind != "grenade" and (
            choice == "dodge" or CANCELS.get(choice) == against.kind):
        reaction.against = against
        against.fact["cancel"] = {
            "kind": choice, "modifier": total(reaction.mods),
            "dice": tables.DODGE_TESTS if choice == "dodge" else tables.REACTION_ATTACKS}
    elif choice in CANCELS:
        reaction.strike = yield from declare(
            plan, CANCELS[choice], reaction.unit, plan.unit, tables.REACTION_ATTACKS,
            reaction.mods, reaction.head, reaction.weapon, tag=f".{reaction.unit.id}")


def cancel(plan: Plan, strike: Strike, reactions: list[Reaction], successes: int) -> Gen:
    """The target's reaction against ``strike`` (DT §6, app reading 7): a dodge's 2
    tests or a shot's / melee's 1 attack, each success cancelling one of the
    attacker's; a dodge with nothing left against it moves 2" out of base contact,
    and a shot's or melee's successes left over will hit the acting unit. Returns the
    successes left (the hits)."""
    reaction = next((r for r in reactions if r.against is strike), None)
    if reaction is None:
        return successes
    ctx, unit, fact = plan.ctx, reaction.unit, strike.fact
    name = uname(plan.state, unit)
    dodge = reaction.choice == "dodge"
    if dodge and not successes:
        _dodge_away(plan, reaction, "nothing to cancel")
        return 0
    fact["stage"] = "cancel"
    dice = tables.DODGE_TESTS if dodge else tables.REACTION_ATTACKS
    won = yield from quality_test(
        ctx, f"cancel.{unit.id}", dice, total(reaction.mods),
        f"{name}: {'dodge tests' if dodge else reaction.choice + ' reaction'}",
        why_words(reaction.mods, reaction.head), "DT §6", unit.side)
    cancelled = min(won, successes)
    fact["cancelled"] = cancelled
    left = successes - cancelled
    ctx.say(f"{name} cancels {plural(cancelled, 'success', 'successes')} of "
            f"{plural(successes, 'success', 'successes')}: {plural(left, 'hit')} left (DT §6).")
    if dodge and not left:
        _dodge_away(plan, reaction, "no enemy success left")
    elif dodge:
        reaction.moved = True
        ctx.say(f"{name} takes the hits and does not move (DT §6).")
    else:
        reaction.leftover = won - cancelled
    return left


def _dodge_away(plan: Plan, reaction: Reaction, why: str) -> None:
    reaction.moved = True
    disengage(plan.state, reaction.unit)
    plan.ctx.say(f"{uname(plan.state, reaction.unit)} dodges {tables.DODGE_MOVE}\" ({why}), "
                 "out of any base contact (DT §6).")


def detect(plan: Plan, reactions: list[Reaction]) -> Gen:
    """The detect reactions at the camouflaged acting unit (DT §7), before the
    action's attacks: each a quality test while the marker is on; a success removes
    it."""
    actor = plan.unit
    for reaction in (r for r in reactions if r.choice == "detect"):
        name = uname(plan.state, reaction.unit)
        if not actor.camo:
            plan.ctx.say(f"{name}: {plan.name} has no camo marker left to detect (DT §7).")
            continue
        if (yield from quality_test(plan.ctx, f"detect.{actor.id}.{reaction.unit.id}", 1,
                                    total(reaction.mods), f"{name}: detect {plan.name}",
                                    why_words(reaction.mods, reaction.head), "DT §7",
                                    reaction.unit.side)):
            actor.camo = False
            plan.ctx.say(f"{plan.name} is detected: it loses its camo marker (DT §7).")
        else:
            plan.ctx.say(f"{plan.name} stays hidden (DT §7).")


def resolve_attacks(plan: Plan, reactions: list[Reaction]) -> Gen:
    """The action's attacks, one target at a time (DT §4): hit tests, the target's
    cancelling reaction, then the hits."""
    for strike in plan.strikes:
        successes = yield from roll_hits(plan, strike)
        hits = yield from cancel(plan, strike, reactions, successes)
        yield from land(plan, strike, hits)


def strike_back(plan: Plan, reactions: list[Reaction]) -> Gen:
    """The reactions' attacks at the acting unit (DT §6, app reading 7): each success of
    a reaction that did not cancel is a hit, and so is each cancelling success left
    over. The acting unit blocks each reaction's hits at that reaction's modifiers;
    then, hit and alive, it takes one morale test for them all (DT §5, key
    ``morale.<unit>.reactions``), stunned if any of the hits was in melee. It has
    finished its action even if they kill it."""
    ctx, state = plan.ctx, plan.state
    hit: list[Strike] = []
    for reaction in reactions:
        name = uname(state, reaction.unit)
        if reaction.strike is not None:
            strike = reaction.strike
            hits = yield from roll_hits(plan, strike)
        elif reaction.leftover:
            hits = reaction.leftover
            ctx.say(f"{name}'s {plural(hits, 'success', 'successes')} left over "
                    f"{'hits' if hits == 1 else 'hit'} {plan.name} (DT §6).")
            strike = yield from declare(plan, CANCELS[reaction.choice], reaction.unit,
                                        plan.unit, tables.REACTION_ATTACKS, reaction.mods,
                                        reaction.head, reaction.weapon,
                                        tag=f".{reaction.unit.id}")
            strike.fact.update(successes=hits, cancelled=0)
        else:
            continue
        if (yield from land(plan, strike, hits, morale=False)):
            hit.append(strike)
    if hit and plan.unit.alive:
        yield from take_morale(plan, plan.unit, any(s.kind == "melee" for s in hit),
                               ".reactions")
    if not plan.unit.alive and reactions:
        ctx.say(f"{plan.name} is killed by a reaction, but it has finished its action: "
                "action and reactions are simultaneous (DT §6).")


def afterwards(plan: Plan, reactions: list[Reaction]) -> None:
    """The moves after the attacks (DT §6): a Move reaction up to the unit's Advance
    speed; a dodge that was not attacked up to 2", out of base contact."""
    state = plan.state
    for reaction in reactions:
        unit = reaction.unit
        if not unit.alive or reaction.moved:
            continue
        if reaction.choice == "move":
            inches = tables.ACTIONS["advance"].inches(unit.has("fast"))
            plan.ctx.say(f"{uname(state, unit)} moves up to {inches}\" (Move reaction, "
                         "DT §6).")
        elif reaction.choice == "dodge":
            _dodge_away(plan, reaction, "not attacked")

"""Double Tap grenades and special actions (DT §5, §7; app readings 12 and 13).

- Grenade: once per game, the weapon of a Hold or Advance; 2 quality tests at the
  thrower's shooting modifiers at the aimed-at unit (DT §7: it "works like a
  weapon"; no range band), each success 6" of flight; the players name the units
  within 3" of where it lands
  (``blast.<k>``): flash (-2 to their quality tests until the end of the thrower's
  turn; app reading: quality tests only, not the single dice of Regeneration,
  poison or a hack), frag (one automatic hit each) or smoke (narrated). Dodging units roll their 2
  tests once it flies and move 2" per success: nothing is cancelled (DT §6).
- recover (a stunned unit), detect (a quality test against a camouflaged enemy),
  cloak (the camo marker back, out of enemy sight), hack (one die, 4+) and spot (a
  mark for the next friendly shooter).

Each is declared (its target asked) before the reactions and resolved after them,
like every action (:func:`.actions.perform`).
"""

from __future__ import annotations

from deathzap_tui.rules.doubletap import tables
from deathzap_tui.rules.doubletap.attacks import (
    Plan,
    declare,
    land,
    own_mods,
    pick,
    shot_mods,
    targets,
)
from deathzap_tui.rules.doubletap.common import disengage, in_play, names, uname
from deathzap_tui.rules.doubletap.quality import quality_test, total, why_words
from deathzap_tui.rules.doubletap.reactions import Reaction
from deathzap_tui.rules.doubletap.state import UnitState
from deathzap_tui.rules.narration import Gen, dice_text, side_name
from deathzap_tui.rules.ruleset import other_side
from deathzap_tui.rules.steps import Choice, Context, DiceRequest, Question

NO_MORE = "none"
"""Blast answer: no other unit is within 3" of where the grenade landed."""
GRENADE_LABELS = {"flash": "Flash (-2 to all quality tests within 3\")",
                  "frag": "Frag (one automatic hit on each unit within 3\")",
                  "smoke": "Smoke (blocks line of sight within 3\")"}


# --------------------------------------------------------------------------- grenades
def grenade_ready(unit: UnitState) -> bool:
    """DT §7 Grenade: the unit has one and has not thrown it yet."""
    return unit.has("grenade") and not unit.grenade_used


def declare_grenade(plan: Plan, aimed: list[UnitState]) -> Gen:
    """The thrower picks the grenade and the enemy unit it is thrown at (app reading
    12): its one grenade is used and it attacks (losing its camo marker). The throw
    works like a weapon (DT §7): its tests take the thrower's own modifiers and the
    shot's at that unit (cover, height, Engineer, a spot used up: :func:`shot_mods`,
    keys ``cover.<target>``...), no range band. A frag grenade is an attack at that
    unit (its fact); the others attack no one."""
    unit = plan.unit
    kind = yield Question("grenade", f"{plan.name} throws which grenade (once per game)?",
                          tuple(Choice(g, GRENADE_LABELS[g]) for g in tables.GRENADES),
                          rule="DT §7", side=unit.side, default="frag")
    target = yield from pick(plan, "target", f"{plan.name} throws the {kind} grenade at which "
                             "enemy unit?", aimed, "DT §7")
    unit.grenade_used = True
    plan.lose_camo_on_attack()
    plan.grenade, plan.target = kind, target
    plan.throw = own_mods(unit, attacking=True) + (yield from shot_mods(
        plan, unit, target, lambda stem: f"{stem}.{target.id}"))
    plan.words += f", throwing a {kind} grenade at {uname(plan.state, target)}"
    if kind == "frag":
        plan.strikes.append((yield from declare(plan, "grenade", unit, target,
                                                tables.GRENADE_ATTACKS, plan.throw,
                                                "frag grenade", "frag grenade")))


def throw(plan: Plan, target: UnitState, reactions: list[Reaction]) -> Gen:
    """The throw (DT §7, app reading 12): 2 quality tests; none: it lands short to no
    effect. Otherwise it flies 6" per success, the dodging units roll their 2 tests
    and move 2" per success (DT §6), and the units within 3" of the landing point are
    named one at a time; then the grenade works on them. ``target`` is the unit it
    is thrown at."""
    ctx, state, unit = plan.ctx, plan.state, plan.unit
    tname = uname(state, target)
    strike = plan.strikes[0] if plan.strikes else None
    if strike:
        ctx.facts["attack"] = strike.fact
    flight = yield from quality_test(
        ctx, "throw", tables.GRENADE_ATTACKS, total(plan.throw),
        f"{plan.name}: {plan.grenade} grenade at {tname}",
        why_words(plan.throw, f"{tables.GRENADE_ATTACKS} tests, {tables.GRENADE_FLIGHT}\" of "
                  "flight per success"), "DT §7", unit.side)
    if strike:
        strike.fact.update(successes=flight, cancelled=0)
    if not flight:
        ctx.say(f"The {plan.grenade} grenade lands short: no effect (DT §7).")
        if strike:
            yield from land(plan, strike, 0)
        return
    ctx.say(f"The {plan.grenade} grenade flies up to {flight * tables.GRENADE_FLIGHT}\" in a "
            f"straight line towards {tname}: the players mark where it lands (DT §7).")
    for reaction in (r for r in reactions if r.choice == "dodge"):
        if strike:
            strike.fact["stage"] = "cancel"
        yield from _dodge_grenade(plan, reaction)
    under = yield from _blast(plan)
    if plan.grenade == "flash":
        for other in under:
            other.flashed_until = unit.side
        if under:
            ctx.say(f"{names(state, under)} {'is' if len(under) == 1 else 'are'} flashed: "
                    f"{tables.FLASH_MODIFIER} to all quality tests until the end of "
                    f"{side_name(unit.side)}'s turn (DT §7).")
    elif plan.grenade == "smoke":
        ctx.say(f"Smoke: no line of sight within {tables.GRENADE_BLAST}\" of it until the "
                f"start of {side_name(unit.side)}'s next turn (DT §7).")
    else:
        yield from _frag(plan, under, flight)


def _dodge_grenade(plan: Plan, reaction: Reaction) -> Gen:
    """DT §6: a dodge does not cancel a grenade's successes: the unit's 2 tests give it
    2" of movement each."""
    unit = reaction.unit
    name = uname(plan.state, unit)
    won = yield from quality_test(plan.ctx, f"cancel.{unit.id}", tables.DODGE_TESTS,
                                  total(reaction.mods), f"{name}: dodge tests",
                                  why_words(reaction.mods, "dodging a grenade"), "DT §6",
                                  unit.side)
    reaction.moved = True
    if won:
        disengage(plan.state, unit)
        plan.ctx.say(f"{name} dodges up to {won * tables.DODGE_MOVE}\", out of any base "
                     "contact; grenade successes are not cancelled (DT §6).")
    else:
        plan.ctx.say(f"{name} does not get away (DT §6).")


def _blast(plan: Plan) -> Gen:
    """The units within 3" of where the grenade landed, both sides, named one at a time
    by the thrower ("no more" to stop; app reading 12)."""
    state = plan.state
    under: list[UnitState] = []
    while True:
        left = [u for u in state.all_units() if u.in_play and u not in under]
        if not left:
            return under
        aimed_at = plan.target
        default = aimed_at.id if aimed_at in left and aimed_at is not None and not under \
            else NO_MORE
        which = "which other unit" if under else "which unit"
        answer = yield Question(
            f"blast.{len(under) + 1}", f"The {plan.grenade} grenade has landed: {which} "
            f"is within {tables.GRENADE_BLAST}\" of it? One at a time.",
            (*(Choice(u.id, uname(state, u)) for u in left), Choice(NO_MORE, "No more")),
            rule="DT §7", side=plan.unit.side, default=default)
        if answer == NO_MORE:
            return under
        under.append(state.unit(answer))


def _frag(plan: Plan, under: list[UnitState], flight: int) -> Gen:
    """DT §7 Frag: one automatic hit on each unit within 3" (blocks, morale): a unit
    other than the aimed-at one gets an attack (a fact) of its own."""
    aimed = plan.strikes[0]
    if not under:
        plan.ctx.say("No unit is within reach of the frag grenade (DT §7).")
    for unit in under:
        strike = aimed
        if unit is not aimed.target:
            strike = yield from declare(plan, "grenade", plan.unit, unit,
                                        tables.GRENADE_ATTACKS, plan.throw, "frag grenade",
                                        "frag grenade")
            strike.fact.update(successes=flight, cancelled=0)
        plan.ctx.say(f"{uname(plan.state, unit)} takes one automatic hit from the frag "
                     "grenade (DT §7).")
        yield from land(plan, strike, 1)
    if aimed.target not in under:
        yield from land(plan, aimed, 0)


# --------------------------------------------------------------------------- special actions
def declare_special(plan: Plan) -> Gen:
    """The target of a special action (app reading 13): detect a camouflaged enemy;
    hack or spot an enemy without camo (the players judge 8" and sight)."""
    state, unit, action = plan.state, plan.unit, plan.action
    plan.words = f"{plan.name}'s {tables.action_name(action)}"
    if action == "recover":
        return
    if action == "detect":
        aimed = [e for e in in_play(state, other_side(unit.side)) if e.camo]
        prompt = f"{plan.name} tries to detect which camouflaged enemy?"
    else:
        aimed = yield from targets(plan)
        reach = (f" (within {tables.HACK_RANGE}\")" if action == "hack"
                 else " (in line of sight)")
        prompt = f"{plan.name}: {action} which enemy unit{reach}?"
    if not aimed:
        plan.ctx.say(f"{plan.name} finds no enemy to {action} (DT §7).")
        return
    plan.target = yield from pick(plan, "target", prompt, aimed, "DT §7")
    plan.words += f" on {uname(state, plan.target)}"


def resolve_special(plan: Plan) -> Gen:
    """The effect of a special action, after the reactions (app reading 13)."""
    ctx, unit, target = plan.ctx, plan.unit, plan.target
    if plan.action == "recover":
        unit.stunned = False
        ctx.say(f"{plan.name} recovers: it is no longer stunned (DT §5).")
        return
    if target is None:
        return
    tname = uname(plan.state, target)
    if plan.action == "detect":
        mods = own_mods(unit, attacking=False)
        if (yield from quality_test(ctx, f"detect.{target.id}", 1, total(mods),
                                    f"{plan.name}: detect {tname}",
                                    why_words(mods, "a quality test"), "DT §7", unit.side)):
            target.camo = False
            ctx.say(f"{tname} is detected: it loses its camo marker (DT §7).")
        else:
            ctx.say(f"{tname} stays hidden (DT §7).")
    elif plan.action == "hack":
        d = yield DiceRequest(f"hack.{target.id}", 1, f"{plan.name}: hack {tname}",
                              tables.HACK_TEST, f"{tables.HACK_TEST}+: -1 to its next attack "
                              "or block", "DT §7", unit.side)
        hit = bool(d.count(tables.HACK_TEST))
        ctx.say(f"{plan.name} hacks {tname}: {dice_text(d, tables.HACK_TEST)}: "
                + ("no effect (DT §7)." if not hit else
                   "it is already hacked, no more (DT §7: does not stack)." if target.hacked
                   else f"{tables.HACKED} to its next attack or block (DT §7)."))
        target.hacked = target.hacked or hit
    else:
        target.spotted_by = unit.side
        ctx.say(f"{plan.name} spots {tname}: the next {side_name(unit.side)} unit shooting "
                f"at it gets {tables.SPOTTED:+d} to hit (DT §7).")


def cloak(ctx: Context, unit: UnitState) -> None:
    """DT §7 Camouflage: out of every enemy's sight, the unit puts its camo marker back.
    No enemy can see it, so none may react (DT §6)."""
    unit.camo = True
    ctx.say(f"{uname(ctx.state, unit)} is out of enemy sight and puts its camo marker back: "
            "it cannot be attacked until detected (DT §7).")

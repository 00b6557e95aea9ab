"""Double Tap attacks: the to-hit and block modifiers, one attack at one unit, and what
its hits do (DT §4, §5, §7; app readings 8-10).

An action is a :class:`Plan`: its actor, its attacks (:class:`Strike`, one per
attacked unit) and the answers asked once per action (a Doctor or an Engineer near a
unit). :mod:`.actions` declares the attacks, :mod:`.reactions` adds the reactions and
cancels, and every hit ends in :func:`land`: blocks, Tough wound markers,
Regeneration, death, morale and poison.

Facts for the odds panel
------------------------
``ctx.facts["attacks"]`` lists the attacks of the resolution in order,
``ctx.facts["attack"]`` is the one being resolved (the same dict, updated in place;
``stage`` names the roll asked next and is set before each request)::

    {"kind": "shooting" | "melee" | "grenade", "target": "black.1", "weapon": "Carbine",
     "attacks": 3, "hit": -1, "block": 1, "morale": 0,
     "cancel": {"kind": "dodge" | "shoot" | "melee" | "", "dice": 2, "modifier": 0},
     "tough": 0, "regeneration": False,
     "stage": "hit" | "cancel" | "block" | "regeneration" | "done",
     "successes": 2, "cancelled": 1, "hits": 1, "failed_blocks": 1, "killed": True}

``tough`` is the wound markers already on a Tough target (0..2), or
:data:`tables.NOT_TOUGH` (-1) for a target without Tough (:func:`tough_fact`).
``block`` is the target's block modifier as it will be rolled: when the target's
own reaction uses up its hack first (it attacks before it blocks), the fact is
recomputed (:func:`refresh_block`).

A reaction's successes left over after cancelling (app reading 7) become an attack
of their own at the acting unit, declared at stage "block" with its hits known. The
acting unit blocks every reaction's hits (each at its own modifiers) before it takes
one morale test for them all (DT §5). A frag grenade's attack at a unit has one hit
when the unit is under the blast, none otherwise, whatever the successes of the
throw (they only carry it, app reading 12).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from deathzap_tui.rules.doubletap import tables
from deathzap_tui.rules.doubletap.common import in_play, kill, names, sixth_sense, uname
from deathzap_tui.rules.doubletap.quality import Mods, quality_test, total, why_words
from deathzap_tui.rules.doubletap.state import State, UnitState
from deathzap_tui.rules.doubletap.tables import Weapon
from deathzap_tui.rules.narration import Gen, ask_yes_no, dice_text, plural
from deathzap_tui.rules.ruleset import other_side
from deathzap_tui.rules.steps import Choice, Context, DiceRequest, Question

KIND_RULE = {"shooting": "DT §4", "melee": "DT §4", "grenade": "DT §7"}
DEFAULT_DISTANCE = 12
"""What Enter answers to a distance question (the players measure)."""
NO_CANCEL = {"kind": "", "dice": 0, "modifier": 0}


@dataclass
class Strike:
    """One attack at one unit; its numbers are :attr:`fact` (the facts format)."""

    kind: str
    """"shooting", "melee" or "grenade"."""
    attacker: UnitState
    target: UnitState
    fact: dict[str, Any]
    why: str
    """Why its hit tests need what they need."""
    n: int
    """Its number in ``ctx.facts["attacks"]`` (the key ``hit.<n>``)."""
    tag: str = ""
    """Appended to the keys of the target's rolls (``block.<unit><tag>``): a reaction
    hitting the acting unit tags them with the reacting unit (``.black.2``), so that
    several reactions hitting it keep distinct keys."""

    @property
    def poisons(self) -> bool:
        """DT §7 Poison Gear: its hits poison when they are of the gear's kind."""
        return self.attacker.has("poison-gear") and self.attacker.poison == self.kind


@dataclass
class Plan:
    """The action under way (DT §3, §6): what the reactions and the resolution need."""

    ctx: Context
    unit: UnitState
    action: str
    words: str = ""
    """The action as the reaction question names it ("Red Scout's Advance, shooting
    its Rifle at Black Sniper")."""
    strikes: list[Strike] = field(default_factory=list)
    target: UnitState | None = None
    """The one unit a charge, a grenade or a special action is aimed at."""
    camo_attack: bool = False
    """DT §7 Camouflage: it attacked with its marker on: reactions to it are at -2."""
    grenade: str = ""
    """The grenade thrown (one of :data:`tables.GRENADES`), "" if none."""
    throw: Mods = field(default_factory=list)
    """The modifiers of the grenade's throw."""
    asked: dict[str, bool] = field(default_factory=dict)
    """Answers asked once per action, by key (``doctor.<unit>``, ``engineer.<unit>``)."""

    @property
    def state(self) -> State:
        state: State = self.ctx.state
        return state

    @property
    def name(self) -> str:
        return uname(self.state, self.unit)

    def lose_camo_on_attack(self) -> None:
        """The actor attacks: it loses its camo marker, and reactions to this attack are
        at -2 if it had one (DT §7 Camouflage, app reading 13)."""
        if self.unit.camo:
            self.camo_attack = True
            self.unit.camo = False
            self.ctx.say(f"{self.name} attacks and loses its camo marker (DT §7).")


# --------------------------------------------------------------------------- modifiers
def own_mods(unit: UnitState, attacking: bool) -> Mods:
    """The roller's own state on its quality test: flashed -2 (DT §7 Flash grenade);
    hacked -1 on its next attack (``attacking``), used up here (DT §7 Hacker)."""
    mods: Mods = []
    if attacking and unit.hacked:
        unit.hacked = False
        mods.append((tables.HACKED, "hacked (used up)"))
    if unit.flashed_until:
        mods.append((tables.FLASH_MODIFIER, "flashed"))
    return mods


def camo_mods(plan: Plan) -> Mods:
    """DT §7 Camouflage: reactions to a camouflaged unit's attack are at -2."""
    return [(tables.CAMO_REACTION, "reacting to a camouflaged attacker")] if plan.camo_attack \
        else []


def friends(state: State, unit: UnitState, rule: str) -> list[UnitState]:
    """Other units of ``unit``'s side in play with ``rule`` (a Doctor's or an
    Engineer's friends: the unit does not count for itself)."""
    return [u for u in state.units[unit.side] if u.in_play and u is not unit and u.has(rule)]


def _aura(plan: Plan, unit: UnitState, rule: str, gives: str) -> Gen:
    """Whether a friendly ``rule`` unit is within 4" of ``unit`` (key ``<rule>.<unit>``):
    asked once per action, and only if one is in play (app readings 8, 10)."""
    key = f"{rule}.{unit.id}"
    if key not in plan.asked:
        state = plan.state
        near = friends(state, unit, rule)
        plan.asked[key] = bool(near) and (yield from ask_yes_no(
            key, f"Is {uname(state, unit)} within {tables.AURA}\" of {names(state, near)} "
            f"({tables.SPECIAL_RULES[rule].name}: {gives})?", "DT §7", unit.side,
            default="no"))
    return plan.asked[key]


def aim(plan: Plan, shooter: UnitState, target: UnitState, weapon: Weapon,
        key: Callable[[str], str]) -> Gen:
    """The to-hit modifiers of ``shooter`` firing ``weapon`` at ``target`` (DT §4, DT-R2,
    app reading 10): the distance (refused beyond the maximum range), then
    :func:`shot_mods`. ``key(stem)`` names each question. Returns the modifiers (the
    shooter's own are :func:`own_mods`)."""
    state = plan.state
    bands = weapon.bands_text()
    distance = yield Question(
        key("distance"), f"{uname(state, shooter)} shoots its {weapon.name} at "
        f"{uname(state, target)}: distance in whole inches? Its maximum range is "
        f"{weapon.max_range}\" (DT-R2)" + (f"; {bands}." if bands else "; no range band."),
        minimum=0, maximum=weapon.max_range, rule="DT §4, DT-R2", side=shooter.side,
        default=min(DEFAULT_DISTANCE, weapon.max_range))
    mods: Mods = [(weapon.modifier(distance) or 0, f"{weapon.name} at {distance}\"")]
    return mods + (yield from shot_mods(plan, shooter, target, key))


def shot_mods(plan: Plan, shooter: UnitState, target: UnitState,
              key: Callable[[str], str]) -> Gen:
    """The to-hit modifiers of any shot or throw of ``shooter`` at ``target`` but the
    range (DT §4, §7, app reading 10): cover and height asked, a friendly Engineer
    asked if one is in play, and a mark of ``shooter``'s side on ``target`` used up."""
    state = plan.state
    name, tname = uname(state, shooter), uname(state, target)
    mods: Mods = []
    if (yield from ask_yes_no(key("cover"), f"Is {tname} in or behind cover ("
                              f"{tables.COVER:+d} to hit)?", "DT §4", shooter.side, "no")):
        mods.append((tables.COVER, "in cover"))
    if (yield from ask_yes_no(key("down"), f"Is {name} shooting down at {tname} on lower "
                              f"ground ({tables.ELEVATION:+d} to hit)?", "DT §4", shooter.side,
                              "no")):
        mods.append((tables.ELEVATION, "shooting down"))
    if (yield from _aura(plan, shooter, "engineer", f"{tables.ENGINEER:+d} to shoot")):
        mods.append((tables.ENGINEER, "Engineer near"))
    if target.spotted_by == shooter.side:
        target.spotted_by = ""
        mods.append((tables.SPOTTED, "spotted (used up)"))
    return mods


def block_mods(strike: Strike, doctor: bool) -> Mods:
    """The target's modifiers on its blocks (DT §4, §7, app reading 8); a hack is not
    used up here but when the blocks are rolled."""
    target, attacker = strike.target, strike.attacker
    mods: Mods = []
    if target.has("armored"):
        mods.append((tables.ARMORED, "Armored"))
    if doctor:
        mods.append((tables.DOCTOR, "Doctor near"))
    if strike.kind == "shooting":
        if attacker.has("fire-ammo"):
            mods.append((tables.FIRE_AMMO, "Fire Ammo"))
        if attacker.has("piercing-ammo"):
            mods.append((tables.PIERCING_AMMO, "Piercing Ammo"))
    if target.hacked:
        mods.append((tables.HACKED, "hacked (used up)"))
    if target.flashed_until:
        mods.append((tables.FLASH_MODIFIER, "flashed"))
    return mods


def morale_mods(unit: UnitState) -> Mods:
    return own_mods(unit, attacking=False)


def tough_fact(unit: UnitState) -> int:
    """The facts' ``tough``: ``unit``'s wound markers if it is Tough (DT §7), else
    :data:`tables.NOT_TOUGH`."""
    return unit.wounds if unit.has("tough") else tables.NOT_TOUGH


def _doctor(plan: Plan, unit: UnitState) -> bool:
    """The answer already given: a friendly Doctor is within 4" of ``unit``."""
    return plan.asked.get(f"doctor.{unit.id}", False)


def refresh_block(plan: Plan, unit: UnitState) -> None:
    """The block modifier of every attack at ``unit`` again, after its own reaction
    used up its hack (DT §7 Hacker: its next attack or block), so that the odds panel
    shows what it will roll."""
    for strike in plan.strikes:
        if strike.target is unit:
            strike.fact["block"] = total(block_mods(strike, _doctor(plan, unit)))


# --------------------------------------------------------------------------- attacks
def declare(plan: Plan, kind: str, attacker: UnitState, target: UnitState, attacks: int,
            mods: Mods, head: str, weapon: str, tag: str = "") -> Gen:
    """A new attack of ``attacks`` dice at ``mods`` on ``target`` with ``weapon`` (its
    name, for the odds panel), its fact published (stage "hit"); asks whether a
    friendly Doctor is near the target. Returns the :class:`Strike`."""
    facts = plan.ctx.facts.setdefault("attacks", [])
    strike = Strike(kind, attacker, target, {}, why_words(mods, head), len(facts) + 1, tag)
    doctor = yield from _aura(plan, target, "doctor", f"{tables.DOCTOR:+d} to block")
    strike.fact.update(
        kind=kind, target=target.id, weapon=weapon, attacks=attacks, hit=total(mods),
        block=total(block_mods(strike, doctor)), morale=total(morale_mods(target)),
        cancel=dict(NO_CANCEL), tough=tough_fact(target),
        regeneration=target.has("regeneration"), stage="hit")
    facts.append(strike.fact)
    return strike


def roll_hits(plan: Plan, strike: Strike) -> Gen:
    """The attacker's hit tests (DT §4): returns the successes."""
    fact = strike.fact
    plan.ctx.facts["attack"] = fact
    fact["stage"] = "hit"
    name, tname = uname(plan.state, strike.attacker), uname(plan.state, strike.target)
    successes = yield from quality_test(
        plan.ctx, f"hit.{strike.n}", fact["attacks"], fact["hit"],
        f"{name}: {strike.kind} at {tname}", strike.why, KIND_RULE[strike.kind],
        strike.attacker.side)
    fact.update(successes=successes, cancelled=0)
    return successes


def land(plan: Plan, strike: Strike, hits: int, morale: bool = True) -> Gen:
    """``hits`` on the target (DT §4, §5, §7, app reading 8): one block per hit, any
    failure kills it (a Tough unit takes a wound marker per failure and dies at the
    3rd; Regeneration survives a death on 5+); a unit hit and not killed tests its
    morale (stunned after melee, falls back 2" otherwise) unless ``morale`` is false
    (the caller tests it once for several attacks, DT §5); Poison Gear hits poison a
    survivor. Returns whether the target was hit and lives (its morale is due).

    Harm (the end-of-game report): the failed blocks are the damage that got through,
    credited to the striking unit (a reaction's attacker is the reacting unit, a frag
    grenade's the thrower), with a kill unless Regeneration undid it. A unit poisoned
    again keeps its first poisoner: the poison does not stack (DT §7)."""
    ctx, state = plan.ctx, plan.state
    fact, target = strike.fact, strike.target
    ctx.facts["attack"] = fact
    fact.update(hits=hits, failed_blocks=0, killed=False)
    tname = uname(state, target)
    if not hits:
        fact["stage"] = "done"
        ctx.say(f"{tname} takes no hit.")
        return False
    if not target.alive:
        fact["stage"] = "done"
        ctx.say(f"{tname} is already killed: its {plural(hits, 'hit')} change nothing.")
        return False
    mods = block_mods(strike, _doctor(plan, target))
    target.hacked = False
    fact.update(block=total(mods), stage="block", tough=tough_fact(target))
    blocked = yield from quality_test(
        ctx, f"block.{target.id}{strike.tag}", hits, total(mods), f"{tname}: blocks",
        why_words(mods, f"one block per hit ({plural(hits, 'hit')})"), "DT §4", target.side)
    failed = hits - blocked
    fact["failed_blocks"] = failed
    dying = bool(failed)
    if failed and target.has("tough"):
        target.wounds += failed
        dying = target.wounds >= tables.TOUGH_WOUNDS
        ctx.say(f"{tname} fails {plural(failed, 'block')}: Tough, it now has "
                f"{plural(target.wounds, 'wound marker')} (DT §7).")
    elif failed:
        ctx.say(f"{tname} fails {plural(failed, 'block')} (DT §4).")
    if dying and target.has("regeneration"):
        fact["stage"] = "regeneration"
        dying = not (yield from regenerates(ctx, target, strike.tag))
    fact.update(killed=dying, stage="done")
    ctx.harm(target.id, strike.attacker.id, damage=failed, kills=int(dying))
    if dying:
        kill(state, target)
        ctx.say(f"{tname} is killed ({'DT §7 Tough' if target.has('tough') else 'DT §4'}).")
        return False
    if morale:
        yield from take_morale(plan, target, strike.kind == "melee", strike.tag)
    if strike.poisons:
        ctx.say(f"{tname} is {'still ' if target.poisoned else ''}poisoned by "
                f"{uname(state, strike.attacker)}'s Poison Gear (DT §7).")
        target.poisoned = True
        target.poisoned_by = target.poisoned_by or strike.attacker.id
    return True


def regenerates(ctx: Context, unit: UnitState, tag: str = "") -> Gen:
    """DT §7 Regeneration, whenever ``unit`` would be killed (failed blocks, a failed
    poison test): one die (key ``regen.<unit><tag>``), 5+ survives. Returns whether it
    survives."""
    name = uname(ctx.state, unit)
    d = yield DiceRequest(f"regen.{unit.id}{tag}", 1, f"{name}: Regeneration",
                          tables.REGENERATION, f"it would be killed: {tables.REGENERATION}+ "
                          "survives", "DT §7", unit.side)
    lives = bool(d.count(tables.REGENERATION))
    ctx.say(f"{name} Regeneration: {dice_text(d, tables.REGENERATION)}: "
            + ("it survives (DT §7)." if lives else "it is not enough (DT §7)."))
    return lives


def take_morale(plan: Plan, unit: UnitState, melee: bool, tag: str = "") -> Gen:
    """DT §5, app reading 8: one quality test (key ``morale.<unit><tag>``); failing, a
    unit hit in melee (``melee``) is stunned, one hit by shooting or a grenade moves 2"
    away (the players move it)."""
    ctx = plan.ctx
    name = uname(plan.state, unit)
    mods = morale_mods(unit)
    ok = yield from quality_test(ctx, f"morale.{unit.id}{tag}", 1, total(mods),
                                 f"{name}: morale", why_words(mods, "hit and not killed"),
                                 "DT §5", unit.side)
    if ok:
        ctx.say(f"{name} holds its nerve (DT §5).")
    elif melee:
        unit.stunned = True
        ctx.say(f"{name} fails its morale after melee: it is stunned (DT §5).")
    else:
        stay = (" (it stays in base contact: only a dodge leaves it, DT §3)"
                if unit.engaged else "")
        ctx.say(f"{name} fails its morale: it moves {tables.FALL_BACK}\" out of sight and "
                f"away from enemies{stay} (DT §5).")


def targets(plan: Plan) -> Gen:
    """The enemy units the actor may attack or mark: in play, without a camo marker
    (DT §7). With a Sixth Sense unit of its side in play, each camouflaged enemy is
    asked about: within 8" of it, the enemy loses its marker (DT §7, app reading 10)."""
    state, unit = plan.state, plan.unit
    sense = sixth_sense(state, unit.side)
    out = []
    for enemy in in_play(state, other_side(unit.side)):
        ename = uname(state, enemy)
        if enemy.camo and sense and (yield from ask_yes_no(
                f"sense.{enemy.id}", f"Is {ename} (camouflaged) within "
                f"{tables.SIXTH_SENSE_RANGE}\" of {names(state, sense)} (Sixth Sense)?",
                "DT §7", unit.side, default="no")):
            enemy.camo = False
            plan.ctx.say(f"{ename} loses its camo marker to Sixth Sense (DT §7).")
        if not enemy.camo:
            out.append(enemy)
    return out


def pick(plan: Plan, key: str, prompt: str, units: list[UnitState], rule: str) -> Gen:
    """One of ``units`` (asked only when there are several)."""
    if len(units) == 1:
        return units[0]
    answer = yield Question(key, prompt, tuple(Choice(u.id, uname(plan.state, u))
                                               for u in units),
                            rule=rule, side=plan.unit.side, default=units[0].id)
    return plan.state.unit(answer)

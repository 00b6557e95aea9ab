"""The Plasmashok dice pipeline shared by shooting (PS §5) and melee (PS §6: "resolved
like shooting").

One :class:`Attack` is the weapons of one unit at one target. Each weapon group rolls
its own attack dice (step 1; a request per group keeps the "colours" apart), the
target rolls ONE set of defence dice and every defence die blocks all the attack dice
showing its face (step 2). Each unblocked attack die becomes ``strength`` dice (step
3); the target rolls ONE set of size dice and every strength die matching any of them
deals the group's ``damage`` (step 4). One shield save per point of damage; each
failure is a wound, put on the target's ``pending`` count until the bracket ends
(step 5; PS §3, app readings 1 and 10).

Dice luck (the end-of-game report judges each roll for the side rolling it):

- attack and strength dice are not judged (:data:`BLIND`);
- the defence dice by how many attack dice they block (PS §5 step 2: more is better
  for the target): ``MATCHES`` against every attack die at this target;
- the size dice by the damage they let through (PS §5 step 4: less is better for
  the target): ``DAMAGE``, counted as matches against the strength dice, each
  counted ``damage`` times so that the measure is the damage dealt (and the report
  says "damage let through", not "matches");
- shield saves as usual: more successes are better for the target (PS §5 step 5).

Facts for the odds panel
------------------------
``ctx.facts["attacks"]`` lists the attacks declared in the resolution, in order, and
``ctx.facts["attack"]`` is the one being resolved (the same dict, updated in place;
``stage`` names the roll asked for next and is set before each request: "declared"
until the first group's attack dice are in, "attack" for the later groups' attack
dice, so the panel says "as declared" only before any die is rolled)::

    {"kind": "shooting" | "melee", "target": "black.2",
     "groups": [{"weapon": "Basic Rifle", "dice": 4, "strength": 2, "damage": 1}],
     "defence": 3, "size": 5, "save": 5, "models": 5, "wounds_per_model": 1,
     "wounded": 0, "pending": 0,
     "stage": "declared" | "attack" | "defence" | "strength" | "size" | "saves" | "done",
     "attack_faces": [[...]], "defence_faces": [...], "strength_faces": [[...]],
     "size_faces": [...], "damage": 3, "wounds": 2}

A roll of no dice is not asked for: its faces are ``[]`` and the narration says why.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from deathzap_tui.rules.narration import Gen, dice_text, faces_text, plural
from deathzap_tui.rules.plasmashok import tables
from deathzap_tui.rules.plasmashok.casualties import deal_wounds, wounded
from deathzap_tui.rules.plasmashok.common import uname
from deathzap_tui.rules.plasmashok.state import State, UnitState
from deathzap_tui.rules.steps import DAMAGE, MATCHES, UNJUDGED, Context, DiceRequest, Luck

BLIND = Luck(UNJUDGED)
"""How the attacker's attack and strength dice (PS §4, §5 steps 1 and 3) are judged:
not at all. They are rolled before the dice they are matched against (defence, size),
and against fair dice not yet rolled every face is blocked or matched with the same
chance, so no face is better than another for the roller."""


@dataclass
class Attack:
    """The weapons of one unit at one target (PS §5, §6).

    Dice-request keys are ``<prefix><stage>[.<n>][.<g>]``: shooting uses no prefix
    and the attack's number ``n`` (``attack.1.2``, ``defence.1``); melee uses the
    prefix ``melee.`` and no number (``melee.attack.1``, ``melee.defence``)."""

    target: str
    why: str
    """Why the target rolls ``fact["defence"]`` defence dice."""
    fact: dict[str, Any]
    prefix: str = ""
    n: int = 0
    whys: list[str] = field(default_factory=list)
    """Per weapon group: why it rolls that many attack dice."""

    def key(self, stage: str, g: int = 0) -> str:
        return self.prefix + stage + "".join(f".{i}" for i in (self.n, g) if i)

    def add(self, weapon: str, dice: int, strength: int, damage: int, why: str) -> None:
        """Another weapon group at this target (PS §5: every weapon fires)."""
        self.fact["groups"].append({"weapon": weapon, "dice": dice, "strength": strength,
                                    "damage": damage})
        self.whys.append(why)


def cite(rule: str, step: int) -> str:
    """The rule of a dice step: PS §5's ``step`` alone when shooting (``rule`` "PS §5"),
    else both ("PS §6 / PS §5 step 2": melee resolved like shooting)."""
    shooting = f"PS §5 step {step}"
    return shooting if rule == "PS §5" else f"{rule} / {shooting}"


def actor(state: State, unit_id: str) -> tuple[UnitState | None, str]:
    """The unit and "" when it exists and is in play; otherwise ``None`` and the
    reason (the first refusals of special combat, shooting and melee)."""
    try:
        unit = state.unit(unit_id)
    except KeyError:
        return None, f"there is no unit {unit_id!r}"
    if not unit.in_play:
        return None, f"{uname(state, unit)} is no longer in play"
    return unit, ""


def already_acted(state: State, unit: UnitState) -> str:
    """The refusal for a unit whose ``acted`` is set: it attacks once per phase
    (PS §3), and once per extra melee round (PS §6)."""
    return f"{uname(state, unit)} has already attacked in this phase (PS §3)"


def target_fact(target: UnitState) -> dict[str, Any]:
    """What every attack's fact says about its target when declared (special combat,
    shooting, melee): its id, living models, wounds per model, the wounds on its
    partly wounded model (app reading 1) and those pending this bracket (PS §3)."""
    return {"target": target.id, "models": target.figures_left,
            "wounds_per_model": target.stats.wounds, "wounded": wounded(target),
            "pending": target.pending}


def publish(ctx: Context, fact: dict[str, Any]) -> None:
    """Add a declared attack's ``fact`` to ``ctx.facts["attacks"]`` (the odds panel's
    list of the resolution's attacks, in order)."""
    ctx.facts.setdefault("attacks", []).append(fact)


def declare(ctx: Context, kind: str, target: UnitState, defence: int, why: str,
            prefix: str = "", n: int = 0) -> Attack:
    """A new attack at ``target`` (no weapon group yet), its fact published in
    ``ctx.facts["attacks"]``."""
    fact = {"kind": kind, "groups": [], "defence": defence, "size": target.size,
            "save": target.save, **target_fact(target), "stage": "declared"}
    publish(ctx, fact)
    return Attack(target.id, why, fact, prefix, n)


def roll_faces(ctx: Context, key: str, count: int, purpose: str, why: str, rule: str,
               side: str, luck: Luck) -> Gen:
    """The faces of ``count`` dice (PS: faces matter, never a count of successes),
    judged for ``side`` by ``luck``; ``()`` without asking when there are no dice."""
    if not count:
        ctx.say(f"{purpose}: no dice to roll.")
        return ()
    d = yield DiceRequest(key, count, purpose, None, why, rule, side, luck=luck)
    return d.faces


def resolve(ctx: Context, attacker: UnitState, attack: Attack, rule: str) -> Gen:
    """Roll one attack through PS §5 steps 1-5 (``rule`` names the phase's section),
    one helper per step; the wounds go on the target's ``pending`` count (PS §3)."""
    target = ctx.state.unit(attack.target)
    ctx.facts["attack"] = attack.fact
    attack.fact["pending"] = target.pending
    yield from _attack_dice(ctx, attacker, target, attack, rule)
    unblocked = yield from _defence_dice(ctx, target, attack, rule)
    yield from _strength_dice(ctx, attacker, attack, unblocked, rule)
    damage = yield from _size_dice(ctx, target, attack, rule)
    attack.fact["stage"] = "saves"
    wounds = yield from _saves(ctx, target, damage, attack.key("saves"), rule)
    attack.fact.update(wounds=wounds, stage="done")
    deal_wounds(ctx, target, attacker, wounds, damage)
    if wounds:
        ctx.say(f"{uname(ctx.state, target)}: {plural(target.pending, 'wound')} pending, "
                "removed at the end of the bracket (PS §3).")


def _attack_dice(ctx: Context, attacker: UnitState, target: UnitState, attack: Attack,
                 rule: str) -> Gen:
    """PS §5 step 1: each weapon group's attack dice, a request per group."""
    fact = attack.fact
    name, tname = uname(ctx.state, attacker), uname(ctx.state, target)
    fact["attack_faces"] = []
    for g, (group, why) in enumerate(zip(fact["groups"], attack.whys, strict=True), 1):
        fact["stage"] = "declared" if g == 1 else "attack"
        faces = yield from roll_faces(ctx, attack.key("attack", g), group["dice"],
                                      f"{name}: {group['weapon']} attack dice at {tname}",
                                      why, cite(rule, 1), attacker.side, BLIND)
        fact["attack_faces"].append(list(faces))
        if faces:
            ctx.say(f"{name} {group['weapon']}: attack dice {faces_text(faces)}.")


def _defence_dice(ctx: Context, target: UnitState, attack: Attack, rule: str) -> Gen:
    """PS §5 step 2: the target's one roll of defence dice; returns each group's
    unblocked attack dice. Judged by the attack dice it blocks (more is better for
    the target)."""
    fact = attack.fact
    fact["stage"] = "defence"
    blocks = Luck(MATCHES, against=tuple(f for faces in fact["attack_faces"] for f in faces))
    defence = yield from roll_faces(ctx, attack.key("defence"), fact["defence"],
                                    f"{uname(ctx.state, target)}: defence dice", attack.why,
                                    cite(rule, 2), target.side, blocks)
    fact["defence_faces"] = list(defence)
    unblocked = [[f for f in faces if f not in defence] for faces in fact["attack_faces"]]
    ctx.say(_blocking(defence, fact["attack_faces"], [g["weapon"] for g in fact["groups"]],
                      unblocked))
    return unblocked


def _strength_dice(ctx: Context, attacker: UnitState, attack: Attack,
                   unblocked: list[list[int]], rule: str) -> Gen:
    """PS §5 step 3: each unblocked attack die becomes ``strength`` dice."""
    fact = attack.fact
    name = uname(ctx.state, attacker)
    fact["strength_faces"] = []
    for g, (group, free) in enumerate(zip(fact["groups"], unblocked, strict=True), 1):
        fact["stage"] = "strength"
        count = len(free) * group["strength"]
        faces = yield from roll_faces(
            ctx, attack.key("strength", g), count, f"{name}: {group['weapon']} strength dice",
            f"{plural(len(free), 'unblocked attack die', 'unblocked attack dice')} x strength "
            f"{group['strength']}", cite(rule, 3), attacker.side, BLIND)
        fact["strength_faces"].append(list(faces))
        if faces:
            ctx.say(f"{name} {group['weapon']}: strength dice {faces_text(faces)}.")


def _size_dice(ctx: Context, target: UnitState, attack: Attack, rule: str) -> Gen:
    """PS §5 step 4: the target's one roll of size dice (none when no strength die
    was rolled); returns the damage."""
    fact = attack.fact
    tname = uname(ctx.state, target)
    damage = 0
    if not any(fact["strength_faces"]):
        fact["size_faces"] = []
        ctx.say(f"No strength dice against {tname}: no damage (PS §5 step 3).")
    else:
        fact["stage"] = "size"
        size = yield from roll_faces(
            ctx, attack.key("size"), fact["size"], f"{tname}: size dice",
            f"the size of {tname}: {plural(fact['models'], 'model')} x {target.stats.size} = "
            f"{fact['size']}; strength dice showing any of these faces deal damage",
            cite(rule, 4), target.side, _damage_luck(fact["strength_faces"], fact["groups"]))
        fact["size_faces"] = list(size)
        damage, text = _matching(size, fact["strength_faces"], fact["groups"],
                                 len(fact["groups"]) > 1)
        ctx.say(text)
    fact["damage"] = damage
    return damage


def _damage_luck(strength: list[list[int]], groups: list[dict[str, Any]]) -> Luck:
    """How the size dice are judged (PS §5 step 4): by the damage of the strength
    dice they match, each strength die counted its group's ``damage`` times: the
    damage let through (:data:`~deathzap_tui.rules.steps.DAMAGE`), less being better
    for the target rolling them."""
    against = tuple(f for faces, group in zip(strength, groups, strict=True)
                    for f in faces for _ in range(group["damage"]))
    return Luck(DAMAGE, more=False, against=against)


def _blocking(defence: tuple[int, ...], attack_faces: list[list[int]], weapons: list[str],
              unblocked: list[list[int]]) -> str:
    """"Defence 3 5 5: the 3 blocks 2 attack dice, the 5s block 1; 4 unblocked"."""
    if not defence:
        return "No defence dice: nothing is blocked (PS §5 step 2)."
    parts = []
    for face in sorted(set(defence)):
        hit = [sum(1 for f in faces if f == face) for faces in attack_faces]
        word = f"the {face}s block" if defence.count(face) > 1 else f"the {face} blocks"
        if len(weapons) == 1:
            parts.append(f"{word} {hit[0] or 'none'}")
            continue
        what = [plural(n, f"{w} die", f"{w} dice") for n, w in zip(hit, weapons, strict=True)
                if n]
        parts.append(f"{word} {' and '.join(what) or 'none'}")
    if len(weapons) == 1:
        left = f"{len(unblocked[0])} unblocked"
    else:
        left = "unblocked: " + ", ".join(f"{w} {len(u)}"
                                        for w, u in zip(weapons, unblocked, strict=True))
    return f"Defence {faces_text(defence)}: {', '.join(parts)}; {left} (PS §5 step 2)."


def _matching(size: tuple[int, ...], strength: list[list[int]], groups: list[dict[str, Any]],
              many: bool) -> tuple[int, str]:
    """PS §5 step 4: the damage of the strength dice matching any size die, and the
    sentence that says so ("Size dice 2 6: strength dice 2 2 6 match (3 hits x damage
    1 = 3 damage).")."""
    total, parts = 0, []
    for faces, group in zip(strength, groups, strict=True):
        hits = [f for f in faces if f in size]
        dmg = len(hits) * group["damage"]
        total += dmg
        what = f"{group['weapon']} " if many else "strength dice "
        if hits:
            parts.append(f"{what}{faces_text(tuple(hits))} match ({plural(len(hits), 'hit')} x "
                         f"damage {group['damage']} = {dmg})")
        elif faces:
            parts.append(f"{what}none match")
    return total, (f"Size dice {faces_text(size)}: {'; '.join(parts)}: "
                   f"{total} damage (PS §5 step 4).")


def _saves(ctx: Context, target: UnitState, damage: int, key: str, rule: str) -> Gen:
    """PS §5 step 5: one shield save per point of damage, each failure a wound. No
    roll without damage, nor at 7+ (no save: every point is a wound, app reading 10).
    Returns the wounds."""
    tname = uname(ctx.state, target)
    save = target.save
    if not damage:
        return 0
    if save >= tables.NO_SAVE:
        ctx.say(f"{tname} has no shield save: {plural(damage, 'wound')} (app reading 10).")
        return damage
    why = f"{target.stats.name} shield save {target.stats.save}+"
    if save != target.stats.save:
        why += f", {save}+ with Advanced Shields"
    d = yield DiceRequest(key, damage, f"{tname}: shield saves", save, why,
                          cite(rule, 5), target.side)
    wounds = damage - d.count(save)
    ctx.say(f"{tname} shield saves: {dice_text(d, save)}: {plural(wounds, 'wound')} "
            "(PS §5 step 5).")
    return wounds

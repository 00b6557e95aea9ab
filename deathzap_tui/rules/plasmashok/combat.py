"""Deathzap Plasmashok special combat (PS §4) and shooting (PS §5).

Two resolution fragments the engine calls for one unit of the bracket under way:

- :func:`special`: the unit's special-combat attack; every attack die whose face none
  of the defender's dice shows is a wound (no saves).
- :func:`shoot`: the unit's weapons, each weapon group at a target of its own (every
  weapon fires, PS §5); all the groups at one target are rolled together through the
  shared pipeline of :mod:`.attack`.

The wounds wait on the target's ``pending`` count until the bracket ends
(:func:`.casualties.end_of_bracket`, PS §3). Whether a unit may act is
:func:`special_refusal` / :func:`shoot_refusal` (unit-level reasons; the engine adds
the phase, bracket and owner) and the fragments trust it. Facts for the odds panel
are described in :mod:`.attack`; special combat's are::

    {"kind": "special", "target": "black.0", "dice": 2, "defence": 3,
     "models": 5, "wounds_per_model": 1, "wounded": 0, "pending": 0,
     "stage": "declared" | "defence" | "done",
     "attack_faces": [...], "defence_faces": [...], "wounds": 1}
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from deathzap_tui.rules.narration import Gen, faces_text, plural, possessive
from deathzap_tui.rules.plasmashok import tables
from deathzap_tui.rules.plasmashok.attack import (
    BLIND,
    Attack,
    actor,
    already_acted,
    declare,
    publish,
    resolve,
    roll_faces,
    target_fact,
)
from deathzap_tui.rules.plasmashok.casualties import deal_wounds
from deathzap_tui.rules.plasmashok.common import free_of_contact, uname
from deathzap_tui.rules.plasmashok.state import State, UnitState
from deathzap_tui.rules.plasmashok.tables import WeaponProfile
from deathzap_tui.rules.ruleset import other_side
from deathzap_tui.rules.steps import MATCHES, Choice, Context, Luck, Question

NO_MORE = "no"
"""Blast answer: no other unit is under the Radius Weapon's blast."""
DEFAULT_DISTANCE = 12
"""What Enter answers to the distance question (the players measure)."""
FULL_STEP = f'full {tables.RANGE_STEP}" step'
COVER_CHOICES = (Choice("open", "Open"), Choice("soft", "Soft cover (+1 defence die)"),
                 Choice("hard", "Hard cover (+2 defence dice)"))


# --- special combat (PS §4) -----------------------------------------------------------


def special_refusal(state: State, unit_id: str) -> str:
    """Why ``unit_id`` may not make a special-combat attack now ("" if it may):
    unit-level reasons only (PS §4)."""
    unit, why = actor(state, unit_id)
    if unit is None:
        return why
    if unit.acted:
        return already_acted(state, unit)
    if not unit.special:
        return f"{uname(state, unit)} has no special combat (PS §4)"
    if not any(u.in_play for u in state.units[other_side(unit.side)]):
        return "no enemy unit is left to target (PS §4)"
    return ""


def special(ctx: Context, unit_id: str) -> Gen:
    """One unit's special-combat attack (PS §4, app reading 5): the attacker rolls its
    special-combat value in dice, the target its own value + 2; each attack die whose
    face appears nowhere among the defence dice is one wound, with no save. Any enemy
    unit in play may be targeted (the players judge the 12" range); cover, range and
    size do not count, and units in contact may take part.

    Dice luck: the attack dice are not judged (:data:`.attack.BLIND`: rolled before
    the defence); the defence dice by the attack dice they match (PS §4: each match
    is a wound saved, more is better for the defender)."""
    state: State = ctx.state
    unit = state.unit(unit_id)
    name = uname(state, unit)
    enemies = [u for u in state.units[other_side(unit.side)] if u.in_play]
    target = enemies[0]
    if len(enemies) > 1:
        answer = yield Question(
            "special.target", f"{name}: special-combat attack at which enemy unit (within "
            f"{tables.SPECIAL_RANGE}\", the players judge)?",
            tuple(Choice(u.id, uname(state, u)) for u in enemies), rule="PS §4",
            side=unit.side, default=target.id)
        target = state.unit(answer)
    unit.acted = True
    tname = uname(state, target)
    defence = target.special + tables.SPECIAL_DEFENCE_BONUS
    fact: dict[str, Any] = {"kind": "special", "dice": unit.special, "defence": defence,
                            **target_fact(target), "stage": "declared"}
    publish(ctx, fact)
    ctx.facts["attack"] = fact
    ctx.say(f"{name} attacks {tname} in special combat (PS §4).")
    attack = yield from roll_faces(
        ctx, "special.attack", unit.special, f"{name}: special-combat dice at {tname}",
        f"{possessive(name)} special combat {unit.special}", "PS §4", unit.side, BLIND)
    fact.update(attack_faces=list(attack), stage="defence")
    guard = yield from roll_faces(
        ctx, "special.defence", defence, f"{tname}: special-combat defence dice",
        f"{possessive(tname)} special combat {target.special} + "
        f"{tables.SPECIAL_DEFENCE_BONUS}", "PS §4", target.side,
        Luck(MATCHES, against=attack))
    through = [f for f in attack if f not in guard]
    matched = sorted(set(attack) - set(through))
    fact.update(defence_faces=list(guard), wounds=len(through), stage="done")
    deal_wounds(ctx, target, unit, len(through))
    ctx.say(f"Special combat: {name} rolls {faces_text(attack)}, {tname} defends with "
            f"{faces_text(guard)}: "
            + (f"the {faces_text(tuple(matched))} {'is' if len(matched) == 1 else 'are'} "
               "matched; " if matched else "nothing is matched; ")
            + f"{plural(len(through), 'wound')}, no save (PS §4).")
    if through:
        ctx.say(f"{tname}: {plural(target.pending, 'wound')} pending, removed at the end of "
                "the bracket (PS §3).")


# --- shooting (PS §5) -----------------------------------------------------------------


def weapon_groups(unit: UnitState) -> dict[str, int]:
    """Weapon id -> weapons carried by the unit's living models, in force order; a
    model listing a weapon twice carries two (PS §5: every weapon fires)."""
    return dict(Counter(w for f in unit.alive_figures for w in f.weapons))


def shooting_targets(state: State, unit: UnitState) -> list[UnitState]:
    """Enemy units that may be shot: in play and not held by a base contact (PS §5)."""
    return [u for u in state.units[other_side(unit.side)]
            if u.in_play and free_of_contact(state, u)]


def shoot_refusal(state: State, unit_id: str) -> str:
    """Why ``unit_id`` may not shoot now ("" if it may): unit-level reasons (PS §5)."""
    unit, why = actor(state, unit_id)
    if unit is None:
        return why
    name = uname(state, unit)
    if not weapon_groups(unit):
        return f"{name} has no weapons"
    if not free_of_contact(state, unit):
        return (f"{name} is in base contact and not at least double the size of every unit "
                "it touches: it cannot shoot (PS §5)")
    if unit.acted:
        return already_acted(state, unit)
    if not shooting_targets(state, unit):
        return ("no enemy unit may be shot: units in base contact cannot be shot unless at "
                "least double the size of every unit they touch (PS §5)")
    return ""


class _Volley:
    """The declarations of one unit's shooting: where each target is (cover and
    distance, asked once per target whichever weapon group names it first) and the
    attacks, one per target, in the order their first weapon group was aimed (PS §5;
    app reading 6)."""

    def __init__(self, ctx: Context, unit: UnitState) -> None:
        self.ctx = ctx
        self.state: State = ctx.state
        self.unit = unit
        self.name = uname(self.state, unit)
        self.where: dict[str, tuple[str, int]] = {}
        self.attacks: dict[str, Attack] = {}

    def locate(self, target: UnitState) -> Gen:
        """``(cover, distance)`` of ``target``, asked the first time any weapon group
        (or blast) names it, then shared (app reading 6)."""
        if target.id in self.where:
            return self.where[target.id]
        tname = uname(self.state, target)
        cover = yield Question(
            f"cover.{target.id}", f"{self.name} shoots at {tname}: what cover is it in? If "
            "it is split between covers, use the one most of its models are in.",
            COVER_CHOICES, rule="PS §5 step 2", side=self.unit.side, default="open")
        distance = yield Question(
            f"distance.{target.id}", f"Distance from {self.name} to {tname} in whole "
            f"inches (one more defence die per full {tables.RANGE_STEP}\")?",
            minimum=0, maximum=tables.MAX_DISTANCE, rule="PS §5 step 2", side=self.unit.side,
            default=DEFAULT_DISTANCE)
        self.where[target.id] = (cover, distance)
        return cover, distance

    def add(self, target: UnitState, weapon: WeaponProfile, guns: int, in_blast: int,
            why: str) -> None:
        """``guns`` weapons of one kind at ``target`` (``in_blast``: its models under a
        Radius Weapon's blast): joins the attack at that target (one defence and one
        size roll for all of them, app reading 6)."""
        attack = self.attacks.get(target.id)
        if attack is None:
            cover, distance = self.where[target.id]
            defence, dwhy = shooting_defence(target, cover, distance)
            attack = declare(self.ctx, "shooting", target, defence, dwhy,
                             n=len(self.attacks) + 1)
            self.attacks[target.id] = attack
        dice = tables.weapon_dice(weapon, guns, target.size, in_blast)
        attack.add(weapon.name, dice, weapon.strength, weapon.damage, why)

    def blast(self, weapon: WeaponProfile, guns: int, aimed: UnitState) -> Gen:
        """A Radius Weapon (PS §5 "against each unit", app reading 6): per unit under
        the blast, its models within 3" of the aimed-at model x guns. Further units may
        be named: any unit in play but the shooter, friendly ones too, that may be shot
        (PS §5: not held by a base contact); each is its own target, its cover and
        distance asked (or shared when another group already named it)."""
        under = [aimed]
        target = aimed
        while True:
            tname = uname(self.state, target)
            living = target.figures_left
            models = yield Question(
                f"radius.{weapon.id}.{target.id}", f"{weapon.name} x{guns}: how many of "
                f"{possessive(tname)} {plural(living, 'model')} are within "
                f"{tables.RADIUS_REACH}\" of the aimed-at model?", minimum=1, maximum=living,
                rule="PS §5", side=self.unit.side, default=1)
            self.add(target, weapon, guns, models,
                     f"{plural(models, 'model')} within {tables.RADIUS_REACH}\" x "
                     f"{plural(guns, 'weapon')}")
            others = [u for u in self.state.all_units() if u is not self.unit
                      and u not in under and u.in_play and free_of_contact(self.state, u)]
            if not others:
                return
            more = yield Question(
                f"blast.{weapon.id}.{len(under)}", f"{weapon.name}: is another unit under the "
                "same blast (friendly units too)?",
                (*(Choice(u.id, uname(self.state, u)) for u in others),
                 Choice(NO_MORE, "No other unit")),
                rule="PS §5", side=self.unit.side, default=NO_MORE)
            if more == NO_MORE:
                return
            target = self.state.unit(more)
            under.append(target)
            yield from self.locate(target)


def shooting_defence(target: UnitState, cover: str, distance: int) -> tuple[int, str]:
    """PS §5 step 2: the target's defence dice (:func:`tables.shooting_defence_dice`)
    and why ("Infantry defence 2 + 1 soft cover + 1 for 7\" (one full 6\")")."""
    base = target.stats.defence
    extra = tables.COVER_DICE[cover]
    far = tables.range_dice(distance)
    why = f"{target.stats.name} defence {base}"
    why += f" + {extra} {cover} cover" if extra else " in the open"
    if far:
        why += f" + {far} for {distance}\" ({plural(far, FULL_STEP)})"
    return tables.shooting_defence_dice(base, cover, distance), why


def _group_why(state: State, weapon: WeaponProfile, guns: int, target: UnitState) -> str:
    """Why a weapon group not under a blast rolls its attack dice (PS §5 step 1)."""
    if weapon.shots == tables.SHOTS_TARGET_SIZE:
        return f"{possessive(uname(state, target))} size {target.size} x {plural(guns, 'weapon')}"
    return f"{plural(guns, 'weapon')} x {plural(int(weapon.shots), 'shot')}"


def shoot(ctx: Context, unit_id: str) -> Gen:
    """One unit's shooting (PS §5 "every weapon in the unit fires", app reading 6):
    each weapon group picks a target (the previous group's choice is the default),
    the cover and distance of each target are asked once, a weapon beyond its
    ``range`` does not fire, then each target's attack is rolled through the pipeline
    of :mod:`.attack`."""
    state: State = ctx.state
    unit = state.unit(unit_id)
    volley = _Volley(ctx, unit)
    name = volley.name
    enemies = shooting_targets(state, unit)
    choices = tuple(Choice(u.id, uname(state, u)) for u in enemies)
    previous = enemies[0].id
    for wid, guns in weapon_groups(unit).items():
        weapon = state.weapons[unit.side][wid]
        previous = yield Question(
            f"target.{wid}", f"{name} fires {weapon.name} x{guns}: at which target?",
            choices, rule="PS §5", side=unit.side, default=previous)
        target = state.unit(previous)
        _cover, distance = yield from volley.locate(target)
        if weapon.range and distance > weapon.range:
            ctx.say(f"{name}: {uname(state, target)} is {distance}\" away, beyond the "
                    f"{weapon.name}'s {weapon.range}\": it does not fire (PS §5, PS-R2).")
        elif weapon.shots == tables.SHOTS_RADIUS:
            yield from volley.blast(weapon, guns, target)
        else:
            volley.add(target, weapon, guns, 0, _group_why(state, weapon, guns, target))
    unit.acted = True
    if not volley.attacks:
        ctx.say(f"{name}: no weapon is in range; nothing fires (PS §5).")
        return
    ctx.say(f"{name} shoots: " + "; ".join(
        f"{' and '.join(g['weapon'] for g in a.fact['groups'])} at "
        f"{uname(state, state.unit(a.target))} ({a.fact['defence']} defence dice)"
        for a in volley.attacks.values()) + " (PS §5).")
    for attack in volley.attacks.values():
        yield from resolve(ctx, unit, attack, "PS §5")

"""Deathzap Plasmashok rules in the app's own words (shown by the help screen).

Every number and table is formatted from :mod:`.tables`, never retyped. Rule ids
point at the digest (``shared/rules/plasmashok.md``); where the digest is silent the
text says what the app does and marks it "app reading".
"""

from __future__ import annotations

from deathzap_tui.rules.dice import D3
from deathzap_tui.rules.narration import columns, plural, word_list
from deathzap_tui.rules.plasmashok import tables as t
from deathzap_tui.rules.plasmashok.tables import Melee


def _melee(profile: Melee | None) -> str:
    return f"{profile.attacks}/{profile.strength}/{profile.damage}" if profile else "file"


def _shots(shots: int | str) -> str:
    return {t.SHOTS_TARGET_SIZE: "target size", t.SHOTS_RADIUS: "radius"}.get(
        str(shots), str(shots))


def _names(ids: list[str]) -> str:
    """Type names in words: "Light Vehicles and Big Beasts"."""
    return word_list([t.TYPES[i].name for i in ids])


def _force_points() -> str:
    """PS §9 force points by type, in words: "every infantry or beast unit unlocks 1;
    a light vehicle or big beast unit costs 1, a vehicle or monster unit 2"."""
    def kinds(points: int) -> str:
        return " or ".join(m.singular.lower() for m in t.TYPES.values()
                           if m.force_points == points)

    unlock = sorted({-m.force_points for m in t.TYPES.values() if m.force_points < 0})
    cost = sorted({m.force_points for m in t.TYPES.values() if m.force_points > 0})
    return ("; ".join(f"every {kinds(-n)} unit unlocks {n}" for n in unlock) + "; "
            + ", ".join(f"a {kinds(n)} unit {'costs ' if i == 0 else ''}{n}"
                        for i, n in enumerate(cost)))


_TYPE_ROWS = [["type", "move", "defence", "size", "save", "wounds", "melee"]] + [
    [m.name, f'{m.move}"', str(m.defence), str(m.size), f"{m.save}+", str(m.wounds),
     _melee(m.melee)]
    for m in t.TYPES.values()]

_WEAPON_ROWS = [["weapon", "shots", "strength", "damage", "points", "kind"]] + [
    [w.name, _shots(w.shots), str(w.strength), str(w.damage), str(w.points), w.kind]
    for w in t.WEAPONS.values()]

_SEED_MELEE = _names([i for i, m in t.TYPES.items() if m.melee])
_SEED_COST = _names([i for i, m in t.TYPES.items() if m.base_cost is not None])
_SEED_PRICE = next(m.base_cost for m in t.TYPES.values() if m.base_cost is not None)
_SEED_MODELS = "{} to {}".format(*next(m.models for m in t.TYPES.values()
                                       if m.base_cost is not None))
_COVERS = ", ".join(f"+{n} in {c} cover" for c, n in t.COVER_DICE.items() if n)
_MELEE_SIZE = (f"{plural(t.MELEE_BIGGER_DICE, 'more defence die', 'more defence dice')} "
               "if its size is greater than the attacker's, "
               f"{t.MELEE_DOUBLE_DICE} more if it is at least double")
_NO_WEAPONS = _names([i for i, m in t.TYPES.items() if m.max_weapons == 0])
_SUPER = _names([i for i, m in t.TYPES.items() if m.super_heavy])
_BRACKETS = ", then ".join(t.BRACKETS)
_SHIELD_COSTS = "; ".join(
    f"{_names([i for i, m in t.TYPES.items() if m.shield_cost == cost])} {cost}"
    for cost in sorted({m.shield_cost for m in t.TYPES.values()}))
_MAX_WEAPONS = "; ".join(
    f"{_names([i for i, m in t.TYPES.items() if m.max_weapons == n])} {n}"
    for n in sorted({m.max_weapons for m in t.TYPES.values() if m.max_weapons}))

HELP_SECTIONS: list[tuple[str, str]] = [
    ("Set-up (PS §1)",
     "The battle is fought on a 4' by 4' board. Both players roll a die; the higher "
     "roll picks a base-line edge and deploys first, the other side takes the "
     f"opposite edge. Every model starts within {t.DEPLOYMENT_ZONE}\" of its own "
     "edge.\n"
     "A unit is a group of models of one type, each within "
     f"{t.UNIT_COHESION}\" of another, or a single vehicle or monster. Every unit "
     f"belongs to a training bracket: {', '.join(t.BRACKETS)}."),
    ("Model types (PS §2, PS-R1)",
     "The type gives a unit its numbers. Defence is how many dice it rolls to block "
     "attacks; size, per model, is how many dice it rolls to soak damage (a unit's "
     "size is the sum over its models); the save is its shield save; wounds are what "
     "one model takes before it is removed.\n"
     + columns(_TYPE_ROWS) + "\n"
     "Melee is attacks/strength/damage per model. Only the "
     f"{_SEED_MELEE} rows survive in the seed (PS-R1); every other unit takes its "
     "profile from the force file, and a unit whose file gives none cannot attack in "
     "melee (the app says which field is missing)."),
    ("The turn and brackets (PS §3)",
     "Each turn has five phases, played by both sides: movement, special combat, "
     "shooting, melee and morale.\n"
     "Special combat, shooting and melee are played bracket by bracket: "
     f"{_BRACKETS}. Every unit of the bracket acts, both sides together, and only "
     "then are its casualties removed, so a unit shot to pieces in its own bracket "
     "still fights back. The phase track shows the phase and the bracket under way.\n"
     "App reading: wounds caused during a bracket wait on the target and come off "
     "when the bracket ends. A model that already has wounds takes the next ones, so "
     "at most one model of a unit is ever partly wounded; otherwise the owner picks "
     "which model goes."),
    ("Movement (PS §3)",
     "The sides roll off; the higher roll moves all its units first, then the other "
     "side (app reading: equal rolls roll again). Move each unit up to its type's "
     "move (see Model types); the players move the models themselves. Units in base "
     "contact with an enemy may not move.\n"
     "App reading: moving into base contact is the only move the app records, so it "
     "knows which units are locked in melee."),
    ("Special combat (PS §4)",
     "Psychic powers, hacking and the like. A unit with a special-combat value may "
     f"attack an enemy unit within {t.SPECIAL_RANGE}\"; cover and range make no "
     "difference. The attacker rolls dice equal to its special-combat value, the "
     f"defender its own value + {t.SPECIAL_DEFENCE_BONUS}. Every attacker die whose "
     "face appears on none of the defender's dice is one wound.\n"
     "App reading: any enemy unit in play may be picked (the players judge the "
     "range, and the question says so); there are no size dice or shield saves, and "
     "units in base contact may still use special combat."),
    ("Shooting (PS §5)",
     "Units with a model in base contact with an enemy can neither shoot nor be shot "
     f"at, unless their size is at least {t.CONTACT_SIZE_FACTOR} times that of every "
     "unit they touch. Every weapon of a unit fires, and fire may be split between "
     "targets.\n"
     "1. Attack dice: one die per shot.\n"
     f"2. Blocking dice: the target rolls its type's defence dice, {_COVERS}, "
     f"+1 for every full {t.RANGE_STEP}\" between the units. A "
     "defence die blocks every attack die showing the same face: a 3 blocks all the "
     "3s.\n"
     "3. Strength dice: each attack die left unblocked becomes as many dice as the "
     "weapon's strength; roll them all.\n"
     "4. Size dice: the target rolls one die per point of its size. Every strength "
     "die whose face matches any size die deals the weapon's damage.\n"
     "5. Shield saves: one save per point of damage at the target's shield save; "
     "each failure is a wound. Infantry and Beasts lose a model per wound; bigger "
     "models are removed once their wounds are used up.\n"
     "App reading: each weapon carried by the unit's models is a group that picks a "
     "target; there is no holding fire. Groups firing at the same target share one "
     "roll of blocking dice and one of size dice. For each target the players answer "
     "its cover and the distance in whole inches, once, whichever group names it "
     "first; a weapon with a range does not fire beyond it. A save of "
     f"{t.NO_SAVE}+ means no save: every point of damage is a wound, and no dice are "
     "asked for."),
    ("Weapons (PS §5, PS-R2)",
     "Every force may carry these weapons, by their ids in the force file:\n"
     + columns(_WEAPON_ROWS) + "\n"
     "The kind is what the PS §9 limits look at: rifle (basic and advanced rifles and "
     "repeaters), heavy (anything else) and super-heavy. A force's own weapon is "
     f"{' or '.join(t.OWN_WEAPON_KINDS)}, never a rifle.\n"
     "Points are shots x strength x damage for every weapon with a number of shots. "
     "Arc Weapon: one shot per point of the target unit's size. Radius Weapon: aim at "
     f"a model; every unit with models within {t.RADIUS_REACH}\" of it takes one "
     "shot per such model. App reading: the players count them, and may name further "
     "units under the same blast: any unit but the shooter, friendly ones too, that "
     "may be shot; each is asked its own cover and distance and rolls its own "
     "blocking and size dice.\n"
     f"PS-R2: the seed's spike, which reaches only {t.SPIKE_RANGE}\", is not in the "
     "table; a force "
     "defines it (or any weapon of its own) in the force file."),
    ("Melee (PS §6)",
     "Every model of a unit in base contact with an enemy attacks, with its melee "
     "profile in place of a weapon, through the same steps as shooting. There is no "
     f"cover and no range; instead the target rolls {_MELEE_SIZE}.\n"
     "Melee is compulsory: every unit in contact with a known profile attacks in its "
     "bracket before the phase moves on.\n"
     "App reading: a unit touching several enemy units picks one of them as its "
     "target."),
    ("End of melee (PS §6)",
     "When all brackets have fought, each melee (the units joined by contacts) ends "
     "with a roll: each side rolls a D6 and multiplies it by its models left in the "
     "melee plus the enemy models it killed in this melee phase. The lower product "
     "retreats a full move and every contact of the melee is broken. On equal "
     "products the side with fewer models left retreats; if that is equal too, the "
     "melee fights another round.\n"
     "App reading: the extra round is fought at once by that melee's units only, "
     "bracket by bracket, and then the end-of-melee roll is made again."),
    ("Morale (PS §7)",
     "Last in the turn, every unit that lost models this turn tests: a D6 times its "
     "models left against a D6 times the models it lost this turn. If the losses' "
     "product is higher, a D3 more models rout and are removed.\n"
     "App reading: units test in order, Red's first; the D3 is a D6 read as "
     f"{', '.join(f'{f}={v}' for f, v in D3.items())}, and the owner picks the "
     "routed models. A vehicle that took wounds but lost no model has no casualties "
     "and does not test. Routed models count as lost."),
    ("Winning (PS §8)",
     "A side with no unit left loses at once; if both are wiped out together the game "
     f"is a draw. Otherwise, after turn {t.GAME_TURNS} (the \"turns\" option changes "
     "that), the side that has lost the greater points value of models loses.\n"
     "App reading: a model's value is its cost (base, weapons and Advanced Shields); "
     "special combat is bought per unit and is not part of any model. Equal losses "
     "are a draw. Wipe-outs are checked after each bracket's casualties and after "
     "morale."),
    ("Forces and points (PS §9, PS-R3)",
     "A model costs its base cost plus its weapons' points. PS-R3: the seed keeps a "
     f"base cost only for {_SEED_COST} ({_SEED_PRICE} points a "
     f"model, {_SEED_MODELS} models a unit); every other type's base cost comes from "
     "the force file.\n"
     "Advanced Shields, per model and level, improve the shield save by 1, never "
     f"beyond {t.BEST_SAVE}+: {_SHIELD_COSTS} points. Special combat is bought per "
     f"unit at {t.SPECIAL_COST} points a level, at most {t.MAX_SPECIAL} levels.\n"
     f"Weapons: {_NO_WEAPONS} carry none. Weapons per model: {_MAX_WEAPONS}. Only "
     f"{_SUPER} carry super-heavy weapons. At most {t.INFANTRY_HEAVY_CARRIERS} models "
     "of an infantry unit carry anything but basic or advanced rifles and repeaters.\n"
     f"Force points: {_force_points()}. A force that spends more than it unlocks is "
     "refused (the error gives both numbers), and `deathzap points` prices every "
     "unit."),
    ("Rulings (PS-R1..PS-R3)",
     "Where the seed is damaged the app decides as follows:\n"
     f"  PS-R1: only the {_SEED_MELEE} melee profiles survive; the force file gives "
     "the others, and a unit without one cannot attack in melee.\n"
     f"  PS-R2: the spike ({t.SPIKE_RANGE}\" range) is a weapon a force defines for "
     "itself.\n"
     f"  PS-R3: only {_SEED_COST} have a base cost in the seed ({_SEED_PRICE} points, "
     f"{_SEED_MODELS} models a unit); the force file gives the others."),
]

"""Deathzap Plasmashok numbers, each cited to ``../shared/rules/plasmashok.md`` (PS).

Kept as data, not code, so that a group reading a row differently edits it here and
nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass

RULESET_ID = "plasmashok"

# --------------------------------------------------------------------------- set-up
EDGES = ("north", "south")
"""PS §1: the roll-off winner picks one of two opposite base-line edges."""
DEPLOYMENT_ZONE = 6
"""PS §1: every model starts within 6" of its own edge (on a 4'x4' board)."""
UNIT_COHESION = 2
"""PS §1: each model of a unit within 2" of another."""

BRACKETS = ("elite", "regular", "recruit")
"""PS §1, §3: the training brackets, in the order they act in special combat,
shooting and melee."""

# --------------------------------------------------------------------------- models
MODEL_TYPES = ("infantry", "beasts", "light-vehicles", "big-beasts", "vehicles",
               "monsters")
"""PS §2, in the table's order; the ids force files use."""


@dataclass(frozen=True)
class Melee:
    """A melee profile per model (PS §2, §6): attacks, strength, damage."""

    attacks: int
    strength: int
    damage: int


@dataclass(frozen=True)
class ModelType:
    """One row of the PS §2 table, with the PS §9 prices that depend on the type."""

    id: str
    name: str
    """The table's (plural) name: "Light Vehicles"."""
    singular: str
    """One model of the type: "Light Vehicle" ("a Light Vehicle model")."""
    move: int
    """Inches (PS §2, §3)."""
    defence: int
    """Defence dice before cover, range and size (PS §5, §6)."""
    size: int
    """Size per model; a unit's size is the sum over its living models (PS §2)."""
    save: int
    """Shield save N+ before Advanced Shields (PS §2, §5)."""
    wounds: int
    """Wounds per model (PS §5 step 5)."""
    melee: Melee | None
    """PS-R1: the seed's profile (Big Beasts, Light Vehicles); ``None``: the force file
    must give it, or the unit cannot attack in melee."""
    base_cost: int | None
    """PS-R3: the seed's base cost per model (Big Beasts, Light Vehicles: 12); ``None``:
    the force file must give it."""
    models: tuple[int, int]
    """Models per unit, least and most (PS §1: one vehicle or monster; PS-R3: 1-3 big
    beasts or light vehicles; infantry and beasts: any number, see
    ``validation.MAX_MODELS_PER_UNIT``)."""
    shield_cost: int
    """PS §9: Advanced Shields, per model per level."""
    force_points: int
    """PS §9: force points the unit costs (negative: it unlocks that many)."""
    max_weapons: int | None
    """PS §9: weapons per model (0: none; ``None``: no limit)."""
    super_heavy: bool
    """PS §9: may carry super-heavy weapons (vehicles and monsters)."""


NO_LIMIT = 10**6
TYPES: dict[str, ModelType] = {t.id: t for t in (
    ModelType("infantry", "Infantry", "Infantry", 9, 2, 1, 5, 1, None, None,
              (1, NO_LIMIT), 2, -1, None, False),
    ModelType("beasts", "Beasts", "Beast", 12, 2, 1, 5, 1, None, None, (1, NO_LIMIT), 2,
              -1, 0, False),
    ModelType("light-vehicles", "Light Vehicles", "Light Vehicle", 12, 3, 3, 4, 6,
              Melee(2, 2, 2), 12, (1, 3), 18, 1, 2, False),
    ModelType("big-beasts", "Big Beasts", "Big Beast", 12, 3, 3, 4, 6, Melee(4, 2, 1), 12,
              (1, 3), 18, 1, 0, False),
    ModelType("vehicles", "Vehicles", "Vehicle", 9, 5, 6, 3, 12, None, None, (1, 1), 72,
              2, 3, True),
    ModelType("monsters", "Monsters", "Monster", 9, 5, 6, 3, 12, None, None, (1, 1), 72,
              2, 2, True),
)}
"""PS §2 model types by id, with their PS §9 prices and limits."""

BEST_SAVE = 2
"""PS §9: Advanced Shields never make a shield save better than 2+."""
NO_SAVE = 7
"""A shield save of 7+ never succeeds: no save at all (``deathzap odds --save 7``)."""
INFANTRY_HEAVY_CARRIERS = 2
"""PS §9: at most 2 models of an infantry unit carry weapons other than rifles and
repeaters (kind ``rifle``)."""

# --------------------------------------------------------------------------- special
SPECIAL_COST = 5
"""PS §9: per level of special combat, per unit."""
MAX_SPECIAL = 3
"""PS §9: special combat may be taken up to 3 times."""
SPECIAL_RANGE = 12
"""PS §4: special-combat attacks reach 12"."""
SPECIAL_DEFENCE_BONUS = 2
"""PS §4: the defender rolls its special-combat value + 2 dice."""

# --------------------------------------------------------------------------- shooting
COVERS = ("open", "soft", "hard")
COVER_DICE = {"open": 0, "soft": 1, "hard": 2}
"""PS §5 step 2: extra defence dice for the target's cover."""
RANGE_STEP = 6
"""PS §5 step 2: one more defence die per full 6" between shooter and target."""
MAX_DISTANCE = 120
"""The longest distance in inches the game takes between shooter and target (not a
rule: a table is far smaller), so at most ``MAX_DISTANCE // RANGE_STEP`` range dice."""
CONTACT_SIZE_FACTOR = 2
"""PS §5: a unit in base contact shoots and is shot only if its size is at least
double that of every unit it touches."""
MELEE_BIGGER_DICE = 1
"""PS §6: extra melee defence dice for a target bigger than its attacker..."""
MELEE_DOUBLE_DICE = 2
"""...and for one at least double its size (:data:`CONTACT_SIZE_FACTOR`)."""

SHOTS_TARGET_SIZE = "target-size"
"""PS §5 Arc Weapon: one shot per point of the target unit's size."""
SHOTS_RADIUS = "radius"
"""PS §5 Radius Weapon: one shot per model of each unit within 3" of a target model."""
RADIUS_REACH = 3
SPIKE_RANGE = 6
"""PS-R2: the seed's spike reaches 6" (a force defines it as its own weapon)."""

WEAPON_KINDS = ("rifle", "heavy", "super-heavy")
"""PS §9 weapon limits: ``rifle`` (basic/advanced rifles and repeaters, any model),
``heavy`` (anything else: at most 2 models per infantry unit), ``super-heavy``
(vehicles and monsters only)."""
OWN_WEAPON_KINDS = ("heavy", "super-heavy")
"""PS §9: the kinds a force's own weapon may have; only the table's basic and advanced
rifles and repeaters are rifles."""


@dataclass(frozen=True)
class WeaponProfile:
    """One row of the PS §5 weapon table (or a force's own weapon, PS-R2)."""

    id: str
    name: str
    shots: int | str
    """Dice per weapon, or :data:`SHOTS_TARGET_SIZE` / :data:`SHOTS_RADIUS`."""
    strength: int
    damage: int
    points: int
    kind: str
    """One of :data:`WEAPON_KINDS` (a force's own: :data:`OWN_WEAPON_KINDS`)."""
    range: int = 0
    """Longest reach in inches; 0: no limit given (PS §5 gives none; a spike, PS-R2,
    has 6)."""

    @property
    def fixed_shots(self) -> bool:
        """A whole number of shots (PS §5), so priced shots x strength x damage."""
        return isinstance(self.shots, int)


WEAPONS: dict[str, WeaponProfile] = {w.id: w for w in (
    WeaponProfile("basic-rifle", "Basic Rifle", 1, 2, 1, 2, "rifle"),
    WeaponProfile("advanced-rifle", "Advanced Rifle", 1, 2, 2, 4, "rifle"),
    WeaponProfile("basic-repeater", "Basic Repeater", 2, 1, 1, 2, "rifle"),
    WeaponProfile("advanced-repeater", "Advanced Repeater", 2, 2, 1, 4, "rifle"),
    WeaponProfile("medium-repeater", "Medium Repeater", 6, 1, 1, 6, "heavy"),
    WeaponProfile("arc-weapon", "Arc Weapon", SHOTS_TARGET_SIZE, 2, 1, 10, "heavy"),
    WeaponProfile("heavy-repeater", "Heavy Repeater", 6, 2, 1, 12, "heavy"),
    WeaponProfile("heavy-weapon", "Heavy Weapon", 1, 6, 3, 18, "heavy"),
    WeaponProfile("radius-weapon", "Radius Weapon", SHOTS_RADIUS, 3, 2, 30, "heavy"),
    WeaponProfile("super-heavy-weapon", "Super Heavy Weapon", 1, 6, 6, 36, "super-heavy"),
    WeaponProfile("super-heavy-repeater", "Super Heavy Repeater", 8, 2, 2, 32,
                  "super-heavy"),
)}
"""PS §5 weapons by id: every force may carry these."""


def table_points(shots: int, strength: int, damage: int) -> int:
    """PS §5: the table's check, points = shots x strength x damage (fixed shots
    only); a custom weapon whose points differ is warned about, not refused."""
    return shots * strength * damage


# --------------------------------------------------------------------------- turn
PHASES = ("movement", "special", "shooting", "melee", "morale")
"""PS §3: the five phases, in order."""
PHASE_NAMES = {"movement": "Movement", "special": "Special combat", "shooting": "Shooting",
               "melee": "Melee", "morale": "Morale"}
BRACKET_PHASES = ("special", "shooting", "melee")
"""PS §3: the phases resolved bracket by bracket, casualties after each."""
GAME_TURNS = 4
"""PS §8: at the end of turn 4 the side that lost more points of models loses."""


def shield_save(type_id: str, shields: int) -> int:
    """PS §2, §9: the type's save improved by one per Advanced Shields level, never
    better than 2+."""
    return max(BEST_SAVE, TYPES[type_id].save - shields)


def max_shields(type_id: str) -> int:
    """PS §9: the most Advanced Shields levels that still improve the save."""
    return TYPES[type_id].save - BEST_SAVE


def range_dice(distance: int) -> int:
    """PS §5 step 2: one defence die per full 6" (fractions ignored)."""
    return max(0, distance) // RANGE_STEP


def melee_size_dice(target_size: int, attacker_size: int) -> int:
    """PS §6: +1 defence die if the target's size is greater than the attacker's, +2
    if it is at least double."""
    if target_size >= CONTACT_SIZE_FACTOR * attacker_size:
        return MELEE_DOUBLE_DICE
    return MELEE_BIGGER_DICE if target_size > attacker_size else 0


def shooting_defence_dice(type_defence: int, cover: str, distance: int) -> int:
    """PS §5 step 2: a shooting target's defence dice: its type's defence, + the
    cover's dice (:data:`COVER_DICE`), + one per full 6" of ``distance``."""
    return type_defence + COVER_DICE[cover] + range_dice(distance)


def weapon_dice(weapon: WeaponProfile, guns: int, target_size: int, in_blast: int) -> int:
    """PS §5 step 1: the attack dice of ``guns`` weapons of one kind at one target:
    fixed shots x guns; an Arc Weapon one per point of the target's size; a Radius
    Weapon one per model of the target within 3" of the aimed-at model
    (``in_blast``)."""
    if weapon.shots == SHOTS_TARGET_SIZE:
        return guns * target_size
    if weapon.shots == SHOTS_RADIUS:
        return guns * in_blast
    return guns * int(weapon.shots)


def melee_defence_dice(type_defence: int, target_size: int, attacker_size: int) -> int:
    """PS §6: a melee target's defence dice: its type's defence + the size bonus
    (:func:`melee_size_dice`); no cover or range."""
    return type_defence + melee_size_dice(target_size, attacker_size)

"""Deathzap Classic numbers, each cited to ``../shared/rules/classic.md`` (CL).

Kept as data, not code: CL-R3 says the seed lost the save columns' headings and the
digest's grouping is a reading, so a group that reads them differently edits
:data:`SAVE_GROUP` or :data:`WEAPONS` here and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass

RULESET_ID = "classic"

# --------------------------------------------------------------------------- figures
FIGURE_TYPES = ("infantry", "heavy-infantry", "beasts", "big-beasts", "light-vehicles",
                "vehicles", "monsters")
"""CL §2, in the table's order; the ids force files use."""


@dataclass(frozen=True)
class FigureType:
    """One row of the CL §2 table."""

    id: str
    name: str
    move: int
    """Inches (CL §2, CL §4)."""
    melee_attacks: int
    """Melee dice per figure (CL §2, CL §6)."""
    melee_power: int
    """The pip total of this type's melee dice is divided by this, rounded down, for
    its hits (CL §6)."""
    save: int
    """Melee save, N+ (CL §2). Shooting saves come from :data:`WEAPONS` (CL §5)."""


TYPES: dict[str, FigureType] = {t.id: t for t in (
    FigureType("infantry", "Infantry", 9, 1, 6, 6),
    FigureType("heavy-infantry", "Heavy Infantry", 6, 1, 5, 4),
    FigureType("beasts", "Beasts", 12, 1, 4, 6),
    FigureType("big-beasts", "Big Beasts", 12, 2, 3, 4),
    FigureType("light-vehicles", "Light Vehicles", 12, 2, 2, 5),
    FigureType("vehicles", "Vehicles", 9, 2, 2, 3),
    FigureType("monsters", "Monsters", 9, 2, 1, 3),
)}
"""CL §2 figure types by id."""

PANICKED_MELEE_ATTACKS = 1
PANICKED_MELEE_POWER = 6
"""CL §2: a panicked figure fights with 1 attack at power 6 whatever its type, and
saves as its type."""

ALWAYS_PANICKED_ALONE = ("infantry", "heavy-infantry", "beasts")
"""CL §4, §7: a unit of one figure of these types is always panicked and always fails
its morale test, until it joins a friendly unit of its type."""


def alone(type_id: str, figures: int) -> bool:
    """CL §4, §7: ``figures`` living figures of ``type_id`` are a lone figure that is
    always panicked (one figure of a type in :data:`ALWAYS_PANICKED_ALONE`)."""
    return figures == 1 and type_id in ALWAYS_PANICKED_ALONE

BIG_TYPES = ("vehicles", "monsters")
"""CL §8 Hard Hitters / Extermination: a vehicle or monster counts as 5 figures
(Hard Hitters) and as one 5-casualty step (Extermination)."""
BIG_FIGURE_WORTH = 5

# --------------------------------------------------------------------------- shooting
COVERS = ("open", "soft", "hard")
"""CL §5: the to-hit column is chosen by the target's cover."""

SAVE_GROUPS = ("light", "medium", "big")
"""CL §5 / CL-R3: the three save columns, as the digest groups the target types."""
SAVE_GROUP: dict[str, str] = {
    "infantry": "light", "beasts": "light",
    "heavy-infantry": "medium", "big-beasts": "medium", "light-vehicles": "medium",
    "vehicles": "big", "monsters": "big",
}
"""Figure type -> its CL §5 save column (CL-R3)."""
SAVE_GROUP_NAMES = {"light": "infantry & beasts",
                    "medium": "heavy infantry, big beasts, light vehicles",
                    "big": "vehicles & monsters"}

SAFE = 0
"""A shooting save of SAFE: the hit has no effect (CL §5 "safe")."""
DEAD = 7
"""A shooting save of DEAD: no save, every hit is a casualty (CL §5 "dead")."""


@dataclass(frozen=True)
class WeaponClass:
    """One row of the CL §5 weapons table."""

    id: str
    name: str
    range: int
    """Inches (CL §5)."""
    to_hit: dict[str, int]
    """cover -> N+ to hit (CL §5)."""
    save: dict[str, int]
    """save group -> N+ the target needs; :data:`SAFE` or :data:`DEAD` (CL §5, CL-R3)."""
    dice_per_gun: int = 1
    """Auto-heavy rolls 6 dice to hit, each one shot (CL §5)."""
    radius: bool = False
    """Radius: one die to hit for every figure within 3" of the aiming point (CL §5);
    the players count those figures."""


WEAPONS: dict[str, WeaponClass] = {w.id: w for w in (
    WeaponClass("basic", "Basic", 24, {"open": 4, "soft": 5, "hard": 6},
                {"light": 4, "medium": 2, "big": SAFE}),
    WeaponClass("advanced", "Advanced", 24, {"open": 3, "soft": 4, "hard": 5},
                {"light": 5, "medium": 2, "big": SAFE}),
    WeaponClass("auto-heavy", "Auto-heavy", 36, {"open": 3, "soft": 4, "hard": 5},
                {"light": 5, "medium": 3, "big": SAFE}, dice_per_gun=6),
    WeaponClass("heavy", "Heavy", 36, {"open": 3, "soft": 4, "hard": 5},
                {"light": DEAD, "medium": 5, "big": 4}),
    WeaponClass("radius", "Radius", 36, {"open": 4, "soft": 4, "hard": 4},
                {"light": 5, "medium": 4, "big": 2}, radius=True),
)}
"""CL §5 weapon classes by id (CL-R3 save columns)."""

PANICKED_TO_HIT = 6
"""CL §5: a panicked unit hits only on a 6, whatever the cover."""
RADIUS_INCHES = 3
"""CL §5: a Radius weapon rolls to hit every figure within 3" of its aiming point."""

# --------------------------------------------------------------------------- turn
PHASES = ("impetus", "movement", "shooting", "melee", "morale")
"""CL §3: the phases of a turn. The impetus winner orders the middle three; morale
is always last."""
ORDERABLE = ("movement", "shooting", "melee")
"""CL §3: the phases whose order the impetus winner chooses."""

GAME_TURNS = 6
"""CL §8: the advanced game ends after turn 6."""

MORALE_RECOVERS = 4
"""CL §7: a panicked unit recovers on a 4+; on 1-3 it falls back twice the roll."""
MORALE_FALLBACK_FACTOR = 2

# --------------------------------------------------------------------------- objectives
OBJECTIVES_1 = {1: "assassinate", 2: "assassinate", 3: "hard-hitters", 4: "hard-hitters",
                5: "extermination", 6: "extermination"}
OBJECTIVES_2 = {1: "hold", 2: "hold", 3: "push", 4: "push", 5: "macguffin", 6: "macguffin"}
"""CL §8: D6 -> objective, one roll on each table (CL-R5: both sides play for the
same two)."""

OBJECTIVE_NAMES = {
    "assassinate": "Assassinate", "hard-hitters": "Hard Hitters",
    "extermination": "Extermination", "hold": "Hold", "push": "Push",
    "macguffin": "MacGuffin",
}
ASSASSINATE_VP = 3
"""CL §8: 3 VP for killing the enemy general."""
HARD_HITTERS_VP = 3
"""CL §8: 3 VP to the first side to destroy half the enemy force."""
EXTERMINATION_STEP = 5
"""CL §8: 1 VP per 5 enemy casualties, or per vehicle or monster."""
HOLD_QUARTERS = 4
"""CL §8: 1 VP per table quarter holding your figures at the end (0-4)."""
PUSH_VP = 3
"""CL §8: 3 VP if your general is in the enemy deployment zone at the end."""
MACGUFFIN_VP = 3
"""CL §8: 3 VP for carrying the MacGuffin off the table."""

DEPLOYMENT_ZONE = 6
"""CL §1: all figures start within 6" of their own edge."""
EDGES = ("north", "south")
"""CL §1: the roll-off winner picks a base-line edge; the opponent takes the other."""

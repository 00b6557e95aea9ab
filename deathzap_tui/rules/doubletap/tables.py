"""Double Tap v2.1 numbers, each cited to ``../shared/rules/double-tap.md`` (DT).

Kept as data, not code, so that a group reading a row differently edits it here and
nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass

RULESET_ID = "double-tap"

# --------------------------------------------------------------------------- tests
QUALITY = 4
"""DT §1: a quality test succeeds on 4+ before modifiers."""
SECOND_DIE = 4
"""DT §1: needing 7+ or higher, a 6 must be followed by a 4+ on a second die."""
TWO_DICE = 7
"""DT §1, DT-R1: from this number up ("7+ or higher": 8+, 9+ ... too) a test is a 6
then a 4+ on a second die; never impossible (seed "Modifiers": "If you need to
roll a 7+ or higher to succeed, then a roll of 6+ followed by 4+ is a success")."""


def quality_target(modifier: int) -> int:
    """The number a quality test needs with ``modifier`` (+1 makes it easier): 4+ less
    the modifier, never below 2+ (a natural 1 always fails, DT §1, DT-R1); from
    :data:`TWO_DICE` up it is a 6 then a 4+ (DT-R1)."""
    return max(2, QUALITY - modifier)


def two_dice(modifier: int) -> bool:
    """Whether a test at ``modifier`` needs 7+ or higher: a 6, then a second die
    (DT §1, DT-R1)."""
    return quality_target(modifier) >= TWO_DICE


def p_quality(modifier: int) -> float:
    """The chance one quality test with ``modifier`` succeeds (DT §1, DT-R1): 1 in 12
    at 7+ or higher."""
    if two_dice(modifier):
        return (1 / 6) * ((7 - SECOND_DIE) / 6)
    return (7 - quality_target(modifier)) / 6


def need_text(modifier: int) -> str:
    """What one quality test at ``modifier`` needs, in words: "4+", "7+ (a 6, then
    4+)", "9+ (a 6, then 4+)" (DT §1, DT-R1). Every view of a target number uses it."""
    target = quality_target(modifier)
    if two_dice(modifier):
        return f"{target}+ (a 6, then {SECOND_DIE}+)"
    return f"{target}+"


# --------------------------------------------------------------------------- set-up
EDGES = ("north", "south")
DEPLOY_ZONE = 12
"""DT §2: units are placed within 12" of their own edge."""
MARKER_SPACING = 9
"""DT §2: markers more than 9" apart, outside the deployment zones."""
MARKER_REACH = 3
"""DT §2: a unit within 3" of a marker (and no enemy within 3") seizes it."""
ARMY_POINTS = 50
"""DT §2: armies of 50 points each (a force over or under it is warned about)."""
ROUNDS = 4
"""DT §2: the game ends after 4 rounds."""

# --------------------------------------------------------------------------- actions
@dataclass(frozen=True)
class Action:
    """One row of the DT §3 action table (each costs one activation point)."""

    id: str
    name: str
    move: int
    """Inches (before Fast)."""
    fast_bonus: int
    """DT §7 Fast: extra inches on this action."""
    shoots: bool
    """May fire a ranged weapon (Hold: in place; Advance: at any point of the move)."""
    melee: bool
    """Moves into (or fights in) base contact and attacks in melee (Charge)."""

    def inches(self, fast: bool) -> int:
        """How far the action moves a unit, with Fast's bonus if it is ``fast`` (DT §7)."""
        return self.move + (self.fast_bonus if fast else 0)


ACTIONS: dict[str, Action] = {a.id: a for a in (
    Action("hold", "Hold", 0, 0, True, False),
    Action("advance", "Advance", 4, 2, True, False),
    Action("rush", "Rush", 8, 4, False, False),
    Action("charge", "Charge", 4, 2, False, True),
)}
"""DT §3 actions by id."""
SPECIAL_ACTIONS = ("recover", "detect", "cloak", "hack", "spot")
"""Actions that also cost one activation point: a stunned unit's recovery (DT §5),
and the special actions of Camouflage (detect: any unit; cloak), Hacker and Spotter
(DT §7)."""


def action_name(action: str) -> str:
    """An action of :data:`ACTIONS` or :data:`SPECIAL_ACTIONS` in words: "Advance",
    "Recover"."""
    return ACTIONS[action].name if action in ACTIONS else action.capitalize()


DODGE_MOVE = 2
"""DT §6: a dodge moves up to 2"; a grenade dodge 2" per success."""
DODGE_TESTS = 2
"""DT §6: a dodging target takes 2 quality tests, each cancelling one enemy success."""
REACTION_ATTACKS = 1
"""DT §6: a shoot or melee reaction has 1 attack."""
REACTIONS = ("move", "dodge", "shoot", "melee", "detect")
"""DT §6, in the order the app offers them; detect is DT §7's "when acting or
reacting" (at a camouflaged acting unit)."""
CONTACT_REACTIONS = ("dodge", "melee")
"""DT §6: a unit in base contact reacts only to the units it touches, only so."""
FALL_BACK = 2
"""DT §5: a unit failing morale after shooting moves 2" away."""

# --------------------------------------------------------------------------- weapons
@dataclass(frozen=True)
class Band:
    """A range band and its modifier to hit (DT-R2: +1 best, -1 worst)."""

    low: int
    high: int
    modifier: int


@dataclass(frozen=True)
class Weapon:
    """One row of the DT §4 weapon table."""

    id: str
    name: str
    points: int
    attacks: int
    max_range: int
    """Inches; 0 for a melee weapon."""
    bands: tuple[Band, ...] = ()

    @property
    def melee(self) -> bool:
        return self.max_range == 0

    def modifier(self, distance: int) -> int | None:
        """The to-hit modifier at ``distance`` inches (DT-R2: none outside the listed
        bands); ``None`` beyond the maximum range (the weapon cannot be used)."""
        if self.melee or distance > self.max_range:
            return None
        return next((b.modifier for b in self.bands if b.low <= distance <= b.high), 0)

    def bands_text(self) -> str:
        """The range bands in words: '+1 at 0-9", -1 at 10-18"' ("" without bands)."""
        return ", ".join(f'{b.modifier:+d} at {b.low}-{b.high}"' for b in self.bands)


WEAPONS: dict[str, Weapon] = {w.id: w for w in (
    Weapon("knife", "Knife", 1, 2, 0),
    Weapon("sword", "Sword", 4, 4, 0),
    Weapon("pistol", "Pistol", 3, 2, 18),
    Weapon("shotgun", "Shotgun", 3, 2, 18, (Band(0, 9, 1), Band(10, 18, -1))),
    Weapon("smg", "SMG", 4, 4, 18, (Band(10, 18, -1),)),
    Weapon("carbine", "Carbine", 5, 3, 27, (Band(10, 18, 1),)),
    Weapon("rifle", "Rifle", 5, 2, 36, (Band(19, 27, 1),)),
    Weapon("lmg", "LMG", 6, 4, 36, (Band(0, 9, -1), Band(19, 27, 1))),
    Weapon("sniper-rifle", "Sniper Rifle", 6, 2, 36, (Band(0, 9, -1), Band(19, 36, 1))),
)}
"""DT §4 weapons by id."""

# --------------------------------------------------------------------------- grenades
GRENADE_ATTACKS = 2
"""DT §7 Grenade: thrown once per game like a weapon with 2 attacks."""
GRENADE_FLIGHT = 6
"""DT §7: it flies up to 6" per hit."""
GRENADE_BLAST = 3
"""DT §7: every grenade affects the units within 3" of where it lands."""
GRENADES = ("flash", "frag", "smoke")
FLASH_MODIFIER = -2
"""DT §7 Flash: -2 to all quality rolls within 3" until the end of the thrower's turn."""

# --------------------------------------------------------------------------- special rules
@dataclass(frozen=True)
class SpecialRule:
    """One row of the DT §7 table (DT-R4: the list is complete)."""

    id: str
    name: str
    points: int
    summary: str
    """What it does, in the app's words (help and force editors)."""


SPECIAL_RULES: dict[str, SpecialRule] = {r.id: r for r in (
    SpecialRule("ambush", "Ambush", 2, "kept in reserve; from round 2 placed over 8\" from "
                "enemies"),
    SpecialRule("armored", "Armored", 4, "+1 to block"),
    SpecialRule("athletic", "Athletic", 1, "climbing up to 4\" counts half the height"),
    SpecialRule("camouflage", "Camouflage", 4, "camo marker: cannot be attacked until "
                "detected; lost on attacking; reactions to its attack at -2"),
    SpecialRule("doctor", "Doctor", 6, "friends within 4\" get +1 to block"),
    SpecialRule("engineer", "Engineer", 6, "friends within 4\" get +1 to shoot"),
    SpecialRule("fast", "Fast", 2, "+2\" on Advance and Charge, +4\" on Rush"),
    SpecialRule("fire-ammo", "Fire Ammo", 4, "its shooting hits give -2 to block"),
    SpecialRule("flying", "Flying", 3, "ignores units and terrain when moving"),
    SpecialRule("grenade", "Grenade", 1, "once per game: 2 attacks, flash, frag or smoke"),
    SpecialRule("hacker", "Hacker", 2, "hack an enemy within 8\": on 4+ it gets -1 to its "
                "next attack or block"),
    SpecialRule("infiltrate", "Infiltrate", 2, "may move 8\" when deployed"),
    SpecialRule("piercing-ammo", "Piercing Ammo", 2, "its shooting hits give -1 to block"),
    SpecialRule("poison-gear", "Poison Gear", 2, "its melee or shooting hits poison (pick "
                "one); a poisoned unit rolls on activation: 3+ cured, else killed"),
    SpecialRule("regeneration", "Regeneration", 4, "when killed, survives on 5+"),
    SpecialRule("scout", "Scout", 2, "deploys after everyone else, within 24\" of its edge"),
    SpecialRule("sixth-sense", "Sixth Sense", 2, "enemies within 8\" lose their camo"),
    SpecialRule("spotter", "Spotter", 2, "spot an enemy: the next friendly shooter at it "
                "gets +1 to hit"),
    SpecialRule("tough", "Tough", 12, "failed blocks give wound markers; killed at the 3rd"),
)}
"""DT §7 special rules by id."""

POISON_KINDS = ("melee", "shooting")
"""DT §7 Poison Gear: the unit's poison works on one kind of hit, chosen in the force."""
AURA = 4
"""DT §7 Doctor / Engineer: friends within 4"."""
HACK_RANGE = 8
SIXTH_SENSE_RANGE = 8
AMBUSH_DISTANCE = 8
SCOUT_ZONE = 24
INFILTRATE_MOVE = 8
REGENERATION = 5
"""DT §7: a killed unit with Regeneration survives on 5+."""
POISON_CURE = 3
"""DT §7: a poisoned unit activating is cured on 3+, else killed."""
HACK_TEST = 4
TOUGH_WOUNDS = 3
"""DT §7 Tough: killed at the 3rd wound marker."""
NOT_TOUGH = -1
"""The attack facts' ``tough`` for a target without Tough (0..2 are its wound markers,
see the facts docstring of :mod:`.attacks`)."""

# modifiers (to a quality test's roll)
COVER = -1
"""DT §4: shooting at a target in or behind cover."""
ELEVATION = 1
"""DT §4: shooting down at a lower target."""
ENGINEER = 1
DOCTOR = 1
ARMORED = 1
FIRE_AMMO = -2
PIERCING_AMMO = -1
HACKED = -1
SPOTTED = 1
CAMO_REACTION = -2
"""DT §7 Camouflage: units reacting to the camouflaged unit's attack."""

"""Deathzap 3 numbers, each cited to ``../shared/rules/deathzap3.md``."""

from __future__ import annotations

from deathzap_tui.rules.activations import ACTIVATIONS as _ACTIVATIONS

SKILLS = ("basic", "regular", "elite")
POWERS = ("light", "medium", "heavy")
COVERS = ("open", "soft", "hard")
WEAPON_RULES = ("strike", "short-range")

SKILL_VALUE = {"basic": 1, "regular": 2, "elite": 3}
"""DZ3 §13: skill's points value; also the row offset of every skill table."""
POWER_VALUE = {"light": 1, "medium": 2, "heavy": 3}
"""DZ3 §13: power / shield strength points value."""

TO_HIT = {
    ("basic", "open"): 4, ("basic", "soft"): 5, ("basic", "hard"): 6,
    ("regular", "open"): 3, ("regular", "soft"): 4, ("regular", "hard"): 5,
    ("elite", "open"): 2, ("elite", "soft"): 3, ("elite", "hard"): 4,
}
"""DZ3 §6, DZ3-R5: shooting to-hit by shooter skill and target cover."""

VS_SHIELDS = {
    ("light", "light"): 4, ("light", "medium"): 5, ("light", "heavy"): 6,
    ("medium", "light"): 3, ("medium", "medium"): 4, ("medium", "heavy"): 5,
    ("heavy", "light"): 2, ("heavy", "medium"): 3, ("heavy", "heavy"): 4,
}
"""DZ3 §6: (weapon power, target shield strength) -> die needed to beat shields."""

MELEE_TO_HIT = {
    ("basic", "basic"): 4, ("basic", "regular"): 5, ("basic", "elite"): 6,
    ("regular", "basic"): 3, ("regular", "regular"): 4, ("regular", "elite"): 5,
    ("elite", "basic"): 2, ("elite", "regular"): 3, ("elite", "elite"): 4,
}
"""DZ3 §7: (attacker skill, defender skill) -> melee to-hit."""

SAVE = {"basic": 6, "regular": 5, "elite": 4}
"""DZ3 §6: saving throw by the target's skill."""

MORALE = {"basic": 6, "regular": 5, "elite": 4}
"""DZ3 §10: morale die by the unit's skill."""
LEADER_MORALE_BONUS = 1
"""DZ3 §10, §11: +1 to each morale die with a friendly leader within 6"."""
LEADER_RANGE = 6

CRIPPLED_TO_HIT = 6
"""DZ3 §9 (DZ3-R7): a crippled vehicle hits only on a 6, a fixed 6+."""

VEHICLE_DAMAGE = {
    1: "no-effect",
    2: "immobilised",
    3: "gun-crippled",
    4: "weapon-crippled",
    5: "killed",
    6: "explodes",
}
"""DZ3 §9: vehicle damage table (DZ3-R9: one roll per failed save)."""
EXPLOSION_RANGE = 3

SHORT_RANGE = 12
"""DZ3 §5: Short Range weapons may only target a unit within 12"."""

ACTIVATIONS = _ACTIVATIONS
"""DZ3 §2: activations granted by a card's rank (2-10: 1, J/Q/K: 2, A: 3); shared
with the other card-driven rulesets (``rules/activations.py``)."""

VP_DESTROYED = 3
"""DZ3 §12: VP for each enemy unit destroyed, killed or fled."""
VP_OBJECTIVE_STEP = 6
"""DZ3 §12, DZ3-R15: 1 VP per 6" (rounded up, minimum 1) from your own edge."""

COMMAND_POINT_COST = 10
"""DZ3 §13: points per command point."""
VEHICLE_SURCHARGE_PERCENT = 10
"""DZ3 §13, DZ3-R16: vehicle units cost +10%, .5 rounds up."""

OBJECTIVES = 5
"""DZ3 §1: five objective markers."""
OBJECTIVE_SPACING = 6
BOARD_DEPTH = 30
"""DZ3 §1: the board is 60"x30"; players enter from the long edges, 30" apart."""
ENEMY_NEAR_OBJECTIVE = 3
"""DZ3 §3 Signal: no enemy within 3" of the objective."""

FIGURES_PER_UNIT = (1, 10)
"""DZ3 §13: the loose limit of models in a unit (fewest, most)."""
LIMITS = {
    "move": 12,
    "melee_attacks_total": 24,
    "shots_total": 24,
    "shields": 12,
    "vehicle_shields": 24,
    "units": 9,
    "points": 1000,
    "command_total": 12,
}
"""DZ3 §13: loose limits; exceeding them warns, never refuses."""


def objective_vp(distance: float) -> int:
    """DZ3 §12, DZ3-R15: ceil(distance / 6) with a minimum of 1."""
    whole = -(-round(distance * 1000) // (VP_OBJECTIVE_STEP * 1000))
    return max(1, whole)

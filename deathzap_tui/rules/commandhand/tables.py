"""Command Hand numbers, each cited to ``../shared/rules/command-hand.md`` (CH)."""

from __future__ import annotations

from deathzap_tui.rules.activations import ACTIVATIONS as ACTIVATIONS

RULESET_ID = "command-hand"

COVERS = ("open", "soft", "hard")
"""CH §4: a weapon's to-damage number against a target in the open, soft or hard
cover (majority cover; an even split uses the worse cover, as DZ3 §6)."""
WEAPON_RULES = ("explosive",)
"""CH §4: Explosive: each successful die deals D6 points of damage instead of 1."""

RANGE_BAND = 12
"""CH §4: a weapon has one number of shots at 0-12" and another beyond 12"."""
BANDS = ("near", "far")
"""The two range bands: ``near`` is 0-12", ``far`` beyond 12" (CH §4)."""

AIMED_REROLL = 1
"""CH §3.5: aimed shots re-roll dice showing 1 to damage, each die at most once."""
EXPLOSIVE_DIE = 6
"""CH §4: Explosive damage is one D6 per success."""

FLANK_TARGET = 4
"""CH §3: a flanking unit enters from a side edge on a 4+; on 1-3 it does not enter
and the activation is spent."""

HOME_EDGES = ("north", "south")
"""CH §1: the roll-off winner picks a home edge, the opponent takes the opposite."""
SIDE_EDGES = ("east", "west")
"""CH §3: the side edges a flanking unit may enter from (never the enemy's home)."""

BOARD_DEPTH = 24
"""CH §1: a 2'x2' board for 20mm/15mm figures (24" between the home edges)."""
DISTANCE_FACTOR = {"normal": 1, "double": 2}
"""CH-R1 option: 25mm+ figures on a 4'x4' board double every distance and range."""

COLOUR_CARDS = 26
"""CH §2: hands are drawn from one colour's 26 cards, so a Command Rating is at most
26."""
JOKERS = 2
"""CH §2: the two jokers go into the activation deck."""

VP_DESTROYED = 3
"""CH-R5 objectives option, as DZ3 §12: 3 VP for each enemy unit destroyed."""
OBJECTIVES = 5
"""CH-R5 objectives option, as DZ3 §1: five objective markers."""
ENEMY_NEAR_OBJECTIVE = 3
"""CH-R5 objectives option, as DZ3 §3 Signal: no enemy within 3" of the objective."""
VP_OBJECTIVE_STEP = 6
"""CH-R5 objectives option, as DZ3 §12 / DZ3-R15: 1 VP per 6" (rounded up, at least
1) from the scoring side's home edge; the step doubles with CH-R1."""


def objective_vp(distance: int, factor: int = 1) -> int:
    """DZ3 §12, DZ3-R15 scaled by CH-R1: ceil(distance / (6 x factor)), at least 1."""
    step = VP_OBJECTIVE_STEP * factor
    return max(1, -(-distance // step))

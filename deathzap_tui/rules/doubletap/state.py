"""Double Tap game state: everything the engine changes, as plain dataclasses.

Built once by :func:`new_state` from the two forces, the options and the seed, then
changed only by resolutions working on a private copy. Nothing here holds ``None``
("" / 0 / False mean "not yet" or "none"), so the state deep-copies, compares and
snapshots as plain data.

Identifiers: a unit is ``"<side>.<index>"``; its one model ``"<side>.<index>.0"``.

Play is in rounds (DT §2: 4), each one turn of each player (DT §3), the side that
deployed first playing first. A player's turn is spent in activation points, one per
action, as many as its living units when the turn began; the same unit may act
several times. While a unit acts, enemy units may react (DT §6): reactions live
inside the action's resolution, so the state only keeps what outlasts an action.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from deathzap_tui.rules.dice import Rng
from deathzap_tui.rules.doubletap.model import Force
from deathzap_tui.rules.doubletap.options import OPTION_SPECS
from deathzap_tui.rules.ids import figure_id, unit_id
from deathzap_tui.rules.statebase import FigureBase, StateBase, UnitRecord


def _sides(value: Any) -> dict[str, Any]:
    return {"red": value, "black": value}


@dataclass
class FigureState(FigureBase):
    """The unit's one model (kept as a figure like every family ruleset's)."""


@dataclass
class UnitState(UnitRecord):
    figures: list[FigureState]
    rules: tuple[str, ...] = ()
    """Keys of :data:`tables.SPECIAL_RULES`."""
    poison: str = ""
    """Poison Gear: "melee" or "shooting" (DT §7)."""
    points: int = 0
    """Its cost (DT-R4)."""

    # --- deployment (DT §2, §7) ---------------------------------------------------
    placed: bool = False
    """On the table: deployed, or arrived from Ambush reserve."""
    reserve: bool = False
    """Held back by Ambush (DT §7): arrives at the start of a round after the first."""

    # --- markers that outlast an action (DT §5, §7) -----------------------------------
    wounds: int = 0
    """Tough wound markers (DT §7): killed at the 3rd."""
    stunned: bool = False
    """DT §5: cannot react; its next action must be spent recovering."""
    poisoned: bool = False
    """DT §7 Poison Gear: tests on each activation, 3+ cured, else killed."""
    poisoned_by: str = ""
    """The unit whose Poison Gear poisoned it ("" when not known): a poison death is
    that unit's harm (the end-of-game report)."""
    camo: bool = False
    """DT §7 Camouflage: cannot be attacked while it has its marker."""
    grenade_used: bool = False
    """DT §7 Grenade: once per game."""
    hacked: bool = False
    """DT §7 Hacker: -1 to its next attack or block roll (does not stack)."""
    spotted_by: str = ""
    """DT §7 Spotter: the side whose next unit shooting at it gets +1 to hit."""
    flashed_until: str = ""
    """DT §7 Flash grenade: -2 to all its quality rolls until the end of this side's
    turn ("" when not flashed)."""
    engaged: list[str] = field(default_factory=list)
    """Enemy unit ids it is in base contact with, both ways (DT §3: left only by
    dodging)."""
    token: bool = False
    """Unused by Double Tap (no tokens); kept for :class:`UnitBase`."""

    @property
    def alive(self) -> bool:
        return self.figures[0].alive

    @property
    def in_play(self) -> bool:
        """Alive and on the table (not in Ambush reserve)."""
        return self.alive and self.placed

    def has(self, rule: str) -> bool:
        return rule in self.rules


@dataclass
class MarkerState:
    """An objective marker (DT §2)."""

    number: int
    holder: str = ""
    """The side that seized it ("" neutral); it stays seized when the unit leaves."""


@dataclass(eq=False)
class State(StateBase):
    """The whole Double Tap game state (compare with ``==``: by :meth:`snapshot`)."""

    SNAPSHOT_RECORDS: ClassVar[tuple[str, ...]] = ("markers",)

    rng: Rng
    options: dict[str, Any]
    """Every key of ``options.OPTION_SPECS`` filled in."""
    names: dict[str, str]
    units: dict[str, list[UnitState]]
    weapons: dict[str, dict[str, Any]] = field(default_factory=lambda: _sides({}))
    """Unused: weapons are the shared :data:`tables.WEAPONS`; kept for
    :class:`StateBase`."""

    # --- set-up (DT §2) ------------------------------------------------------------
    stage: str = "rolloff"
    """Set-up then play (DT §2), in order: "rolloff" (for edges), "deploy" (alternate,
    with Ambush, Scout, Infiltrate), "markers" (the objective markers), "battle" (the
    rounds)."""
    edges: dict[str, str] = field(default_factory=lambda: _sides(""))
    first: str = ""
    """The deployment roll-off winner: picks its edge, deploys first and plays the
    first turn of every round (DT §2, §3)."""

    # --- rounds and turns (DT §3) ----------------------------------------------------
    round: int = 0
    """1..; 0 during set-up."""
    player: str = ""
    """The side whose turn it is ("" between rounds and during set-up)."""
    turns_played: int = 0
    """Turns played this round (0, 1 or 2)."""
    points: dict[str, int] = field(default_factory=lambda: _sides(0))
    """Activation points left in the turn under way (DT §3)."""

    # --- mission (DT §2) -------------------------------------------------------------
    markers: list[MarkerState] = field(default_factory=list)
    over: bool = False
    winner: str = ""
    """"red", "black" or "draw" once over."""
    end_reason: str = ""

    objectives: list[Any] = field(default_factory=list)
    """Unused (markers are :attr:`markers`); kept for :class:`StateBase`."""
    board_depth: int = 0


def _unit_state(force: Force, side: str, index: int) -> UnitState:
    u = force.units[index]
    return UnitState(id=unit_id(side, index), side=side, index=index, name=u.name,
                     figures=[FigureState(id=figure_id(side, index, 0), name=u.name,
                                          weapons=tuple(u.weapons))],
                     rules=tuple(u.rules), poison=u.poison, points=u.points,
                     camo=u.has("camouflage"))


def new_state(red: Force, black: Force, options: Mapping[str, Any], seed: int,
              deal_seed: int | None = None) -> State:
    """The state before any event: nothing on the table yet, set-up starting with the
    deployment roll-off (DT §2). No cards: ``deal_seed`` is not used."""
    opts = {s.key: s.default for s in OPTION_SPECS}
    opts.update(dict(options))
    forces = {"red": red, "black": black}
    return State(
        rng=Rng.from_seed(seed),
        options=opts,
        names={s: f.name for s, f in forces.items()},
        units={s: [_unit_state(f, s, i) for i in range(len(f.units))]
               for s, f in forces.items()},
    )


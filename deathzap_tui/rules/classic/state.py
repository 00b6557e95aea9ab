"""Deathzap Classic game state: everything the engine changes, as plain dataclasses.

Built once by :func:`new_state` from the two forces, the options and the seed, then
changed only by resolutions working on a private copy. Nothing here holds ``None``
("" / 0 / False mean "not yet"), so the state deep-copies, compares and snapshots
as plain data.

Identifiers (as in ``docs/architecture.md``): a unit is ``"<side>.<index>"``, a figure
``"<side>.<unit index>.<figure index>"``. Figures that join another unit when a unit
rallies by merging (CL §4) are appended to that unit with new ids, so an id always
names the unit the figure is in now.

Unlike the card editions, play is in turns of phases for both sides at once (CL §3):
``turn`` counts them, ``step`` is the phase under way, ``order`` the order the impetus
winner chose for movement, shooting and melee.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from deathzap_tui.rules.classic import tables
from deathzap_tui.rules.classic.model import Force, Weapon
from deathzap_tui.rules.classic.options import OPTION_SPECS
from deathzap_tui.rules.dice import Rng
from deathzap_tui.rules.ids import figure_id, unit_id
from deathzap_tui.rules.statebase import FigureBase, ScoreEntry, StateBase, UnitRecord

STAGES = ("rolloff", "general", "battle")
"""Set-up then play (CL §1): roll off for base lines, name the generals, battle."""


def _sides(value: Any) -> dict[str, Any]:
    return {"red": value, "black": value}


@dataclass
class FigureState(FigureBase):
    """One model; each of its weapons is one gun, one die to hit (CL §5)."""

    general: bool = False
    """This side's general (CL §1): the force file's mark until set-up names one;
    objectives only."""
    moved_to: str = ""
    """Rallied by merging (CL §4): the figure now lives in the other unit under this
    new id, and this entry is no longer ``alive``."""

    @property
    def removed(self) -> bool:
        """Dead, not merged into another unit (CL §4: it lives on there)."""
        return not self.alive and not self.moved_to


@dataclass
class UnitState(UnitRecord):
    type: str
    """A key of :data:`tables.TYPES` (CL §2)."""
    figures: list[FigureState]
    panicked: bool = False
    """Marked panicked (suppression CL §5, losing a melee CL §6, a failed merge CL §4).
    A lone Infantry / Heavy Infantry / Beast figure is panicked whatever this says:
    read :attr:`is_panicked`."""
    panicked_turn: int = 0
    """The turn it last became panicked from steady (marked, or left a lone figure by
    casualties): that turn's morale test fails without moving (CL §7). Panicking a
    unit already panicked does not change it (see :meth:`panic`)."""
    engaged: list[str] = field(default_factory=list)
    """Enemy unit ids it is in melee with (CL §6): it cannot move or shoot, nor be
    shot (CL §4, §5). Cleared when the melee ends."""
    shot: bool = False
    """Has fired in this turn's shooting phase (CL §5)."""
    pending: int = 0
    """Shooting casualties to remove once everyone has fired (CL §5, CL-R2)."""
    pending_by: list[str] = field(default_factory=list)
    """The shooting unit of each pending casualty, in order (its kill when it comes
    off, for the end-of-game report); kept in step with ``pending`` by
    :func:`~deathzap_tui.rules.casualties.owe` and
    :func:`~deathzap_tui.rules.casualties.settle`."""
    merged_into: str = ""
    """Rallied by merging (CL §4): its figures now belong to that unit."""
    token: bool = False
    """Unused by Classic (no activation tokens); kept for :class:`UnitBase`."""

    @property
    def stats(self) -> tables.FigureType:
        return tables.TYPES[self.type]

    @property
    def in_play(self) -> bool:
        return not self.merged_into and self.figures_left > 0

    @property
    def alone(self) -> bool:
        """CL §4, §7: one figure of a type that cannot stand alone: always panicked,
        always fails its morale test until it merges with a friendly unit."""
        return tables.alone(self.type, self.figures_left)

    @property
    def is_panicked(self) -> bool:
        return self.in_play and (self.panicked or self.alone)

    def panic(self, turn: int) -> None:
        """Mark the unit panicked in ``turn`` (suppression CL §5, losing a melee
        CL §6). Only a unit that was steady "became panicked this turn" (CL §7): one
        already panicked keeps the turn its panic began."""
        if not self.is_panicked:
            self.panicked_turn = turn
        self.panicked = True


@dataclass(eq=False)
class State(StateBase):
    """The whole Classic game state (compare with ``==``: by :meth:`snapshot`)."""

    SNAPSHOT_RECORDS: ClassVar[tuple[str, ...]] = ("score",)

    rng: Rng
    options: dict[str, Any]
    """Every key of ``options.OPTION_SPECS`` filled in."""
    names: dict[str, str]
    weapons: dict[str, dict[str, Weapon]]
    units: dict[str, list[UnitState]]
    worth: dict[str, int]
    """Each force's size at the start in figures, a vehicle or monster counting as
    :data:`tables.BIG_FIGURE_WORTH` (CL §8 Hard Hitters)."""

    # --- set-up (CL §1) ---------------------------------------------------------
    stage: str = "rolloff"
    """"rolloff" -> "general" -> "battle" (see :data:`STAGES`)."""
    edges: dict[str, str] = field(default_factory=lambda: _sides(""))
    """Base-line edge by side ("north" / "south")."""
    first: str = ""
    """The roll-off winner: picked its edge and deployed first (CL §1)."""

    # --- the turn (CL §3) ---------------------------------------------------------
    turn: int = 0
    """1..; 0 before the first impetus roll."""
    step: str = ""
    """The phase under way (one of :data:`tables.PHASES`); "" between turns."""
    order: list[str] = field(default_factory=list)
    """This turn's order of movement, shooting and melee, chosen by the impetus winner."""
    impetus: str = ""
    """This turn's impetus winner (CL §3): moves first (CL §4)."""
    mover: str = ""
    """In the movement phase, the side moving now ("" once both have moved)."""
    impetus_totals: dict[str, int] = field(default_factory=lambda: _sides(0))
    """This turn's deciding impetus totals: die + 1 per panicked enemy unit (CL §3)."""

    # --- objectives and score (CL §8) -------------------------------------------------
    objectives: list[str] = field(default_factory=list)
    """Advanced game: the two objectives rolled (keys of ``tables.OBJECTIVE_NAMES``)."""
    vp: dict[str, int] = field(default_factory=lambda: _sides(0))
    score: list[ScoreEntry] = field(default_factory=list)
    killed: dict[str, int] = field(default_factory=lambda: _sides(0))
    """Enemy figures killed BY each side, vehicles and monsters included (CL §8)."""
    killed_worth: dict[str, int] = field(default_factory=lambda: _sides(0))
    """The same, a vehicle or monster counting as 5 (CL §8 Hard Hitters)."""
    killed_big: dict[str, int] = field(default_factory=lambda: _sides(0))
    """Enemy vehicles and monsters killed by each side (CL §8 Extermination)."""
    hard_hitters: str = ""
    """The side that first destroyed half the enemy force (CL §8), or ""."""
    macguffin: str = ""
    """The side that carried the MacGuffin off the table (CL §8), or ""."""
    over: bool = False
    winner: str = ""
    """"red", "black" or "draw" once over."""
    end_reason: str = ""

    board_depth: int = 0
    """Unused by Classic (no placed objectives); kept for :class:`StateBase`."""


def _unit_state(force: Force, side: str, index: int) -> UnitState:
    u = force.units[index]
    figs = [FigureState(id=figure_id(side, index, i), name=f.name, weapons=tuple(f.weapons),
                        general=f.general)
            for i, f in enumerate(u.figures)]
    return UnitState(id=unit_id(side, index), side=side, index=index, name=u.name,
                     type=u.type, figures=figs)


def force_worth(force: Force) -> int:
    """Figures in the force, a vehicle or monster counting as 5 (CL §8)."""
    return sum(len(u.figures) * (tables.BIG_FIGURE_WORTH if u.type in tables.BIG_TYPES
                                 else 1) for u in force.units)


def new_state(red: Force, black: Force, options: Mapping[str, Any], seed: int,
              deal_seed: int | None = None) -> State:
    """The state before any event: every unit on the table within 6" of its edge
    (CL §1), set-up starting with the roll-off. Classic has no cards: nothing is
    dealt, so ``deal_seed`` is not used."""
    opts = {s.key: s.default for s in OPTION_SPECS}
    opts.update(dict(options))
    forces = {"red": red, "black": black}
    return State(
        rng=Rng.from_seed(seed),
        options=opts,
        names={s: f.name for s, f in forces.items()},
        weapons={s: dict(f.weapons) for s, f in forces.items()},
        units={s: [_unit_state(f, s, i) for i in range(len(f.units))]
               for s, f in forces.items()},
        worth={s: force_worth(f) for s, f in forces.items()},
    )

"""Deathzap Plasmashok game state: everything the engine changes, as plain dataclasses.

Built once by :func:`new_state` from the two forces, the options and the seed, then
changed only by resolutions working on a private copy. Nothing here holds ``None``
("" / 0 / () / False mean "not yet" or "none"), so the state deep-copies, compares and
snapshots as plain data.

Identifiers: a unit is ``"<side>.<index>"``, a model ``"<side>.<unit>.<model>"``.

Play is in turns of five phases for both sides at once (PS §3): ``turn`` counts them,
``step`` is the phase under way and, in special combat, shooting and melee,
``bracket`` the training bracket acting now (PS §3: elite, then regular, then
recruit). Wounds caused within a bracket wait on the target's ``pending`` count and
come off when the bracket ends, so every unit of a bracket acts with all its models
(PS §3).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from deathzap_tui.rules.dice import Rng
from deathzap_tui.rules.ids import figure_id, unit_id
from deathzap_tui.rules.plasmashok import tables
from deathzap_tui.rules.plasmashok.model import Force, Unit
from deathzap_tui.rules.plasmashok.options import OPTION_SPECS
from deathzap_tui.rules.plasmashok.tables import WeaponProfile
from deathzap_tui.rules.statebase import FigureBase, StateBase, UnitRecord

STAGES = ("rolloff", "battle")
"""Set-up then play (PS §1): roll off for base lines, then the turns."""


def _sides(value: Any) -> dict[str, Any]:
    return {"red": value, "black": value}


@dataclass
class FigureState(FigureBase):
    """One model (PS §2)."""

    cost: int = 0
    """Its points value (PS §9: base + weapons + Advanced Shields): what its side has
    lost when it dies (PS §8)."""
    wounds: int = 0
    """Wounds it has taken and survived (models of more than one wound, PS §5 step 5);
    it dies when this reaches its type's ``wounds``."""


@dataclass
class UnitState(UnitRecord):
    type: str
    """A key of :data:`tables.TYPES` (PS §2)."""
    training: str
    """One of :data:`tables.BRACKETS` (PS §1)."""
    figures: list[FigureState]
    save: int
    """Shield save N+, Advanced Shields included (PS §2, §9)."""
    special: int = 0
    """Special-combat value (PS §4)."""
    melee: tuple[int, ...] = ()
    """(attacks, strength, damage) per model (PS §6, PS-R1); ``()`` when unknown."""
    melee_missing: tuple[str, ...] = ()
    """The profile fields the force file left out when ``melee`` is unknown (PS-R1)."""
    engaged: list[str] = field(default_factory=list)
    """Enemy unit ids it is in base contact with (PS §3, §5, §6), both ways."""
    acted: bool = False
    """Has attacked in the phase under way (special combat, shooting or melee); a
    melee's extra round (PS §6) clears it for that melee's units."""
    pending: int = 0
    """Wounds caused on it in the bracket under way, removed when the bracket ends
    (PS §3)."""
    pending_by: list[str] = field(default_factory=list)
    """The unit that caused each of the ``pending`` wounds, in the order dealt
    (:func:`.casualties.deal_wounds`), so that the models they remove at the end of
    the bracket are credited to the right units (the end-of-game report); kept in
    step with ``pending`` by :func:`~deathzap_tui.rules.casualties.owe` and
    :func:`~deathzap_tui.rules.casualties.settle`."""
    lost_turn: int = 0
    """Models it lost this turn (PS §7: a unit that took casualties tests morale)."""
    lost_melee: int = 0
    """Models it lost in the melee phase under way: what the enemy side of its melee
    killed (PS §6 end of melee)."""
    token: bool = False
    """Unused by Plasmashok (no activation tokens); kept for :class:`UnitBase`."""

    @property
    def stats(self) -> tables.ModelType:
        return tables.TYPES[self.type]

    @property
    def in_play(self) -> bool:
        return self.figures_left > 0

    @property
    def size(self) -> int:
        """PS §2: the sum of its living models' sizes."""
        return self.figures_left * self.stats.size

    @property
    def can_melee(self) -> bool:
        """PS-R1: its melee profile is known."""
        return bool(self.melee)


@dataclass(eq=False)
class State(StateBase):
    """The whole Plasmashok game state (compare with ``==``: by :meth:`snapshot`)."""

    SNAPSHOT_RECORDS: ClassVar[tuple[str, ...]] = ()

    rng: Rng
    options: dict[str, Any]
    """Every key of ``options.OPTION_SPECS`` filled in."""
    names: dict[str, str]
    weapons: dict[str, dict[str, WeaponProfile]]
    units: dict[str, list[UnitState]]
    worth: dict[str, int]
    """Each force's points value of models at the start (PS §8, §9)."""

    # --- set-up (PS §1) -----------------------------------------------------------
    stage: str = "rolloff"
    """"rolloff" -> "battle" (see :data:`STAGES`)."""
    edges: dict[str, str] = field(default_factory=lambda: _sides(""))
    """Base-line edge by side ("north" / "south")."""
    first: str = ""
    """The set-up roll-off winner: picked its edge and deployed first (PS §1)."""

    # --- the turn (PS §3) -----------------------------------------------------------
    turn: int = 0
    """1..; 0 before the first movement roll-off."""
    step: str = ""
    """The phase under way (one of :data:`tables.PHASES`); "" between turns."""
    bracket: str = ""
    """In special combat, shooting and melee: the training bracket acting now (one of
    :data:`tables.BRACKETS`); "" otherwise."""
    move_first: str = ""
    """This turn's movement roll-off winner (PS §3): moves first."""
    mover: str = ""
    """In the movement phase, the side moving now."""
    melee_round: int = 0
    """In the melee phase: 1 for the phase's round, 2.. for extra rounds of melees
    whose end-of-melee rolls tied twice (PS §6)."""
    again: list[str] = field(default_factory=list)
    """In an extra melee round: the ids of the units whose melees fight it (PS §6);
    empty in the phase's first round. Read by :func:`.turn.candidates` (so
    :func:`.turn.able`, :func:`.turn.act_refusal` and the bracket narration consider
    only these units) and cleared by :func:`.turn._enter` and the end of the game."""

    # --- score (PS §8) ------------------------------------------------------------------
    lost: dict[str, int] = field(default_factory=lambda: _sides(0))
    """Points value of models each side has LOST (PS §8)."""
    over: bool = False
    winner: str = ""
    """"red", "black" or "draw" once over."""
    end_reason: str = ""

    board_depth: int = 0
    """Unused by Plasmashok (no objectives); kept for :class:`StateBase`."""


def _unit_state(force: Force, side: str, index: int) -> UnitState:
    u: Unit = force.units[index]
    figs = [FigureState(id=figure_id(side, index, i), name=m.name, weapons=tuple(m.weapons),
                        cost=force.model_cost(u, m))
            for i, m in enumerate(u.figures)]
    melee = (u.melee.attacks, u.melee.strength, u.melee.damage) if u.melee else ()
    return UnitState(id=unit_id(side, index), side=side, index=index, name=u.name,
                     type=u.type, training=u.training, figures=figs, save=u.save,
                     special=u.special, melee=melee, melee_missing=u.melee_missing)


def new_state(red: Force, black: Force, options: Mapping[str, Any], seed: int,
              deal_seed: int | None = None) -> State:
    """The state before any event: every unit within 6" of its edge (PS §1), set-up
    starting with the roll-off. Plasmashok has no cards: ``deal_seed`` is not used."""
    opts = {s.key: s.default for s in OPTION_SPECS}
    opts.update(dict(options))
    forces = {"red": red, "black": black}
    units = {s: [_unit_state(f, s, i) for i in range(len(f.units))]
             for s, f in forces.items()}
    return State(
        rng=Rng.from_seed(seed),
        options=opts,
        names={s: f.name for s, f in forces.items()},
        weapons={s: dict(f.weapons) for s, f in forces.items()},
        units=units,
        worth={s: sum(fig.cost for u in us for fig in u.figures) for s, us in units.items()},
    )

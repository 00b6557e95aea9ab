"""State pieces shared by the Deathzap-family rulesets (DZ3 and CH "as Deathzap 3").

Each ruleset keeps its own ``State``, ``UnitState`` and ``FigureState`` dataclasses
(their fields are its rules); these mixins add the helpers whose logic is the same
for both, and the records both keep in the same shape (objectives, score).

A ruleset's ``State`` using :class:`StateBase` is a ``@dataclass(eq=False)`` with
the fields ``rng`` (a :class:`~.dice.Rng`), ``weapons`` (side -> weapon id -> an
immutable model weapon), ``units`` (side -> list of unit states whose ``figures``
are figure states), ``objectives``, ``board_depth``, ``vp`` and ``score``.
"""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from deathzap_tui.rules.dice import Rng
from deathzap_tui.rules.ids import UnitId, split_figure_id
from deathzap_tui.rules.narration import side_name
from deathzap_tui.rules.revision import CURRENT as CURRENT_REVISION
from deathzap_tui.rules.steps import Context


@dataclass
class ObjectiveState:
    """One of the five objective markers (DZ3 §1; CH-R5 objectives option)."""

    number: int
    """1..5; objective 1 is the centre one."""
    red_distance: int
    """Inches from RED's edge; black's distance is ``board_depth - red_distance``."""
    token: bool = False
    """Activated since the last token reset (DZ3 §3 Signal, §4)."""


@dataclass
class ScoreEntry:
    """One scoring event (DZ3 §12; CH-R5)."""

    side: str
    """Who scored."""
    vp: int
    reason: str
    """In words: "destroyed Squad 2", "objective 3 at 13\"", ..."""


@dataclass
class FigureBase:
    """One model of a unit: what every ruleset's figure state holds (a ruleset's
    own ``FigureState`` adds its rules' fields)."""

    id: str
    """``"red.3.0"``: side, unit index, figure index in the unit."""
    name: str
    """The figure's name from the force file ("Platoon Leader", "Cultist")."""
    weapons: tuple[str, ...]
    """Weapon ids it carries (keys of ``State.weapons[side]``)."""
    alive: bool = True
    """False once removed as a casualty (kept so ids and "6/7" counts stay stable)."""

    @property
    def removed(self) -> bool:
        """Out of the game (a casualty, routed, poisoned...): not alive, and not
        living on elsewhere (a ruleset whose figures can move to another unit says
        so)."""
        return not self.alive


class UnitBase:
    """Helpers of a unit state with ``figures`` (each with ``alive``), ``token`` and
    the ruleset's own ``in_play`` property."""

    figures: list[Any]
    token: bool
    if TYPE_CHECKING:
        @property
        def in_play(self) -> bool: ...

    @property
    def alive_figures(self) -> list[Any]:
        return [f for f in self.figures if f.alive]

    @property
    def figures_left(self) -> int:
        return sum(1 for f in self.figures if f.alive)

    def figures_lost(self, gone: bool) -> int:
        """Its figures out of the game by any cause (issue 22): each one removed, and
        once the unit is ``gone`` (destroyed or fled, as the board shows it) each one
        still standing too (a unit that fled, a vehicle blown up)."""
        return sum(1 for f in self.figures if f.removed) + (self.figures_left if gone else 0)

    @property
    def ready(self) -> bool:
        """May be activated now (in play, no token)."""
        return self.in_play and not self.token


@dataclass
class UnitRecord(UnitBase):
    """What every ruleset's unit state starts with (its own ``UnitState`` adds its
    rules' fields after these)."""

    id: str
    """``"red.3"``."""
    side: str
    """``"red"`` or ``"black"``."""
    index: int
    """Index into the side's force units."""
    name: str


class StateBase:
    """Look-ups, snapshot, comparison and copying of a ruleset's game state (see the
    module docstring for the fields it needs). ``==`` compares :meth:`snapshot`, the
    RNG included."""

    SNAPSHOT_RECORDS: ClassVar[tuple[str, ...]] = ("objectives", "score")
    """List fields of dataclass records, given as plain dicts by :meth:`snapshot`."""

    rng: Rng
    over: bool
    """The game has ended (``Ruleset.is_over``)."""
    weapons: dict[str, dict[str, Any]]
    units: dict[str, list[Any]]
    objectives: list[ObjectiveState]
    board_depth: int
    revision: int = CURRENT_REVISION
    """The rules revision the game plays by (:mod:`~.revision`): not a dataclass
    field, set on the state by :meth:`~.game.Game.start_state` (a state made
    otherwise, a quick resolve's, plays by the current one)."""

    def unit(self, unit_id: str) -> Any:
        """The unit with id ``"side.index"``; ``KeyError`` if there is none (a
        negative or malformed index included: ids come from intents)."""
        try:
            parsed = UnitId.parse(unit_id)
        except ValueError:
            raise KeyError(f"no unit {unit_id!r}") from None
        units = self.units.get(parsed.side, [])
        if parsed.index >= len(units):
            raise KeyError(f"no unit {unit_id!r}")
        return units[parsed.index]

    def figure(self, figure_id: str) -> tuple[Any, Any]:
        """``(unit, figure)`` for ``"side.unit.figure"``; ``KeyError`` if none."""
        try:
            unit_id, index = split_figure_id(figure_id)
        except ValueError:
            raise KeyError(f"no figure {figure_id!r}") from None
        unit = self.unit(unit_id)
        if index >= len(unit.figures):
            raise KeyError(f"no figure {figure_id!r}")
        return unit, unit.figures[index]

    def all_units(self) -> list[Any]:
        return [*self.units["red"], *self.units["black"]]

    def objective(self, number: int) -> ObjectiveState:
        for o in self.objectives:
            if o.number == number:
                return o
        raise KeyError(f"no objective {number}")

    def distance_from(self, side: str, objective: ObjectiveState) -> int:
        """An objective's distance from ``side``'s edge, in inches."""
        if side == "red":
            return objective.red_distance
        return self.board_depth - objective.red_distance

    def snapshot(self) -> dict[str, Any]:
        """The state as plain data (each RNG as its integer state, weapons by id)."""
        special = ("weapons", "units", *self.SNAPSHOT_RECORDS)
        fields = dataclasses.fields(self)  # type: ignore[arg-type]
        values = {f.name: getattr(self, f.name) for f in fields if f.name not in special}
        out = {name: value.state if isinstance(value, Rng) else copy.deepcopy(value)
               for name, value in values.items()}
        out["units"] = {s: [dataclasses.asdict(u) for u in us] for s, us in self.units.items()}
        for name in self.SNAPSHOT_RECORDS:
            out[name] = [dataclasses.asdict(item) for item in getattr(self, name)]
        out["weapons"] = {s: sorted(w) for s, w in self.weapons.items()}
        return out

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, type(self)):
            return NotImplemented
        return self.snapshot() == other.snapshot()

    __hash__ = None  # type: ignore[assignment]

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        # The weapons tables are immutable (frozen model dataclasses): share them,
        # which keeps the per-answer copies of the Resolution driver cheap.
        # The RNGs go through ``memo`` too: an old game's one generator for dice and
        # deals (``rng`` is ``deal_rng``) stays one generator in the copy.
        new = copy.copy(self)
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            if f.name != "weapons":
                setattr(new, f.name, copy.deepcopy(getattr(self, f.name), memo))
        return new


def add_vp(ctx: Context, side: str, vp: int, reason: str) -> None:
    """Score ``vp`` for ``side`` and say so (DZ3 §12; CH-R5)."""
    state = ctx.state
    state.vp[side] += vp
    state.score.append(ScoreEntry(side, vp, reason))
    ctx.say(f"{side_name(side)} scores {vp} VP for {reason} "
            f"(Red {state.vp['red']}, Black {state.vp['black']}).")

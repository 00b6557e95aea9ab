"""Deathzap 3 game state: everything the engine changes, as plain dataclasses.

The state is built once by :func:`new_state` from the two forces, the options and the
seeds, then changed only by resolutions (``engine.resolution``) working on a private
deep copy. Nothing here holds ``None`` (empty string / 0 / False mean "not yet"), so
the state stays deep-copyable and comparable; ``state.snapshot()`` gives it as plain
data (handy for tests and debugging).

Identifiers (see ``docs/architecture.md``):

- a unit is ``"<side>.<index>"`` (``"red.3"``), index into the force's units;
- a figure is ``"<side>.<unit index>.<figure index>"`` (``"red.3.0"``), index into
  the unit's expanded figures (``model.Unit.figures``);
- an objective is its number ``1..5`` (objective 1 is the centre one, DZ3 §1);
- a card is its :attr:`cards.Card.code` (``"10H"``, ``"AS"``, ``"JOKER1"``).

The UI reads the state through :mod:`.view` (``board_view``) but may read any field
documented here directly; field names are stable.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from deathzap_tui.rules.cards import SUITS, Card, build_deck, shuffled
from deathzap_tui.rules.deathzap3 import tables
from deathzap_tui.rules.deathzap3.model import Force, Weapon
from deathzap_tui.rules.deathzap3.options import OPTION_SPECS
from deathzap_tui.rules.dice import Rng
from deathzap_tui.rules.ids import figure_id, unit_id
from deathzap_tui.rules.statebase import (
    FigureBase,
    ObjectiveState,
    ScoreEntry,
    StateBase,
    UnitRecord,
)

PHASES = ("rolloff", "objectives", "battle")
"""Set-up then play, in order (DZ3 §1): roll off for edges, place objectives, battle."""

EDGES = ("north", "south")
"""The two long edges a side may enter from (DZ3 §1)."""


@dataclass
class FigureState(FigureBase):
    """One model of a unit; each of its weapons fires every shooting action."""

    leader: bool = False
    """Modelled as a leader (DZ3 §11): +1 morale within 6", spends command points."""
    command: int = 0
    """Command points LEFT (DZ3 §11, DZ3-R14: spent for the game, never refreshed;
    a removed leader takes them with it, so a dead leader's points do not count)."""


@dataclass
class UnitState(UnitRecord):
    """One unit and everything that happened to it."""

    skill: str
    """basic | regular | elite (tables.SKILLS)."""
    move: int
    """Move in inches (DZ3 §14)."""
    melee_attacks: int
    """Melee attacks per figure (MA, DZ3 §7)."""
    shield_strength: str
    """light | medium | heavy (DZ3 §6)."""
    max_shields: int
    """The profile's shields; Protect recharges to this (DZ3 §8)."""
    shields: int
    """Shields left: one pool for the unit (DZ3-R6), 0..max_shields."""
    vehicle: bool
    """A vehicle: one model, rolls on the damage table instead of dying (DZ3 §9)."""
    figures: list[FigureState]
    """Every figure the unit started with, in force order (see ``alive``)."""
    entered: bool = False
    """Has come on from its edge (its first activation, DZ3 §3). No unit starts on
    the table (DZ3 §1)."""
    token: bool = False
    """Carries an activation token (DZ3 §4): cannot activate until tokens reset."""
    destroyed: bool = False
    """Wiped out, or a vehicle killed / exploded (DZ3 §9, §12)."""
    fled: bool = False
    """Failed a morale test and fled (DZ3 §10); counts as destroyed for VP."""
    immobilised: bool = False
    """Vehicle damage 2: can no longer move (DZ3 §9; DZ3-R10 effects stack)."""
    gun_crippled: bool = False
    """Vehicle damage 3: its shots hit only on a 6 (fixed 6+, DZ3-R7)."""
    weapon_crippled: bool = False
    """Vehicle damage 4: its melee attacks hit only on a 6 (fixed 6+)."""
    engaged: list[str] = field(default_factory=list)
    """Ids of enemy units it is in base contact with (set by a Charge, cleared when it
    disengages or either unit is gone). Used only to ask "leaving melee?"."""
    activations: int = 0
    """How many times it has activated this game (0 = still off-table)."""

    @property
    def in_play(self) -> bool:
        """DZ3-R4: not destroyed and not fled (off-table units ARE in play)."""
        return not (self.destroyed or self.fled)


@dataclass(eq=False)
class State(StateBase):
    """The whole Deathzap 3 game state. Compare two states with ``==`` (by
    :meth:`snapshot`, the RNG included)."""

    rng: Rng
    """The game's dice, from its public seed (architecture idea 2)."""
    deal_rng: Rng
    """SECRET. Shuffles the deck, from the game's secret deal seed, so the seed shown
    to the players does not tell the cards to come; in a game saved before deals were
    secret it is ``rng`` itself (see ``Ruleset.new_state``)."""
    options: dict[str, Any]
    """The game's options, every key of ``options.OPTION_SPECS`` filled in."""
    names: dict[str, str]
    """Force names by side."""
    weapons: dict[str, dict[str, Weapon]]
    """Each side's weapons table by weapon id (read-only during play)."""
    units: dict[str, list[UnitState]]
    """Units by side, in force order (``units[side][index]``)."""

    # --- set-up (DZ3 §1) ------------------------------------------------------
    phase: str = "rolloff"
    """"rolloff" -> "objectives" -> "battle" (see PHASES). Game over is ``over``."""
    edges: dict[str, str] = field(default_factory=lambda: {"red": "", "black": ""})
    """Entry edge by side ("north"/"south"; "" before the roll-off)."""
    rolloff_winner: str = ""
    """Side that won the roll-off and picked its edge."""
    board_depth: int = tables.BOARD_DEPTH
    """Distance between the two entry edges in inches (DZ3 §1: 30)."""
    objectives: list[ObjectiveState] = field(default_factory=list)
    """The five objectives once placed (empty before)."""

    # --- the activation deck (DZ3 §2) ----------------------------------------
    deck: list[str] = field(default_factory=list)
    """Draw pile, card codes, TOP FIRST."""
    discard: list[str] = field(default_factory=list)
    """Cards drawn from the current deck, oldest first (last = current card)."""
    decks_used: int = 1
    """How many decks have been started (DZ3-R2 "decks" option counts them)."""
    card: str = ""
    """Code of the card up ("" before the first draw)."""
    card_side: str = ""
    """Side the current card activates ("" for a joker / no card)."""
    granted: int = 0
    """Activations the current card grants (DZ3 §2; 0 for a joker)."""
    used: int = 0
    """Activations of the current card used (command extra NOT included)."""
    forfeited: int = 0
    """Activations of the current card lost because the side had no unit in play
    (DZ3-R3)."""
    command_used: bool = False
    """The one extra command activation for this card has been used (DZ3 §11)."""

    # --- score and end (DZ3 §12, DZ3-R2) -------------------------------------
    vp: dict[str, int] = field(default_factory=lambda: {"red": 0, "black": 0})
    score: list[ScoreEntry] = field(default_factory=list)
    """Every VP scored, in order."""
    over: bool = False
    winner: str = ""
    """"red", "black" or "draw" once over."""
    end_reason: str = ""
    """Why the game ended, in words."""
    activation_number: int = 0
    """Activations made so far in the game (for narration)."""
    quick: bool = False
    """A quick resolution outside a game (``quick.py``): the app knows nothing of the
    rest of the table, so questions it would otherwise settle from the forces (is a
    friendly leader near?) are always asked."""

    # --- helpers --------------------------------------------------------------
    @property
    def remaining(self) -> int:
        """Activations of the current card still to use (not counting command)."""
        return max(0, self.granted - self.used - self.forfeited)


def deck_cards(options: Mapping[str, Any]) -> list[Card]:
    """The unshuffled deck the options ask for (DZ3 §2, DZ3-R1)."""
    kind = options.get("deck", "full")
    if kind == "half":
        return build_deck(("hearts", "spades"), 1)
    if kind == "custom":
        suits = tuple(s for s in SUITS if s in str(options.get("suits", "")).split(","))
        return build_deck(suits, int(options.get("jokers", 2)))
    return build_deck(SUITS, 2)


def _unit_state(force: Force, side: str, index: int) -> UnitState:
    u = force.units[index]
    figs = [FigureState(id=figure_id(side, index, i), name=f.name, weapons=tuple(f.weapons),
                        leader=bool(f.leader), command=int(f.command) if f.leader else 0)
            for i, f in enumerate(u.figures)]
    return UnitState(id=unit_id(side, index), side=side, index=index, name=u.name,
                     skill=u.skill, move=u.move, melee_attacks=u.melee_attacks,
                     shield_strength=u.shield_strength, max_shields=u.shields,
                     shields=u.shields, vehicle=u.vehicle, figures=figs)


def new_state(red: Force, black: Force, options: Mapping[str, Any], seed: int,
              deal_seed: int | None) -> State:
    """The state before any event: no unit on the table, deck shuffled with the
    secret deal RNG (``None``: with the dice RNG, an old save), set-up starting with
    the roll-off (DZ3 §1)."""
    opts = {s.key: s.default for s in OPTION_SPECS}
    opts.update(dict(options))
    rng = Rng.from_seed(seed)
    deal_rng = rng if deal_seed is None else Rng.from_seed(deal_seed)
    deck = [c.code for c in shuffled(deck_cards(opts), deal_rng)]
    forces = {"red": red, "black": black}
    return State(
        rng=rng,
        deal_rng=deal_rng,
        options=opts,
        names={s: f.name for s, f in forces.items()},
        weapons={s: dict(f.weapons) for s, f in forces.items()},
        units={s: [_unit_state(f, s, i) for i in range(len(f.units))]
               for s, f in forces.items()},
        deck=deck,
    )

"""Command Hand game state: everything the engine changes, as plain dataclasses.

Built once by :func:`new_state` (forces, options, seeds), then changed only by
resolutions working on a private deep copy. No ``None`` anywhere (empty string / 0 /
False mean "not yet"); ``state.snapshot()`` gives it as plain data.

Identifiers as in Deathzap 3: a unit is ``"<side>.<index>"``, a figure
``"<side>.<unit>.<figure>"``, a card its :attr:`cards.Card.code`.

SECRET fields (never shown to the other player, see :mod:`.view`): ``hands`` (each
side's Command Hand) and ``deck`` (the order of the draw pile). Both are dealt by
``deal_rng``, from the game's secret deal seed, which only the referee (and the save)
holds: the public seed and the log are not enough to rebuild them. A player's view
holds only their own hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from deathzap_tui.rules.cards import Card, build_deck, shuffled
from deathzap_tui.rules.commandhand import tables
from deathzap_tui.rules.commandhand.model import Force, Weapon
from deathzap_tui.rules.commandhand.options import OPTION_SPECS
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
"""Set-up then play: roll off for home edges (CH §1), objectives only with the CH-R5
objectives option, then the battle."""


FigureState = FigureBase
"""A Command Hand figure holds nothing beyond what every ruleset's does."""


@dataclass
class UnitState(UnitRecord):
    run: int
    """Run distance in inches as written (the view doubles it with CH-R1)."""
    walk: int
    melee_attacks: int
    melee_damage: int
    """The die each melee attack needs for a point of damage (CH §5)."""
    max_shields: int
    """The starting shields: Recharge never goes above them (CH §3.7)."""
    shields: int
    recharge: int
    figures: list[FigureState]
    entered: bool = False
    """Has come onto the table (its first activation, or a later one after a failed
    flank, CH §3)."""
    edge: str = ""
    """Where it entered: its home edge ("north"/"south") or a side edge after a
    successful flank ("east"/"west"); "" while off the table."""
    token: bool = False
    """Activation token (CH §6, as DZ3 §4)."""
    destroyed: bool = False
    """No figure left (CH §4)."""
    engaged: list[str] = field(default_factory=list)
    """Enemy unit ids in base contact (a Charge makes contact; Disengage or the
    enemy's end breaks it)."""
    activations: int = 0

    @property
    def in_play(self) -> bool:
        """As DZ3-R4: not destroyed (units waiting off the table ARE in play)."""
        return not self.destroyed


@dataclass
class Grant:
    """Activations from one card, flipped or played from a hand (CH §2)."""

    card: str
    side: str
    granted: int
    from_hand: bool = False
    used: int = 0
    forfeited: int = 0
    """Spent because the side had no unit in play (as DZ3-R3)."""

    @property
    def remaining(self) -> int:
        return max(0, self.granted - self.used - self.forfeited)


@dataclass(eq=False)
class State(StateBase):
    """The whole Command Hand game state; ``==`` compares :meth:`snapshot`.
    Objectives (CH-R5 option, as DZ3 §1) are measured from RED's home edge, as asked
    (already doubled under CH-R1)."""

    SNAPSHOT_RECORDS = ("objectives", "score", "grants")

    rng: Rng
    """The dice, from the game's public seed."""
    deal_rng: Rng
    """SECRET. Deals the hands and shuffles every deck (CH §2, CH-R5), from the secret
    deal seed; in a game saved before deals were secret it is ``rng`` itself (see
    ``Ruleset.new_state``)."""
    options: dict[str, Any]
    names: dict[str, str]
    weapons: dict[str, dict[str, Weapon]]
    units: dict[str, list[UnitState]]
    ratings: dict[str, int]
    """Command Rating by side (CH §2): the size of the hand dealt."""
    hands: dict[str, list[str]]
    """SECRET. Each side's Command Hand, card codes (CH §2). Played cards leave it and
    are never replaced (CH-R2)."""
    deck: list[str]
    """SECRET order. The activation deck, top first: every card not dealt to a hand,
    and the two jokers (CH §2)."""

    phase: str = "rolloff"
    edges: dict[str, str] = field(default_factory=lambda: {"red": "", "black": ""})
    """Home edge by side (CH §1)."""
    rolloff_winner: str = ""
    board_depth: int = 0
    """Objectives option: inches between the home edges, as asked."""
    objectives: list[ObjectiveState] = field(default_factory=list)

    discard: list[str] = field(default_factory=list)
    """Cards flipped from the current deck, oldest first."""
    played: list[str] = field(default_factory=list)
    """Hand cards played (public once played; discarded for good, CH-R2)."""
    decks_used: int = 1
    card: str = ""
    """The card flipped last ("" before the first)."""
    card_side: str = ""
    """Its colour ("" for a joker)."""
    window: str = ""
    """The side that may now interrupt the flipped card with a hand card, or "".
    While it is open nothing else happens: that side plays a card or passes."""
    interrupted: bool = False
    """The flipped card has been interrupted (CH-R3: at most once)."""
    grants: list[Grant] = field(default_factory=list)
    """Activations to use, in order (the hand card first when its rank is equal or
    lower than the flipped card's, CH §2). Done grants stay, with nothing left."""

    vp: dict[str, int] = field(default_factory=lambda: {"red": 0, "black": 0})
    score: list[ScoreEntry] = field(default_factory=list)
    over: bool = False
    winner: str = ""
    end_reason: str = ""
    activation_number: int = 0

    # --- helpers --------------------------------------------------------------
    @property
    def factor(self) -> int:
        """CH-R1: 2 when distances are doubled, else 1."""
        return tables.DISTANCE_FACTOR[self.options.get("distances", "normal")]

    @property
    def objectives_mode(self) -> bool:
        return self.options.get("victory") == "objectives"

    @property
    def grant(self) -> Grant | None:
        """The grant whose activations are used now (``None``: draw a card)."""
        return next((g for g in self.grants if g.remaining), None)

    @property
    def active_side(self) -> str:
        g = self.grant
        return g.side if g else ""

    @property
    def remaining(self) -> int:
        return sum(g.remaining for g in self.grants)


def colour_cards(colour: str) -> list[Card]:
    """The 26 cards of one colour (CH §2 splits the deck by colour)."""
    suits = ("hearts", "diamonds") if colour == "red" else ("clubs", "spades")
    return build_deck(suits, 0)


def deck_pool(hands: Mapping[str, list[str]], played: list[str]) -> list[Card]:
    """Every card of the activation deck: all 54 but the hands dealt (CH §2). Hand
    cards never come back, played or not (CH-R2), so ``played`` stays out too."""
    out_of_deck = {c for h in hands.values() for c in h} | set(played)
    return [c for c in build_deck(jokers=tables.JOKERS) if c.code not in out_of_deck]


def _unit_state(force: Force, side: str, index: int) -> UnitState:
    u = force.units[index]
    figs = [FigureState(figure_id(side, index, i), f.name, tuple(f.weapons))
            for i, f in enumerate(u.figures)]
    return UnitState(id=unit_id(side, index), side=side, index=index, name=u.name, run=u.run,
                     walk=u.walk, melee_attacks=u.melee_attacks, melee_damage=u.melee_damage,
                     max_shields=u.shields, shields=u.shields, recharge=u.recharge,
                     figures=figs)


def new_state(red: Force, black: Force, options: Mapping[str, Any], seed: int,
              deal_seed: int | None) -> State:
    """Deal the Command Hands and shuffle the activation deck (CH §2).

    Each side draws ``command_rating`` cards at random from its own colour; all the
    other cards of both colours and the two jokers are shuffled into the deck. The
    deal RNG, from the secret ``deal_seed``, does both, so a replay deals the same
    hands but the public ``seed`` does not tell them (``None``: the dice RNG deals,
    as in games saved before deals were secret)."""
    opts = {s.key: s.default for s in OPTION_SPECS}
    opts.update(dict(options))
    rng = Rng.from_seed(seed)
    deal_rng = rng if deal_seed is None else Rng.from_seed(deal_seed)
    forces = {"red": red, "black": black}
    hands: dict[str, list[str]] = {}
    for side, force in forces.items():
        pile = shuffled(colour_cards(side), deal_rng)
        hands[side] = sorted((c.code for c in pile[:force.command_rating]),
                             key=lambda code: (Card.parse(code).rank, code))
    deck = [c.code for c in shuffled(deck_pool(hands, []), deal_rng)]
    return State(
        rng=rng,
        deal_rng=deal_rng,
        options=opts,
        names={s: f.name for s, f in forces.items()},
        weapons={s: dict(f.weapons) for s, f in forces.items()},
        units={s: [_unit_state(f, s, i) for i in range(len(f.units))]
               for s, f in forces.items()},
        ratings={s: f.command_rating for s, f in forces.items()},
        hands=hands,
        deck=deck,
    )

"""Playing cards and activation decks, shared by the card-driven rulesets."""

from __future__ import annotations

from dataclasses import dataclass

from deathzap_tui.rules.dice import Rng

SUITS = ("hearts", "diamonds", "clubs", "spades")
RED_SUITS = frozenset({"hearts", "diamonds"})
SUIT_SYMBOLS = {"hearts": "♥", "diamonds": "♦", "clubs": "♣", "spades": "♠"}
RANK_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A"}
RANK_WORDS = {11: "Jack", 12: "Queen", 13: "King", 14: "Ace"}


@dataclass(frozen=True, order=True)
class Card:
    """A card: ``rank`` 2-14 (11 J, 12 Q, 13 K, 14 A, aces high) and ``suit``,
    or a joker (``rank`` 0, ``suit`` "joker", told apart by ``index``)."""

    rank: int
    suit: str
    index: int = 0

    @property
    def is_joker(self) -> bool:
        return self.suit == "joker"

    @property
    def colour(self) -> str | None:
        """``"red"`` or ``"black"``; ``None`` for a joker."""
        if self.is_joker:
            return None
        return "red" if self.suit in RED_SUITS else "black"

    @property
    def code(self) -> str:
        """Short stable text form: ``"10H"``, ``"AS"``, ``"JOKER1"``."""
        if self.is_joker:
            return f"JOKER{self.index}"
        return f"{RANK_NAMES.get(self.rank, str(self.rank))}{self.suit[0].upper()}"

    @property
    def label(self) -> str:
        if self.is_joker:
            return "Joker"
        return f"{RANK_NAMES.get(self.rank, str(self.rank))}{SUIT_SYMBOLS[self.suit]}"

    @property
    def words(self) -> str:
        if self.is_joker:
            return "Joker"
        return f"{RANK_WORDS.get(self.rank, str(self.rank))} of {self.suit}"

    @classmethod
    def parse(cls, text: str) -> Card:
        """Inverse of :attr:`code`; also accepts lower case and ``T`` for ten."""
        t = text.strip().upper()
        if t.startswith("JOKER"):
            return cls(0, "joker", int(t[5:] or 1))
        if len(t) < 2:
            raise ValueError(f"not a card: {text!r}")
        rank_text, suit_letter = t[:-1], t[-1]
        suit = {s[0].upper(): s for s in SUITS}.get(suit_letter)
        ranks = {"J": 11, "Q": 12, "K": 13, "A": 14, "T": 10}
        rank = ranks.get(rank_text) or (int(rank_text) if rank_text.isdigit() else 0)
        if suit is None or not 2 <= rank <= 14:
            raise ValueError(f"not a card: {text!r} (try e.g. 10H, AS, QD, JOKER1)")
        return cls(rank, suit)


def build_deck(suits: tuple[str, ...] = SUITS, jokers: int = 2) -> list[Card]:
    """The cards of an (unshuffled) deck made of whole suits plus jokers."""
    cards = [Card(rank, suit) for suit in suits for rank in range(2, 15)]
    cards += [Card(0, "joker", i) for i in range(1, jokers + 1)]
    return cards


def shuffled(cards: list[Card], rng: Rng) -> list[Card]:
    deck = list(cards)
    rng.shuffle(deck)
    return deck

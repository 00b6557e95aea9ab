"""Seeded randomness whose whole state is one integer.

The game keeps the generator's state in its own state, so a game is a pure function
of its seeds and its inputs: replaying a log reproduces every generated die and every
shuffle, and undo can never re-roll. (Card-driven rulesets keep two generators: one
from the public seed for the dice, one from the game's secret deal seed for shuffling
hidden cards; see :meth:`~deathzap_tui.rules.ruleset.Ruleset.new_state`.)

SplitMix64 is small, fast and good enough for dice and shuffles (it is not a
cryptographic generator); we implement it here rather than use :mod:`random` because
``random.Random``'s state is a 625-word tuple, awkward to save, and its algorithm may
change between Python versions.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

from deathzap_tui.rules.steps import D3_VALUE, DiceRequest, Luck

D3 = {1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3}
"""A D3 read from one D6 face: 1-2 is 1, 3-4 is 2, 5-6 is 3 (Plasmashok's rout,
Double Tap's objective markers)."""
D3_WORDS = "one D6 read as a D3: 1-2 is 1, 3-4 is 2, 5-6 is 3"
""":data:`D3` in words, for the dice request that rolls one."""


def d3_request(key: str, purpose: str, rule: str, side: str | None = None, *,
               more: bool = True) -> DiceRequest:
    """Ask for one D6 read as a :data:`D3`. Every D3 is asked through this, so the
    report judges it for ``side`` by its D3 value, ``more`` of it better or not
    (:data:`~deathzap_tui.rules.steps.D3_VALUE`): a 1 and a 2 are the same D3, so
    either is 1 chance in 3 of doing no better, never 1 in 6."""
    return DiceRequest(key, 1, purpose, None, D3_WORDS, rule, side, Luck(D3_VALUE, more))

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
T = TypeVar("T")


class Rng:
    """SplitMix64 generator. ``state`` is a plain int and may be saved as is."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and other.state == self.state

    def __hash__(self) -> int:
        return hash(self.state)

    def __deepcopy__(self, memo: dict[int, object]) -> Rng:
        # Cheap, and ``copy.deepcopy``'s memo keeps one generator that a state holds
        # under two names (dice and deals of an old game) one generator in the copy.
        return Rng(self.state)

    def __repr__(self) -> str:
        return f"Rng({self.state:#x})"

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        return cls(seed * 0xBF58476D1CE4E5B9 + 0x94D049BB133111EB)

    def next64(self) -> int:
        self.state = (self.state + _GAMMA) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in ``[0, n)`` without modulo bias (rejection sampling)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def d6(self) -> int:
        return self.below(6) + 1

    def roll(self, count: int) -> tuple[int, ...]:
        return tuple(self.d6() for _ in range(count))

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

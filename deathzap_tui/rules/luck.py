"""Dice luck: how well a roll went against everything fair dice could have shown.

Each judged roll (see :class:`~deathzap_tui.rules.steps.Luck`) gets the exact
probability of doing at least as well with fair dice, from the exact distribution of
its measure (a binomial for successes, the dice-sum distribution for a total, of D3s
for dice read as D3s, the occupancy distribution for distinct faces, matches and
damage let through).

A player's luck sums one number per roll: its *mid-rank* ``P(worse) + P(same) / 2``,
which is 1/2 on average for any roll, whatever its distribution, so a roll of one die
and a roll of twenty weigh alike. The percentile is where that sum falls among the
sums fair dice give for the same rolls: computed exactly (the sums' distribution by
convolution) while the rolls are few enough for that, otherwise from the normal
distribution with the sum's exact mean and variance.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from itertools import combinations

from deathzap_tui.rules.dice import D3
from deathzap_tui.rules.narration import side_name
from deathzap_tui.rules.steps import (
    D3_VALUE,
    DAMAGE,
    DISTINCT,
    MATCHES,
    SUCCESSES,
    TOTAL,
    UNJUDGED,
    Dice,
    DiceRequest,
    Luck,
    luck_of,
)

D3_SIDES = 3
"""A D6 read as a :data:`~deathzap_tui.rules.dice.D3` is a fair three-sided die: each
of 1, 2, 3 comes from two faces."""

EXACT_WORK = 500_000
"""The most steps (sums kept x outcomes of the next roll) the exact percentile may
take; a player with more rolls than that allows gets the normal approximation."""


@dataclass(frozen=True)
class RollLuck:
    """One judged roll."""

    event: int
    """The effective event (1-based) that rolled it."""
    side: str
    purpose: str
    rule: str
    dice: int
    faces: tuple[int, ...]
    """The faces, or ``()`` when only a count of successes was entered."""
    measure: str
    more: bool
    outcome: int
    """The measure's value for this roll (successes, total, distinct faces, matches)."""
    p_at_least: float
    """Exact chance that fair dice do at least as well for the roller."""
    rank: float
    """Mid-rank: chance of worse plus half the chance of the same."""
    spread: tuple[tuple[Fraction, float], ...] = field(default=(), repr=False)
    """Every (exact mid-rank, probability) fair dice could give this roll: what the
    player's percentile is computed from (empty in a report read back from JSON)."""
    exact_rank: Fraction = field(default=Fraction(0), repr=False)
    """:attr:`rank`, exactly."""

    @property
    def p_at_most(self) -> float:
        """Exact chance that fair dice do no better for the roller: P(worse) +
        P(same), which is ``2 * rank - 1 + p_at_least``."""
        return min(1.0, max(0.0, 2 * self.rank - 1 + self.p_at_least))

    @property
    def variance(self) -> float:
        """The variance of the mid-rank under fair dice (its mean is 1/2; the
        variance is 0 for a roll whose outcome was certain)."""
        return sum(p * (float(r) - 0.5) ** 2 for r, p in self.spread)

    def to_json(self) -> dict[str, object]:
        return {"event": self.event, "side": self.side, "purpose": self.purpose,
                "rule": self.rule, "dice": self.dice, "faces": list(self.faces),
                "measure": self.measure, "more_is_better": self.more,
                "outcome": self.outcome, "p_at_least": self.p_at_least,
                "rank": self.rank}


@dataclass(frozen=True)
class SideLuck:
    """One player's dice over the game."""

    side: str
    rolls: int
    dice: int
    percentile: float
    """0..100: the share of fair-dice games with the same rolls that went worse (half
    of those that went exactly as well); 50 with no judged roll."""
    method: str
    """"exact" or "normal" (how :attr:`percentile` was computed); "none" with no
    judged roll."""
    luckiest: RollLuck | None = None
    """The roll least likely to go as well (lowest ``p_at_least``, the chance the
    report prints for it)."""
    unluckiest: RollLuck | None = None
    """The roll least likely to go as badly (lowest ``p_at_most``, the chance the
    report prints for it): both extremes are picked by the tail that is shown."""

    def to_json(self) -> dict[str, object]:
        return {"rolls": self.rolls, "dice": self.dice,
                "percentile": self.percentile, "method": self.method,
                "sentence": luck_sentence(self),
                "luckiest": self.luckiest.to_json() if self.luckiest else None,
                "unluckiest": self.unluckiest.to_json() if self.unluckiest else None}


def outcome_distribution(request: DiceRequest, luck: Luck) -> tuple[Fraction, ...]:
    """Exact P(measure = k), k = 0, 1, ..., of ``request``'s dice under fair dice."""
    n = request.count
    if luck.measure == SUCCESSES:
        target = _target(request, luck)
        return _binomial(n, Fraction(max(0, min(6, 7 - (target or 7))), 6))
    if luck.measure == TOTAL:
        return _dice_sum(n)
    if luck.measure == D3_VALUE:
        return _dice_sum(n, D3_SIDES)
    if luck.measure == DISTINCT:
        return _distinct_pmf(n)
    if luck.measure in (MATCHES, DAMAGE):
        return _matches_pmf(n, tuple(sorted(luck.against)))
    raise ValueError(f"no distribution for the measure {luck.measure!r}")


def measure_of(dice: Dice, request: DiceRequest, luck: Luck) -> int | None:
    """The value of ``luck``'s measure for the rolled ``dice`` (``None`` when the
    answer does not tell it: a count of successes for anything but successes, or
    successes of a roll without a target)."""
    if luck.measure == SUCCESSES:
        target = _target(request, luck)
        if target is None or (dice.successes is not None and luck.target is not None):
            return None
        return dice.count(target)
    if not dice.faces:
        return None
    if luck.measure == TOTAL:
        return sum(dice.faces)
    if luck.measure == D3_VALUE:
        return sum(D3[face] for face in dice.faces)
    if luck.measure == DISTINCT:
        return len(set(dice.faces))
    if luck.measure in (MATCHES, DAMAGE):
        shown = set(dice.faces)
        return sum(1 for face in luck.against if face in shown)
    raise ValueError(f"no measure {luck.measure!r}")


def _target(request: DiceRequest, luck: Luck) -> int | None:
    return luck.target if luck.target is not None else request.target


def judge(request: DiceRequest, dice: Dice, event: int) -> RollLuck | None:
    """The luck of one answered roll, for its ``side``; ``None`` for a roll nobody in
    particular made, one not judged, or one whose outcome was certain (it tells
    nothing of luck: a 7+ that nothing reaches, a match against no dice)."""
    luck = luck_of(request)
    if request.side is None or luck.measure == UNJUDGED or request.count <= 0:
        return None
    outcome = measure_of(dice, request, luck)
    if outcome is None:
        return None
    dist = outcome_distribution(request, luck)
    if sum(1 for p in dist if p) < 2:
        return None
    ranks = _mid_ranks(dist, luck.more)
    same = dist[outcome]
    rank = ranks[outcome]
    spread = tuple((r, float(p)) for r, p in zip(ranks, dist, strict=True) if p)
    return RollLuck(event, request.side, request.purpose, request.rule, request.count,
                    dice.faces, luck.measure, luck.more, outcome,
                    float(1 - rank + same / 2), float(rank), spread, rank)


def _mid_ranks(dist: Sequence[Fraction], more: bool) -> list[Fraction]:
    """The exact mid-rank of every outcome: P(worse) + P(same) / 2, where worse is
    less when ``more`` is better, and more otherwise."""
    order = range(len(dist)) if more else range(len(dist) - 1, -1, -1)
    ranks = [Fraction(0)] * len(dist)
    below = Fraction(0)
    for k in order:
        ranks[k] = below + dist[k] / 2
        below += dist[k]
    return ranks


def side_luck(side: str, rolls: Sequence[RollLuck]) -> SideLuck:
    """One player's luck from their judged ``rolls``."""
    if not rolls:
        return SideLuck(side, 0, 0, 50.0, "none")
    exact = _exact_percentile(rolls)
    percentile, method = (exact, "exact") if exact is not None else (_normal(rolls), "normal")
    return SideLuck(side, len(rolls), sum(r.dice for r in rolls), percentile, method,
                    min(rolls, key=lambda r: r.p_at_least),
                    min(rolls, key=lambda r: r.p_at_most))


def _exact_percentile(rolls: Sequence[RollLuck]) -> float | None:
    """Where the sum of the rolls' mid-ranks falls among the sums fair dice give, by
    convolving the rolls' mid-rank distributions; ``None`` when that would take more
    than :data:`EXACT_WORK` steps.

    A mid-rank of a roll of n dice is a multiple of 1 / (2 * 6**n), so every sum is an
    exact whole number of 1 / (2 * 6**most dice): ties are found exactly."""
    scale = 2 * 6 ** max(r.dice for r in rolls)
    sums: dict[int, float] = {0: 1.0}
    work = 0
    ahead = sum(len(r.spread) for r in rolls)
    for r in rolls:
        # The sums kept never get fewer, so the work left is at least this much: give
        # up at once when even that would go past the limit.
        if work + len(sums) * ahead > EXACT_WORK:
            return None
        work += len(sums) * len(r.spread)
        ahead -= len(r.spread)
        steps = [(int(rank * scale), p) for rank, p in r.spread]
        out: dict[int, float] = {}
        for s, p in sums.items():
            for k, q in steps:
                out[s + k] = out.get(s + k, 0.0) + p * q
        sums = out
    key = sum(int(r.exact_rank * scale) for r in rolls)
    below = sum(p for s, p in sums.items() if s < key)
    return 100.0 * (below + sums.get(key, 0.0) / 2)


def _normal(rolls: Sequence[RollLuck]) -> float:
    """The percentile from the normal distribution with the sum's exact mean (half
    the number of rolls) and variance."""
    variance = sum(r.variance for r in rolls)
    if variance <= 0:
        return 50.0
    z = (sum(r.rank for r in rolls) - len(rolls) / 2) / math.sqrt(variance)
    return 100.0 * 0.5 * (1 + math.erf(z / math.sqrt(2)))


def luck_sentence(luck: SideLuck) -> str:
    """"Red's dice were in the 12th percentile (34 rolls)."" """
    name = side_name(luck.side)
    if not luck.rolls:
        return f"{name} rolled no judged dice."
    n = min(99, max(1, math.floor(luck.percentile)))
    return (f"{name}'s dice were in the {_ordinal(n)} percentile "
            f"({luck.rolls} roll{'s' if luck.rolls != 1 else ''}, "
            f"{luck.dice} {'dice' if luck.dice != 1 else 'die'}).")


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@lru_cache(maxsize=256)
def _binomial(n: int, p: Fraction) -> tuple[Fraction, ...]:
    """Exact P(k successes of n dice), each succeeding with chance ``p``."""
    return tuple(math.comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1))


@lru_cache(maxsize=256)
def _dice_sum(n: int, sides: int = 6) -> tuple[Fraction, ...]:
    """Exact P(total = t) of n fair dice of ``sides`` faces 1..sides, t = 0..n*sides."""
    ways = [1]
    for _ in range(n):
        ways = [sum(ways[t - f] for f in range(1, sides + 1) if 0 <= t - f < len(ways))
                for t in range(len(ways) + sides)]
    return tuple(Fraction(w, sides ** n) for w in ways)


@lru_cache(maxsize=256)
def _distinct_pmf(n: int) -> tuple[Fraction, ...]:
    """P(exactly k different faces among n dice), k = 0..6 (exact)."""
    total = Fraction(1, 6 ** n) if n else Fraction(1)
    return tuple(math.comb(6, k) * _onto(n, k) * total for k in range(7))


@lru_cache(maxsize=4096)
def _onto(n: int, k: int) -> int:
    """Ways n distinct dice show exactly a given set of k faces (surjections)."""
    return sum((-1) ** j * math.comb(k, j) * (k - j) ** n for j in range(k + 1))


@lru_cache(maxsize=1024)
def _matches_pmf(n: int, against: tuple[int, ...]) -> tuple[Fraction, ...]:
    """P(exactly m of the ``against`` dice show a face among n fair dice' faces)."""
    out = [Fraction(0)] * (len(against) + 1)
    total = Fraction(1, 6 ** n) if n else Fraction(1)
    for k in range(0, min(n, 6) + 1):
        for shown in combinations(range(1, 7), k):
            m = sum(1 for face in against if face in shown)
            out[m] += _onto(n, k) * total
    return tuple(out)

"""Small exact-in-floats helpers for dice distributions (stdlib only, no I/O).

Everything here works on plain lists of floats indexed by outcome (``dist[k]`` is the
probability of ``k``). They are the building blocks of the odds previews; the
tests check them against exact :class:`fractions.Fraction` arithmetic.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

_COMB_LIMIT = 1000
"""Above this many trials ``float(math.comb(n, k))`` may overflow: use lgamma."""


def p_success(target: int) -> float:
    """Chance that one D6 shows ``target`` or more (DZ3-R7: 7+ never succeeds)."""
    if target > 6:
        return 0.0
    if target <= 1:
        return 1.0
    return (7 - target) / 6


def binomial_pmf(n: int, p: float) -> list[float]:
    """``[P(X = 0), ..., P(X = n)]`` for ``X ~ Binomial(n, p)``.

    Each term is computed directly (``C(n, k) p^k (1-p)^(n-k)``), so the error of one
    term does not feed the next: a few ulps per term.
    """
    if n < 0:
        raise ValueError("n must be >= 0")
    if p <= 0.0:
        return [1.0] + [0.0] * n
    if p >= 1.0:
        return [0.0] * n + [1.0]
    q = 1.0 - p
    if n <= _COMB_LIMIT:
        return [math.comb(n, k) * p**k * q ** (n - k) for k in range(n + 1)]
    lp, lq, ln = math.log(p), math.log(q), math.lgamma(n + 1)
    return [
        math.exp(ln - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * lp + (n - k) * lq)
        for k in range(n + 1)
    ]


def capped_binomial_rows(p: float, max_trials: int, cap: int) -> list[list[float]]:
    """Rows ``m = 0..max_trials`` of ``min(Binomial(m, p), cap)``.

    ``rows[m][k]`` is ``P(X = k)`` for ``k < cap`` and ``rows[m][cap]`` is
    ``P(X >= cap)``. Built by Pascal's recurrence on the capped row, which only adds
    non-negative terms (numerically stable) and costs ``O(max_trials * cap)``.
    """
    if cap < 0 or max_trials < 0:
        raise ValueError("cap and max_trials must be >= 0")
    q = 1.0 - p
    row = [1.0] + [0.0] * cap
    rows = [row]
    if cap == 0:
        return [[1.0] for _ in range(max_trials + 1)]
    for _ in range(max_trials):
        new = [0.0] * (cap + 1)
        new[0] = row[0] * q
        for k in range(1, cap):
            new[k] = row[k] * q + row[k - 1] * p
        new[cap] = row[cap] + row[cap - 1] * p
        rows.append(new)
        row = new
    return rows


def binomial_pgf(n: int, p: float, r: float) -> float:
    """``E[r^X]`` for ``X ~ Binomial(n, p)``: ``(1 - p + p r)^n``."""
    return (1.0 - p + p * r) ** n


def convolve(a: Sequence[float], b: Sequence[float]) -> list[float]:
    """Distribution of the sum of two independent counts."""
    if not a or not b:
        return []
    out = [0.0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def sum_of(dists: Iterable[Sequence[float]]) -> list[float]:
    """The distribution of a sum of independent counts, each given as a distribution."""
    total = [1.0]
    for dist in dists:
        total = convolve(total, dist)
    return total


def dice_sum_pmf(n: int, sides: int = 6) -> list[float]:
    """``[P(S = 0), ..., P(S = n * sides)]`` for ``S`` the pips of ``n`` dice."""
    if n < 0:
        raise ValueError("n must be >= 0")
    return sum_of([[0.0] + [1.0 / sides] * sides] * n)


def mean(dist: Sequence[float]) -> float:
    return math.fsum(k * p for k, p in enumerate(dist))


def at_least_one_of(n: int, p: float) -> float:
    """Chance that at least one of ``n`` dice succeeds, each with chance ``p``."""
    return 1.0 - (1.0 - p) ** n if n > 0 else 0.0


# --- reading units for the odds ------------------------------------------------


def carried_weapons(unit: Any) -> list[str]:
    """The weapon ids a unit's figures carry (a model ``Unit`` or a ``UnitState``),
    in order of first appearance: the weapons an odds preview offers."""
    seen: list[str] = []
    for fig in unit.figures:
        for wid in fig.weapons:
            if wid not in seen:
                seen.append(wid)
    return seen

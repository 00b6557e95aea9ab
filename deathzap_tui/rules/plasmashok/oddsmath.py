"""The dice maths of Deathzap Plasmashok's exact odds: blocking dice, matching dice,
shield saves and the models the wounds remove. Pure stdlib, no I/O; :mod:`.odds`
reads the engine's facts and builds the :class:`~deathzap_tui.rules.odds.Odds`.

**Shooting and melee** (PS §5, §6): weapon groups of one unit at one target. A group
rolls ``dice`` attack dice; the target rolls ``defence`` defence dice and every attack
die showing a face that any defence die shows is blocked (PS §5 step 2). Each
unblocked die becomes ``strength`` strength dice (step 3); the target rolls ``size``
size dice and every strength die whose face any size die shows deals ``damage``
points (step 4); one shield save per point at ``save``+, each failure one wound
(step 5; :data:`tables.NO_SAVE`: no save). Every group at the same target shares the
one defence roll and the one size roll (app reading 6).

The dice of one attack are not independent (one defence die blocks many attack dice),
but given the number ``b`` of distinct faces among the defence dice each attack die is
unblocked on its own with chance ``(6 - b) / 6``, and given the number ``c`` of
distinct faces among the size dice each strength die matches with chance ``c / 6``.
``P(b distinct faces among k dice) = C(6, b) S(k, b) b! / 6^k`` (``S``: Stirling
numbers of the second kind), so the answer is a mixture over ``(b, c)`` of binomials,
the groups' damage convolved inside each ``(b, c)``. Wounds are ``Binomial(damage,
(save - 1) / 6)``.

Once some faces are known (the panel, after each roll), the distinct count is not
enough: what is blocked depends on *which* faces the defence dice show. The unknown
roll is then enumerated as a set of faces (64 sets, each set of ``b`` faces having
chance ``P(b) / C(6, b)``).

**Special combat** (PS §4): the attacker rolls ``dice``, the defender ``defence`` (its
special-combat value + 2); every attack die whose face no defence die shows is one
wound, no saves (app reading 5).

**Casualties** (app reading 1): wounds go first on the partly wounded model, so a
target of ``models`` models of ``per_model`` wounds, ``wounded`` wounds on one model and
``pending`` wounds waiting this bracket (PS §3) loses ``min(models, (wounded + pending
+ w) // per_model)`` models in all for ``w`` new wounds; :func:`casualties_from_wounds`
counts those beyond what ``pending`` alone removes.

Method: exact distributions in floats, no sampling; the tests check them against
enumeration of every die in exact fractions and a seeded Monte Carlo of the engine.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from deathzap_tui.rules.distributions import binomial_pmf, mean
from deathzap_tui.rules.narration import plural
from deathzap_tui.rules.plasmashok import tables

SIDES = 6
FULL = (1 << SIDES) - 1
"""The set of every face, as a bit mask (face ``f`` is bit ``f - 1``)."""

COMB_LIMIT = 1000
"""Rows of more trials than this go to :func:`binomial_pmf` (``C(n, k)`` overflows a
float beyond about 1020)."""


@dataclass(frozen=True)
class Group:
    """One weapon group at one target (PS §5): ``dice`` attack dice in all, each
    unblocked die ``strength`` strength dice, each match ``damage`` points."""

    dice: int
    strength: int
    damage: int
    label: str = ""

    def __post_init__(self) -> None:
        for name, value in (("attack dice", self.dice), ("strength", self.strength),
                            ("damage", self.damage)):
            if value < 0:
                raise ValueError(f"a weapon group's {name} must be 0 or more, not {value} "
                                 "(PS §5)")


def work(groups: Sequence[Group]) -> int:
    """What an exact answer costs, about a microsecond per unit on a 2-core box with
    no row cached (``benchmarks/odds.py``): attack dice x strength dice, the matches
    of every possible number of unblocked dice (PS §5 steps 2-4), three times over
    for groups of different damage (their damage is convolved in every defence and
    size case, app reading 6); and the shield saves, a row per possible number of
    points of damage (step 5: the damage points squared, these cheaper steps counted
    at a twelfth)."""
    dice = sum(g.dice for g in groups)
    matches = max(1, dice) * max(1, sum(g.dice * g.strength for g in groups))
    top = sum(g.dice * g.strength * g.damage for g in groups)
    return matches * (1 if len({g.damage for g in groups}) < 2 else 3) + top * top // 12


# --------------------------------------------------------------------------- dice
@cache
def _stirling2(n: int, k: int) -> int:
    """Ways to split ``n`` dice into ``k`` non-empty groups (Stirling numbers of the
    second kind)."""
    if n == k:
        return 1
    if n == 0 or k == 0:
        return 0
    return k * _stirling2(n - 1, k) + _stirling2(n - 1, k - 1)


@cache
def distinct_faces(dice: int) -> tuple[float, ...]:
    """``P(b distinct faces among dice D6)`` for ``b = 0..6``: ``C(6, b) S(dice, b)
    b! / 6^dice``, each term an exact integer ratio rounded once."""
    if dice < 0:
        raise ValueError("dice are 0 or more")
    return tuple(math.comb(SIDES, b) * _stirling2(dice, b) * math.factorial(b)
                 / SIDES**dice for b in range(SIDES + 1))


def mask_of(faces: Sequence[int]) -> int:
    """The set of faces shown, as a bit mask; refuses a face that is not 1..6."""
    mask = 0
    for f in faces:
        if not 1 <= int(f) <= SIDES:
            raise ValueError(f"a D6 shows 1 to 6, not {f}")
        mask |= 1 << (int(f) - 1)
    return mask


def _hits_in(faces: Sequence[int], mask: int) -> int:
    """How many of ``faces`` show a face of the set ``mask``."""
    return sum(1 for f in faces if mask >> (int(f) - 1) & 1)


def _face_cases(dice: int, known: Sequence[int] | None, by_set: bool,
                ) -> list[tuple[float, int, int]]:
    """The possible rolls of ``dice`` dice as ``(chance, set of faces, distinct
    faces)``: the ``known`` faces; else every set of faces (``by_set``: other dice
    already known depend on which faces); else only the number of distinct faces
    (set ``-1``: not needed)."""
    if known is not None:
        mask = mask_of(known)
        return [(1.0, mask, mask.bit_count())]
    dist = distinct_faces(dice)
    if by_set:
        return [(dist[m.bit_count()] / math.comb(SIDES, m.bit_count()), m, m.bit_count())
                for m in range(FULL + 1) if dist[m.bit_count()]]
    return [(p, -1, b) for b, p in enumerate(dist) if p]


@lru_cache(maxsize=4096)
def _binomial(n: int, sixths: int) -> tuple[float, ...]:
    """``Binomial(n, sixths / 6)``, cached: the panel asks for the same rows after
    every roll. Coefficients by the float recurrence ``C(n, k+1) = C(n, k) (n - k) /
    (k + 1)`` (a relative error of about ``k`` ulps), far cheaper than exact
    integers; :func:`binomial_pmf` beyond the float range."""
    if n > COMB_LIMIT or sixths in (0, SIDES):
        return tuple(binomial_pmf(n, sixths / SIDES))
    p = sixths / SIDES
    q = 1.0 - p
    out = []
    coefficient = 1.0
    for k in range(n + 1):
        out.append(coefficient * p**k * q ** (n - k))
        coefficient = coefficient * (n - k) / (k + 1)
    return tuple(out)


def clear_cache() -> None:
    """Forget the cached binomial rows: the next answer is worked out cold, as the
    panel's first refresh of an attack is (``benchmarks/odds.py``)."""
    _binomial.cache_clear()


def point(k: int, top: int | None = None) -> list[float]:
    """The distribution certain to be ``k``, indexed ``0..top`` (default ``k``)."""
    return [0.0] * k + [1.0] + [0.0] * ((k if top is None else top) - k)


def _add_scaled(total: Sequence[float], dist: Sequence[float], factor: int) -> list[float]:
    """The distribution of ``T + factor x X`` for independent ``T ~ total`` and
    ``X ~ dist``; zeros (most values of a scaled distribution) are skipped."""
    out = [0.0] * (len(total) + (len(dist) - 1) * factor)
    steps = [(k * factor, p) for k, p in enumerate(dist) if p]
    for i, x in enumerate(total):
        if x:
            for j, y in steps:
                out[i + j] += x * y
    return out


def _mix(into: list[float], dist: Sequence[float], weight: float) -> None:
    for k, p in enumerate(dist):
        into[k] += weight * p


# --------------------------------------------------------------------------- shooting
def _faces_of(value: Sequence[Sequence[int]] | None, groups: int, what: str,
              ) -> list[list[int] | None]:
    """Per group, the faces known so far (``None``: not rolled yet)."""
    if value is None:
        return [None] * groups
    lists = [[int(f) for f in faces] for faces in value]
    for faces in lists:
        mask_of(faces)  # refuses a face that is not 1..6
    if len(lists) > groups:
        raise ValueError(f"{what}: faces for {len(lists)} groups, but {groups} fire")
    return [*lists, *([None] * (groups - len(lists)))]


def damage_dist(groups: Sequence[Group], defence: int, size: int, *,
                attack_faces: Sequence[Sequence[int]] | None = None,
                defence_faces: Sequence[int] | None = None,
                strength_faces: Sequence[Sequence[int]] | None = None,
                size_faces: Sequence[int] | None = None,
                ) -> tuple[list[float], float]:
    """The distribution of the points of damage of ``groups`` at one target (PS §5
    steps 1-4) and the expected hits (matching strength dice), given the faces rolled
    so far (per group for the attack and strength dice; groups not yet rolled are
    left out of the list's tail)."""
    attack = _faces_of(attack_faces, len(groups), "attack dice")
    strength = _faces_of(strength_faces, len(groups), "strength dice")
    for g, faces in zip(groups, attack, strict=True):
        if faces is not None and len(faces) != g.dice:
            raise ValueError(f"{len(faces)} attack faces for {g.dice} dice")
    damage = [0.0] * (sum(g.dice * g.strength * g.damage for g in groups) + 1)
    hits_mean = 0.0
    binomial = _binomial
    # Step 2: per defence case, each group's unblocked dice; cases giving the same
    # counts are merged.
    unblocked: dict[tuple[tuple[float, ...], ...], float] = {}
    by_set = any(f is not None for f in attack)
    for pd, dmask, b in _face_cases(defence, defence_faces, by_set):
        key = tuple(tuple(binomial(g.dice, SIDES - b)) if faces is None
                    else tuple(point(len(faces) - _hits_in(faces, dmask)))
                    for g, faces in zip(groups, attack, strict=True))
        unblocked[key] = unblocked.get(key, 0.0) + pd
    if len(groups) == 1 and len(unblocked) > 1:  # nothing shares the roll: mix it now
        mixed = [0.0] * (groups[0].dice + 1)
        for (u,), pu in unblocked.items():
            _mix(mixed, u, pu)
        unblocked = {(tuple(mixed),): 1.0}
    # Step 4: per size case, each group's matches given its unblocked dice; the
    # groups are independent given both cases.
    sizes = _face_cases(size, size_faces, any(f is not None for f in strength))
    for u_dists, pu in unblocked.items():
        for g, u, faces in zip(groups, u_dists, strength, strict=True):
            if faces is not None and len(faces) != (len(u) - 1) * g.strength:
                raise ValueError(f"{len(faces)} strength faces for {len(u) - 1} unblocked "
                                 f"dice of strength {g.strength}")
        for ps, smask, c in sizes:
            total: list[float] = [1.0]
            for g, u, faces in zip(groups, u_dists, strength, strict=True):
                if faces is not None:
                    m = point(_hits_in(faces, smask))
                else:
                    m = [0.0] * ((len(u) - 1) * g.strength + 1)
                    for n, pn in enumerate(u):
                        if pn:
                            _mix(m, binomial(n * g.strength, c), pn)
                hits_mean += pu * ps * mean(m)
                total = _add_scaled(total, m, g.damage)
            _mix(damage, total, pu * ps)
    return damage, hits_mean


def hits_of(groups: Sequence[Group], damage: Sequence[float]) -> list[float] | None:
    """The hits distribution from the damage one where every group deals the same
    damage per hit; ``None`` otherwise (only the mean is worked out)."""
    per_hit = {g.damage for g in groups}
    if len(per_hit) != 1 or 0 in per_hit:
        return None
    d = per_hit.pop()
    return list(damage[::d])


def wounds_from_damage(damage: Sequence[float], save: int) -> list[float]:
    """The wounds distribution: one save per point of ``damage`` at ``save``+, each
    failure a wound (PS §5 step 5); :data:`tables.NO_SAVE` (7+): every point."""
    fails = min(max(save, 1), tables.NO_SAVE) - 1  # in sixths: faces below the save
    if fails in (0, SIDES):  # every save made, or none
        return point(0, len(damage) - 1) if fails == 0 else list(damage)
    # The wounds' generating function is the damage's at (q + p z): by Horner's rule,
    # one product by (q + p z) per point of damage, no binomial row needed.
    p = fails / SIDES
    q = 1.0 - p
    out: list[float] = []
    for pd in reversed(damage):
        out = [q * a + p * b for a, b in zip([*out, 0.0], [0.0, *out], strict=True)]
        out[0] += pd
    return out


# --------------------------------------------------------------------------- special
def special_wounds(dice: int, defence: int, *, attack_faces: Sequence[int] | None = None,
                   defence_faces: Sequence[int] | None = None) -> list[float]:
    """PS §4: the wounds of ``dice`` attack dice against ``defence`` defence dice
    (every attack die whose face no defence die shows), given the faces known."""
    if attack_faces is not None and len(attack_faces) != dice:
        raise ValueError(f"{len(attack_faces)} attack faces for {dice} dice")
    if attack_faces is not None:
        mask_of(attack_faces)  # refuses a face that is not 1..6
    out = [0.0] * (dice + 1)
    for p, mask, b in _face_cases(defence, defence_faces, attack_faces is not None):
        if attack_faces is None:
            _mix(out, _binomial(dice, SIDES - b), p)
        else:
            out[dice - _hits_in(attack_faces, mask)] += p
    return out


# --------------------------------------------------------------------------- casualties
TARGET_NAMES = ("models", "wounds per model", "wounded", "pending")
"""What :func:`check_target` calls the four numbers of a target; ``deathzap odds``
passes its flags instead."""


def check_target(models: int, per_model: int, wounded: int, pending: int,
                 names: Sequence[str] = TARGET_NAMES) -> None:
    """Refuse a target that cannot be, naming the wrong number by ``names``: at least
    one model of at least one wound (PS §2), fewer wounds on the wounded model than
    would kill it (app reading 1), no negative pending wounds (PS §3)."""
    n_models, n_per_model, n_wounded, n_pending = names
    if models < 1:
        raise ValueError(f"{n_models} {models}: the target has at least 1 model")
    if per_model < 1:
        raise ValueError(f"{n_per_model} {per_model}: a model has at least 1 wound (PS §2)")
    if wounded < 0:
        raise ValueError(f"{n_wounded} {wounded}: wounds on a model are 0 or more")
    if wounded >= per_model:
        raise ValueError(f"{n_wounded} {wounded}: a model of {plural(per_model, 'wound')} "
                         f"with {wounded} would be dead (at most {per_model - 1})")
    if pending < 0:
        raise ValueError(f"{n_pending} {pending}: pending wounds are 0 or more (PS §3)")


def killed(models: int, per_model: int, wounded: int, wounds: int) -> int:
    """Models removed by ``wounds`` on a unit of ``models`` models of ``per_model``
    wounds, ``wounded`` already on one of them: the wounded model first, then whole
    models (app reading 1)."""
    return min(models, (wounded + wounds) // per_model)


def casualties_from_wounds(wounds: Sequence[float], models: int, per_model: int = 1,
                           wounded: int = 0, pending: int = 0) -> list[float]:
    """The models these ``wounds`` remove beyond those ``pending`` wounds already
    remove when the bracket ends (PS §3, app reading 1), indexed 0..the models left."""
    check_target(models, per_model, wounded, pending)
    before = killed(models, per_model, wounded, pending)
    out = [0.0] * (models - before + 1)
    for w, p in enumerate(wounds):
        out[killed(models, per_model, wounded, pending + w) - before] += p
    return out

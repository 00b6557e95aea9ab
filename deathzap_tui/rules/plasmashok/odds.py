"""Exact odds of a Deathzap Plasmashok attack: shooting, melee and special combat.
Pure stdlib, no I/O.

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

Once some faces are known (:func:`odds_from_facts` after each roll), the distinct
count is not enough: what is blocked depends on *which* faces the defence dice show.
The unknown roll is then enumerated as a set of faces (64 sets, each set of ``b``
faces having chance ``P(b) / C(6, b)``).

**Special combat** (PS §4): the attacker rolls ``dice``, the defender ``defence`` (its
special-combat value + 2); every attack die whose face no defence die shows is one
wound, no saves (app reading 5).

**Casualties** (app reading 1): wounds go first on the partly wounded model, so a
target of ``models`` models of ``per_model`` wounds, ``wounded`` wounds on one model and
``pending`` wounds waiting this bracket (PS §3) loses ``min(models, (wounded + pending
+ w) // per_model)`` models in all for ``w`` new wounds; ``casualties`` counts those
beyond what ``pending`` alone removes, ``figures`` the models the attack can still
kill.

Method: exact distributions in floats, no sampling; the tests check them against
enumeration of every die in exact fractions and a seeded Monte Carlo of the engine.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from deathzap_tui.rules.distributions import binomial_pmf, mean
from deathzap_tui.rules.odds import Odds, flag, refuse
from deathzap_tui.rules.plasmashok import tables

SIDES = 6
FULL = (1 << SIDES) - 1
"""The set of every face, as a bit mask (face ``f`` is bit ``f - 1``)."""

SHOOTING_STAGES = ("attack", "defence", "strength", "size", "saves", "done")
"""``facts["stage"]`` of a shooting or melee attack: the roll asked for next. Faces
are known for the rolls before it."""
SPECIAL_STAGES = ("attack", "defence", "done")
"""``facts["stage"]`` of a special-combat attack (PS §4)."""

COMB_LIMIT = 1000
"""Rows of more trials than this go to :func:`binomial_pmf` (``C(n, k)`` overflows a
float beyond about 1020)."""

NO_BREAK = {"break_text": "", "break_label": "", "break_removes": False}
"""Plasmashok has no after-effect of one attack: morale is tested at the end of the
turn (PS §7), on every casualty of the turn."""

PANEL_WORK = 15_000
"""The largest attack the odds panel works out, in attack dice x strength dice: 50
dice of strength 6 take about 20 ms on this machine, and the panel computes in the
key handler (``app/oddsview.py``). Larger: no odds shown. (A vehicle's three
weapons are about 2 ms, see ``benchmarks/odds.py``.)"""
CLI_WORK = 100_000
"""The largest attack ``deathzap odds`` works out (a couple of seconds)."""


@dataclass(frozen=True)
class Group:
    """One weapon group at one target (PS §5): ``dice`` attack dice in all, each
    unblocked die ``strength`` strength dice, each match ``damage`` points."""

    dice: int
    strength: int
    damage: int
    label: str = ""

    def __post_init__(self) -> None:
        if self.dice < 0 or self.strength < 0 or self.damage < 0:
            raise ValueError("attack dice, strength and damage are 0 or more (PS §5)")


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


def _point(k: int) -> list[float]:
    return [0.0] * k + [1.0]


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
def _faces_of(value: Any, groups: int, what: str) -> list[list[int] | None]:
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
                    else tuple(_point(len(faces) - _hits_in(faces, dmask)))
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
                    m = _point(_hits_in(faces, smask))
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
    out = [0.0] * len(damage)
    for d, pd in enumerate(damage):
        if pd:
            _mix(out, _binomial(d, fails), pd)
    return out


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


def check_target(models: int, per_model: int, wounded: int, pending: int) -> None:
    if models < 1:
        raise ValueError("the target has at least 1 model")
    if per_model < 1:
        raise ValueError("a model has at least 1 wound (PS §2)")
    if not 0 <= wounded < per_model:
        raise ValueError(f"{wounded} wounds on a model of {per_model} wounds: it would be "
                         "dead (wounded runs 0 to wounds per model - 1)")
    if pending < 0:
        raise ValueError("pending wounds are 0 or more")


def _odds(kind: str, hits: Sequence[float] | None, hits_mean: float,
          damage: Sequence[float] | None, wounds: Sequence[float],
          target: tuple[int, int, int, int]) -> Odds:
    casualties = casualties_from_wounds(wounds, *target)
    return Odds(kind=kind, figures=len(casualties) - 1, casualties=tuple(casualties),
                hits=None if hits is None else tuple(hits), hits_mean=hits_mean,
                damage_mean=mean(damage) if damage is not None else 0.0,
                damage_step=False, damage=None if damage is None else tuple(damage),
                wounds=tuple(wounds), **NO_BREAK)


def shooting_odds(groups: Group | Sequence[Group], defence: int, size: int, save: int,
                  models: int, per_model: int = 1, wounded: int = 0, pending: int = 0, *,
                  kind: str = "shooting",
                  attack_faces: Sequence[Sequence[int]] | None = None,
                  defence_faces: Sequence[int] | None = None,
                  strength_faces: Sequence[Sequence[int]] | None = None,
                  size_faces: Sequence[int] | None = None,
                  damage: int | None = None, wounds: int | None = None) -> Odds:
    """Exact odds of weapon groups at one target (PS §5; melee, PS §6, is the same
    with ``kind="melee"``), given whatever dice are known: faces per group
    (``attack_faces``, ``strength_faces``), the target's faces (``defence_faces``,
    ``size_faces``), the points of ``damage`` once the size dice are in and the
    ``wounds`` once the saves are. ``models``, ``per_model``, ``wounded`` and
    ``pending`` describe the target for the casualties (app reading 1)."""
    group = [groups] if isinstance(groups, Group) else list(groups)
    if not group:
        raise ValueError("no weapon group fires")
    if defence < 0 or size < 0:
        raise ValueError("defence and size dice are 0 or more (PS §5)")
    if not 2 <= save <= tables.NO_SAVE:
        raise ValueError(f"a shield save is 2+ to {tables.NO_SAVE}+ ({tables.NO_SAVE}: no "
                         f"save), not {save}+ (PS §2, §9)")
    check_target(models, per_model, wounded, pending)
    dmg, hits_mean = damage_dist(group, defence, size, attack_faces=attack_faces,
                                 defence_faces=defence_faces,
                                 strength_faces=strength_faces, size_faces=size_faces)
    hits = hits_of(group, dmg)
    if damage is not None:
        if not 0 <= damage < len(dmg):
            raise ValueError(f"{damage} damage is impossible: at most {len(dmg) - 1}")
        dmg = _point(damage) + [0.0] * (len(dmg) - 1 - damage)
    if wounds is not None:
        top = len(dmg) - 1 if damage is None else damage
        if not 0 <= wounds <= top:
            raise ValueError(f"{wounds} wounds is impossible: at most {top}")
        wound_dist = _point(wounds) + [0.0] * (len(dmg) - 1 - wounds)
    else:
        wound_dist = wounds_from_damage(dmg, save)
    return _odds(kind, hits, hits_mean, dmg, wound_dist, (models, per_model, wounded,
                                                          pending))


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


def special_odds(dice: int, defence: int, models: int, per_model: int = 1,
                 wounded: int = 0, pending: int = 0, *,
                 attack_faces: Sequence[int] | None = None,
                 defence_faces: Sequence[int] | None = None,
                 wounds: int | None = None) -> Odds:
    """Exact odds of a special-combat attack (PS §4): the unblocked attack dice are the
    wounds (no damage step, no saves: app reading 5), shown as ``wounds`` only
    (``hits_mean`` is their mean)."""
    if dice < 0 or defence < 0:
        raise ValueError("special-combat dice are 0 or more (PS §4)")
    check_target(models, per_model, wounded, pending)
    if wounds is not None:
        if not 0 <= wounds <= dice:
            raise ValueError(f"{wounds} wounds from {dice} dice is impossible")
        dist = _point(wounds) + [0.0] * (dice - wounds)
    else:
        dist = special_wounds(dice, defence, attack_faces=attack_faces,
                              defence_faces=defence_faces)
    return _odds("special", None, mean(dist), None, dist, (models, per_model, wounded,
                                                           pending))


# --------------------------------------------------------------------------- facts
def work(groups: Sequence[Group]) -> int:
    """What an exact answer costs: attack dice x strength dice (the matches of every
    possible number of unblocked dice, PS §5 steps 2-4)."""
    dice = sum(g.dice for g in groups)
    return max(1, dice) * max(1, sum(g.dice * g.strength for g in groups))


def _int(facts: Mapping[str, Any], key: str, default: int | None = None) -> int | None:
    value = facts.get(key)
    if value is None or isinstance(value, bool):
        return default
    return int(value)


def _stage(facts: Mapping[str, Any], stages: Sequence[str]) -> int:
    stage = facts.get("stage", stages[0])
    if stage not in stages:
        raise ValueError(f"unknown stage {stage!r}; expected one of {tuple(stages)}")
    return stages.index(stage)


def _known(facts: Mapping[str, Any], key: str, reached: int, stages: Sequence[str],
           roll: str, per_group: bool = False) -> Any:
    """``facts[key]`` once the stage is past the ``roll`` (its faces are in), else
    ``None``. A roll made group by group (``per_group``) is read from its own stage
    on: the groups already rolled are known, the list's tail is not yet there."""
    first = stages.index(roll) + (0 if per_group else 1)
    return facts.get(key) if reached >= first else None


def odds_from_facts(facts: Mapping[str, Any]) -> Odds | None:
    """Odds from the engine's ``ctx.facts["attack"]`` (the format is in the
    plugin's brief and ``combat``), conditioned on the rolls before its ``stage``
    (:data:`SHOOTING_STAGES`, :data:`SPECIAL_STAGES`) and on the groups already
    rolled at the attack and strength stages (one request per group). ``None`` for
    an attack too
    large to work out in the key handler (:data:`PANEL_WORK`)."""
    kind = facts.get("kind", "shooting")
    target = (_int(facts, "models", 1) or 0, _int(facts, "wounds_per_model", 1) or 0,
              _int(facts, "wounded", 0) or 0, _int(facts, "pending", 0) or 0)
    if kind == "special":
        at = _stage(facts, SPECIAL_STAGES)
        return special_odds(
            _int(facts, "dice", 0) or 0, _int(facts, "defence", 0) or 0, *target,
            attack_faces=_known(facts, "attack_faces", at, SPECIAL_STAGES, "attack"),
            defence_faces=_known(facts, "defence_faces", at, SPECIAL_STAGES, "defence"),
            wounds=_int(facts, "wounds") if SPECIAL_STAGES[at] == "done" else None)
    if kind not in ("shooting", "melee"):
        raise ValueError(f"unknown attack kind {kind!r}; expected shooting, melee or "
                         "special")
    at = _stage(facts, SHOOTING_STAGES)
    groups = [Group(int(g["dice"]), int(g["strength"]), int(g["damage"]),
                    str(g.get("weapon", ""))) for g in facts.get("groups") or ()]
    if work(groups) > PANEL_WORK:
        return None
    stage = SHOOTING_STAGES[at]
    return shooting_odds(
        groups, _int(facts, "defence", 0) or 0, _int(facts, "size", 0) or 0,
        _int(facts, "save", tables.NO_SAVE) or tables.NO_SAVE, *target, kind=kind,
        attack_faces=_known(facts, "attack_faces", at, SHOOTING_STAGES, "attack", True),
        defence_faces=_known(facts, "defence_faces", at, SHOOTING_STAGES, "defence"),
        strength_faces=_known(facts, "strength_faces", at, SHOOTING_STAGES, "strength",
                              True),
        size_faces=_known(facts, "size_faces", at, SHOOTING_STAGES, "size"),
        damage=_int(facts, "damage") if stage in ("saves", "done") else None,
        wounds=_int(facts, "wounds") if stage == "done" else None)


# --------------------------------------------------------------------------- cases
def _dice(n: int) -> str:
    return "1 die" if n == 1 else f"{n} dice"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def target_words(models: int, per_model: int, wounded: int, pending: int) -> str:
    """``6 models of 1 wound, 2 wounds pending this bracket (PS §3)``."""
    parts = [f"{_plural(models, 'model')} of {_plural(per_model, 'wound')}"]
    if wounded:
        parts.append(f"{wounded} on its wounded model (app reading 1)")
    if pending:
        parts.append(f"{_plural(pending, 'wound')} pending this bracket (PS §3)")
    return ", ".join(parts)


def save_words(save: int) -> str:
    return "no save" if save >= tables.NO_SAVE else f"save {save}+"


def group_line(group: Group) -> str:
    name = group.label or "Weapon group"
    return (f"  {name}: {_dice(group.dice)}, strength {group.strength}, damage "
            f"{group.damage}")


def shooting_case(groups: Sequence[Group], defence: int, size: int, save: int,
                  target: tuple[int, int, int, int], head: Sequence[str], *,
                  kind: str = "shooting", defence_why: str = "",
                  target_name: str = "") -> tuple[Odds, list[str]]:
    """``deathzap odds`` for weapon groups at one target (PS §5, §6): the odds and
    title lines. ``target`` is ``(models, wounds per model, wounded, pending)``.
    Raises ``ValueError`` naming the flag that is wrong."""
    for g in groups:
        if g.strength < 1 or g.damage < 1:
            raise ValueError("--strength and --damage are 1 or more (PS §5)")
    if size < 1:
        raise ValueError("--size: the target's size is 1 or more (PS §2)")
    if not 2 <= save <= tables.NO_SAVE:
        raise ValueError(f"--save {save}: a shield save is 2 to {tables.NO_SAVE} "
                         f"({tables.NO_SAVE}: no save, PS §2, §9)")
    _check_target_flags(*target)
    if work(groups) > CLI_WORK:
        raise ValueError("that attack is too large to work out exactly here: give fewer "
                         "attack dice or less strength")
    odds = shooting_odds(groups, defence, size, save, *target, kind=kind)
    why = f" ({defence_why})" if defence_why else ""
    who = f"{target_name}, " if target_name else ""
    return odds, [*head, *(group_line(g) for g in groups),
                  f"  Target: {who}{target_words(*target)}; {_dice(defence)} of defence"
                  f"{why}, {_dice(size)} of size, {save_words(save)}"]


def _check_target_flags(models: int, per_model: int, wounded: int, pending: int) -> None:
    """:func:`check_target` in the command's words."""
    if models < 1:
        raise ValueError("--models: the target has at least 1 model")
    if per_model < 1:
        raise ValueError("--wounds-per-model is 1 or more (PS §2)")
    if wounded >= per_model:
        raise ValueError(f"--wounded {wounded}: a model of {_plural(per_model, 'wound')} "
                         f"with {wounded} would be dead (at most {per_model - 1})")
    check_target(models, per_model, wounded, pending)


def special_case(dice: int, value: int, target: tuple[int, int, int, int],
                 head: str = "Special combat (PS §4)") -> tuple[Odds, list[str]]:
    """``deathzap odds`` for special combat (PS §4): ``dice`` attack dice against a
    defender of special-combat ``value`` (it rolls ``value`` + 2)."""
    _check_target_flags(*target)
    defence = value + tables.SPECIAL_DEFENCE_BONUS
    odds = special_odds(dice, defence, *target)
    return odds, [head,
                  f"  {_dice(dice)} against {_dice(defence)} ({value} + "
                  f"{tables.SPECIAL_DEFENCE_BONUS}); each attack die whose face the "
                  "defender does not show is a wound, no saves",
                  f"  Target: {target_words(*target)}"]


# --------------------------------------------------------------------------- force files
def _setting(settings: Mapping[str, Any], key: str, default: int) -> int:
    value = settings.get(key)
    return default if value is None else int(value)


def _carried(unit: Any) -> list[str]:
    """The weapon ids the unit's models carry, in order of first appearance."""
    return list(dict.fromkeys(w for m in unit.figures for w in m.weapons))


SHOOTING_ONLY = ("cover", "distance", "in_blast", "weapons")


def _shooting_groups(aforce: Any, aunit: Any, settings: Mapping[str, Any], models: int,
                     size: int) -> tuple[list[Group], list[str]]:
    """The groups of a unit firing every chosen weapon at a target of ``models``
    models and ``size`` (PS §5): Arc Weapon one die per point of size, Radius one
    per model in the blast (``in_blast``), a weapon whose ``range`` is shorter than
    ``distance`` holds fire (app reading 6). Returns the groups and notes."""
    carried = _carried(aunit)
    chosen = list(settings.get("weapons") or carried)
    if not chosen:
        raise ValueError(f"{aunit.name} carries no weapons to shoot (PS §5)")
    distance = int(settings["distance"])
    groups, notes = [], []
    for wid in chosen:
        if wid not in carried:
            raise ValueError(f"unit {aunit.name!r} carries no weapon {wid!r}; "
                             f"it carries: {', '.join(carried) or 'nothing'}")
        weapon = aforce.weapons[wid]
        guns = sum(m.weapons.count(wid) for m in aunit.figures)
        if weapon.range and distance > weapon.range:
            notes.append(f"  {weapon.name}: reaches {weapon.range}\", holds fire at "
                         f"{distance}\" (app reading 6)")
            continue
        if weapon.shots == tables.SHOTS_TARGET_SIZE:
            each = size
        elif weapon.shots == tables.SHOTS_RADIUS:
            blast = settings.get("in_blast")
            if blast is None:
                raise ValueError(f"{weapon.name} fires at every model near the aimed-at "
                                 "one: give --in-blast N, the target's models within "
                                 f"{tables.RADIUS_REACH}\" of it (PS §5, Radius)")
            if not 1 <= int(blast) <= models:
                raise ValueError(f"--in-blast {blast}: the target has {models} models")
            each = int(blast)
        else:
            each = int(weapon.shots)
        groups.append(Group(guns * each, weapon.strength, weapon.damage, weapon.name))
    if not groups:
        raise ValueError(f"no weapon of {aunit.name} reaches {distance}\" (PS-R2)")
    return groups, notes


def odds_cli(attacker: tuple[Any, Any], target: tuple[Any, Any],
             settings: Mapping[str, Any]) -> tuple[Odds, list[str]]:
    """``deathzap odds --attacker FILE:UNIT --target FILE:UNIT`` for Plasmashok forces
    (see ``Ruleset.odds_cli``). Shooting (PS §5) with every weapon the unit carries
    (or ``weapons``), needing ``cover`` and ``distance`` (and ``in_blast`` for a Radius
    Weapon); ``melee`` (PS §6) with the unit's melee profile; ``special_combat``
    (PS §4). The target: ``models`` (its living models, default all), ``wounded``,
    ``pending``; its type gives the wounds per model, defence, size and save. Raises
    ``ValueError`` saying what is wrong."""
    aforce, aunit = attacker
    _tforce, tunit = target
    stats = tables.TYPES[tunit.type]
    if settings.get("wounds_per_model") is not None:
        raise ValueError(f"--wounds-per-model: with force files the target's type gives "
                         f"it ({stats.name}: {stats.wounds}, PS §2); leave it out")
    models = _setting(settings, "models", len(tunit.figures))
    if not 1 <= models <= len(tunit.figures):
        raise ValueError(f"--models {models}: {tunit.name} has {len(tunit.figures)} models")
    spec = (models, stats.wounds, _setting(settings, "wounded", 0),
            _setting(settings, "pending", 0))
    size = models * stats.size
    if settings.get("special_combat"):
        refuse(settings, (*SHOOTING_ONLY, "melee"), "shooting or melee, not special "
               "combat (PS §4: cover and range do not matter)")
        if not aunit.special:
            raise ValueError(f"{aunit.name} has no special combat (PS §4)")
        return special_case(aunit.special, tunit.special, spec,
                            f"Special combat (PS §4): {aunit.name} at {tunit.name}")
    if settings.get("melee"):
        refuse(settings, SHOOTING_ONLY, "shooting (PS §5), not melee")
        if aunit.melee is None:
            raise ValueError(f"{aunit.name} cannot attack in melee: its force file gives "
                             f"no {', '.join(aunit.melee_missing) or 'melee profile'} "
                             "(PS-R1)")
        mine = len(aunit.figures) * tables.TYPES[aunit.type].size
        bonus = tables.melee_size_dice(size, mine)
        group = Group(len(aunit.figures) * aunit.melee.attacks, aunit.melee.strength,
                      aunit.melee.damage, "Melee")
        why = f"{stats.name} {stats.defence}" + (
            f" + {bonus} for size {size} against {mine} (PS §6)" if bonus else "")
        return shooting_case([group], stats.defence + bonus, size, tunit.save, spec,
                             [f"Melee (PS §6): {aunit.name} at {tunit.name}"],
                             kind="melee", defence_why=why, target_name=tunit.name)
    for key in ("cover", "distance"):
        if settings.get(key) is None:
            raise ValueError(f"missing {flag(key)} for shooting (PS §5 step 2)"
                             + (": open, soft or hard" if key == "cover" else ""))
    groups, notes = _shooting_groups(aforce, aunit, settings, models, size)
    cover, distance = str(settings["cover"]), int(settings["distance"])
    extra = tables.COVER_DICE[cover]
    far = tables.range_dice(distance)
    why = f"{stats.name} {stats.defence}"
    if extra:
        why += f" + {extra} {cover} cover"
    if far:
        why += f" + {far} for {distance}\""
    return shooting_case(groups, stats.defence + extra + far, size, tunit.save, spec,
                         [f"Shooting (PS §5): {aunit.name} at {tunit.name}", *notes],
                         defence_why=why, target_name=tunit.name)

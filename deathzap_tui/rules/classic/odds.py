"""Exact odds of a Deathzap Classic shooting or melee attack. Pure stdlib, no I/O.

**Shooting** (CL §5), one weapon group at one target (or several groups at one
target, whose casualties all come off together at the end of the phase, CL-R2):

* ``dice`` dice to hit at ``to_hit``+ (the cover's column; a panicked shooter hits only
  on a 6, CL §5). Auto-heavy rolls 6 dice per gun; Radius one die per gun for every
  figure in the blast (CL §5);
* each hit is saved at ``save``+ by the target's save group (CL-R3): :data:`SAFE`, the
  hit has no effect; :data:`DEAD`, no save. A failed save is a casualty, at most
  ``figures - pending`` of them (``pending``: casualties already waiting to come off
  this phase, CL-R2);
* **suppression**: when the pending casualties and these come off, a unit that took
  casualties rolls one D6 x (figures left) against one D6 x (figures killed); the unit
  is panicked if the killed product is strictly higher (CL §5). ``p_break`` is that
  chance, the unit still being there (a unit wiped out makes no roll).
* **ends panicked, any cause** (``p_break_any_cause``, given the target's type):
  suppression, or left a lone figure of a type that is then always panicked (CL §4:
  "1 figure infantry/beast/heavy infantry units are automatically panicked"), or
  panicked already; the unit still being there.

**Melee** (CL §6), one side's attack on the other side of one melee:

* each figure-type group of the attacking side rolls ``dice`` D6 (figures x melee
  attacks; a panicked unit is its own group, 1 attack each at power 6, CL §2) and
  scores ``floor(pips / power)`` hits; the side's hits are the sum over its groups;
* the hits are spread as evenly as possible over the defenders' figure types, the
  odd ones going to the first types; each hit is saved at that type's melee save
  (CL §2) and the casualties of a type are at most its figures;
* **end of melee**, when the other direction is known too (``reply``): each side
  rolls D6 x (its figures left + enemy figures it killed); the lower is panicked, a
  tie re-rolls (CL §6, CL-R4). ``p_break`` is the chance the defending side loses
  that roll (neither side wiped out); without ``reply`` it is unknown (``None``).
  With the defending unit's type, ``p_break_any_cause`` adds a lone figure left by
  the casualties (CL §4) and a unit panicked already, the attacker wiped out
  included (no roll then).

The engine (``combat``) describes the attack being resolved in ``ctx.facts``;
:func:`odds_from_facts` reads it, conditioning on the dice already rolled by its
``stage``: the roll being asked for next.

Method: exact distributions in floats (binomial rows, sums of dice by convolution),
no sampling; the tests check them against brute-force enumeration of every die in
exact fractions and against a seeded Monte Carlo of the engine.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import product
from typing import Any

from deathzap_tui.rules.classic import tables
from deathzap_tui.rules.distributions import (
    binomial_pmf,
    capped_binomial_rows,
    carried_weapons,
    dice_sum_pmf,
    mean,
    p_success,
    sum_of,
)
from deathzap_tui.rules.odds import Chance, Odds, flag, refuse
from deathzap_tui.rules.validation import MAX_MODELS_PER_UNIT, MAX_NUMBER

SAFE = tables.SAFE
DEAD = tables.DEAD

SHOOTING_STAGES = ("declared", "hit", "saves", "done")
"""``facts["stage"]`` of a shooting attack: the roll asked for next. The hits are
known from ``saves`` on, the failed saves at ``done``."""
MELEE_STAGES = ("declared", "saves", "done")
"""``facts["stage"]`` of a melee attack: the hits are known from ``saves`` on."""

FACES = range(1, 7)
"""The faces of a D6 (the opposed rolls of CL §4, §5 and §6 are one D6 a side)."""

SHOOTING_BREAK: dict[str, Any] = {"break_label": "panicked",
                                  "break_text": "panicked by suppression",
                                  "break_removes": False}
MELEE_BREAK: dict[str, Any] = {"break_label": "panicked",
                               "break_text": "loses the melee: panicked",
                               "break_removes": False}
"""What ``Odds.p_break`` means in Classic: the unit is panicked and stays (CL §5, §6)."""

ANY_CAUSE = "ends panicked, any cause"
"""``ClassicOdds.break_any_cause_text``: the whole chance of ending panicked."""


@dataclass(frozen=True, kw_only=True)
class ClassicOdds(Odds):
    """Classic odds: the core, and where the target's type is known the chance it ends
    the attack panicked from any cause (:func:`ends_panicked`)."""

    p_break_any_cause: float | None = None
    """Where ``p_break`` is one of several ways to the same after-effect: the chance
    the unit ends the attack with it from any cause (panicked by suppression or by
    losing the melee, or left a lone figure that is always panicked, CL §4), the unit
    still being there; ``None`` where unknown."""
    break_any_cause_text: str = ""
    """What :attr:`p_break_any_cause` is, in a few words (its ``P(...)`` row)."""
    break_any_cause_counts: str = ""
    """What :attr:`p_break_any_cause` counts, in a sentence (JSON
    ``p_break_any_cause_means``, the command's title lines)."""

    def break_asides(self) -> tuple[Chance, ...]:
        if self.p_break_any_cause is None:
            return ()
        return (Chance(f"P({self.break_any_cause_text})", "any cause",
                       self.p_break_any_cause, aside=True),)

    def json_extra(self) -> dict[str, Any]:
        if self.p_break_any_cause is None:
            return {}
        return {"p_break_any_cause": self.p_break_any_cause,
                "p_break_any_cause_means": self.break_any_cause_counts}


# --------------------------------------------------------------------------- rolls
def p_casualty(save: int) -> float:
    """Chance that one hit is a casualty: its save fails (CL §5). :data:`SAFE`: the hit
    has no effect; :data:`DEAD`: no save (CL-R3)."""
    if save == SAFE:
        return 0.0
    if save >= DEAD:
        return 1.0
    return 1.0 - p_success(save)


@cache
def p_product_higher(mine: int, theirs: int) -> float:
    """P(one D6 x ``theirs`` > one D6 x ``mine``), strictly: the opposed roll of
    suppression (CL §5), the end of a melee (CL §6) and merging (CL §4)."""
    wins = sum(1 for a, b in product(FACES, FACES) if b * theirs > a * mine)
    return wins / (len(FACES) ** 2)


def p_suppressed(figures_left: int, killed: int) -> float:
    """CL §5: the unit is panicked if D6 x ``killed`` beats D6 x ``figures_left``.
    No casualties, or none left: no roll."""
    if killed <= 0 or figures_left <= 0:
        return 0.0
    return p_product_higher(figures_left, killed)


def ends_panicked(type_id: str, panicked: bool, left: int, p_roll: float) -> float:
    """The chance a unit of ``type_id`` left with ``left`` figures ends an attack
    panicked, ``p_roll`` being the chance of the roll that panics it (suppression,
    CL §5; losing the melee, CL §6): none when it is wiped out, certain when it is
    ``panicked`` already or left a lone figure that is always panicked (CL §4)."""
    if left <= 0:
        return 0.0
    if panicked or tables.alone(type_id, left):
        return 1.0
    return p_roll


def any_cause_counts(type_id: str, roll: str, panicked: bool) -> str:
    """What ``ClassicOdds.p_break_any_cause`` counts for a unit of ``type_id``, ``roll`` the
    roll that panics it (CL §5, §6)."""
    name = tables.TYPES[type_id].name
    if panicked:
        return "panicked already, it stays so while a figure is left"
    if type_id in tables.ALWAYS_PANICKED_ALONE:
        return f"{roll} or a lone {name} figure left (CL §4)"
    return f"{roll} only (a lone {name} figure is not always panicked, CL §4)"


def p_loses_melee(mine: int, theirs: int) -> float:
    """CL §6: the side scoring ``mine`` (figures left + enemy killed) loses the end of
    melee roll against ``theirs``; a tie re-rolls (CL-R4)."""
    lose, win = p_product_higher(mine, theirs), p_product_higher(theirs, mine)
    return lose / (lose + win)


# --------------------------------------------------------------------------- shooting
@dataclass(frozen=True)
class Volley:
    """One weapon group firing at one target (CL §5)."""

    dice: int
    to_hit: int
    save: int
    """N+ per hit; :data:`SAFE` or :data:`DEAD` (CL-R3)."""
    label: str = ""

    def __post_init__(self) -> None:
        if self.dice < 0:
            raise ValueError("a weapon group rolls a non-negative number of dice")

    @property
    def p_hit(self) -> float:
        return p_success(self.to_hit)


def _point(k: int) -> list[float]:
    return [0.0] * k + [1.0]


def _capped(dist: Sequence[float], cap: int) -> list[float]:
    """``dist`` with every outcome at or above ``cap`` lumped into ``cap``."""
    out = list(dist[:cap + 1]) + [0.0] * max(0, cap + 1 - len(dist))
    if len(dist) > cap + 1:
        out[cap] = math.fsum(dist[cap:])
    return out


def shooting_odds(volleys: Volley | Sequence[Volley], figures: int, pending: int = 0, *,
                  hits: int | None = None, failed_saves: int | None = None,
                  target_type: str | None = None, target_panicked: bool = False) -> ClassicOdds:
    """Exact odds of weapon groups firing at a unit of ``figures`` living figures with
    ``pending`` casualties already waiting (CL §5, CL-R2).

    ``hits`` and ``failed_saves`` are the dice already rolled for the *first* group
    (``failed_saves`` needs ``hits``). ``Odds.figures`` is ``figures - pending``: the
    figures these shots can still kill. With ``target_type`` (and whether the target
    is panicked already) the odds carry the chance it ends panicked from any cause
    (:func:`ends_panicked`).
    """
    group = [volleys] if isinstance(volleys, Volley) else list(volleys)
    if not group:
        raise ValueError("no weapon group")
    if figures < 0 or not 0 <= pending <= figures:
        raise ValueError(f"{pending} pending casualties on {figures} figures is impossible")
    first = group[0]
    if hits is not None and not 0 <= hits <= first.dice:
        raise ValueError(f"{hits} hits from {first.dice} dice is impossible")
    if failed_saves is not None:
        if hits is None:
            raise ValueError("failed saves need the hits they were rolled for")
        if not 0 <= failed_saves <= hits:
            raise ValueError(f"{failed_saves} failed saves from {hits} hits is impossible")
        if failed_saves and first.save == SAFE:
            raise ValueError("a safe target fails no save (CL §5)")
    hit_dists, failed_dists = [], []
    for i, v in enumerate(group):
        known_hits, known_failed = (hits, failed_saves) if i == 0 else (None, None)
        pc = p_casualty(v.save)
        if known_hits is not None:
            hit_dists.append(_point(known_hits))
            failed_dists.append(_point(known_failed) if known_failed is not None
                                else binomial_pmf(known_hits, pc))
        else:
            hit_dists.append(binomial_pmf(v.dice, v.p_hit))
            failed_dists.append(binomial_pmf(v.dice, v.p_hit * pc))
    room = figures - pending
    casualties = _capped(sum_of(failed_dists), room)
    suppressed = [p_suppressed(room - c, pending + c) for c in range(room + 1)]
    p_break = math.fsum(p * q for p, q in zip(casualties, suppressed, strict=True))
    any_cause: dict[str, Any] = {}
    if target_type is not None:
        any_cause = {
            "p_break_any_cause": math.fsum(
                p * ends_panicked(target_type, target_panicked, room - c, suppressed[c])
                for c, p in enumerate(casualties)),
            "break_any_cause_text": ANY_CAUSE,
            "break_any_cause_counts": any_cause_counts(target_type, "suppression (CL §5)",
                                                       target_panicked)}
    hit_dist = sum_of(hit_dists)
    return ClassicOdds(kind="shooting", figures=room, casualties=tuple(casualties),
                hits=tuple(hit_dist), hits_mean=mean(hit_dist), damage_step=False,
                p_break=p_break, **SHOOTING_BREAK, **any_cause)


# --------------------------------------------------------------------------- melee
def group_hits(dice: int, power: int) -> list[float]:
    """One figure-type group's hits: ``floor(pips of dice D6 / power)`` (CL §6)."""
    if power < 1:
        raise ValueError("melee power is 1 or more (CL §2)")
    pips = dice_sum_pmf(dice)
    out = [0.0] * ((len(pips) - 1) // power + 1)
    for s, p in enumerate(pips):
        out[s // power] += p
    return out


def melee_hits(groups: Sequence[tuple[int, int]]) -> list[float]:
    """A side's hits: the sum over its ``(dice, power)`` groups (CL §6)."""
    return sum_of(group_hits(dice, power) for dice, power in groups)


def spread(hits: int, types: int) -> list[int]:
    """Hits per defending figure type, as even as possible, the odd hits to the first
    types (CL §6)."""
    if types <= 0:
        return []
    each, odd = divmod(hits, types)
    return [each + (i < odd) for i in range(types)]


def melee_casualties(hits: Sequence[float], defenders: Sequence[tuple[int, int]]) -> list[float]:
    """The casualty distribution on ``defenders`` (``(figures, save)`` per type) for the
    hits distribution ``hits``: spread over the types, saved per type, capped per
    type (CL §6)."""
    total = sum(f for f, _ in defenders)
    out = [0.0] * (total + 1)
    most = spread(len(hits) - 1, len(defenders))
    rows = [capped_binomial_rows(p_casualty(save), top, figures)
            for top, (figures, save) in zip(most, defenders, strict=True)]
    for h, ph in enumerate(hits):
        if not ph:
            continue
        dist = sum_of(row[n] for row, n in zip(rows, spread(h, len(defenders)),
                                                 strict=True))
        for c, p in enumerate(dist):
            out[c] += ph * p
    return out


def _check_melee(groups: Sequence[tuple[int, int]], defenders: Sequence[tuple[int, int]]) -> None:
    if not groups:
        raise ValueError("a melee attack needs the attacking figures (CL §6)")
    if not defenders:
        raise ValueError("a melee attack needs the defending figures (CL §6)")
    if any(dice < 0 or power < 1 for dice, power in groups):
        raise ValueError("melee dice are 0 or more and power 1 or more (CL §2)")
    if any(figures < 0 for figures, _ in defenders):
        raise ValueError("defending figures are 0 or more")


PANEL_WORK = 8_000
"""The largest melee the odds panel works out, in possible hits x defending figures:
about 15 ms on this machine, and the panel computes in the key handler (issue 4's
20 ms budget). A larger melee shows no odds rather than stalling the keys."""
CLI_WORK = 200_000
"""The largest melee ``deathzap odds`` works out (about half a second)."""
CLI_DICE = MAX_MODELS_PER_UNIT * MAX_NUMBER
"""The most dice to hit ``deathzap odds`` rolls for one shooting attack (about a
second): a force file's unit of at most 100 figures at most 999 dice each."""


def melee_work(groups: Sequence[tuple[int, int]], defenders: Sequence[tuple[int, int]],
               ) -> int:
    """What an exact melee answer costs: the most hits the attack can score (CL §6)
    times the defending figures."""
    return (sum(dice * 6 // max(power, 1) for dice, power in groups)
            * max(1, sum(figures for figures, _save in defenders)))


def melee_odds(groups: Sequence[tuple[int, int]], defenders: Sequence[tuple[int, int]], *,
               hits: int | None = None,
               reply: tuple[Sequence[tuple[int, int]], Sequence[tuple[int, int]]] | None = None,
               target: tuple[str, bool] | None = None) -> ClassicOdds:
    """Exact odds of one side's melee attack (CL §6): ``groups`` are its ``(dice,
    power)`` per figure type, ``defenders`` the other side's ``(figures, save)`` per
    type. ``hits``: already rolled.

    ``reply``: the other direction, ``(defenders' groups, attackers as defenders)``;
    with it ``p_break`` is the chance the defending side loses the end-of-melee roll
    (CL §6, CL-R4), both sides' dice being rolled at once. With ``reply`` and
    ``target``, the defenders being one unit ``(type, panicked already)``, the odds
    carry the chance it ends panicked from any cause (:func:`ends_panicked`).
    """
    _check_melee(groups, defenders)
    if hits is not None:
        top = sum(dice * len(FACES) // power for dice, power in groups)
        if not 0 <= hits <= top:
            raise ValueError(f"{hits} hits is impossible: at most {top} (CL §6)")
    hit_dist = _point(hits) if hits is not None else melee_hits(groups)
    casualties = melee_casualties(hit_dist, defenders)
    p_break = None
    any_cause: dict[str, Any] = {}
    if reply is not None:
        back_groups, back_defenders = reply
        _check_melee(back_groups, back_defenders)
        back = melee_casualties(melee_hits(back_groups), back_defenders)
        mine, theirs = len(casualties) - 1, len(back) - 1  # figures on each side
        # Each pair of casualties (x on the target, y on the attacker) with the
        # chance the target loses the end-of-melee roll: none when either side is
        # wiped out (no roll, CL §6).
        outcomes = [(x, px * py, p_loses_melee(mine - x + y, theirs - y + x)
                     if x < mine and y < theirs else 0.0)
                    for x, px in enumerate(casualties) if px
                    for y, py in enumerate(back) if py]
        p_break = math.fsum(p * lose for _x, p, lose in outcomes)
        if target is not None:
            type_id, panicked = target
            any_cause = {
                "p_break_any_cause": math.fsum(
                    p * ends_panicked(type_id, panicked, mine - x, lose)
                    for x, p, lose in outcomes),
                "break_any_cause_text": ANY_CAUSE,
                "break_any_cause_counts": any_cause_counts(
                    type_id, "losing the melee (CL §6)", panicked)}
    return ClassicOdds(kind="melee", figures=len(casualties) - 1, casualties=tuple(casualties),
                hits=tuple(hit_dist), hits_mean=mean(hit_dist), damage_step=False,
                p_break=p_break, **MELEE_BREAK, **any_cause)


# --------------------------------------------------------------------------- facts
def _known(facts: Mapping[str, Any], key: str) -> int | None:
    """``facts[key]`` as a number, ``None`` when it is not given."""
    value = facts.get(key)
    if value is None or isinstance(value, bool):
        return None
    return int(value)


def _int(facts: Mapping[str, Any], key: str, default: int) -> int:
    """``facts[key]`` as a number, ``default`` when it is not given."""
    value = _known(facts, key)
    return default if value is None else value


def _pairs(value: Any, key: str) -> list[tuple[int, int]]:
    try:
        return [(int(a), int(b)) for a, b in value or ()]
    except (TypeError, ValueError):
        raise ValueError(f"facts[{key!r}] is not a list of number pairs") from None


def odds_from_facts(facts: Mapping[str, Any]) -> ClassicOdds | None:
    """Odds from the engine's ``ctx.facts["attack"]`` (see ``combat``), given the dice
    rolled so far.

    Shooting: ``dice``, ``to_hit``, ``save`` (:data:`SAFE` / :data:`DEAD`),
    ``figures``, ``pending``, ``stage`` (:data:`SHOOTING_STAGES`), ``hits`` (from
    ``saves``), ``failed_saves`` (at ``done``), ``target_type`` and
    ``target_panicked`` (for the chance it ends panicked from any cause). Melee:
    ``groups`` (``[dice, power]`` per figure type), ``defenders`` (``[figures, save]``
    per type), ``stage`` (:data:`MELEE_STAGES`), ``hits`` (from ``saves``).
    """
    kind = facts.get("kind", "shooting")
    stage = facts.get("stage", "declared")
    if kind == "shooting":
        if stage not in SHOOTING_STAGES:
            raise ValueError(f"unknown stage {stage!r}; expected one of {SHOOTING_STAGES}")
        reached = SHOOTING_STAGES.index(stage)
        hits = _known(facts, "hits") if reached >= SHOOTING_STAGES.index("saves") else None
        failed = (_known(facts, "failed_saves") if stage == "done" and hits is not None
                  else None)
        volley = Volley(dice=_int(facts, "dice", 0), to_hit=_int(facts, "to_hit", 7),
                        save=_int(facts, "save", SAFE), label=str(facts.get("weapon", "")))
        target_type = facts.get("target_type")
        if target_type is not None and target_type not in tables.TYPES:
            raise ValueError(f"unknown target_type {target_type!r}; expected one of "
                             f"{', '.join(tables.TYPES)}")
        return shooting_odds(volley, _int(facts, "figures", 0), _int(facts, "pending", 0),
                             hits=hits, failed_saves=failed, target_type=target_type,
                             target_panicked=bool(facts.get("target_panicked")))
    if kind == "melee":
        if stage not in MELEE_STAGES:
            raise ValueError(f"unknown stage {stage!r}; expected one of {MELEE_STAGES}")
        hits = _known(facts, "hits") if stage != "declared" else None
        groups, defenders = _pairs(facts.get("groups"), "groups"), _pairs(
            facts.get("defenders"), "defenders")
        if melee_work(groups, defenders) > PANEL_WORK:
            return None
        return melee_odds(groups, defenders, hits=hits)
    raise ValueError(f"unknown attack kind {kind!r}; expected shooting or melee")


# --------------------------------------------------------------------------- cases
def _dice(n: int) -> str:
    return "1 die" if n == 1 else f"{n} dice"


def _figures(n: int, type_id: str) -> str:
    """``6 figures (Infantry)``."""
    return f"{n} figure{'' if n == 1 else 's'} ({tables.TYPES[type_id].name})"


def save_words(save: int) -> str:
    if save == SAFE:
        return "safe: no effect (CL §5)"
    if save >= DEAD:
        return "no save (CL §5)"
    return f"save {save}+"


def volley(weapon_class: str, guns: int, cover: str | None, target_type: str, *,
           in_blast: int | None = None, panicked: bool = False,
           label: str = "") -> tuple[Volley, str]:
    """The :class:`Volley` of ``guns`` guns of one CL §5 class at a ``target_type``
    target, and a line saying how its numbers were found. Raises ``ValueError``
    saying what is missing."""
    w = tables.WEAPONS[weapon_class]
    if w.radius:
        if in_blast is None:
            raise ValueError(f"{label or w.name} is a Radius weapon: give --in-blast N, "
                             f"the figures within {tables.RADIUS_INCHES}\" of its aiming "
                             "point (CL §5)")
        dice, how = guns * in_blast, f"{guns} x {in_blast} in the blast"
    else:
        dice, how = guns * w.dice_per_gun, (f"{guns} x {w.dice_per_gun}"
                                            if w.dice_per_gun > 1 else "")
    if panicked:
        to_hit, cover_words = tables.PANICKED_TO_HIT, "panicked: only on a 6"
    elif cover is None:
        raise ValueError("missing --cover (open, soft or hard) for shooting (CL §5)")
    else:
        to_hit, cover_words = w.to_hit[cover], f"{cover} cover"
    save = w.save[tables.SAVE_GROUP[target_type]]
    name = f"{label} ({w.name})" if label and label != w.name else w.name
    guns_words = "1 gun" if guns == 1 else f"{guns} guns"
    extra = f", {how}" if how else ""
    line = (f"  {name}: {guns_words}{extra}: {_dice(dice)} at {to_hit}+ ({cover_words}), "
            f"{save_words(save)}")
    return Volley(dice, to_hit, save, label or w.name), line


def target_line(type_id: str, figures: int, pending: int, name: str = "") -> str:
    who = f"{name}, " if name else ""
    waiting = (f", {pending} {'casualty' if pending == 1 else 'casualties'} already pending "
               "(CL-R2)" if pending else "")
    return (f"Target: {who}{_figures(figures, type_id)}{waiting}; suppression D6 x figures "
            "left vs D6 x figures killed (CL §5)")


def shooting_case(guns: Sequence[tuple[str, str, int]], target_type: str, figures: int, *,
                  cover: str | None, pending: int | None = None, in_blast: int | None = None,
                  panicked: bool = False, hits: int | None = None,
                  failed_saves: int | None = None,
                  target_name: str = "") -> tuple[ClassicOdds, list[str]]:
    """Weapon groups ``(label, weapon class, guns)`` firing at one target of
    ``figures`` living ``target_type`` figures (CL §5): the odds and a line per group
    and one for the target. Raises ``ValueError`` naming the flag that is wrong."""
    pending = pending or 0
    if figures < 1:
        raise ValueError("--figures: the target has at least 1 figure")
    if pending > figures:
        raise ValueError(f"--pending {pending} is more than the target's {figures} figures")
    if in_blast is not None:
        if not any(tables.WEAPONS[kind].radius for _, kind, _ in guns):
            raise ValueError("--in-blast is for a Radius weapon (CL §5); none fires here")
        if in_blast > figures:
            raise ValueError(f"--in-blast {in_blast} is more than the target's {figures} "
                             "figures")
    made = [volley(kind, n, cover, target_type, in_blast=in_blast, panicked=panicked,
                   label=label) for label, kind, n in guns]
    dice = sum(v.dice for v, _ in made)
    if dice > CLI_DICE:
        raise ValueError(f"that shooting is too large to work out exactly here: "
                         f"{dice} dice to hit, at most {CLI_DICE}; give fewer guns")
    odds = shooting_odds([v for v, _ in made], figures, pending, hits=hits,
                         failed_saves=failed_saves, target_type=target_type,
                         target_panicked=tables.alone(target_type, figures))
    return odds, [line for _, line in made] + [
        target_line(target_type, figures, pending, target_name), any_cause_line(odds)]


def any_cause_line(odds: ClassicOdds) -> str:
    """The title line saying what P(ends panicked, any cause) counts."""
    return f"  {ANY_CAUSE}: {odds.break_any_cause_counts}"


def melee_case(attacker: tuple[str, int, bool], target: tuple[str, int, bool],
               names: tuple[str, str] = ("", ""), hits: int | None = None,
               ) -> tuple[ClassicOdds, list[str]]:
    """One unit's melee attack on another, both directions rolled (CL §6):
    ``(type, figures, panicked)`` each. Returns the odds of the attack on ``target``
    (its casualties, and the chance it loses the melee) and title lines."""
    sides, panics = [], []
    for (type_id, figures, panicked), name in zip((attacker, target), names, strict=True):
        if figures < 1:
            raise ValueError("each side of a melee has at least 1 figure")
        stats = tables.TYPES[type_id]
        lone = tables.alone(type_id, figures)
        panicked = panicked or lone
        panics.append(panicked)
        if panicked:
            attacks, power = tables.PANICKED_MELEE_ATTACKS, tables.PANICKED_MELEE_POWER
        else:
            attacks, power = stats.melee_attacks, stats.melee_power
        why = (" (alone: always panicked, CL §4)" if lone else " (panicked, CL §2)"
               if panicked else "")
        who = f"{name}, " if name else ""
        sides.append(((figures * attacks, power), (figures, stats.save),
                      f"{who}{_figures(figures, type_id)}{why}: {_dice(figures * attacks)}, "
                      f"pips / {power}, save {stats.save}+"))
    (a_group, a_def, a_line), (t_group, t_def, t_line) = sides
    if max(melee_work([a_group], [t_def]), melee_work([t_group], [a_def])) > CLI_WORK:
        raise ValueError("that melee is too large to work out exactly here: give fewer "
                         "figures")
    odds = melee_odds([a_group], [t_def], hits=hits, reply=([t_group], [a_def]),
                      target=(target[0], panics[1]))
    lines = [f"Melee (CL §6): attacker {a_line}", f"  target {t_line}",
             "  end of melee: D6 x (figures left + enemy killed) each; the lower is "
             "panicked (CL §6), a tie re-rolls (CL-R4)", any_cause_line(odds)]
    return odds, lines


# --------------------------------------------------------------------------- force files
def _count(settings: Mapping[str, Any], key: str, default: int) -> int:
    """A figure count from the command line: at most the unit's ``default`` (all of
    its figures), since it counts the figures still living."""
    value = settings.get(key)
    if value is None:
        return default
    if not 0 <= int(value) <= default:
        raise ValueError(f"{flag(key)} {value}: the unit has {default} figures")
    return int(value)


MELEE_ONLY = ("target_panicked", "attacker_figures")
SHOOTING_ONLY = ("cover", "pending", "in_blast", "failed_saves", "weapons")


def odds_cli(attacker: tuple[Any, Any], target: tuple[Any, Any],
             settings: Mapping[str, Any]) -> tuple[ClassicOdds, list[str]]:
    """``deathzap odds --attacker FILE:UNIT --target FILE:UNIT`` for Classic forces
    (see ``Ruleset.odds_cli``). Settings read: ``melee``, ``cover``, ``weapons``
    (ids, default every gun the unit carries), ``figures`` (the target's living
    figures, default all), ``pending``, ``in_blast``, ``panicked`` (the attacker),
    ``target_panicked`` and ``attacker_figures`` (melee: the attacker's living
    figures, default all), ``hits``, ``failed_saves``. A lone figure (CL §4) is read
    from the living figures: the attacker's in melee, the file's when shooting (see
    below). Raises ``ValueError`` saying what is wrong."""
    aforce, aunit = attacker
    _tforce, tunit = target
    figures = _count(settings, "figures", len(tunit.figures))
    hits = settings.get("hits")
    if settings.get("melee"):
        refuse(settings, SHOOTING_ONLY, "shooting (CL §5), not melee")
        afigs = _count(settings, "attacker_figures", len(aunit.figures))
        odds, lines = melee_case((aunit.type, afigs, bool(settings.get("panicked"))),
                                 (tunit.type, figures, bool(settings.get("target_panicked"))),
                                 (aunit.name, tunit.name), hits)
        return odds, lines
    refuse(settings, MELEE_ONLY, "melee (CL §6), not shooting")
    # Shooting fires every gun the file's figures carry (which ones died is not
    # known), so the shooter is the whole unit as written, a lone figure only if the
    # file has one: the gun count and the lone test read the same figures (CL §4, §5).
    # A shrunken unit is described with bare numbers (--guns, --panicked).
    lone = tables.alone(aunit.type, len(aunit.figures))
    panicked = bool(settings.get("panicked")) or lone
    carried = carried_weapons(aunit)
    chosen = list(settings.get("weapons") or carried)
    if not chosen:
        raise ValueError(f"{aunit.name} carries no guns to shoot (CL §5)")
    guns = []
    for wid in chosen:
        if wid not in carried:
            raise ValueError(f"unit {aunit.name!r} carries no weapon {wid!r}; "
                             f"it carries: {', '.join(carried) or 'nothing'}")
        weapon = aforce.weapons[wid]
        guns.append((weapon.name, weapon.kind,
                     sum(fig.weapons.count(wid) for fig in aunit.figures)))
    odds, lines = shooting_case(
        guns, tunit.type, figures, cover=settings.get("cover"),
        pending=settings.get("pending"), in_blast=settings.get("in_blast"),
        panicked=panicked, hits=hits, failed_saves=settings.get("failed_saves"),
        target_name=tunit.name)
    alone = " (alone: always panicked, CL §4)" if lone and not settings.get("panicked") else ""
    head = f"Shooting (CL §5): {aunit.name}, {_figures(len(aunit.figures), aunit.type)}{alone}"
    return odds, [head, *lines]

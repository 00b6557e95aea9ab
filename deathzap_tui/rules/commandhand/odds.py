"""Exact odds of a Command Hand attack (CH §3-§5). Pure stdlib, no I/O.

The pipeline is shorter than Deathzap 3's (no to-hit roll, no saves, no morale):

* **to damage** — ``dice`` dice, each a success at ``to_damage``+ (CH §4: shots by
  range band and the weapon's number against the target's cover; CH §5 melee:
  figures x attacks at the unit's melee damage). **Aimed shots** re-roll each 1 once
  (CH §3.5): a die succeeds with ``p + p/6``;
* **damage** — one point per success, or with **Explosive** a D6 per success (CH §4);
* **shields then kills** — each point removes a shield; at 0 shields each point kills
  a figure (CH §4, no saving throw).

Because nothing but the total damage matters once the dice are down, several weapon
groups at one target are exact by convolving their damage distributions: with ``D``
the total, shields left are ``max(shields - D, 0)`` and kills ``min(figures,
max(D - shields, 0))``. The distributions are capped at ``shields + figures`` (more
damage changes nothing). Floats, no sampling; the tests check it against brute-force
enumeration in exact fractions.

The result is the shared :class:`~deathzap_tui.rules.odds.Odds` (the odds panel's
shape), with ``p_break`` ``None``: this edition has no morale.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from deathzap_tui.rules.commandhand import tables
from deathzap_tui.rules.distributions import binomial_pmf, carried_weapons, p_success
from deathzap_tui.rules.narration import plural
from deathzap_tui.rules.odds import Odds, at_most

D6 = [0.0] + [1 / 6] * 6
"""The distribution of one D6 (index = face)."""

STAGES = ("declared", "reroll", "damage", "casualties", "done")
"""``facts["stage"]`` (see :mod:`.combat`): ``reroll`` while aimed 1s are re-rolled,
``damage`` once the to-damage dice (re-rolls included) are known, ``casualties`` once
the damage is."""


@dataclass(frozen=True)
class Attack:
    """One weapon group's shots (CH §4) or a unit's melee attacks (CH §5)."""

    dice: int
    to_damage: int
    aimed: bool = False
    explosive: bool = False
    kind: str = "shooting"
    label: str = ""

    def __post_init__(self) -> None:
        if self.dice < 0:
            raise ValueError("an attack rolls a non-negative number of dice")
        if self.kind not in ("shooting", "melee"):
            raise ValueError(f"unknown attack kind {self.kind!r}")

    @property
    def p_success(self) -> float:
        """One die's chance of a success; aimed: a 1 is re-rolled once (CH §3.5)."""
        p = p_success(self.to_damage)
        if self.aimed and self.to_damage > tables.AIMED_REROLL:
            p += p / 6
        return p

    @property
    def damage_per_success(self) -> float:
        return 3.5 if self.explosive else 1.0


@dataclass(frozen=True)
class Target:
    shields: int
    figures: int
    name: str = ""

    def __post_init__(self) -> None:
        if self.shields < 0 or self.figures < 0:
            raise ValueError("shields and figures must be >= 0")


def _cap(dist: Sequence[float], cap: int) -> list[float]:
    """``dist`` with every outcome at or above ``cap`` lumped into ``cap``."""
    out = list(dist[:cap + 1]) + [0.0] * max(0, cap + 1 - len(dist))
    if len(dist) > cap + 1:
        out[cap] = math.fsum(dist[cap:])
    return out


def _capped_convolve(a: Sequence[float], b: Sequence[float], cap: int) -> list[float]:
    out = [0.0] * (cap + 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                if y:
                    out[min(i + j, cap)] += x * y
    return out


def damage_from_successes(successes: Sequence[float], explosive: bool, cap: int) -> list[float]:
    """Damage distribution given the successes' distribution: one point each, or a D6
    each with Explosive (CH §4); capped at ``cap``."""
    if not explosive:
        return _cap(successes, cap)
    out = [0.0] * (cap + 1)
    sums = _cap([1.0], cap)  # 0 successes: 0 damage
    for k, pk in enumerate(successes):
        if k:
            sums = _capped_convolve(sums, D6, cap)
        if pk:
            for d, pd in enumerate(sums):
                out[d] += pk * pd
    return out


def damage_distribution(attack: Attack, cap: int, successes: int | None = None,
                        damage: int | None = None) -> list[float]:
    """The attack's damage, capped at ``cap``, given what is known of its dice."""
    if damage is not None:
        return _cap([0.0] * damage + [1.0], cap)
    if successes is not None:
        known = [0.0] * successes + [1.0]
        return damage_from_successes(known, attack.explosive, cap)
    return damage_from_successes(binomial_pmf(attack.dice, attack.p_success),
                                 attack.explosive, cap)


def attack_odds(attacks: Attack | Sequence[Attack], target: Target, *,
                successes: int | None = None, damage: int | None = None) -> Odds:
    """Exact odds of one attack, or several weapon groups, into ``target``.

    ``successes`` (to-damage successes, re-rolls included) and ``damage`` are what is
    already known of the *first* attack."""
    group = [attacks] if isinstance(attacks, Attack) else list(attacks)
    if not group:
        raise ValueError("no attack")
    first = group[0]
    if successes is not None and not 0 <= successes <= first.dice:
        raise ValueError(f"{successes} successes from {first.dice} dice is impossible")
    if damage is not None and damage < 0:
        raise ValueError("damage must be >= 0")
    s0, f0 = target.shields, target.figures
    cap = s0 + f0
    total = [1.0] + [0.0] * cap
    hits_mean = damage_mean = 0.0
    for i, attack in enumerate(group):
        known_s, known_d = (successes, damage) if i == 0 else (None, None)
        total = _capped_convolve(total, damage_distribution(attack, cap, known_s, known_d),
                                 cap)
        mean_s = known_s if known_s is not None else attack.dice * attack.p_success
        hits_mean += mean_s
        damage_mean += known_d if known_d is not None else mean_s * attack.damage_per_success
    shields = [0.0] * (s0 + 1)
    kills = [0.0] * (f0 + 1)
    for d, p in enumerate(total):
        shields[max(s0 - d, 0)] += p
        kills[min(f0, max(d - s0, 0))] += p
    kinds = {a.kind for a in group}
    return Odds(kind=kinds.pop() if len(kinds) == 1 else "mixed", figures=f0, shields=s0,
                hits_mean=hits_mean, damage_mean=damage_mean, shields_left=tuple(shields),
                casualties=tuple(kills), p_break=None)


# --- from the engine and from forces ----------------------------------------------


def odds_from_facts(facts: Mapping[str, Any]) -> Odds:
    """Odds from the engine's ``ctx.facts["attack"]`` (see :mod:`.combat`)."""
    stage = facts.get("stage", "declared")
    if stage not in STAGES:
        raise ValueError(f"unknown stage {stage!r}; expected one of {STAGES}")
    attack = Attack(dice=int(facts.get("dice", 0)), to_damage=int(facts.get("to_damage", 7)),
                    aimed=bool(facts.get("aimed", False)),
                    explosive=bool(facts.get("explosive", False)),
                    kind=str(facts.get("kind", "shooting")), label=str(facts.get("weapon", "")))
    target = Target(int(facts.get("shields", 0)), int(facts.get("figures", 0)))
    successes = int(facts.get("successes", 0))
    if stage == "reroll":  # the successes so far, plus the 1s re-rolled once (CH §3.5)
        again = Attack(dice=int(facts.get("rerolls", 0)), to_damage=attack.to_damage,
                       explosive=attack.explosive, label=attack.label)
        return attack_odds([attack, again], target, successes=successes)
    return attack_odds(attack, target,
                       successes=successes if stage != "declared" else None,
                       damage=int(facts.get("damage", 0))
                       if stage in ("casualties", "done") else None)


def target_from_unit(unit: Any) -> Target:
    """A :class:`Target` from a model ``Unit`` (full strength) or a ``UnitState``."""
    left = getattr(unit, "figures_left", None)
    return Target(shields=unit.shields, figures=len(unit.figures) if left is None else left,
                  name=unit.name)


def shooting_attacks(force: Any, unit: Any, cover: str, band: str, aimed: bool = False,
                     weapons: Sequence[str] | None = None) -> list[Attack]:
    """One :class:`Attack` per weapon the unit carries (or ``weapons``), every figure
    carrying it firing its shots for the range ``band`` (CH §4)."""
    if cover not in tables.COVERS:
        raise ValueError(f"unknown cover {cover!r}; expected one of {', '.join(tables.COVERS)}")
    if band not in tables.BANDS:
        raise ValueError(f"unknown range band {band!r}; expected one of "
                         f"{', '.join(tables.BANDS)} (0-12\" or beyond)")
    carried = carried_weapons(unit)
    out = []
    for wid in (list(weapons) if weapons else carried):
        if wid not in carried:
            raise ValueError(f"unit {unit.name!r} carries no weapon {wid!r}; it carries: "
                             f"{', '.join(carried) or 'nothing'}")
        w = force.weapons[wid]
        count = sum(fig.weapons.count(wid) for fig in unit.figures
                    if getattr(fig, "alive", True))
        out.append(Attack(dice=count * w.shots(band), to_damage=w.to_damage[cover],
                          aimed=aimed, explosive=w.explosive, label=w.name))
    return out


def melee_attack(unit: Any, figures: int | None = None) -> Attack:
    """CH §5: figures x melee attacks dice at the unit's melee damage."""
    n = len(unit.figures) if figures is None else figures
    return Attack(dice=n * unit.melee_attacks, to_damage=unit.melee_damage, kind="melee",
                  label="melee")


def _dice(n: int) -> str:
    return "1 die" if n == 1 else f"{n} dice"


def odds_cli(attacker: tuple[Any, Any], target: tuple[Any, Any],
             settings: Mapping[str, Any]) -> tuple[Odds, list[str]]:
    """``deathzap odds`` from force files (``Ruleset.odds_cli``). Settings read:
    ``melee`` (bool), ``cover`` (shooting), ``range`` (``near`` = 0-12", the default,
    or ``far``), ``aimed`` (bool), ``weapons`` (ids), ``shields`` / ``figures`` (the
    target's, default full) and ``attackers`` (the attacker's figures left)."""
    force, unit = attacker
    _tforce, tunit = target
    full = target_from_unit(tunit)
    shields = at_most(settings.get("shields"), "shields", full.shields,
                      f"{tunit.name}'s starting shields: CH §3 Recharge")
    figures = at_most(settings.get("figures"), "figures", full.figures,
                      f"{tunit.name}'s figures")
    tgt = Target(full.shields if shields is None else int(shields),
                 full.figures if figures is None else int(figures), tunit.name)
    if settings.get("melee"):
        attacks = [melee_attack(unit, settings.get("attackers"))]
        title = [f"{unit.name} attacks {tunit.name} in melee: "
                 f"{_dice(attacks[0].dice)} at {attacks[0].to_damage}+ (CH §5)"]
    else:
        cover = settings.get("cover")
        if not cover:
            raise ValueError("shooting needs --cover open|soft|hard (CH §4)")
        band = settings.get("range") or "near"
        aimed = bool(settings.get("aimed"))
        attacks = shooting_attacks(force, unit, cover, band, aimed, settings.get("weapons"))
        where = '0-12"' if band == "near" else 'beyond 12"'
        title = [f"{unit.name} {'takes aimed shots' if aimed else 'shoots'} at {tunit.name}, "
                 f"{where}, {cover} (CH §4)"]
        title += [f"  {a.label}: {_dice(a.dice)} at {a.to_damage}+"
                  + (", Explosive D6 each" if a.explosive else "") for a in attacks]
    title.append(f"Target: {plural(tgt.shields, 'shield')}, {plural(tgt.figures, 'figure')}; "
                 "no saves, no "
                 "morale (CH §4)")
    return attack_odds(attacks, tgt), title

"""The result of every ruleset's exact odds: what ``deathzap odds`` prints and the
app's odds panel shows. Pure stdlib, no I/O.

Each ruleset computes its own numbers (``rules/<ruleset>/odds.py``) and fills in the
fields that mean something in its edition; the labels say what the chances are, so the
CLI and the panel need no ruleset branch:

* every edition: the casualty distribution of one attack (or of several weapon
  groups at one target) and the expected hits;
* ``hits``: the whole hits distribution, where the edition's dice make it worth
  showing (Classic melee hits are sums of pips, CL §6);
* ``damage_step``: the attack does points of damage against shields (DZ3 §6, CH §4);
  ``False`` where hits go straight to saves (Classic, CL §5): no damage, no shields;
* ``p_break``: the chance of the edition's after-effect on a unit that is still there,
  with :attr:`Odds.break_label` / :attr:`Odds.break_text` saying what it is
  ("breaks" on morale in DZ3 §10, "panicked" by suppression in Classic CL §5) and
  :attr:`Odds.break_removes` whether it takes the unit off the table (DZ3: it flees);
* ``vehicle``: DZ3 §9 damage-table outcomes for a vehicle target;
* ``damage`` and ``wounds``: the whole distributions of the points of damage and of
  the wounds, where the edition counts both and a model takes several wounds (PS §5:
  damage, then one shield save per point, each failure a wound);
* ``hits_step`` off: the attack has no hits of its own (its dice are the wounds);
  ``kind_text``: the attack's kind in words, where the ruleset's id is not one.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class AttackFacts:
    """What shared code reads of an attack a ruleset publishes while resolving it
    (``ctx.facts["attack"]``, the one under way, and ``ctx.facts["attacks"]``, every
    one declared): the odds panel groups by :attr:`target` and labels with
    :attr:`kind` and :attr:`weapon`. The rest of the dict is the ruleset's own, read
    back by its ``odds_from_facts``."""

    target: str
    """The unit attacked (``"black.1"``)."""
    kind: str = ""
    """``"shooting"``, ``"melee"``, ``"explosion"``, ``"morale"`` or the ruleset's own."""
    weapon: str = ""
    """The weapon's name, or its groups' names (``"Rifle, Heavy Weapon"``: a fact
    with ``"groups": [{"weapon": ...}, ...]``); "" when it has none."""
    stage: str = "declared"
    """How far the attack has got (``declared``, ``hit``, ``shields``..., ``done``)."""

    @classmethod
    def read(cls, fact: Mapping[str, Any]) -> AttackFacts:
        groups = [g.get("weapon", "") for g in fact.get("groups") or ()
                  if isinstance(g, Mapping)]
        return cls(target=str(fact.get("target", "")), kind=str(fact.get("kind", "") or ""),
                   weapon=str(fact.get("weapon", "") or ", ".join(str(n) for n in groups if n)),
                   stage=str(fact.get("stage", "declared")))

    @property
    def done(self) -> bool:
        return self.stage == "done"


@dataclass(frozen=True, kw_only=True)
class Odds:
    """What the odds panel shows. Probabilities are floats; lists are indexed by count.

    ``p_break`` excludes the wiped-out case (DZ3-R12) and is ``None`` when unknown or
    when the edition has none. When the leader's presence is unknown (DZ3,
    ``leader_near=None``) ``p_break`` assumes no leader and ``p_break_with_leader``
    gives the other case. For a vehicle ``casualties`` is ``[survives, destroyed]``,
    ``p_break`` is 0 (DZ3-R13) and ``vehicle`` gives the damage-table outcomes:
    ``destroyed`` (= killed + explodes), ``immobilised``/``gun-crippled``/
    ``weapon-crippled`` (at least one such result rolled), ``no-effect`` (no damage
    roll at all, or only 1s).
    """

    kind: str
    figures: int
    """The figures the attack can kill (``casualties`` runs 0..figures)."""
    casualties: tuple[float, ...]
    hits_mean: float = 0.0
    shields: int = 0
    damage_mean: float = 0.0
    shields_left: tuple[float, ...] = (1.0,)
    p_break: float | None = None
    p_break_with_leader: float | None = None
    vehicle: Mapping[str, float] | None = None
    hits: tuple[float, ...] | None = None
    """The distribution of the hits, or ``None`` where only the mean is worked out."""
    damage_step: bool = True
    """Hits become points of damage against shields (``damage_mean``,
    ``shields_left`` mean something); ``False``: hits go straight to saves."""
    break_label: str = "breaks"
    """What ``p_break`` is, in one word for tight spaces (the odds panel)."""
    break_text: str = "breaks on morale"
    """What ``p_break`` is, in a few words (``P(...)`` rows, JSON ``p_break_means``)."""
    break_removes: bool = True
    """The unit is gone when it happens (a DZ3 unit that breaks flees); ``False``
    where it stays on the table (a Classic panicked unit)."""
    damage: tuple[float, ...] | None = None
    """The distribution of the points of damage (``damage[k]`` = P(k points)), or
    ``None`` where the edition does not show it."""
    wounds: tuple[float, ...] | None = None
    """The distribution of the wounds after saves, or ``None``; ``casualties`` then
    counts the whole models those wounds remove."""
    hits_step: bool = True
    """The attack scores hits (``hits_mean``, ``hits`` mean something); ``False``
    where its dice are the wounds themselves (PS §4 special combat): no hits shown."""
    kind_text: str = ""
    """The attack in words where ``kind`` alone does not say it (``"special combat"``
    for Plasmashok's ``special``); empty: ``kind`` is the word."""
    p_break_any_cause: float | None = None
    """Where ``p_break`` is one of several ways to the same after-effect: the chance
    the unit ends the attack with it from any cause (Classic: panicked by suppression
    or by losing the melee, or left a lone figure that is always panicked, CL §4), the
    unit still being there; ``None`` where the edition has no other cause, or unknown."""
    break_any_cause_text: str = ""
    """What :attr:`p_break_any_cause` is, in a few words (its ``P(...)`` row)."""
    break_any_cause_counts: str = ""
    """What :attr:`p_break_any_cause` counts, in a sentence (JSON
    ``p_break_any_cause_means``, the command's title lines)."""

    @property
    def mean_wounds(self) -> float:
        return math.fsum(k * p for k, p in enumerate(self.wounds or ()))

    @property
    def p_any_wound(self) -> float:
        return math.fsum((self.wounds or ())[1:])

    @property
    def mean_shields_left(self) -> float:
        return math.fsum(k * p for k, p in enumerate(self.shields_left))

    @property
    def mean_casualties(self) -> float:
        return math.fsum(k * p for k, p in enumerate(self.casualties))

    @property
    def p_any_casualty(self) -> float:
        return math.fsum(self.casualties[1:])

    @property
    def p_wiped_out(self) -> float:
        return self.casualties[-1] if self.figures else 0.0

    @property
    def p_destroyed(self) -> float:
        """Wiped out, or gone by :attr:`p_break` where that removes the unit (DZ3 §12:
        3 VP to the enemy)."""
        return self.p_wiped_out + ((self.p_break or 0.0) if self.break_removes else 0.0)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": self.kind,
            "figures": self.figures,
            "shields": self.shields,
            "casualties": list(self.casualties),
            "mean_casualties": self.mean_casualties,
            "p_any_casualty": self.p_any_casualty,
            "p_wiped_out": self.p_wiped_out,
            "p_break": self.p_break,
            "p_destroyed": self.p_destroyed,
            "hits_mean": self.hits_mean,
            "damage_mean": self.damage_mean,
            "shields_left": list(self.shields_left),
            "mean_shields_left": self.mean_shields_left,
        }
        if self.p_break is not None:
            out["p_break_means"] = self.break_text
        if self.hits is not None:
            out["hits"] = list(self.hits)
        if self.p_break_with_leader is not None:
            out["p_break_with_leader"] = self.p_break_with_leader
        if self.p_break_any_cause is not None:
            out["p_break_any_cause"] = self.p_break_any_cause
            out["p_break_any_cause_means"] = self.break_any_cause_counts
        if self.vehicle is not None:
            out["vehicle"] = dict(self.vehicle)
        if self.damage is not None:
            out["damage"] = list(self.damage)
            out["mean_damage"] = self.damage_mean  # the name beside "damage" (PS §5)
        if self.wounds is not None:
            out["wounds"] = list(self.wounds)
            out["mean_wounds"] = self.mean_wounds
            out["p_any_wound"] = self.p_any_wound
        return out


# --------------------------------------------------------------------------- CLI hooks
def flag(dest: str) -> str:
    """``leader_near`` -> ``--leader-near``: the ``deathzap odds`` flag of a setting."""
    return "--" + dest.replace("_", "-")


def refuse(settings: Mapping[str, Any], keys: Sequence[str], why: str) -> None:
    """For the rulesets' ``odds_cli`` hooks: raise ``ValueError`` if any of the
    settings ``keys`` (another mode's: shooting flags in melee, ...) is given."""
    given = [flag(k) for k in keys if settings.get(k) not in (None, False)]
    if given:
        raise ValueError(f"{', '.join(given)} {'is' if len(given) == 1 else 'are'} for "
                         f"{why}; leave {'it' if len(given) == 1 else 'them'} out")


def at_most(value: int | None, key: str, most: int, why: str) -> int | None:
    """For the rulesets' odds hooks: ``value``, the setting ``key`` (``None``: not
    given), or ``ValueError`` naming its flag and the limit if it is above ``most``
    (``why``: where the limit comes from). A mistyped count must not send the odds
    after a unit no force file can hold (issue 19: ``--shields 1000000000`` took
    gigabytes)."""
    if value is not None and value > most:
        raise ValueError(f"{flag(key)} {value}: at most {most} ({why})")
    return value


def need(args: Any, *names: str) -> None:
    """For the rulesets' ``odds_numbers`` hooks: raise ``ValueError`` naming the flags
    among ``names`` (settings) that were not given."""
    missing = [flag(n) for n in names if getattr(args, n, None) is None]
    if missing:
        raise ValueError(f"missing {', '.join(missing)}")

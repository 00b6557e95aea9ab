"""The result of every ruleset's exact odds: what ``deathzap odds`` prints and the
app's odds panel shows. Pure stdlib, no I/O.

Each ruleset computes its own numbers (``rules/<ruleset>/odds.py``). :class:`Odds` is
the common core every edition has: the casualty distribution of one attack (or of
several weapon groups at one target), the expected hits, the points of damage against
shields where there are some, and the edition's after-effect on a unit still there
(``p_break``, with words saying what it is). What only some editions have (a vehicle's
damage-table outcomes, a chance with the leader near, the wounds of models that take
several) a ruleset adds in a subclass of its own, as labelled rows: :meth:`Odds.means`
(the expected values), :meth:`Odds.chances` (the headline chances), :meth:`Odds.charts`
(the distributions drawn), :attr:`Odds.table` (outcomes shown instead of casualties) and
:meth:`Odds.json_extra`. The renderers (``oddstext``, ``commands/odds.py``, the app's
odds panel) loop over those rows: adding a ruleset's odds touches only its own package.
:class:`WoundsOdds` is such a subclass shared by the editions that count wounds.
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


# --------------------------------------------------------------------------- rows
@dataclass(frozen=True)
class Mean:
    """One expected value of the odds' ``Expected ...`` line."""

    name: str
    value: float
    of: int | None = None
    """The most it can be, where the panel says it (``shields left 1.5 of 2``)."""
    dist: tuple[float, ...] | None = None
    """Its distribution, drawn beside it as a sparkline where there is room."""


@dataclass(frozen=True)
class Chance:
    """One headline chance."""

    text: str
    """Its row in ``deathzap odds`` (``"P(wiped out)"``); "": not a row there."""
    label: str
    """The odds panel's words before the percent (``"wiped out"``); "": not shown there."""
    p: float | None
    """``None``: unknown (shown as such)."""
    tight: str | None = None
    """The panel's words where space is short; ``None``: :attr:`label`; "": left out."""
    aside: bool = False
    """On the panel, in brackets after the chance before it, another side of that
    chance (``breaks 30% (leader 12%)``); left out with it."""


@dataclass(frozen=True)
class Chart:
    """A distribution drawn as a chart (``deathzap odds`` draws every one)."""

    title: str
    dist: tuple[float, ...]
    """Indexed by count."""
    spark: bool = False
    """The odds panel's detail view draws it too, as a sparkline of its own."""


@dataclass(frozen=True)
class Table:
    """Outcomes shown instead of the casualties (a vehicle's damage table, DZ3 §9)."""

    title: str
    """Its heading in ``deathzap odds``."""
    heading: str
    """Its heading on the odds panel."""
    rows: tuple[Chance, ...]
    """Each outcome: :attr:`Chance.text` in ``deathzap odds``, :attr:`Chance.label` on
    the panel's chart."""


# --------------------------------------------------------------------------- odds
@dataclass(frozen=True, kw_only=True)
class Odds:
    """What every edition's odds have. Probabilities are floats; lists are indexed by
    count.

    ``p_break`` excludes the wiped-out case (DZ3-R12) and is ``None`` when unknown or
    when the edition has none; :attr:`break_label` and :attr:`break_text` say what it
    is ("breaks" on morale in DZ3 §10, "panicked" by suppression in Classic CL §5).
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
    hits: tuple[float, ...] | None = None
    """The distribution of the hits, or ``None`` where only the mean is worked out."""
    damage_step: bool = True
    """Hits become points of damage against shields (``damage_mean``,
    ``shields_left`` mean something); ``False``: hits go straight to saves."""
    break_label: str = "breaks"
    """What ``p_break`` is, in one word for tight spaces (the odds panel)."""
    break_text: str = "breaks on morale"
    """What ``p_break`` is, in a few words (``P(...)`` rows, JSON ``p_break_means``);
    empty: the edition has no after-effect of one attack (no row)."""
    break_removes: bool = True
    """The unit is gone when it happens (a DZ3 unit that breaks flees); ``False``
    where it stays on the table (a Classic panicked unit)."""
    hits_step: bool = True
    """The attack scores hits (``hits_mean``, ``hits`` mean something); ``False``
    where its dice are the wounds themselves (PS §4 special combat): no hits shown."""
    kind_text: str = ""
    """The attack in words where ``kind`` alone does not say it (``"special combat"``
    for Plasmashok's ``special``); empty: ``kind`` is the word."""

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

    # ------------------------------------------------------------ the labelled rows
    def means(self) -> tuple[Mean, ...]:
        """The expected values, in the order shown (the casualties come after them,
        where :attr:`shows_casualties`)."""
        out = [Mean("hits", self.hits_mean, dist=self.hits)] if self.hits_step else []
        if self.damage_step:
            out += [Mean("damage", self.damage_mean),
                    Mean("shields left", self.mean_shields_left, of=self.shields)]
        return tuple(out)

    def chances(self) -> tuple[Chance, ...]:
        """The headline chances, in the order shown: at least one casualty, wiped out,
        the after-effect (:attr:`p_break`) with :meth:`break_asides`, and "unit gone"
        where the after-effect removes the unit (otherwise it is "wiped out" again)."""
        out = [Chance("P(at least one casualty)", "≥1 casualty", self.p_any_casualty),
               Chance("P(wiped out)", "wiped out", self.p_wiped_out)]
        if self.break_text or self.p_break is not None:
            out.append(Chance(f"P({self.break_text})" if self.break_text else "",
                              self.break_label if self.p_break is not None else "",
                              self.p_break))
            out += self.break_asides()
        if self.break_removes:
            out.append(Chance("P(unit gone: wiped out or fled)", "", self.p_destroyed))
        return tuple(out)

    def break_asides(self) -> tuple[Chance, ...]:
        """Other sides of :attr:`p_break` (with the leader near, from any cause), shown
        right after it; none in the core."""
        return ()

    def charts(self) -> tuple[Chart, ...]:
        """The distributions drawn before the casualties: the hits, where known."""
        return () if self.hits is None else (Chart("Hits", self.hits),)

    @property
    def table(self) -> Table | None:
        """Outcomes shown instead of the casualties; ``None`` in the core."""
        return None

    @property
    def shows_casualties(self) -> bool:
        """The casualties mean something to show (not for a test of morale on its own,
        nor where :attr:`table` takes their place)."""
        return self.table is None

    def json_extra(self) -> dict[str, Any]:
        """The JSON fields a ruleset adds, after the core's (:meth:`to_json`)."""
        return {}

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
        return out | self.json_extra()


@dataclass(frozen=True, kw_only=True)
class WoundsOdds(Odds):
    """Odds of an edition that counts wounds, a model taking several: ``casualties``
    counts the whole models the wounds remove (PS §5: damage, then one shield save per
    point, each failure a wound; Double Tap's wounds after blocks)."""

    wounds: tuple[float, ...]
    """The distribution of the wounds after saves."""
    damage: tuple[float, ...] | None = None
    """The distribution of the points of damage (``damage[k]`` = P(k points)), or
    ``None`` where the edition does not show it."""

    @property
    def mean_wounds(self) -> float:
        return math.fsum(k * p for k, p in enumerate(self.wounds))

    @property
    def p_any_wound(self) -> float:
        return math.fsum(self.wounds[1:])

    def means(self) -> tuple[Mean, ...]:
        own = [] if self.damage is None else [Mean("damage", self.damage_mean)]
        return (*super().means(), *own, Mean("wounds", self.mean_wounds))

    def chances(self) -> tuple[Chance, ...]:
        return (Chance("P(at least one wound)", "≥1 wound", self.p_any_wound),
                *super().chances())

    def charts(self) -> tuple[Chart, ...]:
        own = [] if self.damage is None else [Chart("Damage", self.damage)]
        return (*super().charts(), *own, Chart("Wounds", self.wounds, spark=True))

    def json_extra(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.damage is not None:
            out["damage"] = list(self.damage)
            out["mean_damage"] = self.damage_mean  # the name beside "damage" (PS §5)
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

"""Exact odds of a Deathzap 3 attack or morale test (issue 4). Pure stdlib, no I/O.

The pipeline (DZ3 §6 shooting, §7 melee, §9 vehicles, §10 morale):

* **to hit** — ``dice`` dice at ``to_hit``+ (DZ3-R5; a crippled gun or weapon: a fixed
  6+, DZ3-R7; 7+ never succeeds);
* **against shields** — each hit rolls ``vs_shields``+ for one point of damage (DZ3 §6).
  Melee has no such roll: every hit is a point of damage (DZ3 §7);
* **shields and saves** — a point of damage removes one shield while any are left;
  once the unit's pool (DZ3-R6) is at 0 each further point forces a save. A
  **Strike** point removes a shield (if any) *and* forces a save. A failed save (a die
  below ``save``) is a casualty, at most as many as there are figures;
* **vehicles** — one model; each failed save is one roll on the damage table
  (DZ3-R9): 5 killed, 6 explodes (removed, later rolls are moot), 1-4 effects.
  The table results are not casualties and cause no morale test (DZ3-R13). The
  damage an explosion does to *other* units is out of scope for these odds;
* **morale** — after an attack (one weapon group) that caused at least one casualty
  without wiping the unit out (DZ3-R12) the unit tests: one die per figure left, each
  succeeding on its morale number (one less with a friendly leader within 6", DZ3 §11),
  passing if any die succeeds; a failed test removes the unit (it flees). DZ3-R11
  option ``per-attack`` (default): one test per attack; ``per-casualty``: one test per
  casualty. As the engine (``combat.morale``) does it, the casualties of one attack
  are removed together (its saves are rolled together) and then each test rolls one
  die per figure *still in the unit*, i.e. ``figures - casualties`` dice every time;
  the unit breaks at the first failed test:
  ``P(break) = 1 - P(pass with figures - casualties) ** casualties``.

Several weapon groups fired at one target (:func:`attack_odds` with a list) are
resolved in order, carrying shields and figures from one to the next, with morale
after each; a unit that is wiped out or has fled is not attacked again, so the later
groups' hits and damage count only while the target is still there.

Method: a dynamic programme over the distribution of (shields left, figures left)
with binomial rows, in floats (no sampling, no fractions): within 1e-12 of the exact
rational answer, which the tests check against brute-force enumeration, exact
``Fraction`` arithmetic and icepool. For vehicles the damage-table marginals are
functions of the number ``F`` of failed saves of the form ``a + b r^F``, so the
programme carries ``E[r^F]`` (a probability generating function) per shield state.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from deathzap_tui.rules.deathzap3 import tables
from deathzap_tui.rules.distributions import (
    at_least_one_of,
    binomial_pmf,
    capped_binomial_rows,
    carried_weapons,
    p_success,
)
from deathzap_tui.rules.narration import plural
from deathzap_tui.rules.odds import Chance, Mean, Odds, Table, at_most

PER_ATTACK = "per-attack"
PER_CASUALTY = "per-casualty"
MORALE_OPTIONS = (PER_ATTACK, PER_CASUALTY)
"""DZ3-R11: the morale option's values (default first)."""

STAGES = ("declared", "hit", "shields", "saves", "morale", "done")
"""``facts["stage"]`` as the engine (``combat``) sets it: the roll being asked for.

At ``shields`` the hits are known, at ``saves`` the damage too, at ``morale`` and
``done`` the failed saves too (at ``saves`` also once ``failed_saves`` is above 0:
the damage-table rolls and casualty choices come after the saves)."""

VEHICLE_OUTCOMES = (
    "destroyed", "killed", "explodes", "immobilised", "gun-crippled", "weapon-crippled",
    "no-effect",
)


# --------------------------------------------------------------------------- model
@dataclass(frozen=True)
class Attack:
    """One weapon group's attack (DZ3 §6) or a melee attack (DZ3 §7).

    ``vs_shields`` is the die needed against the target's shields; ``None`` (or 0)
    for melee, where every hit is a point of damage.
    """

    dice: int
    to_hit: int
    vs_shields: int | None = None
    strike: bool = False
    label: str = ""
    short_range: bool = False
    """DZ3 §5: fires only at a target within 12" (the odds assume it is)."""

    def __post_init__(self) -> None:
        if self.dice < 0:
            raise ValueError("an attack rolls a non-negative number of dice")
        if self.vs_shields == 0:
            object.__setattr__(self, "vs_shields", None)

    @property
    def melee(self) -> bool:
        return self.vs_shields is None

    @property
    def kind(self) -> str:
        return "melee" if self.melee else "shooting"

    @property
    def p_hit(self) -> float:
        return p_success(self.to_hit)

    @property
    def p_damage(self) -> float:
        """Chance that one hit is a point of damage (1 in melee)."""
        return 1.0 if self.vs_shields is None else p_success(self.vs_shields)


@dataclass(frozen=True)
class Target:
    """The target unit's numbers as they are before the attack.

    ``save`` is the saving throw (DZ3 §6 by skill), ``morale`` the morale die
    *without* a leader's bonus (DZ3 §10; 0 if unknown: no break odds).
    A vehicle is one model (``figures`` 1).
    """

    shields: int
    figures: int
    save: int
    morale: int = 0
    vehicle: bool = False
    name: str = ""

    def __post_init__(self) -> None:
        if self.shields < 0 or self.figures < 0:
            raise ValueError("shields and figures must be >= 0")
        if self.vehicle and self.figures > 1:
            raise ValueError("a vehicle unit is one model (DZ3 §9)")


# --------------------------------------------------------------------------- morale
def morale_pass(figures: int, morale_target: int) -> float:
    """Chance a morale test passes: at least one of ``figures`` dice (DZ3 §10)."""
    return at_least_one_of(figures, p_success(morale_target))


def morale_target_number(morale: int, leader_near: bool) -> int:
    """The die each figure needs: the unit's morale, one less with a leader (DZ3 §11)."""
    return morale - tables.LEADER_MORALE_BONUS if leader_near else morale


def break_probability(figures: int, casualties: int, morale_target: int,
                      option: str = PER_ATTACK) -> float:
    """Chance a unit of ``figures`` breaks after an attack causing ``casualties``.

    ``morale_target`` already includes any leader bonus. No casualty or wiped out:
    no test (DZ3 §10, DZ3-R12).
    """
    if casualties <= 0 or casualties >= figures:
        return 0.0
    if option == PER_ATTACK:
        return 1.0 - morale_pass(figures - casualties, morale_target)
    if option == PER_CASUALTY:
        return 1.0 - morale_pass(figures - casualties, morale_target) ** casualties
    raise ValueError(f"unknown morale option {option!r}; expected one of {MORALE_OPTIONS}")


VEHICLE_ROWS: tuple[tuple[str, str, str], ...] = (
    ("destroyed", "destroyed (killed or explodes)", "destroyed"),
    ("killed", "  killed", "killed"),
    ("explodes", "  explodes", "explodes"),
    ("immobilised", "immobilised (at least once)", "immobilised"),
    ("gun-crippled", "gun crippled (at least once)", "gun crippled"),
    ("weapon-crippled", "weapon crippled (at least once)", "weapon crippled"),
    ("no-effect", "no effect at all", "no effect"),
)
"""DZ3 §9 damage-table outcomes: (key in ``DZ3Odds.vehicle``, long label, short label);
the short labels of ``killed`` and ``explodes`` (parts of ``destroyed``) are left out
where space is short."""


@dataclass(frozen=True, kw_only=True)
class DZ3Odds(Odds):
    """DZ3 odds: the core, the chance of breaking with a leader near where it is
    unknown (DZ3 §11), a vehicle's damage-table outcomes (DZ3 §9) and a morale test
    on its own (``kind="morale"``, DZ3 §10: ``figures`` dice, ``p_break`` it fails).

    When the leader's presence is unknown (``leader_near=None``) ``p_break`` assumes
    no leader and ``p_break_with_leader`` gives the other case. For a vehicle
    ``casualties`` is ``[survives, destroyed]``, ``p_break`` is 0 (DZ3-R13) and
    ``vehicle`` gives the damage-table outcomes: ``destroyed`` (= killed + explodes),
    ``immobilised``/``gun-crippled``/``weapon-crippled`` (at least one such result
    rolled), ``no-effect`` (no damage roll at all, or only 1s).
    """

    p_break_with_leader: float | None = None
    vehicle: Mapping[str, float] | None = None

    @property
    def morale_test(self) -> bool:
        return self.kind == "morale"

    def means(self) -> tuple[Mean, ...]:
        return () if self.morale_test else super().means()

    def chances(self) -> tuple[Chance, ...]:
        if self.table is not None:
            return self.table.rows
        if not self.morale_test:
            return super().chances()
        passes = None if self.p_break is None else 1 - self.p_break
        return (Chance("P(test fails: the unit breaks)", self.break_label, self.p_break),
                *self.break_asides(), Chance("P(test passes)", "passes", passes))

    def break_asides(self) -> tuple[Chance, ...]:
        if self.p_break_with_leader is None:
            return ()
        return (Chance(f"P({self.break_label}), leader near", "leader near:",
                       self.p_break_with_leader, tight="leader", aside=True),)

    @property
    def table(self) -> Table | None:
        if self.vehicle is None:
            return None
        rows = tuple(Chance(long, short, float(self.vehicle[key]),
                            tight="" if key in ("killed", "explodes") else None)
                     for key, long, short in VEHICLE_ROWS if key in self.vehicle)
        return Table("Vehicle damage table (DZ3 §9; explosion damage to others not "
                     "included):", "Damage table (DZ3 §9), at least once:", rows)

    @property
    def shows_casualties(self) -> bool:
        return super().shows_casualties and not self.morale_test

    def json_extra(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.p_break_with_leader is not None:
            out["p_break_with_leader"] = self.p_break_with_leader
        if self.vehicle is not None:
            out["vehicle"] = dict(self.vehicle)
        return out


def morale_test_odds(figures: int, morale: int, leader_near: bool | None = False) -> DZ3Odds:
    """A morale test on its own: ``figures`` dice at ``morale``+ (DZ3 §10)."""
    p = 1.0 - morale_pass(figures, morale_target_number(morale, bool(leader_near)))
    alt = (1.0 - morale_pass(figures, morale_target_number(morale, True))
           if leader_near is None else None)
    return DZ3Odds(kind="morale", figures=figures, shields=0, hits_mean=0.0, damage_mean=0.0,
                shields_left=(1.0,), casualties=(1.0,) + (0.0,) * figures,
                p_break=p, p_break_with_leader=alt)


# --------------------------------------------------------------------------- attacks
def _check_option(option: str) -> None:
    if option not in MORALE_OPTIONS:
        raise ValueError(f"unknown morale option {option!r}; expected one of {MORALE_OPTIONS}")


def _damage_dist(attack: Attack, hits: int | None, damage: int | None) -> list[float]:
    """Distribution of the damage points of one attack, given what is known."""
    if damage is not None:
        return [0.0] * damage + [1.0]
    if hits is not None:
        return binomial_pmf(hits, attack.p_damage)
    return binomial_pmf(attack.dice, attack.p_hit * attack.p_damage)


def _known_means(attack: Attack, hits: int | None, damage: int | None) -> tuple[float, float]:
    """Expected hits and damage of one attack given what is known."""
    ph, pd = attack.p_hit, attack.p_damage
    if damage is not None:
        if hits is not None:
            return float(hits), float(damage)
        # the other dice hit without damaging with chance ph(1-pd) / (1 - ph pd)
        rest = attack.dice - damage
        miss = 1.0 - ph * pd
        return damage + (rest * ph * (1.0 - pd) / miss if miss > 0 else 0.0), float(damage)
    if hits is not None:
        return float(hits), hits * pd
    return attack.dice * ph, attack.dice * ph * pd


def _validate_known(attack: Attack, target: Target, hits: int | None, damage: int | None,
                    failed_saves: int | None) -> None:
    if hits is not None and not 0 <= hits <= attack.dice:
        raise ValueError(f"{hits} hits from {attack.dice} dice is impossible")
    if damage is not None:
        top = hits if hits is not None else attack.dice
        if not 0 <= damage <= top:
            raise ValueError(f"{damage} damage from {top} dice is impossible")
        if attack.melee and hits is not None and damage != hits:
            raise ValueError("in melee every hit is a point of damage (DZ3 §7)")
    if failed_saves is not None:
        if damage is None:
            raise ValueError("failed_saves needs damage (the shields it removed)")
        forced = damage if attack.strike else max(damage - target.shields, 0)
        if not 0 <= failed_saves <= forced:
            raise ValueError(f"{failed_saves} failed saves from {forced} saves is impossible")


def attack_odds(attacks: Attack | Sequence[Attack], target: Target, *,
                leader_near: bool | None = False, morale_option: str = PER_ATTACK,
                hits: int | None = None, damage: int | None = None,
                failed_saves: int | None = None) -> DZ3Odds:
    """Exact odds of one attack, or of several weapon groups in order, into ``target``.

    ``hits``, ``damage`` and ``failed_saves`` are the dice already rolled for the
    *first* attack (the one being resolved); later attacks are as declared.
    ``failed_saves`` needs ``damage``. ``leader_near=None``: unknown (see :class:`DZ3Odds`).
    """
    group = [attacks] if isinstance(attacks, Attack) else list(attacks)
    if not group:
        raise ValueError("no attack")
    _check_option(morale_option)
    _validate_known(group[0], target, hits, damage, failed_saves)
    known = (hits, damage, failed_saves)
    if target.vehicle:
        return _vehicle_odds(group, target, known)
    if target.morale <= 0:
        return _unit_odds(group, target, known, 0, morale_option, with_morale=False)
    main = _unit_odds(group, target, known,
                      morale_target_number(target.morale, bool(leader_near)), morale_option)
    if leader_near is None:
        alt = _unit_odds(group, target, known,
                         morale_target_number(target.morale, True), morale_option)
        return replace(main, p_break_with_leader=alt.p_break)
    return main


def _unit_odds(group: list[Attack], target: Target, known: tuple[int | None, ...],
               morale_target: int, option: str, with_morale: bool = True) -> DZ3Odds:
    """The DP for a unit of figures: state (shields left, figures left) -> probability."""
    hits, damage, failed_saves = known
    f0, s0 = target.figures, target.shields
    pfail = 1.0 - p_success(target.save)
    present: dict[tuple[int, int], float] = {(s0, f0): 1.0}
    fled: dict[tuple[int, int], float] = {}
    hits_mean = damage_mean = 0.0
    breaks: dict[tuple[int, int], float] = {}  # (figures, casualties) -> P(break)

    def p_break(f: int, c: int) -> float:
        key = (f, c)
        if key not in breaks:
            breaks[key] = break_probability(f, c, morale_target, option) if with_morale else 0.0
        return breaks[key]

    for i, attack in enumerate(group):
        first = i == 0
        h, d = (hits, damage) if first else (None, None)
        alive = math.fsum(p for (s, f), p in present.items() if f > 0)
        hm, dm = _known_means(attack, h, d)
        hits_mean += alive * hm
        damage_mean += alive * dm
        out: dict[tuple[int, int], float] = {}

        def put(key: tuple[int, int], p: float, out: dict[tuple[int, int], float] = out) -> None:
            out[key] = out.get(key, 0.0) + p

        if first and failed_saves is not None:
            assert damage is not None
            s_after = max(s0 - damage, 0)
            c = min(failed_saves, f0)
            pb = p_break(f0, c)
            put((s_after, f0 - c), 1.0 - pb)
            if pb:
                fled[(s_after, f0 - c)] = fled.get((s_after, f0 - c), 0.0) + pb
            present = out
            continue

        dist = _damage_dist(attack, h, d)
        top = len(dist) - 1
        rows = capped_binomial_rows(pfail, top, f0)
        for (s, f), w in present.items():
            if f == 0:  # wiped out: nothing left to attack
                put((s, f), w)
                continue
            # acc[s_after][c] for this state
            acc: dict[int, list[float]] = {}
            for dmg, pd in enumerate(dist):
                if not pd:
                    continue
                s_after = s - dmg if dmg < s else 0
                forced = dmg if attack.strike else dmg - s
                if forced <= 0:
                    put((s_after, f), w * pd)
                    continue
                row = rows[forced]
                vec = acc.get(s_after)
                if vec is None:
                    vec = acc[s_after] = [0.0] * (f + 1)
                wp = w * pd
                for c in range(f):
                    vec[c] += wp * row[c]
                vec[f] += wp * math.fsum(row[f:])
            for s_after, vec in acc.items():
                for c, p in enumerate(vec):
                    if not p:
                        continue
                    pb = p_break(f, c)
                    put((s_after, f - c), p * (1.0 - pb))
                    if pb:
                        fled[(s_after, f - c)] = fled.get((s_after, f - c), 0.0) + p * pb
        present = out

    shields = [0.0] * (s0 + 1)
    cas = [0.0] * (f0 + 1)
    for states in (present, fled):
        for (s, f), p in states.items():
            shields[s] += p
            cas[f0 - f] += p
    p_fled = math.fsum(fled.values()) if with_morale else None
    return DZ3Odds(kind=_kind(group), figures=f0, shields=s0, hits_mean=hits_mean,
                damage_mean=damage_mean, shields_left=tuple(shields), casualties=tuple(cas),
                p_break=p_fled)


_R_SURVIVE = 4 / 6  # 1-4 on the damage table: the vehicle is still there (DZ3 §9)
_R_NOTHING = 1 / 6  # a 1: no effect
_R_NOT_X = 1 / 2    # a roll that is neither the effect X nor a destroying 5-6, alive


def _vehicle_odds(group: list[Attack], target: Target, known: tuple[int | None, ...]) -> DZ3Odds:
    """Vehicles (DZ3 §9, R9, R13): carry ``E[r^F; shields]`` for r in 2/3, 1/6, 1/2.

    With ``F`` failed saves (one damage roll each, stopping at a 5 or 6):
    P(not destroyed) = (2/3)^F, P(no effect) = (1/6)^F and, for each of the effects
    2, 3 and 4, P(never rolled) = 2/3 + (1/2)^F / 3. So ``E[(2/3)^F; shields = s]``
    is the chance the vehicle is still there with ``s`` shields; a destroyed vehicle
    is attacked no more, its shields stay as they were (``dead``). Rolls "after" the
    destruction that the other two sums include change nothing (the formulas hold for
    any number of moot rolls).
    """
    hits, damage, failed_saves = known
    s0 = target.shields
    q = 1.0 - p_success(target.save)
    radii = (_R_SURVIVE, _R_NOTHING, _R_NOT_X)
    weights: dict[int, list[float]] = {s0: [1.0, 1.0, 1.0]}
    dead: dict[int, float] = {}
    hits_mean = damage_mean = 0.0
    for i, attack in enumerate(group):
        first = i == 0
        h, d = (hits, damage) if first else (None, None)
        alive = math.fsum(w[0] for w in weights.values())
        hm, dm = _known_means(attack, h, d)
        hits_mean += alive * hm
        damage_mean += alive * dm
        out: dict[int, list[float]] = {}
        if first and failed_saves is not None:
            assert damage is not None
            s_after = max(s0 - damage, 0)
            out[s_after] = [r**failed_saves for r in radii]
            dead[s_after] = 1.0 - out[s_after][0]
            weights = out
            continue
        dist = _damage_dist(attack, h, d)
        base = [1.0 - q + q * r for r in radii]  # E[r^X] for one forced save
        for s, w in weights.items():
            for dmg, pd in enumerate(dist):
                if not pd:
                    continue
                s_after = s - dmg if dmg < s else 0
                forced = max(dmg if attack.strike else dmg - s, 0)
                vec = out.get(s_after)
                if vec is None:
                    vec = out[s_after] = [0.0, 0.0, 0.0]
                factors = [b**forced for b in base]
                for j in range(3):
                    vec[j] += w[j] * pd * factors[j]
                lost = w[0] * pd * (1.0 - factors[0])
                if lost:
                    dead[s_after] = dead.get(s_after, 0.0) + lost
        weights = out
    shields = [0.0] * (s0 + 1)
    for s, w in weights.items():
        shields[s] += w[0]
    for s, p in dead.items():
        shields[s] += p
    survive = math.fsum(w[0] for w in weights.values())
    nothing = math.fsum(w[1] for w in weights.values())
    not_x = 2 / 3 + math.fsum(w[2] for w in weights.values()) / 3
    destroyed = 1.0 - survive
    outcomes = {
        "destroyed": destroyed,
        "killed": destroyed / 2,
        "explodes": destroyed / 2,
        "immobilised": 1.0 - not_x,
        "gun-crippled": 1.0 - not_x,
        "weapon-crippled": 1.0 - not_x,
        "no-effect": nothing,
    }
    return DZ3Odds(kind=_kind(group), figures=1, shields=s0, hits_mean=hits_mean,
                damage_mean=damage_mean, shields_left=tuple(shields),
                casualties=(survive, destroyed), p_break=0.0, vehicle=outcomes)


def _kind(group: list[Attack]) -> str:
    kinds = {a.kind for a in group}
    return kinds.pop() if len(kinds) == 1 else "mixed"


def split_fire_odds(plan: Sequence[tuple[Sequence[Attack], Target]], *,
                    leader_near: Sequence[bool | None] | bool | None = False,
                    morale_option: str = PER_ATTACK) -> list[DZ3Odds]:
    """Split fire (DZ3 §6): the odds per target, each target's groups in order."""
    leaders = (list(leader_near) if isinstance(leader_near, Sequence)
               else [leader_near] * len(plan))
    return [attack_odds(list(attacks), target, leader_near=leader, morale_option=morale_option)
            for (attacks, target), leader in zip(plan, leaders, strict=True)]


# --------------------------------------------------------------------------- facts
def _int(facts: Mapping[str, Any], key: str, default: int | None = None) -> int | None:
    value = facts.get(key, default)
    if value is None or isinstance(value, bool):
        return default
    return int(value)


def odds_from_facts(facts: Mapping[str, Any], morale_option: str = PER_ATTACK,
                    leader_near: bool | None = None) -> DZ3Odds:
    """Odds from the engine's ``ctx.facts["attack"]`` dict (see ``combat``'s docstring),
    given the dice rolled so far.

    Keys: ``kind`` (shooting | melee | explosion | morale), ``dice``, ``to_hit``,
    ``vs_shields`` (0 in melee), ``strike``, ``shields``, ``figures``, ``save``,
    ``vehicle``, ``own_leader``, ``morale_target`` (N+ *after* the leader bonus; 0
    until known), ``stage`` (see :data:`STAGES`), ``hits``, ``damage``,
    ``failed_saves``.
    Until ``morale_target`` is known the morale comes from the target's skill (read
    back from its save, DZ3 §6/§10) and ``leader_near`` (None: unknown, both cases),
    except that a target whose ``own_leader`` is alive gets the leader's +1, as the
    engine gives it without asking (DZ3 §11, the app's ruling); the odds assume the
    owner keeps the leader while another figure is left (the casualty default).
    ``kind == "morale"``: a test on its own by ``figures`` figures.
    An explosion (DZ3 §9) is D6 points of damage, drained from shields then saved.
    """
    kind = facts.get("kind", "shooting")
    figures = _int(facts, "figures", 0) or 0
    save = _int(facts, "save", 7) or 7
    known_morale = _int(facts, "morale_target", 0) or 0
    if known_morale:
        morale, leader_near = known_morale, False
    else:
        leader_near = True if facts.get("own_leader") else leader_near
        skill = {v: k for k, v in tables.SAVE.items()}.get(save)
        morale = tables.MORALE[skill] if skill else 0
    if kind == "morale":
        return morale_test_odds(figures, morale, leader_near)
    if kind not in ("shooting", "melee", "explosion"):
        raise ValueError(f"unknown attack kind {kind!r}")
    stage = facts.get("stage", "declared")
    if stage not in STAGES:
        raise ValueError(f"unknown stage {stage!r}; expected one of {STAGES}")
    reached = STAGES.index(stage)
    target = Target(shields=_int(facts, "shields", 0) or 0, figures=figures, save=save,
                    morale=morale, vehicle=bool(facts.get("vehicle", False)))
    failed = _int(facts, "failed_saves", 0) or 0
    failed_known = reached >= 4 or (reached == 3 and failed > 0)
    if kind == "explosion":
        # D6 points of damage (DZ3 §9): "hits" are damage points, no to-hit roll
        blast = Attack(dice=6, to_hit=1, vs_shields=None)
        damage: int | None = _int(facts, "dice", 0) or 0
        if damage:
            return attack_odds(blast, target, leader_near=leader_near,
                               morale_option=morale_option, hits=damage, damage=damage,
                               failed_saves=failed if failed_known else None)
        each = [attack_odds(blast, target, leader_near=leader_near,
                            morale_option=morale_option, hits=k, damage=k)
                for k in range(1, 7)]
        return mix_odds([(1 / 6, o) for o in each], kind="explosion")
    melee = kind == "melee"
    vs = 0 if melee else (_int(facts, "vs_shields", 0) or 0)
    attack = Attack(dice=_int(facts, "dice", 0) or 0, to_hit=_int(facts, "to_hit", 7) or 7,
                    vs_shields=vs or None, strike=bool(facts.get("strike", False)))
    hits = _int(facts, "hits") if reached >= 2 else None
    damage = _int(facts, "damage") if reached >= 3 else None
    if stage == "done" and hits == 0:
        damage = 0
    if melee and hits is not None:
        damage = hits
    return attack_odds(attack, target, leader_near=leader_near, morale_option=morale_option,
                       hits=hits, damage=damage,
                       failed_saves=failed if failed_known and damage is not None else None)


def mix_odds(parts: Sequence[tuple[float, DZ3Odds]], kind: str = "") -> DZ3Odds:
    """The odds of a mixture: with chance ``w`` the situation of ``odds`` (weights sum
    to 1; all parts about the same target)."""
    first = parts[0][1]

    def lin(get: Any) -> tuple[float, ...]:
        rows = [get(o) for _, o in parts]
        return tuple(math.fsum(w * r[i] for (w, _), r in zip(parts, rows, strict=True))
                     for i in range(len(rows[0])))

    def num(get: Any) -> float | None:
        vals = [get(o) for _, o in parts]
        if any(v is None for v in vals):
            return None
        return math.fsum(w * v for (w, _), v in zip(parts, vals, strict=True))

    vehicle = None
    if first.vehicle is not None:
        vehicle = {k: num(lambda o, k=k: o.vehicle[k]) for k in first.vehicle}
    return DZ3Odds(kind=kind or first.kind, figures=first.figures, shields=first.shields,
                hits_mean=num(lambda o: o.hits_mean) or 0.0,
                damage_mean=num(lambda o: o.damage_mean) or 0.0,
                shields_left=lin(lambda o: o.shields_left),
                casualties=lin(lambda o: o.casualties),
                p_break=num(lambda o: o.p_break),
                p_break_with_leader=num(lambda o: o.p_break_with_leader),
                vehicle=vehicle)


# --------------------------------------------------------------------------- model
def target_from_unit(unit: Any, shields: int | None = None, figures: int | None = None) -> Target:
    """A :class:`Target` from a :class:`~.model.Unit` (full strength unless told) or a
    :class:`~.state.UnitState` (its shields and figures left)."""
    if figures is None:
        left = getattr(unit, "figures_left", None)  # a state.UnitState during play
        figures = 1 if unit.vehicle else (len(unit.figures) if left is None else left)
    return Target(
        shields=unit.shields if shields is None else shields,
        figures=figures,
        save=tables.SAVE[unit.skill],
        morale=tables.MORALE[unit.skill],
        vehicle=unit.vehicle,
        name=unit.name,
    )


def shooting_attacks(force: Any, unit: Any, target: Any, cover: str,
                     weapons: Sequence[str] | None = None, *,
                     gun_crippled: bool = False) -> list[Attack]:
    """One :class:`Attack` per weapon group of ``unit`` shooting at ``target`` (DZ3 §6).

    ``weapons``: ids to fire (default all the unit carries, in order of first
    appearance); ``id:profile`` picks a profile by name (default the first).
    Every figure carrying the weapon fires it: dice = sum of its shots.
    ``gun_crippled``: the shooter is a vehicle with a crippled gun (fixed 6+, DZ3-R7).
    Raises :class:`ValueError` with the choices on an unknown weapon or profile.
    """
    if cover not in tables.COVERS:
        raise ValueError(f"unknown cover {cover!r}; expected one of {', '.join(tables.COVERS)}")
    carried = carried_weapons(unit)
    chosen = list(weapons) if weapons else carried
    to_hit = (tables.CRIPPLED_TO_HIT if gun_crippled
              else tables.TO_HIT[(unit.skill, cover)])
    out: list[Attack] = []
    for item in chosen:
        wid, _, pname = item.partition(":")
        if wid not in carried:
            raise ValueError(f"unit {unit.name!r} carries no weapon {wid!r}; "
                             f"it carries: {', '.join(carried) or 'nothing'}")
        weapon = force.weapons[wid]
        profile = weapon.profiles[0]
        if pname:
            named = [p for p in weapon.profiles if p.name == pname]
            if not named:
                names = ", ".join(p.name for p in weapon.profiles)
                raise ValueError(f"weapon {wid!r} has no profile {pname!r}; profiles: {names}")
            profile = named[0]
        # a figure listing the weapon twice carries (and fires) two of them
        count = sum(fig.weapons.count(wid) for fig in unit.figures)
        label = weapon.name if len(weapon.profiles) == 1 else f"{weapon.name} ({profile.name})"
        out.append(Attack(
            dice=count * profile.shots,
            to_hit=to_hit,
            vs_shields=tables.VS_SHIELDS[(profile.power, target.shield_strength)],
            strike=profile.strike,
            label=label,
            short_range=profile.short_range,
        ))
    return out


def melee_attack(unit: Any, target: Any, figures: int | None = None, *,
                 weapon_crippled: bool = False) -> Attack:
    """The melee attack of ``unit`` on ``target`` (DZ3 §7): figures x MA dice."""
    n = len(unit.figures) if figures is None else figures
    to_hit = (tables.CRIPPLED_TO_HIT if weapon_crippled
              else tables.MELEE_TO_HIT[(unit.skill, target.skill)])
    return Attack(dice=n * unit.melee_attacks, to_hit=to_hit, vs_shields=None, label="melee")


def target_line(target: Target, skill: str, *, leader_near: bool, option: str,
                name: str = "", own_leader: bool = False) -> str:
    """One line describing the target of an odds question; ``own_leader``: the bonus
    comes from a leader of the unit's own (DZ3 §11)."""
    who = f"{name}, " if name else ""
    if target.vehicle:
        return (f"Target: {who}a {skill} vehicle, {plural(target.shields, 'shield')}, save "
                f"{target.save}+ (damage table, DZ3 §9)")
    leader = ("its own leader (+1 morale, DZ3 §11)" if own_leader
              else "a friendly leader within 6\"" if leader_near else "no leader near")
    return (f"Target: {who}{plural(target.figures, f'{skill} figure')}, "
            f"{plural(target.shields, 'shield')}, "
            f"save {target.save}+, morale {target.morale}+, {leader}; morale {option} "
            "(DZ3-R11)")


def odds_cli(attacker: tuple[Any, Any], target: tuple[Any, Any],
             settings: Mapping[str, Any]) -> tuple[Odds, list[str]]:
    """``deathzap odds --attacker FILE:UNIT --target FILE:UNIT`` for Deathzap 3 forces
    (see :meth:`Ruleset.odds_cli`). Raises ``ValueError`` saying what is wrong."""
    aforce, aunit = attacker
    _tforce, tunit = target
    weapons = settings.get("weapons")
    crippled = bool(settings.get("crippled"))
    full = target_from_unit(tunit)
    tgt = target_from_unit(
        tunit, at_most(settings.get("shields"), "shields", full.shields,
                       f"{tunit.name}'s full shields: DZ3 §8"), settings.get("figures"))
    if tunit.vehicle and tgt.figures != 1:
        raise ValueError("a vehicle is one model (DZ3 §9): leave out --figures")
    at_most(tgt.figures, "figures", full.figures, f"{tunit.name}'s figures")
    if settings.get("melee"):
        if weapons or settings.get("cover"):
            raise ValueError("--weapons and --cover are for shooting; leave them out "
                             "with --melee (DZ3 §7)")
        attacks = [melee_attack(aunit, tunit, weapon_crippled=crippled)]
    else:
        cover = settings.get("cover")
        if cover is None:
            raise ValueError("missing --cover (open, soft or hard) for shooting (DZ3 §6)")
        attacks = shooting_attacks(aforce, aunit, tunit, cover, weapons, gun_crippled=crippled)
        if not attacks:
            raise ValueError(f"{aunit.name} carries no weapons to shoot")
    lines = [f"Attacker: {aunit.name} ({aunit.skill})"]
    for a in attacks:
        vs = "every hit is damage" if a.melee else f"{a.vs_shields}+ vs shields"
        strike = ", Strike" if a.strike else ""
        rng = ", Short Range: assumes the target is within 12\"" if a.short_range else ""
        dice = "1 die" if a.dice == 1 else f"{a.dice} dice"
        lines.append(f"  {a.label}: {dice} at {a.to_hit}+, {vs}{strike}{rng}")
    # The engine gives a unit with a leader of its own the +1 without asking (DZ3 §11,
    # the app's ruling); the owner keeps the leader while another figure is left.
    own_leader = any(f.leader for f in tunit.figures)
    leader_near = own_leader or bool(settings.get("leader_near"))
    option = settings.get("morale_option") or PER_ATTACK
    lines.append(target_line(tgt, tunit.skill, leader_near=leader_near, option=option,
                             name=tunit.name, own_leader=own_leader))
    known = {k: settings.get(k) for k in ("hits", "damage", "failed_saves")}
    return attack_odds(attacks, tgt, leader_near=leader_near, morale_option=option,
                       **known), lines

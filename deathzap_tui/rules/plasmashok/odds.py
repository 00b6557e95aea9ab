"""Exact odds of a Deathzap Plasmashok attack: shooting (PS §5), melee (PS §6) and
special combat (PS §4). Pure stdlib, no I/O.

The sums are in :mod:`.oddsmath` (blocking and matching dice, saves, the models the
wounds remove); this module turns them into :class:`~deathzap_tui.rules.odds.WoundsOdds`,
reads the engine's facts for the odds panel (:func:`odds_from_facts`, conditioned on
the dice rolled so far) and the force files for ``deathzap odds`` (:func:`odds_cli`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from deathzap_tui.rules.distributions import mean
from deathzap_tui.rules.narration import plural
from deathzap_tui.rules.odds import WoundsOdds, at_most, flag, refuse
from deathzap_tui.rules.plasmashok import tables
from deathzap_tui.rules.plasmashok.oddsmath import (
    Group,
    casualties_from_wounds,
    check_target,
    damage_dist,
    hits_of,
    point,
    special_wounds,
    work,
    wounds_from_damage,
)

SHOOTING_STAGES = ("declared", "attack", "defence", "strength", "size", "saves", "done")
"""``facts["stage"]`` of a shooting or melee attack: the roll asked for next
(``declared``: no die rolled yet; ``attack``: the next weapon group's attack dice,
earlier groups' faces known). Faces are known for the rolls before it."""
SPECIAL_STAGES = ("declared", "attack", "defence", "done")
"""``facts["stage"]`` of a special-combat attack (PS §4)."""

NO_BREAK: dict[str, Any] = {"break_text": "", "break_label": "", "break_removes": False}
"""Plasmashok has no after-effect of one attack: morale is tested at the end of the
turn (PS §7), on every casualty of the turn."""

PANEL_WORK = 6_500
"""The largest attack the odds panel works out (:func:`~.oddsmath.work`, about a
microsecond each): the panel computes in the key handler (``headless/oddsview.py``) and
one refresh may hold several attacks (a split fire, a Radius Weapon's blast over
several units), so each stays at about 6 ms, three of them near 20 ms. 25 dice of
strength 6 (a vehicle's three weapons, 40 Arc dice and 12 rifles at 20 infantry)
are within it; larger: no odds shown (``benchmarks/odds.py``)."""
CLI_WORK = 300_000
"""The largest attack ``deathzap odds`` works out (a fraction of a second to a
couple of seconds)."""

TARGET_FLAGS = tuple(flag(k) for k in ("models", "wounds_per_model", "wounded", "pending"))
"""The target's numbers as ``deathzap odds`` names them (:func:`check_target`)."""


# --------------------------------------------------------------------------- odds
def _odds(kind: str, hits: Sequence[float] | None, hits_mean: float,
          damage: Sequence[float] | None, wounds: Sequence[float],
          target: tuple[int, int, int, int], **labels: Any) -> WoundsOdds:
    casualties = casualties_from_wounds(wounds, *target)
    return WoundsOdds(kind=kind, figures=len(casualties) - 1, casualties=tuple(casualties),
                hits=None if hits is None else tuple(hits), hits_mean=hits_mean,
                damage_mean=mean(damage) if damage is not None else 0.0,
                damage_step=False, damage=None if damage is None else tuple(damage),
                wounds=tuple(wounds), **NO_BREAK, **labels)


def shooting_odds(groups: Group | Sequence[Group], defence: int, size: int, save: int,
                  models: int, per_model: int = 1, wounded: int = 0, pending: int = 0, *,
                  kind: str = "shooting",
                  attack_faces: Sequence[Sequence[int]] | None = None,
                  defence_faces: Sequence[int] | None = None,
                  strength_faces: Sequence[Sequence[int]] | None = None,
                  size_faces: Sequence[int] | None = None,
                  damage: int | None = None, wounds: int | None = None) -> WoundsOdds:
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
    top = len(dmg) - 1
    if damage is not None:
        if not 0 <= damage <= top:
            raise ValueError(f"{damage} damage is impossible: at most {top}")
        dmg = point(damage, top)
    if wounds is not None:
        most = top if damage is None else damage
        if not 0 <= wounds <= most:
            raise ValueError(f"{wounds} wounds is impossible: at most {most}")
        wound_dist = point(wounds, top)
    else:
        wound_dist = wounds_from_damage(dmg, save)
    return _odds(kind, hits, hits_mean, dmg, wound_dist, (models, per_model, wounded,
                                                          pending))


def special_odds(dice: int, defence: int, models: int, per_model: int = 1,
                 wounded: int = 0, pending: int = 0, *,
                 attack_faces: Sequence[int] | None = None,
                 defence_faces: Sequence[int] | None = None,
                 wounds: int | None = None) -> WoundsOdds:
    """Exact odds of a special-combat attack (PS §4): the unblocked attack dice are the
    wounds (no damage step, no saves: app reading 5), so the odds show wounds and no
    hits (``hits_step`` off)."""
    if dice < 0 or defence < 0:
        raise ValueError("special-combat dice are 0 or more (PS §4)")
    check_target(models, per_model, wounded, pending)
    if wounds is not None:
        if not 0 <= wounds <= dice:
            raise ValueError(f"{wounds} wounds from {dice} dice is impossible")
        dist = point(wounds, dice)
    else:
        dist = special_wounds(dice, defence, attack_faces=attack_faces,
                              defence_faces=defence_faces)
    return _odds("special", None, 0.0, None, dist, (models, per_model, wounded, pending),
                 hits_step=False, kind_text="special combat")


# --------------------------------------------------------------------------- facts
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


def odds_from_facts(facts: Mapping[str, Any]) -> WoundsOdds | None:
    """Odds from the engine's ``ctx.facts["attack"]`` (the format is in
    ``attack`` and ``combat``), conditioned on the rolls before its ``stage``
    (:data:`SHOOTING_STAGES`, :data:`SPECIAL_STAGES`) and on the groups already
    rolled at the attack and strength stages (one request per group). ``None`` for
    an attack too large to work out in the key handler (:data:`PANEL_WORK`)."""
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
    return plural(n, "die", "dice")


def target_words(models: int, per_model: int, wounded: int, pending: int) -> str:
    """``6 models of 1 wound, 2 wounds pending this bracket (PS §3)``."""
    parts = [f"{plural(models, 'model')} of {plural(per_model, 'wound')}"]
    if wounded:
        parts.append(f"{wounded} on its wounded model (app reading 1)")
    if pending:
        parts.append(f"{plural(pending, 'wound')} pending this bracket (PS §3)")
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
                  target_name: str = "") -> tuple[WoundsOdds, list[str]]:
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
    check_target(*target, TARGET_FLAGS)
    if work(groups) > CLI_WORK:
        raise ValueError("that attack is too large to work out exactly here: give fewer "
                         "attack dice or less strength")
    odds = shooting_odds(groups, defence, size, save, *target, kind=kind)
    why = f" ({defence_why})" if defence_why else ""
    who = f"{target_name}, " if target_name else ""
    return odds, [*head, *(group_line(g) for g in groups),
                  f"  Target: {who}{target_words(*target)}; {_dice(defence)} of defence"
                  f"{why}, {_dice(size)} of size, {save_words(save)}"]


def special_case(dice: int, value: int, target: tuple[int, int, int, int],
                 head: str = "Special combat (PS §4)") -> tuple[WoundsOdds, list[str]]:
    """``deathzap odds`` for special combat (PS §4): ``dice`` attack dice against a
    defender of special-combat ``value`` (it rolls ``value`` + 2)."""
    check_target(*target, TARGET_FLAGS)
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


def _in_blast(settings: Mapping[str, Any], weapon: Any, models: int) -> int:
    """A Radius Weapon's dice per gun: the target's models in the blast (PS §5)."""
    blast = settings.get("in_blast")
    if blast is None:
        raise ValueError(f"{weapon.name} fires at every model near the aimed-at one: give "
                         "--in-blast N, the target's models within "
                         f"{tables.RADIUS_REACH}\" of it (PS §5, Radius)")
    if not 1 <= int(blast) <= models:
        raise ValueError(f"--in-blast {blast}: the target has {plural(models, 'model')}")
    return int(blast)


def _shooting_groups(aforce: Any, aunit: Any, settings: Mapping[str, Any], models: int,
                     size: int) -> tuple[list[Group], list[str]]:
    """The groups of a unit firing every chosen weapon at a target of ``models``
    models and ``size`` (PS §5 step 1, :func:`tables.weapon_dice`); a weapon whose
    ``range`` is shorter than ``distance`` holds fire (app reading 6). Returns the
    groups and notes."""
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
        if weapon.range and distance > weapon.range:
            notes.append(f"  {weapon.name}: reaches {weapon.range}\", holds fire at "
                         f"{distance}\" (app reading 6)")
            continue
        guns = sum(m.weapons.count(wid) for m in aunit.figures)
        blast = (_in_blast(settings, weapon, models)
                 if weapon.shots == tables.SHOTS_RADIUS else 0)
        groups.append(Group(tables.weapon_dice(weapon, guns, size, blast),
                            weapon.strength, weapon.damage, weapon.name))
    if not groups:
        raise ValueError(f"no weapon of {aunit.name} reaches {distance}\" (PS-R2)")
    return groups, notes


def _special_cli(aunit: Any, tunit: Any, settings: Mapping[str, Any],
                 spec: tuple[int, int, int, int]) -> tuple[WoundsOdds, list[str]]:
    """``--special-combat`` (PS §4): the unit's special-combat dice against the
    target's value + 2."""
    refuse(settings, (*SHOOTING_ONLY, "melee"), "shooting or melee, not special "
           "combat (PS §4: cover and range do not matter)")
    if not aunit.special:
        raise ValueError(f"{aunit.name} has no special combat (PS §4)")
    return special_case(aunit.special, tunit.special, spec,
                        f"Special combat (PS §4): {aunit.name} at {tunit.name}")


def _melee_cli(aunit: Any, tunit: Any, settings: Mapping[str, Any],
               spec: tuple[int, int, int, int]) -> tuple[WoundsOdds, list[str]]:
    """``--melee`` (PS §6): every model's attacks with the unit's profile; the
    target's defence gains the size bonus (:func:`tables.melee_defence_dice`)."""
    refuse(settings, SHOOTING_ONLY, "shooting (PS §5), not melee")
    if aunit.melee is None:
        raise ValueError(f"{aunit.name} cannot attack in melee: its force file gives "
                         f"no {', '.join(aunit.melee_missing) or 'melee profile'} "
                         "(PS-R1)")
    stats = tables.TYPES[tunit.type]
    size = spec[0] * stats.size
    mine = len(aunit.figures) * tables.TYPES[aunit.type].size
    defence = tables.melee_defence_dice(stats.defence, size, mine)
    bonus = defence - stats.defence
    group = Group(len(aunit.figures) * aunit.melee.attacks, aunit.melee.strength,
                  aunit.melee.damage, "Melee")
    why = f"{stats.name} {stats.defence}" + (
        f" + {bonus} for size {size} against {mine} (PS §6)" if bonus else "")
    return shooting_case([group], defence, size, tunit.save, spec,
                         [f"Melee (PS §6): {aunit.name} at {tunit.name}"],
                         kind="melee", defence_why=why, target_name=tunit.name)


def _shooting_cli(aforce: Any, aunit: Any, tunit: Any, settings: Mapping[str, Any],
                  spec: tuple[int, int, int, int]) -> tuple[WoundsOdds, list[str]]:
    """Shooting (PS §5): every chosen weapon at the target, its defence from the
    ``cover`` and ``distance`` (:func:`tables.shooting_defence_dice`)."""
    for key in ("cover", "distance"):
        if settings.get(key) is None:
            raise ValueError(f"missing {flag(key)} for shooting (PS §5 step 2)"
                             + (": open, soft or hard" if key == "cover" else ""))
    stats = tables.TYPES[tunit.type]
    size = spec[0] * stats.size
    groups, notes = _shooting_groups(aforce, aunit, settings, spec[0], size)
    cover, distance = str(settings["cover"]), int(settings["distance"])
    why = f"{stats.name} {stats.defence}"
    if extra := tables.COVER_DICE[cover]:
        why += f" + {extra} {cover} cover"
    if far := tables.range_dice(distance):
        why += f" + {far} for {distance}\""
    return shooting_case(groups, tables.shooting_defence_dice(stats.defence, cover, distance),
                         size, tunit.save, spec,
                         [f"Shooting (PS §5): {aunit.name} at {tunit.name}", *notes],
                         defence_why=why, target_name=tunit.name)


def odds_cli(attacker: tuple[Any, Any], target: tuple[Any, Any],
             settings: Mapping[str, Any]) -> tuple[WoundsOdds, list[str]]:
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
    at_most(settings.get("distance"), "distance", tables.MAX_DISTANCE,
            "the longest distance the game takes")
    if settings.get("wounds_per_model") is not None:
        raise ValueError(f"--wounds-per-model: with force files the target's type gives "
                         f"it ({stats.name}: {stats.wounds}, PS §2); leave it out")
    models = _setting(settings, "models", len(tunit.figures))
    if not 1 <= models <= len(tunit.figures):
        raise ValueError(f"--models {models}: {tunit.name} has "
                         f"{plural(len(tunit.figures), 'model')}")
    spec = (models, stats.wounds, _setting(settings, "wounded", 0),
            _setting(settings, "pending", 0))
    if settings.get("special_combat"):
        return _special_cli(aunit, tunit, settings, spec)
    if settings.get("melee"):
        return _melee_cli(aunit, tunit, settings, spec)
    return _shooting_cli(aforce, aunit, tunit, settings, spec)

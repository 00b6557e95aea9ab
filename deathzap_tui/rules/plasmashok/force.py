"""Deathzap Plasmashok force files: validation into :class:`~.model.Force` and the
warnings ``deathzap check`` shows (PS §1, §2, §5, §9, PS-R1..R3).

Pure: this module sees a parsed table, never a file. Every problem is reported at
once, at the path of the offending value (``units[2].figures[0].weapons[1]``,
``weapons.spike.shots``, ``units[0].melee.strength``); unknown keys are errors at
every level. The reading helpers are shared with the other rulesets
(``rules/validation.py``).

The file's shape (see ``forces/ps-*.toml``)::

    name = "..."
    ruleset = "plasmashok"

    [weapons.<id>]          # optional: the force's own weapon (PS-R2: a spike)
    name = "Spike"          # optional, default from the id
    shots = 1               # >= 1, or "target-size" or "radius" (PS §5)
    strength = 2            # >= 1
    damage = 1              # >= 1
    points = 2              # optional for fixed shots (shots x strength x damage);
                            # required for "target-size" and "radius"
    range = 6               # optional: longest reach in inches
    kind = "heavy"          # optional: heavy | super-heavy (PS §9 limits; only the
                            # table's rifles and repeaters are rifles)

    [[units]]
    name = "..."
    type = "infantry"       # PS §2: infantry | beasts | light-vehicles | big-beasts
                            # | vehicles | monsters
    training = "regular"    # PS §1: elite | regular | recruit
    base_cost = 5           # per model (PS §9); optional for big beasts and light
                            # vehicles (PS-R3: 12)
    shields = 0             # optional Advanced Shields levels (PS §9)
    special = 0             # optional special-combat value 0..3 (PS §4, §9)
    melee = { attacks = 1, strength = 1, damage = 1 }   # per model (PS §6, PS-R1)
    figures = [ { name = "Trooper", count = 5, weapons = ["basic-rifle"] } ]

Every PS §5 weapon is always there by its id (:data:`tables.WEAPONS`); a force's
own ``[weapons.*]`` may not reuse one of those ids.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Iterable, Mapping
from typing import Any

from deathzap_tui.rules.narration import plural
from deathzap_tui.rules.plasmashok import tables
from deathzap_tui.rules.plasmashok.model import Force, Model, Unit
from deathzap_tui.rules.plasmashok.tables import Melee, ModelType, WeaponProfile
from deathzap_tui.rules.problems import InvalidInput, Problem, key_path
from deathzap_tui.rules.validation import (
    MAX_MODELS_PER_UNIT,
    MAX_UNITS,
    MAX_WEAPONS,
    Reader,
    begin_force,
    display_name,
    duplicate_name_warnings,
    read_figures,
    read_units,
    read_weapons,
    show,
    unused_warnings,
    warning,
)

RULESET_ID = tables.RULESET_ID

TOP_KEYS = ("name", "ruleset", "weapons", "units")
WEAPON_KEYS = ("name", "shots", "strength", "damage", "points", "range", "kind")
UNIT_KEYS = ("name", "type", "training", "base_cost", "shields", "special", "melee",
             "figures")
MELEE_KEYS = ("attacks", "strength", "damage")
FIGURE_KEYS = ("name", "count", "weapons")

VARIABLE_SHOTS = (tables.SHOTS_TARGET_SIZE, tables.SHOTS_RADIUS)
RIFLE, SUPER_HEAVY = "rifle", "super-heavy"
DEFAULT_KIND = "heavy"
"""A force's own weapon is ``heavy`` unless it says otherwise: PS §9 limits anything
that is not a rifle or repeater, and a spike (PS-R2) is neither."""
ORGANISATION = ("the light vehicle, big beast, vehicle and monster units need {used} force "
                "points, but the infantry and beast units unlock only {unlocked} (PS §9)")


# --- weapons (PS §5, PS-R2) ----------------------------------------------------------


def _shots(r: Reader, table: Mapping[str, Any], path: str) -> int | str | None:
    """A whole number of shots, or one of the table's two variable counts (PS §5)."""
    raw = table.get("shots")
    if not isinstance(raw, str):
        return r.int(table, "shots", path, minimum=1,
                     what='shots: a whole number, "target-size" or "radius" (PS §5)')
    if raw in VARIABLE_SHOTS:
        return raw
    r.problem(key_path(path, "shots"), f"{show(raw)} is not a number of shots; use a "
              'whole number of 1 or more, "target-size" or "radius" (PS §5)')
    return None


def _weapon(r: Reader, weapon_id: object, raw: object, path: str) -> WeaponProfile | None:
    """A force's own weapon (PS-R2), priced by the PS §5 check unless it says."""
    table = r.table(raw, path, "a weapon")
    if table is None:
        return None
    before = len(r.problems)
    wid = r.item_id(weapon_id, path, "weapon") or "weapon"
    if wid in tables.WEAPONS:
        r.problem(path, f"{show(wid)} is a PS §5 weapon every force has; give your own "
                  f"weapon another id (PS §5 weapons: {', '.join(tables.WEAPONS)})")
    r.known_keys(table, path, WEAPON_KEYS)
    name = r.name(table, "name", path, default=display_name(wid))
    shots = _shots(r, table, path)
    strength = r.int(table, "strength", path, what="strength (PS §5)", minimum=1)
    damage = r.int(table, "damage", path, what="damage (PS §5)", minimum=1)
    priced = (tables.table_points(shots, strength, damage)
              if isinstance(shots, int) and strength is not None and damage is not None
              else 0)
    points = r.int(table, "points", path, required=isinstance(shots, str), default=priced,
                   what=f"the weapon's points (PS §5: {show(shots)} shots cannot be "
                   "priced as shots x strength x damage)")
    reach = r.int(table, "range", path, what="longest range in inches", minimum=1,
                  required=False, default=0)
    kind = _kind(r, table, path)
    if (len(r.problems) > before or name is None or shots is None or strength is None
            or damage is None or points is None or reach is None or kind is None):
        return None
    return WeaponProfile(wid, name, shots, strength, damage, points, kind, reach)


def _kind(r: Reader, table: Mapping[str, Any], path: str) -> str | None:
    """PS §9: a force's own weapon is heavy or super-heavy; only the table's basic and
    advanced rifles and repeaters count as rifles."""
    if "kind" not in table:
        return DEFAULT_KIND
    if table["kind"] == RIFLE:
        r.problem(key_path(path, "kind"), f"{show(RIFLE)}: only the PS §5 table's basic "
                  "and advanced rifles and repeaters are rifles; a force's own weapon is "
                  f"{' or '.join(tables.OWN_WEAPON_KINDS)} (PS §9)")
        return None
    return r.choice(table, "kind", path, what="weapon kind (PS §9)",
                    choices=tables.OWN_WEAPON_KINDS)


# --- units (PS §1, §2, §9, PS-R1, PS-R3) -----------------------------------------------


def _melee(r: Reader, table: Mapping[str, Any], path: str,
           stats: ModelType | None) -> tuple[Melee | None, tuple[str, ...]]:
    """The unit's melee profile and, when it has none, the fields the file left out
    (PS-R1). No table: the type's PS-R1 profile if the seed kept one. A partial table
    is not an error; the unit loads but cannot attack in melee (warned about)."""
    if "melee" not in table:
        profile = stats.melee if stats is not None else None
        missing = () if profile else tuple(key_path("melee", k) for k in MELEE_KEYS)
        return profile, missing
    where = key_path(path, "melee")
    mtable = r.table(table["melee"], where, "a melee profile")
    if mtable is None:
        return None, ()
    r.known_keys(mtable, where, MELEE_KEYS)
    values = {k: r.int(mtable, k, where, what=f"melee {k} per model (PS §6)", minimum=1)
              for k in MELEE_KEYS if k in mtable}
    missing = tuple(key_path("melee", k) for k in MELEE_KEYS if k not in mtable)
    read = [v for v in values.values() if v is not None]
    if missing or len(read) < len(MELEE_KEYS):
        return None, missing
    return Melee(*read), ()


def _models_problem(stats: ModelType, count: int) -> str:
    """PS §1: one vehicle or one monster; PS-R3: 1-3 big beasts or light vehicles."""
    least, most = stats.models
    if least == most:
        return f"a unit of {stats.name} is exactly {most} model (PS §1), not {count}"
    return f"a unit of {stats.name} has {least} to {most} models (PS-R3), not {count}"


def _check_arms(r: Reader, table: Mapping[str, Any], path: str, stats: ModelType,
                profiles: Mapping[str, WeaponProfile]) -> None:
    """PS §9 weapon limits, line by line of the (already valid) ``figures`` array:
    none on beasts and big beasts, at most ``max_weapons`` per model, super-heavy
    weapons on vehicles and monsters only, and at most 2 models of an infantry unit
    with anything but rifles and repeaters. Weapons whose own definition failed are
    left out (their problem is already reported)."""
    carriers = 0
    for j, line in enumerate(table["figures"]):
        fpath = f"{key_path(path, 'figures')}[{j}]"
        wpath = key_path(fpath, "weapons")
        refs = list(line.get("weapons", ()))
        if not refs:
            continue
        if stats.max_weapons == 0:
            r.problem(wpath, f"{stats.name} never carry weapons (PS §9)")
            continue
        if stats.max_weapons is not None and len(refs) > stats.max_weapons:
            r.problem(wpath, f"{len(refs)} weapons on one model; {stats.name} carry at "
                      f"most {stats.max_weapons} (PS §9)")
        arms = [profiles.get(ref) for ref in refs]
        for k, weapon in enumerate(arms):
            if weapon is not None and weapon.kind == SUPER_HEAVY and not stats.super_heavy:
                r.problem(f"{wpath}[{k}]", f"{show(weapon.name)} is super-heavy: only "
                          "Vehicles and Monsters may carry one (PS §9)")
        if stats.id == "infantry" and any(w is not None and w.kind != RIFLE for w in arms):
            before = carriers
            carriers += line.get("count", 1)
            if before <= tables.INFANTRY_HEAVY_CARRIERS < carriers:
                r.problem(fpath, f"with this line {carriers} models of the unit carry "
                          "something other than rifles and repeaters; an infantry unit "
                          f"may have at most {tables.INFANTRY_HEAVY_CARRIERS} (PS §9)")


def _unit(r: Reader, raw: object, path: str, own_ids: tuple[str, ...] | None, *,
          profiles: Mapping[str, WeaponProfile]) -> Unit | None:
    table = r.table(raw, path, "a unit")
    if table is None:
        return None
    before = len(r.problems)
    r.known_keys(table, path, UNIT_KEYS)
    name = r.name(table, "name", path)
    kind = r.choice(table, "type", path, what="model type (PS §2)",
                    choices=tables.MODEL_TYPES)
    training = r.choice(table, "training", path, what="training bracket (PS §1)",
                        choices=tables.BRACKETS)
    stats = tables.TYPES[kind] if kind is not None else None
    seed_cost = stats.base_cost if stats is not None else None
    base_cost = r.int(table, "base_cost", path,
                      what="the base cost per model (PS §9; PS-R3 gives one only for "
                      "Big Beasts and Light Vehicles)",
                      required=stats is not None and seed_cost is None,
                      default=seed_cost or 0)
    shields = r.int(table, "shields", path, what="Advanced Shields levels (PS §9)",
                    required=False)
    if stats is not None and shields is not None and shields > tables.max_shields(stats.id):
        r.problem(key_path(path, "shields"),
                  f"{stats.name} save on {stats.save}+ and Advanced Shields never make a "
                  f"save better than {tables.BEST_SAVE}+ (PS §9): at most "
                  f"{tables.max_shields(stats.id)}, not {shields}")
    special = r.int(table, "special", path, what="special-combat value (PS §4, §9)",
                    required=False)
    if special is not None and special > tables.MAX_SPECIAL:
        r.problem(key_path(path, "special"), "special combat may be bought at most "
                  f"{tables.MAX_SPECIAL} times (PS §9), not {special}")
    melee, missing = _melee(r, table, path, stats)
    known = None if own_ids is None else (
        *tables.WEAPONS, *(i for i in own_ids if i not in tables.WEAPONS))
    models = read_figures(r, table, path, known, keys=FIGURE_KEYS,
                          max_models=MAX_MODELS_PER_UNIT, build=Model)
    if models is not None and stats is not None:
        if not stats.models[0] <= len(models) <= stats.models[1]:
            r.problem(key_path(path, "figures"), _models_problem(stats, len(models)))
        _check_arms(r, table, path, stats, profiles)
    if len(r.problems) > before or models is None:
        return None
    assert name is not None and kind is not None and training is not None
    assert base_cost is not None and shields is not None and special is not None
    return Unit(name=name, type=kind, training=training, base_cost=base_cost,
                figures=tuple(models), melee=melee, melee_missing=missing,
                shields=shields, special=special)


def parse_force(data: Mapping[str, Any]) -> Force:
    """Validate a parsed force table into a :class:`Force`; raises
    :class:`InvalidInput` holding every problem found. ``Force.source`` keeps a copy
    of ``data`` so saves can embed the force exactly as written."""
    r, name = begin_force(data, TOP_KEYS, RULESET_ID)
    own = read_weapons(r, data, MAX_WEAPONS, _weapon)
    weapons = {**tables.WEAPONS, **(own or {})}
    units = read_units(r, data, MAX_UNITS, functools.partial(_unit, profiles=weapons))
    _check_organisation(r, data)
    if r.problems:
        raise InvalidInput(r.problems)
    assert name is not None
    return Force(name=name, weapons=weapons, units=units, ruleset=RULESET_ID,
                 source=copy.deepcopy(dict(data)))


# --- warnings --------------------------------------------------------------------------


def _check_organisation(r: Reader, data: Mapping[str, Any]) -> None:
    """PS §9 force organisation, an error: the units of known type (a unit with other
    problems still counts by its type) may not need more force points than they
    unlock."""
    raw = data.get("units")
    types = [u.get("type") for u in raw if isinstance(u, Mapping)] if isinstance(
        raw, list) else []
    unlocked, used = type_force_points(t for t in types if t in tables.TYPES)
    if used > unlocked:
        r.problem("units", ORGANISATION.format(used=used, unlocked=unlocked))


def type_force_points(type_ids: Iterable[str]) -> tuple[int, int]:
    """PS §9 force organisation for units of these types: (points unlocked by infantry
    and beast units, points used by light vehicle, big beast, vehicle and monster
    units)."""
    costs = [tables.TYPES[t].force_points for t in type_ids]
    return -sum(c for c in costs if c < 0), sum(c for c in costs if c > 0)


def force_points(force: Force) -> tuple[int, int]:
    """PS §9 force organisation of a loaded force (see :func:`type_force_points`)."""
    return type_force_points(u.type for u in force.units)


def _profile(melee: Melee) -> str:
    return f"{melee.attacks}/{melee.strength}/{melee.damage}"


def _unit_warnings(unit: Unit, path: str) -> list[Problem]:
    out: list[Problem] = []
    seed = unit.stats.melee
    if unit.melee is None:
        fix = (f"; leave the melee table out to use PS-R1's {unit.stats.name} profile "
               f"{_profile(seed)}" if seed is not None else "")
        out.append(warning(key_path(path, "melee"), "no melee profile: the force file "
                           f"gives no {', '.join(unit.melee_missing)}, so this unit cannot "
                           f"attack in melee (PS-R1){fix}"))
    elif seed is not None and unit.melee != seed:
        out.append(warning(key_path(path, "melee"), f"{_profile(unit.melee)} overrides "
                           f"PS-R1's {unit.stats.name} profile {_profile(seed)}; the "
                           "file's profile is used"))
    if unit.stats.base_cost is not None and unit.base_cost != unit.stats.base_cost:
        out.append(warning(key_path(path, "base_cost"), f"{unit.stats.name} cost "
                           f"{unit.stats.base_cost} points a model (PS-R3); the file's "
                           f"{unit.base_cost} is used"))
    return out


def _points_warnings(force: Force) -> list[Problem]:
    """PS §5: the table's points are shots x strength x damage; a force's own
    fixed-shot weapon priced otherwise keeps its price, with a warning."""
    out: list[Problem] = []
    for w in force.weapons.values():
        if w.id in tables.WEAPONS or not w.fixed_shots:
            continue
        expected = tables.table_points(int(w.shots), w.strength, w.damage)
        if w.points != expected:
            out.append(warning(key_path(key_path("weapons", w.id), "points"),
                               f"{show(w.name)} costs {plural(w.points, 'point')}, but shots x "
                               f"strength x damage = {w.shots} x {w.strength} x "
                               f"{w.damage} = {expected} (PS §5); the file's "
                               f"{w.points} is used"))
    return out


def force_warnings(force: Force) -> list[Problem]:
    """Things a player would want to know before the game; never errors."""
    out: list[Problem] = []
    for i, unit in enumerate(force.units):
        out += _unit_warnings(unit, f"units[{i}]")
    out += _points_warnings(force)
    used_ids = {w for u in force.units for m in u.figures for w in m.weapons}
    out += unused_warnings((w for w in force.weapons if w not in tables.WEAPONS),
                           used_ids, "weapons")
    out += duplicate_name_warnings(u.name for u in force.units)
    return out


TEMPLATE = """\
name = "Typed force"
ruleset = "plasmashok"

[[units]]
name = "Typed unit"
type = "infantry"      # infantry | beasts | light-vehicles | big-beasts
                       # | vehicles | monsters
training = "regular"   # elite | regular | recruit
base_cost = 5          # per model (big beasts, light vehicles: 12 if omitted)
melee = { attacks = 1, strength = 1, damage = 1 }
figures = [            # weapon ids: see the help (PS §5)
  { name = "Trooper", count = 5, weapons = ["basic-rifle"] },
]
"""
"""A whole force file with one unit, to start a unit typed in by hand (quick
resolve): small enough to edit at 80x24; it must parse without problems."""

"""Deathzap 3 force files: validation into :class:`~.model.Force`, and warnings.

Pure: this module sees a parsed table (``Mapping``), never a file. It reports every
problem it finds at once, each at the path of the offending value
(``units[2].figures[0].weapons[1]``, ``weapons.grenades.shots``) so the loader can
point at the line. Unknown keys are errors at every level: a misspelt key silently
ignored would give a force different from the one its author wrote.

The statline follows DZ3 §14; weapons follow DZ3 §5; vehicles DZ3 §9; the loose
limits of DZ3 §13 are warnings (:func:`force_warnings`), never errors.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from deathzap_tui.rules.deathzap3 import tables
from deathzap_tui.rules.deathzap3.costs import command_rating, force_total
from deathzap_tui.rules.deathzap3.model import Figure, Force, Profile, Unit, Weapon
from deathzap_tui.rules.problems import InvalidInput, Problem, key_path
from deathzap_tui.rules.validation import (
    ITEM_ID,
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
)

RULESET_ID = "deathzap3"

MAX_PROFILES = 6
MAX_EXPECTED_POINTS = 1_000_000

WEAPON_ID = ITEM_ID
"""A weapon id is a TOML bare key, so it can be written and referenced plainly."""

TOP_KEYS = ("name", "ruleset", "expected_points", "weapons", "units")
WEAPON_KEYS = ("name", "shots", "power", "rules", "profiles")
PROFILE_KEYS = ("name", "shots", "power", "rules")
UNIT_KEYS = (
    "name", "skill", "move", "melee_attacks", "shield_strength", "shields",
    "vehicle", "figures",
)
FIGURE_KEYS = ("name", "count", "weapons", "leader", "command")


# The generic reading helpers live in ``rules/validation.py`` (shared with the other
# rulesets); the names below keep this module's historical spelling.
_Reader = Reader


def _weapon_rules(r: _Reader, table: Mapping[str, Any], path: str) -> frozenset[str] | None:
    """DZ3 §5 special rules: each known, none twice."""
    return r.flags(table, "rules", path, what="weapon rule", items_what="special rules",
                   allowed=tables.WEAPON_RULES)


def _profile(r: _Reader, table: Mapping[str, Any], path: str,
             name: str | None) -> Profile | None:
    shots = r.int(table, "shots", path, what="shots", minimum=1)
    power = r.choice(table, "power", path, what="power", choices=tables.POWERS)
    rules = _weapon_rules(r, table, path)
    if name is None or shots is None or power is None or rules is None:
        return None
    return Profile(name=name, shots=shots, power=power, rules=rules)


def _profiles(r: _Reader, table: Mapping[str, Any], path: str,
              weapon_name: str) -> list[Profile | None] | None:
    """DZ3 §5 "two profiles": any number from 1 to MAX_PROFILES, one chosen per shot."""
    items = r.list(table, "profiles", path, what="profiles", required=True)
    if items is None:
        return None
    where = key_path(path, "profiles")
    if not 1 <= len(items) <= MAX_PROFILES:
        r.problem(where, f"a weapon needs 1 to {MAX_PROFILES} profiles, not {len(items)}")
        return None
    out: list[Profile | None] = []
    seen: set[str] = set()
    for i, item in enumerate(items):
        ppath = f"{where}[{i}]"
        ptable = r.table(item, ppath, "a profile")
        if ptable is None:
            out.append(None)
            continue
        r.known_keys(ptable, ppath, PROFILE_KEYS)
        name = r.name(ptable, "name", ppath, default=f"{weapon_name} ({i + 1})")
        if name in seen:
            r.problem(key_path(ppath, "name"), f"{show(name)} names another profile too; "
                      "players choose a profile by its name")
        seen.add(name or "")
        out.append(_profile(r, ptable, ppath, name))
    return out


def _weapon(r: _Reader, weapon_id: object, raw: object, path: str) -> Weapon | None:
    """DZ3 §5: one profile written inline (shots, power, rules), or ``profiles``."""
    table = r.table(raw, path, "a weapon")
    if table is None:
        return None
    before = len(r.problems)
    wid = r.item_id(weapon_id, path, "weapon") or "weapon"
    r.known_keys(table, path, WEAPON_KEYS)
    name = r.name(table, "name", path, default=display_name(wid))
    inline = [k for k in ("shots", "power", "rules") if k in table]
    profiles: list[Profile | None] | None
    if "profiles" in table:
        if inline:
            r.problem(path, f"give either shots/power/rules or profiles, not both "
                      f"(found {', '.join(inline)} and profiles)")
        profiles = _profiles(r, table, path, name or wid)
    elif inline:
        profiles = [_profile(r, table, path, name)]
    else:
        r.problem(path, "a weapon needs shots and power (and optional rules), "
                  "or a list of profiles")
        profiles = None
    if len(r.problems) > before or not profiles or name is None:
        return None
    return Weapon(wid, name, tuple(p for p in profiles if p))


def _figure_extra(r: _Reader, ftable: Mapping[str, Any], fpath: str) -> dict[str, Any]:
    """A figure's DZ3 §11 keys: ``leader`` and the leader's ``command`` rating."""
    leader = r.bool(ftable, "leader", fpath)
    command = r.int(ftable, "command", fpath, what="the leader's command rating",
                    required=False)
    if "command" in ftable and leader is False:  # DZ3 §11: command is a leader's
        r.problem(key_path(fpath, "command"),
                  "only a leader has a command rating; add leader = true")
    return {"leader": bool(leader), "command": command or 0}


def _unit(r: _Reader, raw: object, path: str,
          weapon_ids: tuple[str, ...] | None) -> Unit | None:
    table = r.table(raw, path, "a unit")
    if table is None:
        return None
    before = len(r.problems)
    r.known_keys(table, path, UNIT_KEYS)
    name = r.name(table, "name", path)
    skill = r.choice(table, "skill", path, what="skill", choices=tables.SKILLS)
    move = r.int(table, "move", path, what='move in inches')
    melee = r.int(table, "melee_attacks", path, what="melee attacks per figure")
    strength = r.choice(table, "shield_strength", path, what="shield strength",
                        choices=tables.POWERS)
    shields = r.int(table, "shields", path, what="number of shields")
    vehicle = r.bool(table, "vehicle", path)
    figures = read_figures(r, table, path, weapon_ids, keys=FIGURE_KEYS,
                           max_models=MAX_MODELS_PER_UNIT, build=Figure,
                           extra=_figure_extra)
    if vehicle and figures is not None and len(figures) != 1:
        # DZ3 §9: "a vehicle unit is always one model": an error, not a loose limit.
        r.problem(key_path(path, "figures"),
                  f"a vehicle unit is exactly one model, this one has {len(figures)}")
    if len(r.problems) > before or figures is None:
        return None
    assert (name and skill and strength and move is not None and melee is not None
            and shields is not None and vehicle is not None)
    return Unit(name=name, skill=skill, move=move, melee_attacks=melee,
                shield_strength=strength, shields=shields, vehicle=vehicle,
                figures=tuple(figures))


def parse_force(data: Mapping[str, Any]) -> Force:
    """Validate a parsed force table into a :class:`Force`.

    Raises :class:`InvalidInput` holding every problem found. ``Force.source`` keeps
    a copy of ``data`` so saves can embed the force exactly as written.
    """
    r, name = begin_force(data, TOP_KEYS, RULESET_ID)
    expected = r.int(data, "expected_points", "", what="the force's expected points total",
                     maximum=MAX_EXPECTED_POINTS, required=False)
    weapons = read_weapons(r, data, MAX_WEAPONS, _weapon)
    units = read_units(r, data, MAX_UNITS, _unit)
    if r.problems:
        raise InvalidInput(r.problems)
    assert name is not None and weapons is not None
    return Force(
        name=name,
        weapons=weapons,
        units=units,
        ruleset=RULESET_ID,
        expected_total=expected if "expected_points" in data else None,
        source=copy.deepcopy(dict(data)),
    )


# --- warnings ------------------------------------------------------------------


def unit_shots(unit: Unit, weapons: Mapping[str, Weapon]) -> int:
    """Total shots of a unit for the DZ3 §13 limit, counting the profile of each
    weapon with the most shots (the limit is about the dice a unit can throw)."""
    return sum(max(p.shots for p in weapons[w].profiles)
               for figure in unit.figures for w in figure.weapons)


def force_warnings(force: Force) -> list[Problem]:
    """DZ3 §13 loose limits ("feel free to ignore them"), and a few oddities.

    DZ3 §13 states "a maximum of 12 command per force" in the same breath as the
    loose limits, and the author says the limits may be ignored, so more than 12
    command is a warning here, not an error.
    """
    lim = tables.LIMITS
    out: list[Problem] = []

    def warn(path: str, message: str) -> None:
        out.append(Problem(message, path, severity="warning"))

    low, high = tables.FIGURES_PER_UNIT
    for i, unit in enumerate(force.units):
        path = f"units[{i}]"
        models = len(unit.figures)
        if not low <= models <= high:
            warn(f"{path}.figures", f"{models} models; the loose limit is {low}-{high} "
                 "per unit (DZ3 §13)")
        if unit.move > lim["move"]:
            warn(f"{path}.move", f'move {unit.move}" is above the loose limit of '
                 f'{lim["move"]}" (DZ3 §13)')
        if models * unit.melee_attacks > lim["melee_attacks_total"]:
            warn(f"{path}.melee_attacks", f"{models * unit.melee_attacks} melee attacks "
                 f"in the unit; the loose limit is {lim['melee_attacks_total']} (DZ3 §13)")
        shots = unit_shots(unit, force.weapons)
        if shots > lim["shots_total"]:
            warn(f"{path}.figures", f"{shots} shots in the unit; the loose limit is "
                 f"{lim['shots_total']} (DZ3 §13)")
        cap = lim["vehicle_shields" if unit.vehicle else "shields"]
        if unit.shields > cap:
            warn(f"{path}.shields", f"{unit.shields} shields; the loose limit is {cap} for "
                 f"{'a vehicle' if unit.vehicle else 'a unit'} (DZ3 §13)")

    if len(force.units) > lim["units"]:
        warn("units", f"{len(force.units)} units; a force has about {lim['units']} "
             "(DZ3 §1, §13)")
    command = command_rating(force)
    if command > lim["command_total"]:
        warn("", f"{command} command in the force; at most {lim['command_total']} "
             "(DZ3 §13; a warning, like the other limits)")
    total = force_total(force)
    if total > lim["points"]:
        warn("", f"{total} points; a force is about {lim['points']} (DZ3 §13)")

    used = {w for u in force.units for f in u.figures for w in f.weapons}
    out += unused_warnings(force.weapons, used, "weapons")
    out += duplicate_name_warnings(u.name for u in force.units)
    return out


TEMPLATE = """\
name = "Typed force"
ruleset = "deathzap3"

[weapons.gun]
shots = 1
power = "light"        # light | medium | heavy

[[units]]
name = "Typed unit"
skill = "regular"      # basic | regular | elite
move = 6
melee_attacks = 1
shield_strength = "light"
shields = 6
figures = [ { name = "Trooper", count = 5, weapons = ["gun"] } ]
"""
"""A whole force file with one weapon and one unit, to start a unit typed in by hand
(quick resolve): small enough to edit at 80x24; it must parse without problems."""

"""Double Tap force files: validation into :class:`~.model.Force` and the warnings
``deathzap check`` shows (DT §2, §4, §7, DT-R2, DT-R4).

Pure: this module sees a parsed table, never a file. Every problem is reported at
once, at the path of the offending value (``units[2].weapons[1]``,
``units[0].poison``); unknown keys are errors at every level. The reading helpers
are shared with the other rulesets (``rules/validation.py``).

The file's shape (see ``forces/dt-*.toml``)::

    name = "..."
    ruleset = "double-tap"

    [[units]]                    # DT §2: every unit is one model
    name = "Sergeant Vey"
    weapons = ["rifle", "knife"] # DT §4 ids; at least one melee weapon (DT-R2);
                                 # an id listed twice is two such weapons
    rules = ["armored"]          # optional DT §7 ids, each at most once (DT-R4)
    poison = "melee"             # with "poison-gear" only: melee | shooting
    count = 1                    # optional: that many alike units, "Name 1"...

Weapons and special rules are the shared tables' (:data:`tables.WEAPONS`,
:data:`tables.SPECIAL_RULES`): the file only names them, so it holds no numbers.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from deathzap_tui.rules.doubletap import tables
from deathzap_tui.rules.doubletap.model import Force, Unit
from deathzap_tui.rules.problems import InvalidInput, Problem, key_path
from deathzap_tui.rules.validation import (
    MAX_UNITS,
    MAX_WEAPONS,
    Reader,
    begin_force,
    duplicate_name_warnings,
    read_units,
    show,
    warning,
)

RULESET_ID = tables.RULESET_ID

TOP_KEYS = ("name", "ruleset", "units")
UNIT_KEYS = ("name", "weapons", "rules", "poison", "count")
POISON_GEAR = "poison-gear"
MELEE_WEAPONS = tuple(w.id for w in tables.WEAPONS.values() if w.melee)
"""DT-R2: every unit carries at least one of these."""
_MELEE_WORDS = " or ".join(f"a {tables.WEAPONS[w].name.lower()}" for w in MELEE_WEAPONS)


def _weapons(r: Reader, table: Mapping[str, Any], path: str) -> tuple[str, ...] | None:
    """The unit's weapon ids (DT §4): each known, at least one melee weapon (DT-R2).
    The same id twice is two weapons (two pistols), each paid for (DT-R4)."""
    items = r.list(table, "weapons", path, what="weapon ids (DT §4)", required=True)
    if items is None:
        return None
    where = key_path(path, "weapons")
    if len(items) > MAX_WEAPONS:
        r.problem(where, f"{len(items)} weapons; at most {MAX_WEAPONS}")
        return None
    ok = True
    for i, item in enumerate(items):
        if not isinstance(item, str) or item not in tables.WEAPONS:
            r.problem(f"{where}[{i}]", f"{show(item)} is not a weapon (DT §4); use one "
                      f"of: {', '.join(tables.WEAPONS)}")
            ok = False
    if not ok:
        return None
    if not any(w in MELEE_WEAPONS for w in items):
        has = (f"it has {', '.join(tables.WEAPONS[w].name for w in items)}" if items
               else "it has no weapons")
        r.problem(where, f"no melee weapon: {has}; every unit needs {_MELEE_WORDS} "
                  "(DT-R2)")
        return None
    return tuple(items)


def _rules(r: Reader, table: Mapping[str, Any], path: str) -> tuple[str, ...] | None:
    """The unit's DT §7 special rules, in file order, each at most once (DT-R4: the
    table's list is complete)."""
    read = r.flags(table, "rules", path, what="special rule (DT §7)",
                   allowed=tuple(tables.SPECIAL_RULES), items_what="special rule ids")
    return None if read is None else tuple(table.get("rules", ()))


def _poison(r: Reader, table: Mapping[str, Any], path: str) -> str | None:
    """DT §7 Poison Gear works on melee or on shooting hits, picked in the force:
    ``poison`` is required with the rule and refused without it. Whether the unit has
    the rule is read from the raw list, so a bad id elsewhere in ``rules`` does not
    hide a missing or stray ``poison``."""
    raw_rules = table.get("rules")
    gear = isinstance(raw_rules, list) and POISON_GEAR in raw_rules
    where = key_path(path, "poison")
    kinds = " or ".join(f'"{k}"' for k in tables.POISON_KINDS)
    if "poison" not in table:
        if gear:
            r.problem(where, f"missing: Poison Gear needs poison = {kinds}, the hits "
                      "that poison (DT §7)")
            return None
        return ""
    raw = table["poison"]
    if not gear:
        r.problem(where, f"only a unit with {show(POISON_GEAR)} in its rules says which "
                  "hits poison (DT §7); add the rule or remove poison")
    elif raw not in tables.POISON_KINDS:
        r.problem(where, f"{show(raw)} is not a kind of hit; use {kinds} (DT §7 Poison "
                  "Gear)")
    else:
        return str(raw)
    return None


def _unit(r: Reader, raw: object, path: str, _ids: tuple[str, ...] | None,
          ) -> tuple[Unit, ...] | None:
    """One ``[[units]]`` entry: ``count`` alike units ("Name 1", "Name 2"... when more
    than one; DT §2: each is a single model)."""
    table = r.table(raw, path, "a unit")
    if table is None:
        return None
    before = len(r.problems)
    r.known_keys(table, path, UNIT_KEYS)
    name = r.name(table, "name", path)
    weapons = _weapons(r, table, path)
    rules = _rules(r, table, path)
    poison = _poison(r, table, path)
    count = r.int(table, "count", path, what="how many such units", minimum=1,
                  maximum=MAX_UNITS, required=False, default=1)
    if len(r.problems) > before:
        return None
    assert name is not None and weapons is not None and rules is not None
    assert poison is not None and count is not None
    names = [name] if count == 1 else [f"{name} {k}" for k in range(1, count + 1)]
    return tuple(Unit(name=n, weapons=weapons, rules=rules, poison=poison)
                 for n in names)


def parse_force(data: Mapping[str, Any]) -> Force:
    """Validate a parsed force table into a :class:`Force`; raises
    :class:`InvalidInput` holding every problem found. ``Force.source`` keeps a copy
    of ``data`` so saves can embed the force exactly as written."""
    r, name = begin_force(data, TOP_KEYS, RULESET_ID)
    entries = read_units(r, data, MAX_UNITS, _unit)
    units = tuple(u for entry in entries for u in entry)
    if len(units) > MAX_UNITS:
        r.problem("units", f"{len(units)} units once counts are expanded; at most "
                  f"{MAX_UNITS}")
    if r.problems:
        raise InvalidInput(r.problems)
    assert name is not None
    return Force(name=name, units=units, ruleset=RULESET_ID,
                 source=copy.deepcopy(dict(data)))


# --- warnings --------------------------------------------------------------------------


def _origins(force: Force) -> list[int]:
    """The index of the ``[[units]]`` entry each unit came from (``count`` expands one
    entry into several units); the unit's own index when the force has no matching
    source (built in code)."""
    raw = force.source.get("units")
    counts = ([u.get("count", 1) for u in raw if isinstance(u, Mapping)]
              if isinstance(raw, list) else [])
    origin = [i for i, c in enumerate(counts) for _ in range(c)]
    return origin if len(origin) == len(force.units) else list(range(len(force.units)))


def force_warnings(force: Force) -> list[Problem]:
    """Things a player would want to know before the game; never errors: an army over
    DT §2's 50 points, and units that share a name (their expanded names, "Cutter
    1"..., located at their entry). An army under 50 is not warned about (a unit typed
    in for quick resolve is one): ``deathzap points`` shows its total against 50."""
    out: list[Problem] = []
    gap = force.points - tables.ARMY_POINTS
    if gap > 0:
        out.append(warning("units", f"the army costs {force.points} points, {gap} over "
                           f"the {tables.ARMY_POINTS} of DT §2"))
    out += duplicate_name_warnings([u.name for u in force.units], at=_origins(force))
    return out


TEMPLATE = """\
name = "Typed force"
ruleset = "double-tap"

[[units]]
name = "Typed unit"
weapons = ["rifle", "knife"]   # knife | sword | pistol | shotgun | smg
                               # | carbine | rifle | lmg | sniper-rifle
rules = ["armored"]            # optional special rules (see the help)
"""
"""A whole force file with one unit, to start a unit typed in by hand (quick
resolve): small enough to edit at 80x24; it must parse without problems."""

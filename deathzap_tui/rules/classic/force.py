"""Deathzap Classic force files: validation into :class:`~.model.Force`, warnings, and
the figure counts ``deathzap points`` shows in place of points (CL-R6).

Pure: this module sees a parsed table, never a file. Every problem is reported at
once, at the path of the offending value (``units[2].figures[0].weapons[1]``,
``weapons.rail-rifle.class``); unknown keys are errors at every level. The reading
helpers are shared with the other rulesets (``rules/validation.py``).

The file's shape (see ``forces/cl-*.toml``)::

    name = "..."                 # the force
    ruleset = "classic"

    [weapons.<id>]               # optional: a named gun of one CL §5 class
    name = "..."                 # optional, default from the id
    class = "advanced"           # basic | advanced | auto-heavy | heavy | radius

    [[units]]                    # CL §1: figures of one CL §2 type
    name = "..."
    type = "infantry"            # infantry | heavy-infantry | beasts | big-beasts |
                                 # light-vehicles | vehicles | monsters
    figures = [ { name = "...", count = 5, weapons = ["basic", "<id>"], general = true } ]

A figure's weapon ids are the five class ids (always available) or the force's own
``[weapons.*]`` ids, which may not reuse a class id. The stats of each type and
class live in :mod:`.tables`; the file only names them.
"""

from __future__ import annotations

import copy
import functools
from collections import Counter
from collections.abc import Mapping
from typing import Any

from deathzap_tui.rules.classic import tables
from deathzap_tui.rules.classic.model import Figure, Force, Unit, Weapon
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
WEAPON_KEYS = ("name", "class")
UNIT_KEYS = ("name", "type", "figures")
FIGURE_KEYS = ("name", "count", "weapons", "general")

CLASS_WEAPONS: dict[str, Weapon] = {
    c.id: Weapon(c.id, c.name, c.id) for c in tables.WEAPONS.values()}
"""CL §5: every force may arm its figures with the five classes by their ids."""


def _weapon(r: Reader, weapon_id: object, raw: object, path: str) -> Weapon | None:
    """A named gun: a display name over one CL §5 class."""
    table = r.table(raw, path, "a weapon")
    if table is None:
        return None
    before = len(r.problems)
    wid = r.item_id(weapon_id, path, "weapon") or "weapon"
    if wid in CLASS_WEAPONS:
        r.problem(path, f"{show(wid)} is a weapon class every force has; give your own "
                  f"weapon another id (classes: {', '.join(CLASS_WEAPONS)})")
    r.known_keys(table, path, WEAPON_KEYS)
    name = r.name(table, "name", path, default=display_name(wid))
    kind = r.choice(table, "class", path, what="weapon class (CL §5)",
                    choices=tuple(tables.WEAPONS))
    if len(r.problems) > before or name is None or kind is None:
        return None
    return Weapon(wid, name, kind)


def _figure_extra(r: Reader, ftable: Mapping[str, Any], fpath: str, *,
                  generals: list[str]) -> dict[str, Any]:
    """A figure's ``general`` flag (CL §1), noting where each general is written so
    that :func:`parse_force` can refuse a second one."""
    general = r.bool(ftable, "general", fpath)
    if general:
        generals.append(key_path(fpath, "general"))
        count = ftable.get("count", 1)
        if isinstance(count, int) and not isinstance(count, bool) and count > 1:
            r.problem(key_path(fpath, "general"),
                      f"the general is one figure, this line is {count}; give the "
                      "general a line of its own (CL §1)")
    return {"general": bool(general)}


def _unit(r: Reader, raw: object, path: str, own_ids: tuple[str, ...] | None, *,
          generals: list[str]) -> Unit | None:
    table = r.table(raw, path, "a unit")
    if table is None:
        return None
    before = len(r.problems)
    r.known_keys(table, path, UNIT_KEYS)
    name = r.name(table, "name", path)
    kind = r.choice(table, "type", path, what="figure type (CL §2)",
                    choices=tables.FIGURE_TYPES)
    known = None if own_ids is None else (
        *CLASS_WEAPONS, *(i for i in own_ids if i not in CLASS_WEAPONS))
    figures = read_figures(r, table, path, known, keys=FIGURE_KEYS,
                           max_models=MAX_MODELS_PER_UNIT, build=Figure,
                           extra=functools.partial(_figure_extra, generals=generals))
    if len(r.problems) > before or figures is None:
        return None
    assert name is not None and kind is not None
    return Unit(name=name, type=kind, figures=tuple(figures))


def parse_force(data: Mapping[str, Any]) -> Force:
    """Validate a parsed force table into a :class:`Force`; raises
    :class:`InvalidInput` holding every problem found. ``Force.source`` keeps a copy
    of ``data`` so saves can embed the force exactly as written."""
    r, name = begin_force(data, TOP_KEYS, RULESET_ID)
    own = read_weapons(r, data, MAX_WEAPONS, _weapon)
    generals: list[str] = []
    units = read_units(r, data, MAX_UNITS,
                       functools.partial(_unit, generals=generals))
    for path in generals[1:]:
        r.problem(path, f"a force has one general (CL §1); {generals[0]} already "
                  "names one")
    if r.problems:
        raise InvalidInput(r.problems)
    assert name is not None and own is not None
    return Force(name=name, weapons={**CLASS_WEAPONS, **own}, units=units,
                 ruleset=RULESET_ID, source=copy.deepcopy(dict(data)))


# --- warnings --------------------------------------------------------------------


def force_warnings(force: Force) -> list[Problem]:
    """Things a player would want to know before the game; never errors."""
    out: list[Problem] = []
    for i, unit in enumerate(force.units):
        if tables.alone(unit.type, len(unit.figures)):
            out.append(warning(f"units[{i}].figures", f"a lone {unit.stats.name} figure is "
                               "always panicked and always fails its morale test until "
                               "it joins a friendly unit of its type (CL §4, §7)"))
    if not any(f.general for u in force.units for f in u.figures):
        out.append(warning("units", "no figure is marked general = true; set-up will ask "
                           "which figure is the general (CL §1)"))
    own = [w for w in force.weapons.values() if w.id not in CLASS_WEAPONS]
    named: dict[str, str] = {}
    for weapon in force.weapons.values():
        first = named.setdefault(weapon.name.casefold(), weapon.id)
        if first != weapon.id:
            out.append(warning(key_path(key_path("weapons", weapon.id), "name"),
                               f"{show(weapon.name)} is also the name of the weapon "
                               f"{show(first)}; players tell guns apart by name"))
    used = {w for u in force.units for f in u.figures for w in f.weapons}
    out += unused_warnings((w.id for w in own), used, "weapons")
    out += duplicate_name_warnings(u.name for u in force.units)
    return out


# --- counts (CL-R6) ----------------------------------------------------------------


def force_counts(force: Force) -> tuple[tuple[str, int], ...]:
    """CL-R6: no points in this edition; instead the figures of each CL §2 type, in
    the table's order, then the guns of each CL §5 class (only those present)."""
    figures = Counter(u.type for u in force.units for _ in u.figures)
    guns = Counter(force.weapons[w].kind for u in force.units for f in u.figures
                   for w in f.weapons)
    return (*((tables.TYPES[t].name, figures[t]) for t in tables.FIGURE_TYPES if figures[t]),
            *((f"{tables.WEAPONS[c].name} guns", guns[c]) for c in tables.WEAPONS if guns[c]))


TEMPLATE = """\
name = "Typed force"
ruleset = "classic"

[[units]]
name = "Typed unit"
type = "infantry"      # infantry | heavy-infantry | beasts | big-beasts
                       # | light-vehicles | vehicles | monsters
figures = [            # guns: basic | advanced | auto-heavy | heavy | radius
  { name = "Sergeant", weapons = ["basic"], general = true },
  { name = "Trooper", count = 4, weapons = ["basic"] },
]
"""
"""A whole force file with one weapon and one unit, to start a unit typed in by hand
(quick resolve): small enough to edit at 80x24; it must parse without problems."""

"""Command Hand force files: validation into :class:`~.model.Force`, and warnings.

Pure: this module sees a parsed table, never a file. Every problem is reported at
once, at the path of the offending value (``units[1].melee_damage``,
``weapons.rocket.to_damage.hard``); unknown keys are errors at every level. The
reading helpers are shared with Deathzap 3 (``rules/validation.py``).

The file's shape (see ``forces/ch-*.toml``)::

    name = "..."                 # the force
    ruleset = "command-hand"
    command_rating = 3           # CH §2: cards drawn into the Command Hand (0-26)

    [weapons.<id>]               # CH §4, one table per weapon
    name = "..."                 # optional, default from the id
    shots_near = 1               # shots at 0-12"
    shots_far = 1                # shots beyond 12" (0: cannot reach)
    to_damage = { open = 4, soft = 5, hard = 6 }   # die needed, by target cover
    rules = ["explosive"]        # optional: D6 damage per success

    [[units]]                    # CH §7 statline
    name = "..."
    run = 8                      # inches
    walk = 4                     # inches
    melee_attacks = 1            # dice per figure
    melee_damage = 4             # die needed for a point of damage
    shields = 3                  # the unit's starting shields
    recharge = 1                 # shields regained by Recharge
    figures = [ { name = "...", count = 4, weapons = ["<id>", ...] } ]

CH-R4: there is no points system and any force is allowed; the only errors are
things the engine cannot play, the warnings are oddities.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from deathzap_tui.rules.commandhand import tables
from deathzap_tui.rules.commandhand.model import Figure, Force, Unit, Weapon
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
    unused_warnings,
    warning,
)

RULESET_ID = tables.RULESET_ID

MAX_SHOTS = 50
"""Sanity cap on a weapon's shots in one band (not a rule)."""
MAX_MELEE_ATTACKS = 50
MAX_DISTANCE = 99
"""Sanity cap on run and walk distances in inches (not a rule)."""

TOP_KEYS = ("name", "ruleset", "command_rating", "weapons", "units")
WEAPON_KEYS = ("name", "shots_near", "shots_far", "to_damage", "rules")
UNIT_KEYS = ("name", "run", "walk", "melee_attacks", "melee_damage", "shields", "recharge",
             "figures")
FIGURE_KEYS = ("name", "count", "weapons")

DIE_MIN, DIE_MAX = 2, 6
"""A to-damage or melee-damage number is a die result, 2+ to 6+ (a 1 always fails:
that is what aimed shots re-roll, CH §3.5)."""


def _die(r: Reader, table: Mapping[str, Any], key: str, path: str, what: str) -> int | None:
    return r.int(table, key, path, what=f"{what}, the die needed: {DIE_MIN}-{DIE_MAX}",
                 minimum=DIE_MIN, maximum=DIE_MAX)


def _weapon(r: Reader, weapon_id: object, raw: object, path: str) -> Weapon | None:
    table = r.table(raw, path, "a weapon")
    if table is None:
        return None
    before = len(r.problems)
    wid = r.item_id(weapon_id, path, "weapon") or "weapon"
    r.known_keys(table, path, WEAPON_KEYS)
    name = r.name(table, "name", path, default=display_name(wid))
    near = r.int(table, "shots_near", path, what='shots at 0-12"', maximum=MAX_SHOTS)
    far = r.int(table, "shots_far", path, what='shots beyond 12"', maximum=MAX_SHOTS)
    if near == 0 and far == 0:
        r.problem(path, "a weapon needs shots in at least one range band "
                  "(shots_near or shots_far above 0)")
    dpath = key_path(path, "to_damage")
    damage: dict[str, int] = {}
    raw_damage = r.value(table, "to_damage", path, required=True,
                         what="to-damage numbers, e.g. { open = 4, soft = 5, hard = 6 }")
    if raw_damage is not None:
        dtable = r.table(raw_damage, dpath, "to-damage numbers by cover")
        if dtable is not None:
            r.known_keys(dtable, dpath, tables.COVERS)
            for cover in tables.COVERS:
                value = _die(r, dtable, cover, dpath, f"to damage a target in {cover}"
                             + (" cover" if cover != "open" else ""))
                if value is not None:
                    damage[cover] = value
    rules = r.flags(table, "rules", path, what="weapon rule", items_what="special rules",
                    allowed=tables.WEAPON_RULES)
    if len(r.problems) > before or None in (name, near, far, rules):
        return None
    assert name is not None and near is not None and far is not None and rules is not None
    return Weapon(wid, name, near, far, damage, rules)


def _unit(r: Reader, raw: object, path: str, weapon_ids: tuple[str, ...] | None) -> Unit | None:
    table = r.table(raw, path, "a unit")
    if table is None:
        return None
    before = len(r.problems)
    r.known_keys(table, path, UNIT_KEYS)
    name = r.name(table, "name", path)
    run = r.int(table, "run", path, what="run distance in inches", maximum=MAX_DISTANCE)
    walk = r.int(table, "walk", path, what="walk distance in inches", maximum=MAX_DISTANCE)
    attacks = r.int(table, "melee_attacks", path, what="melee attacks per figure",
                    maximum=MAX_MELEE_ATTACKS)
    damage = _die(r, table, "melee_damage", path, "melee damage")
    shields = r.int(table, "shields", path, what="the unit's starting shields")
    recharge = r.int(table, "recharge", path, what="shields regained by Recharge")
    figures = read_figures(r, table, path, weapon_ids, keys=FIGURE_KEYS,
                           max_models=MAX_MODELS_PER_UNIT, build=Figure)
    if len(r.problems) > before or figures is None:
        return None
    assert (name is not None and run is not None and walk is not None and attacks is not None
            and damage is not None and shields is not None and recharge is not None)
    return Unit(name, run, walk, attacks, damage, shields, recharge, tuple(figures))


def parse_force(data: Mapping[str, Any]) -> Force:
    """Validate a parsed force table into a :class:`Force`; raises
    :class:`InvalidInput` holding every problem found."""
    r, name = begin_force(data, TOP_KEYS, RULESET_ID)
    rating = r.int(data, "command_rating", "", what="cards in the Command Hand (CH §2)",
                   maximum=tables.COLOUR_CARDS)
    weapons = read_weapons(r, data, MAX_WEAPONS, _weapon)
    units = read_units(r, data, MAX_UNITS, _unit)
    if r.problems:
        raise InvalidInput(r.problems)
    assert name is not None and weapons is not None and rating is not None
    return Force(name=name, command_rating=rating, weapons=weapons, units=units,
                 source=copy.deepcopy(dict(data)))


def force_warnings(force: Force) -> list[Problem]:
    """Oddities worth a look; CH-R4 allows any force, so never an error."""
    out: list[Problem] = []
    for i, unit in enumerate(force.units):
        path = f"units[{i}]"
        if unit.walk > unit.run:
            out.append(warning(f"{path}.walk", f'walks {unit.walk}" but runs only '
                               f'{unit.run}"; running is usually the longer move (CH §3)'))
        if unit.recharge > unit.shields:
            out.append(warning(f"{path}.recharge", f"recharges {unit.recharge} but starts "
                               f"with {unit.shields} shields; shields never go above the "
                               "starting number (CH §3.7)"))
        if not any(f.weapons for f in unit.figures) and unit.melee_attacks == 0:
            out.append(warning(path, "has no weapons and no melee attacks: it can never "
                               "damage anything"))
    for weapon in force.weapons.values():
        d = weapon.to_damage
        if not d["open"] <= d["soft"] <= d["hard"]:
            out.append(warning(key_path(key_path("weapons", weapon.id), "to_damage"),
                               f"open {d['open']}+, soft {d['soft']}+, hard {d['hard']}+: "
                               "cover usually makes damage harder, not easier (CH §4)"))
    if force.command_rating == 0:
        out.append(warning("command_rating", "0: the force has no Command Hand and can "
                           "never interrupt (CH §2)"))
    used = {w for u in force.units for f in u.figures for w in f.weapons}
    out += unused_warnings(force.weapons, used, "weapons")
    out += duplicate_name_warnings(u.name for u in force.units)
    return out


TEMPLATE = """\
name = "Typed force"
ruleset = "command-hand"
command_rating = 3

[weapons.gun]
shots_near = 1
shots_far = 1          # 0 = cannot reach beyond 12"
to_damage = { open = 4, soft = 5, hard = 6 }

[[units]]
name = "Typed unit"
run = 8
walk = 4
melee_attacks = 1
melee_damage = 4
shields = 3
recharge = 1
figures = [ { name = "Trooper", count = 4, weapons = ["gun"] } ]
"""
"""A whole force file with one weapon and one unit, to start a unit typed in by hand
(quick resolve): small enough to edit at 80x24; it must parse without problems."""

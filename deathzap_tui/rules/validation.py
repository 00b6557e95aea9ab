"""Reading untrusted tables (force files, saves) into typed values: shared by every
ruleset's force validator.

Pure: these helpers see parsed data (``Mapping``), never a file. A :class:`Reader`
records a :class:`~.problems.Problem` at the path of each bad value and carries on,
so a validator reports every problem at once. Unknown keys are errors at every level
(a misspelt key silently ignored would give a force different from the one written).
Text from a file is shown through :func:`show`, which escapes anything that could
reach a terminal as a control sequence.
"""

from __future__ import annotations

import builtins
import difflib
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from deathzap_tui.rules.problems import InvalidInput, Problem, key_path

MAX_NAME = 60
"""Longest name (force, unit, figure, weapon, profile) in characters."""
MAX_NUMBER = 999
"""Sanity cap on every stat, so a hostile file cannot ask the engine for 10**18
dice. Not a rule: real values are far below it."""

MAX_MODELS_PER_UNIT = 100
"""Sanity cap on models in one unit after ``count`` expansion (not a rule)."""
MAX_UNITS = 100
"""Sanity cap on units in one force (not a rule)."""
MAX_WEAPONS = 100
"""Sanity cap on weapons one force defines (not a rule)."""

ITEM_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")
"""An id a file defines and refers to (a weapon id): a TOML bare key, so it can be
written and referenced plainly."""
ITEM_ID_RULE = "1-40 letters, digits, - or _, starting with a letter or digit"


# --- showing user text safely --------------------------------------------------


def show(value: object, limit: int = 40) -> str:
    """``value`` quoted for a message: non-printable characters (C0/C1 controls,
    bidi overrides...) escaped, long text cut. Messages reach terminals, so text from
    a file must never carry escape sequences into them."""
    if not isinstance(value, str):
        return kind(value)
    text = value if len(value) <= limit else value[:limit] + "…"
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch.isprintable():
            out.append(ch)
        else:
            out.append(f"\\u{ord(ch):04x}" if ord(ch) <= 0xFFFF else f"\\U{ord(ch):08x}")
    return '"' + "".join(out) + '"'


def kind(value: object) -> str:
    """What a value is, in TOML terms, for "expected X, got Y" messages."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return f"the number {number(value)}"
    if isinstance(value, float):
        return f"the decimal number {value}"
    if isinstance(value, str):
        return f"the text {show(value)}"
    if isinstance(value, Mapping):
        return "a table"
    if isinstance(value, (list, tuple)):
        return "an array"
    return f"a {type(value).__name__}"


def number(value: int) -> str:
    """An int for a message; a 4000-digit one would drown the message."""
    return str(value) if abs(value) < 10**12 else "a huge number"


def display_name(item_id: str) -> str:
    """``small-arms`` -> ``Small Arms``: the default name of an item from its id."""
    return " ".join(w.capitalize() for w in re.split(r"[-_]+", item_id) if w)


def valid_ids(raw: object) -> tuple[str, ...] | None:
    """The well-formed ids a table defines (``None`` if it is not a table), for
    checking references even when some definitions have problems of their own."""
    if not isinstance(raw, Mapping):
        return None
    return tuple(k for k in raw if isinstance(k, str) and ITEM_ID.fullmatch(k))


# --- the reader ----------------------------------------------------------------


class Reader:
    """Reads typed values out of tables, recording a problem for each bad one.

    Each getter returns the value (or its default when optional and absent), or
    ``None`` after recording why it is missing or invalid, so parsing carries on and
    reports everything in one go.
    """

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def problem(self, path: str, message: str) -> None:
        self.problems.append(Problem(message, path))

    def table(self, value: object, path: str, what: str) -> Mapping[str, Any] | None:
        if isinstance(value, Mapping):
            return value
        self.problem(path, f"expected {what} (a table), got {kind(value)}")
        return None

    def known_keys(self, table: Mapping[Any, Any], path: str, allowed: Iterable[str]) -> None:
        allowed = tuple(allowed)
        for key in table:
            if key in allowed:
                continue
            hint = ""
            if isinstance(key, str) and key:
                close = ([a for a in allowed if a.startswith(key)]
                         or difflib.get_close_matches(key, allowed, n=1))
                hint = f"did you mean {close[0]}? " if close else ""
            self.problem(key_path(path, key), f"unknown key; {hint}allowed here: "
                         f"{', '.join(allowed)}")

    def value(self, table: Mapping[str, Any], key: str, path: str, *,
              required: bool, what: str) -> Any:
        if key in table:
            return table[key]
        if required:
            self.problem(key_path(path, key), f"missing: {what}")
        return None

    def name(self, table: Mapping[str, Any], key: str, path: str, *,
             default: str | None = None) -> str | None:
        """A display name: text, stripped, non-empty, printable, at most MAX_NAME."""
        where = key_path(path, key)
        raw = self.value(table, key, path, required=default is None, what="a name")
        if raw is None:
            return default
        if not isinstance(raw, str):
            self.problem(where, f"expected a name (text), got {kind(raw)}")
            return None
        text = raw.strip()
        bad = next((ch for ch in text if not ch.isprintable()), None)
        if not text:
            self.problem(where, "must not be empty")
        elif bad is not None:
            self.problem(where, f"contains the non-printable character U+{ord(bad):04X}; "
                         "names must be plain printable text (no control or "
                         "bidirectional-override characters)")
        elif len(text) > MAX_NAME:
            self.problem(where, f"is {len(text)} characters long; at most {MAX_NAME}")
        else:
            return text
        return None

    def int(self, table: Mapping[str, Any], key: str, path: str, *, what: str,
            minimum: int = 0, maximum: int = MAX_NUMBER, required: bool = True,
            default: int = 0) -> int | None:
        """A whole number in ``minimum..maximum``; ``default`` when optional and absent."""
        where = key_path(path, key)
        raw = self.value(table, key, path, required=required, what=what)
        if raw is None:
            return None if required else default
        # bool is an int subclass in Python, but `shots = true` is a mistake.
        if isinstance(raw, bool) or not isinstance(raw, int):
            self.problem(where, f"expected a whole number ({what}), got {kind(raw)}")
        elif raw < minimum:
            self.problem(where, f"must be at least {minimum}, not {number(raw)}")
        elif raw > maximum:
            self.problem(where, f"must be at most {maximum}, not {number(raw)}")
        else:
            return raw
        return None

    def bool(self, table: Mapping[str, Any], key: str, path: str) -> bool | None:
        raw = self.value(table, key, path, required=False, what="true or false")
        if raw is None:
            return False
        if isinstance(raw, bool):
            return raw
        self.problem(key_path(path, key), f"expected true or false, got {kind(raw)}")
        return None

    def choice(self, table: Mapping[str, Any], key: str, path: str, *, what: str,
               choices: tuple[str, ...]) -> str | None:
        where = key_path(path, key)
        raw = self.value(table, key, path, required=True,
                         what=f"{what}: one of {', '.join(choices)}")
        if raw is None:
            return None
        if isinstance(raw, str) and raw in choices:
            return raw
        self.problem(where, f"{show(raw)} is not a {what}; use one of: {', '.join(choices)}")
        return None

    def list(self, table: Mapping[str, Any], key: str, path: str, *, what: str,
             required: builtins.bool) -> list[Any] | None:
        raw = self.value(table, key, path, required=required, what=what)
        if raw is None:
            return None if required else []
        if isinstance(raw, (list, tuple)):
            return list(raw)
        self.problem(key_path(path, key), f"expected an array ({what}), got {kind(raw)}")
        return None

    def flags(self, table: Mapping[str, Any], key: str, path: str, *, what: str,
              allowed: tuple[str, ...], items_what: str = "") -> frozenset[str] | None:
        """An optional array of words from ``allowed`` (special rules): each known,
        none twice. ``what`` names one word, ``items_what`` the array."""
        items = self.list(table, key, path, what=items_what or f"{what}s", required=False)
        if items is None:
            return None
        where = key_path(path, key)
        seen: set[str] = set()
        ok = True
        for i, item in enumerate(items):
            if not isinstance(item, str) or item not in allowed:
                self.problem(f"{where}[{i}]", f"{show(item)} is not a {what}; use one of: "
                             f"{', '.join(allowed)}")
                ok = False
            elif item in seen:
                self.problem(f"{where}[{i}]", f"{show(item)} is listed twice")
                ok = False
            else:
                seen.add(item)
        return frozenset(seen) if ok else None

    def item_id(self, item_id: object, path: str, what: str) -> str | None:
        """An id a table is keyed by (a weapon id): see :data:`ITEM_ID`."""
        if isinstance(item_id, str) and ITEM_ID.fullmatch(item_id):
            return item_id
        self.problem(path, f"a {what} id is {ITEM_ID_RULE}")
        return None

    def references(self, items: Iterable[Any], path: str, known: tuple[str, ...] | None,
                   what: str) -> None:
        """Each item of an id array must be one of ``known`` (``None``: the defining
        table itself is unusable, nothing to check against)."""
        if known is None:
            return
        for j, ref in enumerate(items):
            if not isinstance(ref, str) or ref not in known:
                defined = ", ".join(known) if known else f"(no {what}s)"
                self.problem(f"{path}[{j}]",
                             f"unknown {what} {show(ref)}; this force defines: {defined}")


# --- warnings shared by rulesets -------------------------------------------------


def warning(path: str, message: str) -> Problem:
    return Problem(message, path, severity="warning")


def unused_warnings(defined: Iterable[str], used: set[str], table: str) -> list[Problem]:
    """A warning for each id defined in ``table`` that nothing refers to."""
    return [warning(key_path(table, item), "defined but no figure carries it")
            for item in defined if item not in used]


def duplicate_name_warnings(names: Iterable[str], what: str = "units",
                            at: Iterable[int] | None = None) -> list[Problem]:
    """A warning for each repeated name: players tell units apart by name. ``at``
    gives each name's entry index (by default its position), for a force whose
    entries expand into several named units."""
    out: list[Problem] = []
    first: dict[str, int] = {}
    names = list(names)
    for i, name in zip(range(len(names)) if at is None else at, names, strict=True):
        if name in first:
            out.append(warning(f"{what}[{i}].name", f"{show(name)} is also the name of "
                               f"{what}[{first[name]}]; players tell units apart by name"))
        first.setdefault(name, i)
    return out


# --- force-file shapes shared by rulesets -----------------------------------------
# Every ruleset's force file is a named table with a ``ruleset`` key, a ``weapons``
# table keyed by weapon id and a ``units`` array whose units hold a ``figures``
# array (``count`` expanded, weapons referenced by id). These read that common
# shape; each ruleset reads its own statline keys and builds its own model.


def begin_force(data: object, top_keys: tuple[str, ...],
                ruleset_id: str) -> tuple[Reader, str | None]:
    """A reader for a force table and the force's name, after checking the top-level
    keys and that the file is not written for another ruleset. Raises
    :class:`InvalidInput` at once if ``data`` is not a table at all."""
    r = Reader()
    if r.table(data, "", "a force") is None:
        raise InvalidInput(r.problems)
    assert isinstance(data, Mapping)
    r.known_keys(data, "", top_keys)
    name = r.name(data, "name", "")
    if "ruleset" in data and data["ruleset"] != ruleset_id:
        r.problem("ruleset", f"this is the {ruleset_id} reader; the force says "
                  f"{show(data['ruleset'])}")
    return r, name


def read_weapons(r: Reader, data: Mapping[str, Any], maximum: int,
                 read_weapon: Callable[[Reader, object, object, str], Any],
                 ) -> dict[str, Any] | None:
    """The force's ``weapons`` table (optional, at most ``maximum`` entries), each
    entry read by ``read_weapon(r, weapon_id, raw, path)`` (``None`` when it has
    problems), keyed by the weapon's ``id``."""
    table = r.table(data.get("weapons", {}), "weapons", "the force's weapons")
    if table is None:
        return None
    if len(table) > maximum:
        r.problem("weapons", f"{len(table)} weapons; at most {maximum}")
        return None
    out: dict[str, Any] = {}
    for weapon_id, value in table.items():
        weapon = read_weapon(r, weapon_id, value, key_path("weapons", weapon_id))
        if weapon is not None:
            out[weapon.id] = weapon
    return out


def read_units(r: Reader, data: Mapping[str, Any], maximum: int,
               read_unit: Callable[[Reader, object, str, tuple[str, ...] | None], Any],
               ) -> tuple[Any, ...]:
    """The force's ``units`` array (1 to ``maximum``), each unit read by
    ``read_unit(r, raw, path, weapon_ids)`` (``None`` when it has problems).
    References are checked against the weapon ids the file defines, even if some of
    those definitions have problems of their own."""
    units_raw = r.list(data, "units", "", what="the force's units", required=True)
    units: list[Any] = []
    if units_raw is not None:
        if not units_raw:
            r.problem("units", "a force needs at least one unit")
        elif len(units_raw) > maximum:
            r.problem("units", f"{len(units_raw)} units; at most {maximum}")
        else:
            ids = valid_ids(data.get("weapons", {}))
            units = [read_unit(r, u, f"units[{i}]", ids) for i, u in enumerate(units_raw)]
    return tuple(u for u in units if u is not None)


def read_figures(r: Reader, table: Mapping[str, Any], path: str,
                 known: tuple[str, ...] | None, *, keys: tuple[str, ...], max_models: int,
                 build: Callable[..., Any],
                 extra: Callable[[Reader, Mapping[str, Any], str], dict[str, Any]] | None = None,
                 ) -> list[Any] | None:
    """A unit's ``figures`` array, ``count`` expanded into one figure per model
    (at most ``max_models``). ``known`` weapon ids (``None``: the weapons table itself
    is unusable). Each figure has ``name``, ``count`` and ``weapons``; a ruleset's own
    keys are read by ``extra(r, figure_table, path)`` (after the count, before the
    weapons) into keyword arguments of ``build(name, weapons, **extra)``."""
    items = r.list(table, "figures", path, what="the unit's figures", required=True)
    if items is None:
        return None
    where = key_path(path, "figures")
    if not items:
        r.problem(where, "a unit needs at least one figure")
        return None
    out: list[Any] = []
    ok = True
    for i, item in enumerate(items):
        fpath = f"{where}[{i}]"
        ftable = r.table(item, fpath, "a figure")
        if ftable is None:
            ok = False
            continue
        before = len(r.problems)
        r.known_keys(ftable, fpath, keys)
        name = r.name(ftable, "name", fpath)
        count = r.int(ftable, "count", fpath, what="how many such models", minimum=1,
                      maximum=max_models, required=False, default=1)
        more = extra(r, ftable, fpath) if extra is not None else {}
        refs = r.list(ftable, "weapons", fpath, what="weapon ids", required=False)
        r.references(refs or (), key_path(fpath, "weapons"), known, "weapon")
        if len(r.problems) > before or known is None:
            ok = False
            continue
        assert name is not None and count is not None and refs is not None
        out.extend([build(name, tuple(refs), **more)] * count)
    if ok and len(out) > max_models:
        r.problem(where, f"{len(out)} models; at most {max_models} in one unit")
        return None
    return out if ok else None

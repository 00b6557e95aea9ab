"""The force editor's view of a force file: an outline of tables and the fields of
each, with no ruleset knowledge (no Textual here either: plain data, tested alone).

A force file is a table of fields (``name``, ``ruleset``), tables of named tables
(``[weapons.<id>]``) and arrays of tables (``[[units]]``, ``figures``, ``profiles``).
The outline makes a *group* node of every table of tables and array of tables, a
*table* node of each entry, and lists a table's other values as *fields*; a small
table of plain values (``melee = { attacks = 1 }``) is shown as fields
``melee.attacks`` of its table. What a table may hold beyond what it holds comes from
the ruleset's template (:meth:`Ruleset.force_template`, a whole force of one weapon
and one unit): the entry at the same place in it is the *skeleton* of a table, so a
unit missing ``move`` still shows a ``move`` field, and "add unit" copies the
template's unit, or a sibling where the force's checks refuse that copy
(:func:`add_entry`). Paths are :mod:`deathzap_tui.forcedoc` (problem-style) paths.
"""

from __future__ import annotations

import copy
import json
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from deathzap_tui.forcedoc import CheckResult, ForceDocument, Part, join_path, parse_path

INT, FLOAT, BOOL, TEXT, WORDS, TOML = "int", "float", "bool", "text", "words", "toml"
"""Field kinds: how a field's value is shown and what typed text must be."""

GROUP, TABLE = "group", "table"


@dataclass
class Node:
    """A table (the force itself has ``parts == ()``) or a group of tables."""

    parts: tuple[Part, ...]
    kind: str
    label: str
    children: list[Node] = field(default_factory=list)
    fields: list[Field] = field(default_factory=list)
    skeleton: Any = None
    """The template's value at this place (a table, or an entry of a group), if any."""

    @property
    def path(self) -> str:
        return join_path(*self.parts) if self.parts else ""

    def walk(self) -> Iterable[Node]:
        yield self
        for child in self.children:
            yield from child.walk()


@dataclass(frozen=True)
class Field:
    parts: tuple[Part, ...]
    label: str
    kind: str
    present: bool
    sample: Any = None

    @property
    def path(self) -> str:
        return join_path(*self.parts)


# --- kinds ------------------------------------------------------------------------


def is_table(value: Any) -> bool:
    return isinstance(value, Mapping)


def is_tables(value: Any) -> bool:
    """An array of tables, or a table of tables: a group in the outline."""
    if isinstance(value, list):
        return bool(value) and all(is_table(v) for v in value)
    return is_table(value) and bool(value) and all(is_table(v) for v in value.values())


def is_record(value: Any) -> bool:
    """A small table of plain values, shown as fields of its table."""
    return is_table(value) and not is_tables(value) and not any(
        is_table(v) or is_tables(v) for v in value.values())


def kind_of(value: Any) -> str:
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return INT
    if isinstance(value, float):
        return FLOAT
    if isinstance(value, str):
        return TEXT
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return WORDS
    return TOML


def show(value: Any, kind: str) -> str:
    """``value`` as the text its field holds (what :func:`parse` reads back)."""
    if value is None:
        return ""
    if kind == WORDS and isinstance(value, list):
        return ", ".join(value) if _plain_words(value) else toml_value(value)
    if kind == TEXT and isinstance(value, str):
        return value
    if kind in (INT, FLOAT) and isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # e.g. shots = "radius"
    return toml_value(value)


def _plain_words(words: list[Any]) -> bool:
    """Whether ``words`` read back from ``a, b`` as they are: strings, none empty,
    none holding a comma or edge spaces, the first not opening a TOML array."""
    return all(isinstance(w, str) and w and "," not in w and w == w.strip()
               for w in words) and not (words and words[0].startswith("["))


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{_key(k)} = {toml_value(v)}" for k, v in value.items()) + " }"
    return str(value)


def _key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key)


class Unparsed(ValueError):
    """Typed text that is not a value of its field's kind; the message says why."""


_INT = re.compile(r"[+-]?\d+")
_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')


def parse(text: str, kind: str) -> Any:
    """The value typed as ``text`` in a field of ``kind``; ``None`` for nothing typed
    (the field is removed). ``Unparsed`` if it does not read as that kind. A number
    field also takes text in quotes, for the few fields that are a number or a word
    (Plasmashok's ``shots = "radius"``, PS §5)."""
    raw = text.strip()
    if not raw:
        return None
    if kind in (INT, FLOAT) and _QUOTED.fullmatch(raw):
        return json.loads(raw)
    if kind == INT:
        if not _INT.fullmatch(raw):
            raise Unparsed('a whole number (or "a word" in quotes)')
        return int(raw)
    if kind == FLOAT:
        try:
            return float(raw)
        except ValueError:
            raise Unparsed("a number") from None
    if kind == BOOL:
        if raw.lower() in ("true", "yes", "y"):
            return True
        if raw.lower() in ("false", "no", "n"):
            return False
        raise Unparsed("true or false")
    if kind == WORDS:
        return _words(raw)
    if kind == TEXT:
        return text
    return parse_toml_value(raw)


def _words(raw: str) -> list[str]:
    """``a, b`` (the shorthand), or a TOML array of strings for words holding a
    comma: ``["a, b", "c"]``."""
    if not raw.startswith("["):
        return [w.strip() for w in raw.split(",") if w.strip()]
    value = parse_toml_value(raw)
    if not isinstance(value, list) or not all(isinstance(w, str) for w in value):
        raise Unparsed('words: a, b or a TOML array ["a, b", "c"]')
    return value


def parse_toml_value(raw: str) -> Any:
    try:
        return tomllib.loads(f"v = {raw}")["v"]
    except (tomllib.TOMLDecodeError, RecursionError, ValueError):
        raise Unparsed('a TOML value (1, "text", [..], { a = 1 })') from None


def same(a: Any, b: Any) -> bool:
    """Equal and of the same type (``1`` is not ``True``, nor ``1.0``)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, Mapping):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    return bool(a == b)


# --- the outline --------------------------------------------------------------------


def skeleton_at(template: Any, parts: Sequence[Part]) -> Any:
    """The template's value at the place of ``parts``: any entry of an array stands
    for the first, any table of a table of tables for the first one."""
    node = template
    for part in parts:
        if isinstance(part, int):
            if not isinstance(node, list) or not node:
                return None
            node = node[0]
        elif is_table(node) and part in node:
            node = node[part]
        elif is_tables(node):
            node = next(iter(node.values()))
        else:
            return None
    return node


def outline(data: Mapping[str, Any], template: Mapping[str, Any]) -> Node:
    """The outline of a force's ``data`` (a plain dict), with ``template``'s
    skeletons."""
    root = Node((), TABLE, "Force", skeleton=template)
    _fill(root, data, template)
    return root


def _fill(node: Node, table: Mapping[str, Any], skeleton: Any) -> None:
    """The fields and groups of ``node``, a table holding ``table``: its own keys in
    file order, then the skeleton's that it lacks."""
    sample = skeleton if is_table(skeleton) else {}
    keys = list(table) + [k for k in sample if k not in table]
    for key in keys:
        parts = (*node.parts, key)
        present = key in table
        value = table[key] if present else None
        shape = sample.get(key)
        if is_tables(value) or (not present and is_tables(shape)) \
                or (value in ([], {}) and is_tables(shape)):
            node.children.append(_group(parts, value, shape))
        elif is_record(value) or (not present and is_record(shape)):
            _record(node, parts, key, value if present else {}, shape)
        else:
            node.fields.append(_field(parts, key, value, present, shape))


def _field(parts: tuple[Part, ...], label: str, value: Any, present: bool,
           shape: Any) -> Field:
    """The skeleton's kind wins over the value's: a whole-number field holding a
    word by mistake still wants a whole number."""
    kind = kind_of(shape) if shape is not None else kind_of(value)
    if not present and shape is None:
        kind = TOML
    return Field(parts, label, kind, present, shape)


def _record(node: Node, parts: tuple[Part, ...], key: str, value: Mapping[str, Any],
            shape: Any) -> None:
    sample = shape if is_record(shape) else {}
    for sub in list(value) + [k for k in sample if k not in value]:
        node.fields.append(_field((*parts, sub), f"{key}.{sub}", value.get(sub),
                                  sub in value, sample.get(sub)))


def _group(parts: tuple[Part, ...], value: Any, shape: Any) -> Node:
    entry_shape = _entry(shape, 0) if is_tables(shape) else None
    group = Node(parts, GROUP, str(parts[-1]), skeleton=entry_shape)
    if isinstance(value, list):
        entries: Iterable[tuple[Part, Any]] = enumerate(value)
    elif is_table(value):
        entries = value.items()
    else:
        entries = ()
    for key, entry in entries:
        child = Node((*parts, key), TABLE, entry_label(key, entry), skeleton=entry_shape)
        _fill(child, entry if is_table(entry) else {}, entry_shape)
        group.children.append(child)
    if group.skeleton is None and group.children:  # no template: copy a sibling
        group.skeleton = _entry(value, -1)
    return group


def _entry(value: Any, index: int) -> Any:
    entries = list(value.values()) if is_table(value) else list(value)
    return entries[index]


def entry_label(key: Part, entry: Any) -> str:
    """A unit or figure by its name (and count); a weapon by its id."""
    name = entry.get("name") if is_table(entry) else None
    if isinstance(key, str):
        return key if not isinstance(name, str) or not name else f"{key} ({name})"
    text = name if isinstance(name, str) and name else f"#{key + 1}"
    count = entry.get("count") if is_table(entry) else None
    return f"{text} ×{count}" if isinstance(count, int) and not isinstance(count, bool) \
        and count != 1 else text


def entry_choices(group: Node, existing: Any, template: Mapping[str, Any] | None = None,
                  data: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """The entries ``group`` (whose value is ``existing``) may get, best guess first,
    each named apart from the entries of an array by a number: a copy of its skeleton
    (the template's entry), a copy of its last entry, and the skeleton without the
    flags some entry already has true (a second ``general``). A skeleton naming an id
    of one of ``template``'s tables of tables that the force (``data``) lacks (the
    template unit's weapon) would be wrong at once, so then the last entry comes
    first. Which one is right is for the checks to say: :func:`add_entry`."""
    siblings = [e for e in _entries(existing) if is_table(e)]
    skeleton = group.skeleton if is_table(group.skeleton) else {}
    choices = [skeleton, *siblings[-1:], _without_shared_flags(skeleton, siblings)]
    if siblings and template is not None and data is not None \
            and names_missing_id(skeleton, template, data):
        choices[:2] = choices[1::-1]
    named = [_named_apart(dict(copy.deepcopy(c)), existing) for c in choices]
    return [c for n, c in enumerate(named) if not any(same(c, d) for d in named[:n])]


def _entries(value: Any) -> list[Any]:
    """The entries of a group's value: an array's, or a table of tables' tables."""
    if isinstance(value, list):
        return value
    return list(value.values()) if is_table(value) else []


def _named_apart(entry: dict[str, Any], existing: Any) -> dict[str, Any]:
    """``entry`` with its name numbered if an entry of the array ``existing`` has it."""
    name = entry.get("name")
    if isinstance(name, str) and isinstance(existing, list):
        taken = {e.get("name") for e in existing if is_table(e)}
        base, n = name, 1
        while name in taken:
            n += 1
            name = f"{base} {n}"
        entry["name"] = name
    return entry


def _without_shared_flags(value: Any, others: list[Any]) -> Any:
    """``value`` without the keys that are ``true`` in it and at the same place in one
    of ``others`` (any entry of an array standing for any other): what a force may
    have once, like a general, is left to the entry that has it."""
    if is_table(value):
        out = {}
        for key, item in value.items():
            there = [o[key] for o in others if is_table(o) and key in o]
            if item is True and any(t is True for t in there):
                continue
            out[key] = _without_shared_flags(item, there)
        return out
    if isinstance(value, list):
        items = [i for o in others if isinstance(o, list) for i in o]
        return [_without_shared_flags(v, items) for v in value]
    return value


def add_entry(doc: ForceDocument, group: Node, template: Mapping[str, Any],
              key: str | None = None) -> tuple[Part, ...]:
    """Add a new entry to ``group`` in ``doc`` (at ``key`` in a table of tables) and
    return its parts: the first of :func:`entry_choices` that adds no error the force
    did not have (tried on a copy of the document), else the first. So a Classic
    force gets a unit that is not a second general (CL §1), with no ruleset named
    here: whatever the checks refuse, a choice that avoids it is taken."""
    existing = doc.get(group.path)
    choices = entry_choices(group, existing, template, doc.data())
    before = _errors(doc.check())
    parts = (*group.parts, key) if key is not None else None

    def put(target: ForceDocument, entry: dict[str, Any]) -> tuple[Part, ...]:
        if parts is not None:
            target.set(join_path(*parts), entry)
            return parts
        return (*group.parts, target.append(group.path, entry))

    def harmless(entry: dict[str, Any]) -> bool:
        trial = doc.copy()
        put(trial, entry)
        return _errors(trial.check()) <= before

    chosen = choices[0] if len(choices) == 1 else next(filter(harmless, choices), choices[0])
    return put(doc, chosen)


def _errors(result: CheckResult) -> set[tuple[str, str]]:
    """The errors of a check, by path and message (lines move as the text grows)."""
    return set() if result.ok else {(p.path, p.message) for p in result.problems}


def names_missing_id(value: Any, template: Mapping[str, Any],
                     data: Mapping[str, Any]) -> bool:
    """Whether a string in ``value`` is the id of an entry of one of ``template``'s
    top-level tables of tables (``[weapons.gun]``) that ``data`` does not have."""
    def has(name: str, key: str) -> bool:
        table = data.get(name)
        return is_table(table) and key in table

    missing = {key for name, shape in template.items() if is_table(shape) and is_tables(shape)
               for key in shape if not has(name, key)}
    return bool(missing) and not missing.isdisjoint(_strings(value))


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif is_table(value):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def new_key(group: Node, existing: Any, template: Mapping[str, Any]) -> str:
    """A free id for a new table in a table of tables (``weapons``): the template's
    first id, numbered if taken."""
    shape = skeleton_at(template, group.parts)
    base = next(iter(shape), "new") if is_table(shape) and shape else "new"
    taken = set(existing) if is_table(existing) else set()
    key, n = base, 1
    while key in taken:
        n += 1
        key = f"{base}-{n}"
    return key


# --- problems to places ----------------------------------------------------------------


def owner(root: Node, parts: Sequence[Part]) -> tuple[Node, Field | None]:
    """Where a problem about ``parts`` is shown: at its field if the path names one or
    an item of one (``weapons[0]`` of a ``weapons`` field: a list is typed as one
    field), else at the deepest table or group holding it (a unit, for a problem on
    the unit or on a key it lacks)."""
    best = root
    for node in root.walk():
        if len(node.parts) > len(best.parts) and tuple(parts[:len(node.parts)]) == node.parts:
            best = node
    tail = tuple(parts)
    item_of = tail[:-1] if tail and isinstance(tail[-1], int) else None
    for f in best.fields:
        if f.parts in (tail, item_of):
            return best, f
    return best, None


def shift_paths(paths: Mapping[str, Any], removed: tuple[Part, ...]) -> dict[str, Any]:
    """``paths`` after the array entry ``removed`` was deleted: those under it gone,
    its later siblings' (and their fields') indices one less."""
    out: dict[str, Any] = {}
    *array, index = removed
    depth = len(removed)
    for path, value in paths.items():
        parts = parse_path(path)
        head = parts[:depth]
        if head == removed:
            continue
        if len(parts) >= depth and tuple(parts[:depth - 1]) == tuple(array) \
                and isinstance(parts[depth - 1], int) and isinstance(index, int) \
                and parts[depth - 1] > index:
            parts = (*parts[:depth - 1], parts[depth - 1] - 1, *parts[depth:])
        out[join_path(*parts)] = value
    return out

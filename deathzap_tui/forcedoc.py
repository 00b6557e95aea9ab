"""A force file being edited: the non-UI half of the force editor.

:class:`ForceDocument` holds the file as a ``tomlkit`` document, so that editing a
hand-written file keeps its comments, key order and layout; only what is set,
appended or deleted changes (``tomli-w``, used for saves, would rewrite it all).
Values are addressed by the same paths as :class:`~deathzap_tui.rules.problems.Problem`
(``units[2].figures[0].count``), so a problem from :meth:`ForceDocument.check` points
straight at the field it is about. Checking runs the very code ``deathzap check``
runs, on the document's text, so the problems and their lines are the same.

File I/O lives here, not in :mod:`deathzap_tui.rules` (which is pure): reading
reuses :func:`deathzap_tui.forcefile.read_force_text` (bounded, regular files only),
writing reuses :func:`deathzap_tui.safefiles.write_atomic` (never through a link).
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.exceptions import TOMLKitError
from tomlkit.items import AoT, Array, InlineTable, Table

from deathzap_tui.forcefile import (
    LoadedForce,
    force_from_data,
    force_from_text,
    parse_toml,
    read_force_text,
    split_path,
)
from deathzap_tui.paths import forces_dir
from deathzap_tui.rules import registry
from deathzap_tui.rules.problems import InvalidInput, Problem, key_path
from deathzap_tui.rules.ruleset import PointsReport
from deathzap_tui.safefiles import UnsafeFile, remove_stale_temps, write_atomic

Part = str | int

SoFar = tuple[PointsReport | None, tuple[str, ...]]
"""The points of the units without errors of a force with errors (``None``: no total
to give) and the names of the units left out (issue 22)."""

NEW_FILE_MODE = 0o644
"""Permission bits of a force file saved for the first time (a saved-over file keeps
its own)."""


def parse_path(path: str) -> tuple[Part, ...]:
    """``units[2].figures[0]`` -> ``("units", 2, "figures", 0)``.

    Only paths written exactly as problem paths are (:func:`join_path` of the parts)
    are accepted, so that one field has one path; anything else is a ``ValueError``.
    """
    try:
        parts = tuple(split_path(path))
    except ValueError:
        parts = ()
    if (not parts or not isinstance(parts[0], str)
            or any(isinstance(p, int) and p < 0 for p in parts)
            or join_path(*parts) != path):
        raise ValueError(f"not a force-file path: {path!r} "
                         '(expected e.g. name, units[2].figures[0].count, "odd key")')
    return parts


def join_path(*parts: Part) -> str:
    """The problem-style path of ``parts``: the inverse of :func:`parse_path`."""
    out = ""
    for part in parts:
        out = f"{out}[{part}]" if isinstance(part, int) else key_path(out, part)
    return out


@dataclass(frozen=True)
class CheckResult:
    """What ``deathzap check`` would say about the document, and its size."""

    loaded: LoadedForce | None
    """The validated force; ``None`` when there are errors."""
    problems: tuple[Problem, ...]
    """Errors (when ``loaded`` is ``None``) or warnings, in line order, as ``check``
    lists them."""
    points: PointsReport | None = None
    """The ruleset's points for the force, when it has points and the force is valid."""
    counts: tuple[tuple[str, int], ...] = ()
    """Labelled counts instead, for a valid force of a ruleset without points."""

    @property
    def force(self) -> Any:
        return None if self.loaded is None else self.loaded.force

    @property
    def ok(self) -> bool:
        """No errors (warnings allowed): ``deathzap check`` accepts it."""
        return self.loaded is not None

    def at(self, path: str) -> list[Problem]:
        """The problems about ``path`` itself, to show next to its field."""
        return [p for p in self.problems if p.path == path]


class ForceDocument:
    """A force file's TOML, edited by path; see the module docstring."""

    def __init__(self, doc: tomlkit.TOMLDocument, source: str, path: Path | None = None,
                 saved: str = "") -> None:
        self._doc = doc
        self.source = source
        """The label on problems (the file's path, or e.g. ``new deathzap3 force``)."""
        self.path = path
        """Where :meth:`save` writes by default; ``None`` until there is a file."""
        self._saved = saved

    # --- making one -------------------------------------------------------------

    @classmethod
    def load(cls, path: str | Path) -> ForceDocument:
        """The force file at ``path``; ``InvalidInput`` (one problem) if it cannot be
        read or is not TOML. A file that is TOML but not a valid force loads: its
        problems are what :meth:`check` is for."""
        text = read_force_text(path)
        doc = cls.from_text(text, str(path))
        doc.path = Path(path)
        return doc

    @classmethod
    def from_text(cls, text: str, source: str = "force") -> ForceDocument:
        """``text`` as a document; ``InvalidInput`` with the problem ``deathzap check``
        gives if it is not TOML."""
        parse_toml(text, source)  # the size cap, and the very message `check` gives
        try:
            doc = tomlkit.parse(text)
        except (TOMLKitError, RecursionError, ValueError) as e:  # tomllib took it
            line = getattr(e, "line", None)
            raise InvalidInput([Problem(f"not valid TOML: {e}", line=line)],
                               source=source) from None
        return cls(doc, source, saved=text)

    @classmethod
    def new(cls, ruleset_id: str, *, template: bool = False,
            name: str = "New force") -> ForceDocument:
        """A new force of ``ruleset_id`` (``registry.UnknownRuleset`` if there is no
        such ruleset): just ``name`` and ``ruleset``, or with ``template`` the
        ruleset's one-unit starting file (:meth:`Ruleset.force_template`), where it
        has one. Never saved, so :attr:`modified` until it is."""
        ruleset = registry.get(ruleset_id)
        text = ruleset.force_template() if template else ""
        if text:
            doc = cls.from_text(text, f"new {ruleset_id} force")
            doc.set("name", name)
        else:
            doc = cls(tomlkit.document(), f"new {ruleset_id} force")
            doc.set("name", name)
            doc.set("ruleset", ruleset_id)
        doc._saved = ""
        return doc

    @classmethod
    def open(cls, path: str | Path, ruleset_id: str | None = None) -> ForceDocument:
        """The force file to edit at ``path``: an existing file as it is (``ValueError``
        if ``ruleset_id`` is given and the file names another ruleset; ``InvalidInput``
        if it is not TOML), or, if there is no file, an empty force of ``ruleset_id``
        (default :data:`registry.DEFAULT`) named after the file, saved there. A path
        that cannot be looked at (a name too long for a file, a file where a folder
        should be) is a ``ValueError`` saying so."""
        target = Path(path)
        try:
            os.lstat(target)
        except FileNotFoundError:
            doc = cls.new(ruleset_id or registry.DEFAULT, name=target.stem)
            doc.path = target
            doc.source = str(target)
            return doc
        except OSError as e:
            raise ValueError(f"{target}: {e.strerror or e}") from None
        doc = cls.load(target)
        found = doc.get("ruleset", registry.DEFAULT)
        if ruleset_id is not None and found != ruleset_id:
            raise ValueError(f"{target} is a {found} force file, not {ruleset_id} "
                             "(leave out --ruleset to edit it as it is)")
        return doc

    def copy(self) -> ForceDocument:
        """An unsaved copy, with no file, to try an edit on: its :meth:`check` says what
        the edit would do here."""
        return ForceDocument(tomlkit.parse(self.text()), self.source)

    # --- reading and editing ----------------------------------------------------

    def text(self) -> str:
        return self._doc.as_string()

    @property
    def modified(self) -> bool:
        """Whether the text differs from what was loaded or last saved."""
        return self.text() != self._saved

    def data(self) -> dict[str, Any]:
        """The whole document as plain values (tables as dicts, arrays as lists)."""
        return self._doc.unwrap()

    def get(self, path: str, default: Any = None) -> Any:
        """The plain value at ``path`` (tables as dicts, arrays as lists), or
        ``default`` if there is none."""
        node = self._find(parse_path(path))
        if node is _MISSING:
            return default
        return node.unwrap() if hasattr(node, "unwrap") else node

    def set(self, path: str, value: Any) -> None:
        """Put ``value`` at ``path``, keeping the comment after an old value. Missing
        tables on the way are made (``[weapons.spike]`` for a weapon, an inline table
        deeper down); a missing array entry is an error: :meth:`append` makes those."""
        parts = parse_path(path)
        parent = self._parent(parts, create=True)
        key = parts[-1]
        if isinstance(key, int):
            if not isinstance(parent, list) or key >= len(parent):
                raise ValueError(f"{path}: no such entry to set (append adds one)")
            parent[key] = _convert(value, standard=isinstance(parent, AoT))
        else:
            if not isinstance(parent, Mapping):
                raise ValueError(f"{path}: {join_path(*parts[:-1])} is not a table")
            item = _convert(value, _standard(parts, parent))
            if key not in parent and isinstance(item, (Table, AoT)):
                self._gap(parent)
            added = key not in parent
            parent[key] = item
            if added and isinstance(parent, InlineTable):
                self._respell(parts[:-1], _padded(parent))

    def append(self, path: str, value: Any) -> int:
        """Add ``value`` (a table: a unit, a figure, a profile; or a plain value) to
        the end of the array at ``path``, making the array if it is missing
        (``[[units]]`` at the top, an inline array deeper down). Returns its index."""
        parts = parse_path(path)
        parent = self._parent(parts, create=True)
        array = self._find(parts)
        if array is _MISSING:
            if isinstance(parts[-1], int) or not isinstance(parent, Mapping):
                raise ValueError(f"{path}: cannot make an array there")
            standard = _standard(parts, parent) and isinstance(value, Mapping)
            if standard:
                self._gap(parent)
            parent[parts[-1]] = tomlkit.aot() if standard else _multiline(tomlkit.array())
            array = parent[parts[-1]]
        if not isinstance(array, list):
            raise ValueError(f"{path}: not an array")
        item = _convert(value, standard=isinstance(array, AoT))
        if isinstance(array, AoT) and array and not array.as_string().endswith("\n\n"):
            item.trivia.indent = "\n"  # a blank line between [[units]], as people write
        array.append(item)
        return len(array) - 1

    def delete(self, path: str) -> bool:
        """Remove the value or array entry at ``path``; ``False`` if there was none."""
        parts = parse_path(path)
        parent = self._find(parts[:-1]) if len(parts) > 1 else self._doc
        key = parts[-1]
        if isinstance(key, int):
            if not isinstance(parent, list) or key >= len(parent):
                return False
        elif not isinstance(parent, Mapping) or key not in parent:
            return False
        padded = isinstance(parent, InlineTable) and _padded(parent)
        del parent[key]
        if isinstance(parent, InlineTable):
            self._respell(parts[:-1], padded)
        return True

    def _respell(self, parts: tuple[Part, ...], padded: bool) -> None:
        """Write the inline table at ``parts`` anew in its own style: tomlkit leaves a
        key added to or taken from a hand-written one hugging a brace or a comma."""
        container = self._find(parts[:-1]) if len(parts) > 1 else self._doc
        container[parts[-1]] = _spelled(self._find(parts), padded)

    def _gap(self, container: Any) -> None:
        """A blank line before a ``[table]`` about to be added at the end of the
        document, unless there is one."""
        if container is self._doc and self._doc.body and not self.text().endswith("\n\n"):
            self._doc.add(tomlkit.nl())

    def _find(self, parts: Sequence[Part]) -> Any:
        node: Any = self._doc
        for part in parts:
            if isinstance(part, int):
                if not isinstance(node, list) or part >= len(node):
                    return _MISSING
            elif not isinstance(node, Mapping) or part not in node:
                return _MISSING
            node = node[part]
        return node

    def _parent(self, parts: tuple[Part, ...], create: bool) -> Any:
        """The container holding ``parts[-1]``, making missing tables if ``create``."""
        node: Any = self._doc
        for n, part in enumerate(parts[:-1]):
            here = join_path(*parts[:n + 1])
            if isinstance(part, int):
                if not isinstance(node, list) or part >= len(node):
                    raise ValueError(f"{here}: no such entry")
            elif not isinstance(node, Mapping):
                raise ValueError(f"{here}: {join_path(*parts[:n])} is not a table")
            elif part not in node:
                if not create or isinstance(parts[n + 1], int):
                    raise ValueError(f"{here}: no such table or array")
                standard = _standard(parts[:n + 1], node)
                if standard:
                    self._gap(node)
                node[part] = tomlkit.table(is_super_table=n == 0) if standard \
                    else tomlkit.inline_table()
            node = node[part]
        return node

    # --- checking and saving ----------------------------------------------------

    def check(self) -> CheckResult:
        """Validate the text as ``deathzap check`` does (same problems, same lines)."""
        try:
            loaded = force_from_text(self.text(), self.source)
        except InvalidInput as e:
            return CheckResult(None, tuple(e.problems))
        points = loaded.ruleset.points(loaded.force)
        counts = () if points else tuple(loaded.ruleset.force_counts(loaded.force))
        return CheckResult(loaded, tuple(loaded.warnings), points, counts)

    def points_so_far(self, result: CheckResult) -> SoFar:
        """The total so far of a force with errors (``result``, its check): see
        :func:`points_so_far`; nothing for a valid force (its points are the
        result's)."""
        return (None, ()) if result.ok else points_so_far(self.text(), result.problems,
                                                          self.source)

    def save(self, path: str | Path | None = None) -> None:
        """Write the text to ``path`` (default :attr:`path`) atomically; see
        :func:`save_text`. Problems with the force do not stop a save (a draft is
        worth keeping); text that is not TOML does."""
        target = Path(path) if path is not None else self.path
        if target is None:
            raise ValueError("no file to save to")
        text = self.text()
        save_text(target, text)
        self.path = target
        self._saved = text


def points_so_far(text: str, problems: Sequence[Problem], source: str) -> SoFar:
    """The points of force ``text`` with errors (``problems``), counting the units
    without any: when every error is inside ``units[N]``, the force without those
    units is checked again and, valid, priced (issue 22: the total so far while some
    unit is being fixed). Returns the report (``None``: no total to give) and the
    units left out, by name."""
    try:
        data = parse_toml(text, source)
        units = data.get("units")
        bad = {_unit_of(problem.path) for problem in problems}
    except (InvalidInput, ValueError):  # not TOML; a path that names no unit
        return None, ()
    if not isinstance(units, list) or not bad or not all(
            isinstance(i, int) and i < len(units) for i in bad):
        return None, ()
    rest = {**data, "units": [u for i, u in enumerate(units) if i not in bad]}
    try:
        loaded = force_from_data(rest, source)
    except InvalidInput:
        return None, ()
    names = [units[i].get("name") if isinstance(units[i], Mapping) else None
             for i in sorted(bad)]
    return loaded.ruleset.points(loaded.force), tuple(
        name if isinstance(name, str) and name.strip() else join_path("units", i)
        for i, name in zip(sorted(bad), names, strict=True))


def _unit_of(path: str) -> int | None:
    """``N`` of a path inside ``units[N]``; ``None`` for a path outside the units."""
    parts = parse_path(path) if path.startswith("units[") else ()
    return parts[1] if len(parts) > 1 and isinstance(parts[1], int) else None


def force_path(text: str) -> Path:
    """Where the force file the user names goes: a bare name in the forces folder
    (:func:`~deathzap_tui.paths.forces_dir`, which ``DEATHZAP_FORCES_DIR`` sets), a
    path (with a folder, or ``~``) where it says; ``.toml`` is added when missing.
    Raises ``ValueError`` saying what is wrong (no name, no such folder)."""
    name = text.strip()
    if not name or name in (".", ".."):
        raise ValueError("type a file name, or a path")
    if not name.endswith(".toml"):
        name += ".toml"
    path = Path(name).expanduser()
    if len(path.parts) == 1 and not name.startswith("~"):
        return forces_dir() / path
    if not path.parent.is_dir():
        raise ValueError(f"no folder {path.parent}")
    return path


def save_text(path: str | Path, text: str) -> None:
    """Replace the file at ``path`` with ``text``, whole or not at all (a temporary
    file in the same directory, fsynced, renamed over it): a crash or a full disk
    leaves the old file as it was. The file keeps its permission bits (a new one gets
    :data:`NEW_FILE_MODE`). ``InvalidInput`` (and nothing written) if ``text`` is not
    TOML; :class:`~deathzap_tui.safefiles.UnsafeFile` (and nothing written) if
    ``path`` is a symbolic link: no file the app writes follows a link (issue 19)."""
    parse_toml(text, str(path))
    if os.path.islink(path):
        raise UnsafeFile(errno.ELOOP, "a symbolic link, which deathzap never writes "
                         f"through: edit {os.path.realpath(path)} itself", str(path))
    try:
        mode = stat.S_IMODE(os.stat(path, follow_symlinks=False).st_mode)
    except FileNotFoundError:
        mode = NEW_FILE_MODE
    # What an interrupted save of this file left (issue 19); fresh ones may be
    # another editor's save in progress.
    remove_stale_temps(Path(path))
    write_atomic(Path(path), text, mode=mode)  # a link put there meanwhile is replaced


class _Missing:
    pass


_MISSING: Any = _Missing()


def _standard(parts: Sequence[Part], parent: Any) -> bool:
    """Whether a table made at ``parts`` is a ``[header]`` table rather than an inline
    one: only at the top and one below (``[weapons.spike]``), as force files are
    written; within an array entry or an inline table, inline."""
    return (len(parts) <= 2 and all(isinstance(p, str) for p in parts)
            and not isinstance(parent, InlineTable))


def _convert(value: Any, standard: bool) -> Any:
    """``value`` as a tomlkit item: tables and arrays of tables are ``[header]`` ones
    if ``standard``, and everything inside them inline."""
    if isinstance(value, Mapping) and not hasattr(value, "as_string"):
        table = tomlkit.table() if standard else tomlkit.inline_table()
        for key, item in value.items():
            table[key] = _convert(item, standard=False)
        return table if standard else _spelled(table, padded=True)
    if isinstance(value, (list, tuple)) and not hasattr(value, "as_string"):
        if standard and value and all(isinstance(v, Mapping) for v in value):
            tables = tomlkit.aot()
            for v in value:
                tables.append(_convert(v, standard=True))
            return tables
        array = tomlkit.array()
        array.extend(_convert(v, standard=False) for v in value)
        return _multiline(array) if any(isinstance(v, Mapping) for v in value) else array
    return value


def _padded(table: InlineTable) -> bool:
    """Whether ``table`` is written ``{ a = 1 }`` (as force files are) rather than
    ``{a = 1}``; an empty one counts as padded."""
    text = table.as_string()
    return text == "{}" or text.startswith("{ ")


def _spelled(table: InlineTable, padded: bool) -> InlineTable:
    """``table`` written anew: ``{ a = 1, b = 2 }``, or ``{a = 1, b = 2}`` unless
    ``padded``; each key and value as it was written."""
    items = ", ".join(f"{key.as_string().strip()} = {value.as_string()}"
                      for key, value in table.value.body if key is not None)
    if not items:
        return tomlkit.inline_table()
    pad = " " if padded else ""
    return tomlkit.parse(f"x = {{{pad}{items}{pad}}}")["x"]


def _multiline(array: Array) -> Array:
    """One entry a line, as force files list figures and profiles."""
    array.multiline(True)
    return array

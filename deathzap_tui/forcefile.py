"""Reading force files safely.

A force file is untrusted TOML. Whatever it holds, loading either returns a
:class:`LoadedForce` or raises :class:`InvalidInput` with every problem found, each
with a line number where one can be found; never a traceback. The ruleset is the
file's top-level ``ruleset`` key (default :data:`registry.DEFAULT`); the ruleset
validates the rest.

Hostile-input notes (``shared/notes/stack-facts.md``): the size is capped before
parsing; ``tomllib`` raises ``RecursionError`` on deep nesting and ``ValueError`` on
huge integers, and accepts ``nan``/``inf``, all of which are reported as problems.
"""

from __future__ import annotations

import bisect
import contextlib
import json
import math
import os
import re
import stat
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from deathzap_tui.rules import registry
from deathzap_tui.rules.problems import BARE_KEY, InvalidInput, Problem, key_path
from deathzap_tui.rules.ruleset import Ruleset

MAX_BYTES = 1 << 20
"""Largest force file read (1 MiB); real ones are a few KiB."""


@dataclass
class LoadedForce:
    ruleset: Ruleset
    force: Any
    warnings: list[Problem]
    source: str
    """Where the force came from (a path, or a label such as ``save:red``)."""

    @property
    def name(self) -> str:
        return str(getattr(self.force, "name", self.source))

    def counts(self) -> tuple[int, int]:
        """(units, models). By convention every ruleset's force has ``units``, each
        with ``figures`` (one per model)."""
        units = getattr(self.force, "units", ())
        return len(units), sum(len(getattr(u, "figures", ())) for u in units)


def _fail(message: str, source: str, line: int | None = None) -> InvalidInput:
    return InvalidInput([Problem(message, line=line)], source=source)


def load_force(path: str | Path) -> LoadedForce:
    """Read, parse and validate the force file at ``path``."""
    return force_from_text(read_force_text(path), str(path))


def read_force_text(path: str | Path) -> str:
    """The text of the force file at ``path``: a regular file of at most
    :data:`MAX_BYTES`, UTF-8 (a BOM dropped). Raises :class:`InvalidInput` with one
    problem (labelled with ``path``) for anything else."""
    source = str(path)
    try:
        info = os.stat(path)
        if stat.S_ISDIR(info.st_mode):
            raise _fail("is a directory, not a force file", source)
        if not stat.S_ISREG(info.st_mode):  # a FIFO or device could block or never end
            raise _fail("is not a regular file", source)
        if info.st_size > MAX_BYTES:
            raise _fail(f"is {info.st_size} bytes; a force file is at most {MAX_BYTES}",
                        source)
        with open(path, "rb") as fh:
            raw = fh.read(MAX_BYTES + 1)  # the file may have grown since stat
    except FileNotFoundError:
        raise _fail("no such file", source) from None
    except PermissionError:
        raise _fail("permission denied", source) from None
    except OSError as e:
        raise _fail(f"cannot read: {e.strerror or e}", source) from None
    if len(raw) > MAX_BYTES:
        raise _fail(f"is more than {MAX_BYTES} bytes; a force file is at most that", source)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = raw.count(b"\n", 0, e.start) + 1
        raise _fail(f"is not UTF-8 text (byte 0x{raw[e.start]:02x})", source, line) from None
    return text


_TOML_WHERE = re.compile(r"\s*\(at line (\d+), column (\d+)\)")


def force_from_text(text: str, source: str) -> LoadedForce:
    """Parse TOML ``text`` and validate it; ``source`` labels the problems."""
    return force_from_data(parse_toml(text, source), source, text)


def parse_toml(text: str, source: str) -> dict[str, Any]:
    """The table in TOML ``text``, or :class:`InvalidInput` with the one problem
    (and its line) that stops it being read."""
    if len(text) > MAX_BYTES:
        raise _fail(f"is more than {MAX_BYTES} characters; a force file is at most that",
                    source)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        message = str(e)
        where = _TOML_WHERE.search(message)
        if where is None:
            raise _fail(f"not valid TOML: {message}", source) from None
        detail = _TOML_WHERE.sub("", message)
        raise _fail(f"not valid TOML: {detail} (column {where[2]})", source,
                    int(where[1])) from None
    except RecursionError:
        raise _fail("arrays or tables are nested too deeply to read", source) from None
    except ValueError as e:  # int('9' * 5000): CPython's int/str conversion limit
        raise _fail(f"holds a number too long to read ({str(e)[:60]}...)", source) from None
    return data


def force_from_data(data: Mapping[str, Any], source: str,
                    text: str | None = None) -> LoadedForce:
    """Validate already-parsed ``data`` (a force file's table, or a force embedded in a
    save). With the original ``text``, problems get line numbers."""
    if not isinstance(data, Mapping):
        raise _fail(f"expected a table of force data, got {type(data).__name__}", source)
    problems = _non_finite(data)
    ruleset_id = data.get("ruleset", registry.DEFAULT)
    ruleset: Ruleset | None = None
    force: Any = None
    if not isinstance(ruleset_id, str):
        problems.append(Problem(f"expected a ruleset id (text); known: "
                                f"{', '.join(registry.ids())}", "ruleset"))
    else:
        try:
            ruleset = registry.get(ruleset_id)
        except registry.UnknownRuleset as e:
            problems.append(Problem(str(e), "ruleset"))
    if ruleset is not None:
        try:
            force = ruleset.parse_force(data)
        except InvalidInput as e:
            reported = {p.path for p in problems}  # a nan is not also "not a number"
            problems.extend(p for p in e.problems if p.path not in reported)
    if problems or ruleset is None:
        raise InvalidInput(with_lines(problems, text), source=source)
    warnings = with_lines(ruleset.force_warnings(force), text)
    return LoadedForce(ruleset=ruleset, force=force, warnings=warnings, source=source)


def _non_finite(data: Mapping[str, Any]) -> list[Problem]:
    """``nan`` and ``inf`` anywhere in the data: TOML allows them, no rule does."""
    problems: list[Problem] = []
    stack: list[tuple[object, str]] = [(data, "")]
    while stack:
        value, path = stack.pop()
        if isinstance(value, float) and not math.isfinite(value):
            problems.append(Problem(f"{value} is not a usable number", path))
        elif isinstance(value, Mapping):
            stack.extend((v, key_path(path, k)) for k, v in value.items())
        elif isinstance(value, (list, tuple)):
            stack.extend((v, f"{path}[{i}]") for i, v in enumerate(value))
    problems.reverse()
    return problems


# --- line numbers for paths ------------------------------------------------------


def with_lines(problems: list[Problem], text: str | None) -> list[Problem]:
    """``problems`` with :attr:`Problem.line` filled from ``text`` where it can be,
    in line order (those without a line last, in their original order)."""
    if not text or not any(p.path and p.line is None for p in problems):
        return list(problems)
    index = line_index(text)
    located = [p if p.line is not None or not p.path
               else replace(p, line=locate(index, p.path)) for p in problems]
    return sorted(located, key=lambda p: (p.line is None, p.line or 0))


def locate(index: Mapping[tuple[str | int, ...], int], path: str) -> int | None:
    """The line of ``path`` (``units[2].figures[0].weapons[1]``), or of its closest
    ancestor that has one (a missing key points at its table)."""
    try:
        parts = split_path(path)
    except ValueError:
        return None
    for end in range(len(parts), 0, -1):
        line = index.get(tuple(parts[:end]))
        if line is not None:
            return line
    return None


_PATH_NAME = re.compile(r"[^.\[]+")


def split_path(path: str) -> list[str | int]:
    """``units[2]."odd key".shots`` -> ``["units", 2, "odd key", "shots"]``."""
    parts: list[str | int] = []
    i = 0
    while i < len(path):
        if path[i] == ".":
            i += 1
        elif path[i] == "[":
            end = path.index("]", i)
            parts.append(int(path[i + 1:end]))
            i = end + 1
        elif path[i] == '"':
            key, i = json.JSONDecoder().raw_decode(path, i)
            parts.append(str(key))
        else:
            match = _PATH_NAME.match(path, i)
            assert match is not None  # path[i] is neither "." nor "["
            parts.append(match.group())
            i = match.end()
    return parts


class _ScanError(Exception):
    pass


_SCALAR = re.compile(r"[^,\]}\n#]*")


class _Scanner:
    """Just enough of a TOML reader to know the line on which each value starts.

    Runs only on text that ``tomllib`` has already accepted, and only to decorate
    problems: anything it does not follow ends the scan with what it has so far.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.lines: dict[tuple[str | int, ...], int] = {}

    def line(self) -> int:
        return bisect.bisect_right(self.starts, self.i)

    def record(self, path: tuple[str | int, ...], line: int) -> None:
        for end in range(1, len(path) + 1):
            self.lines.setdefault(path[:end], line)

    def skip(self, newlines: bool) -> None:
        text = self.text
        while self.i < len(text):
            ch = text[self.i]
            if ch in " \t" or (newlines and ch in "\r\n"):
                self.i += 1
            elif ch == "#":
                end = text.find("\n", self.i)
                self.i = len(text) if end < 0 else end
            else:
                return

    def expect(self, token: str) -> None:
        self.skip(newlines=False)
        if not self.text.startswith(token, self.i):
            raise _ScanError(token)
        self.i += len(token)

    def keys(self) -> tuple[str, ...]:
        """A dotted key: bare, "basic" or 'literal' parts."""
        out: list[str] = []
        while True:
            self.skip(newlines=False)
            ch = self.text[self.i]
            if ch in "\"'":
                start = self.i
                self.string()
                quoted = self.text[start:self.i]
                try:
                    out.append(json.loads(quoted) if ch == '"' else quoted[1:-1])
                except ValueError:  # a TOML-only escape such as \e: close enough
                    out.append(quoted[1:-1])
            else:
                match = BARE_KEY.match(self.text, self.i)
                if match is None:
                    raise _ScanError("key")
                out.append(match.group())
                self.i = match.end()
            self.skip(newlines=False)
            if not self.text.startswith(".", self.i):
                return tuple(out)
            self.i += 1

    def string(self) -> None:
        text = self.text
        for quote in ('"""', "'''", '"', "'"):
            if text.startswith(quote, self.i):
                break
        self.i += len(quote)
        while True:
            if quote[0] == '"' and text[self.i] == "\\":
                self.i += 2
            elif text.startswith(quote, self.i):
                self.i += len(quote)
                while len(quote) == 3 and text.startswith(quote[0], self.i):
                    self.i += 1  # """a"""" ends with a quote inside the string
                return
            else:
                self.i += 1

    def value(self, path: tuple[str | int, ...], line: int) -> None:
        self.record(path, line)
        self.skip(newlines=False)
        ch = self.text[self.i]
        if ch == "[":
            self.i += 1
            index = 0
            while True:
                self.skip(newlines=True)
                if self.text[self.i] == "]":
                    self.i += 1
                    return
                self.value((*path, index), self.line())
                index += 1
                self.skip(newlines=True)
                if self.text[self.i] == ",":
                    self.i += 1
        elif ch == "{":
            self.i += 1
            while True:
                self.skip(newlines=True)
                if self.text[self.i] == "}":
                    self.i += 1
                    return
                key_line = self.line()
                keys = self.keys()
                self.expect("=")
                self.value(path + keys, key_line)
                self.skip(newlines=True)
                if self.text[self.i] == ",":
                    self.i += 1
        elif ch in "\"'":
            self.string()
        else:
            match = _SCALAR.match(self.text, self.i)
            assert match is not None  # the pattern matches the empty string
            if not match.group().strip():
                raise _ScanError("value")
            self.i = match.end()

    def document(self) -> None:
        table: tuple[str | int, ...] = ()
        arrays: dict[tuple[str | int, ...], int] = {}  # [[array]] path -> length so far
        while True:
            self.skip(newlines=True)
            if self.i >= len(self.text):
                return
            line = self.line()
            if self.text[self.i] == "[":
                append = self.text.startswith("[[", self.i)
                self.i += 2 if append else 1
                keys = self.keys()
                self.expect("]]" if append else "]")
                table = ()
                for n, key in enumerate(keys):
                    table = (*table, key)
                    if append and n == len(keys) - 1:
                        arrays[table] = arrays.get(table, 0) + 1
                    if table in arrays:  # a sub-table of the latest [[array]] entry
                        table = (*table, arrays[table] - 1)
                self.record(table, line)
            else:
                keys = self.keys()
                self.expect("=")
                self.value(table + keys, line)


def line_index(text: str) -> dict[tuple[str | int, ...], int]:
    """Path (as :func:`split_path` parts) -> line where that value or table starts."""
    scanner = _Scanner(text)
    # Best effort: if the scanner loses its way, keep the lines found so far.
    with contextlib.suppress(_ScanError, IndexError, RecursionError):
        scanner.document()
    return scanner.lines

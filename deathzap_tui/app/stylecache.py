"""The style sheets as Textual parsed them, kept from one run of the app to the next
(issue 21).

Textual parses every style sheet an app uses (ours, and the ``DEFAULT_CSS`` of each
widget class it shows) again in every new process: the start screen's sheets take
about 118 M instructions (Button's alone 38 M), reading them kept about 25 M. So the
rules of each sheet are kept, pickled, in one file beside this user's cache key
(:func:`~deathzap_tui.paths.kept_styles_path`), signed with that key like a save's
cache (:mod:`deathzap_tui.savesign`: a file this user's key did not sign is never
unpickled), each under a name hashed from all that parsing it reads
(:func:`sheet_name`): the sheet's text, where it was read from, its place among the
sheets (defaults or not, tie-breaker, scope), the CSS variables (the theme), and the
code that parses it (Textual's parser modules as installed, this code's identity).
An edited sheet, another theme or another Textual is parsed again; a file that does
not load is ignored and everything is parsed as before.
:class:`~deathzap_tui.app.frames.KeptStylesheet` reads and fills it; the app writes
it when it quits, only if it parsed a sheet the file did not hold.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from collections.abc import Mapping
from typing import Any

import textual.css.parse
import textual.css.styles
import textual.css.tokenize
import textual.css.tokenizer
from textual.css import _styles_builder, model

from deathzap_tui.paths import kept_styles_path
from deathzap_tui.savesign import code_identity, sign, signed

MAGIC = b"deathzap-styles 1\n"
"""The kept sheets' own format."""
MAX_BYTES = 8 << 20
"""The largest file of kept sheets read (the whole app's are about 200 KB)."""
MAX_SHEETS = 256
"""Sheets kept at most: beyond, only those this run used or parsed are kept (sheets of
older code or other themes are not kept for ever)."""


def _parser_identity() -> tuple[tuple[str, int, int], ...]:
    """Textual's CSS parser as installed: its modules' files, sizes and times (another
    Textual is other files; ``importlib.metadata`` would cost 50 M instructions)."""
    modules = (textual.css.parse, textual.css.tokenize, textual.css.tokenizer,
               textual.css.styles, _styles_builder, model)
    return tuple((str(m.__file__), (st := os.stat(str(m.__file__))).st_size, st.st_mtime_ns)
                 for m in modules)


_PARSER = (code_identity().decode(), _parser_identity())


def variables_digest(variables: Mapping[str, str]) -> bytes:
    """A hash of the CSS variables (the theme) and the parser's code: what every sheet's
    name depends on besides the sheet (hashed once per set of variables)."""
    return hashlib.sha256(repr((_PARSER, sorted(variables.items()))).encode()).digest()


def sheet_name(sheet: tuple[Any, ...], variables: bytes) -> str:
    """The name a sheet's rules are kept under: a hash of ``sheet`` (what Textual keys
    a parsed sheet on: its text, where it was read from, defaults or not, tie-breaker,
    scope) and of the ``variables`` and parser (:func:`variables_digest`)."""
    digest = hashlib.sha256(variables)
    digest.update(repr(sheet).encode())
    return digest.hexdigest()


class KeptSheets:
    """The sheets kept by earlier runs (read once), and those parsed in this one."""

    def __init__(self, kept: dict[str, bytes]) -> None:
        self.kept = kept
        """Name -> the pickled rules of a sheet, as read."""
        self.parsed: dict[str, list[Any]] = {}
        """Name -> the rules of a sheet this run parsed, to keep."""
        self.used: set[str] = set()
        """The kept sheets this run used."""

    @classmethod
    def read(cls) -> KeptSheets:
        """The sheets this user's earlier runs kept (none if the file is missing, not
        signed with this user's key or not readable as kept sheets)."""
        payload = signed(kept_styles_path(), MAGIC, MAX_BYTES)
        if payload is None:
            return cls({})
        try:
            data = pickle.loads(payload)
        except Exception:  # signed by this user's code, yet spoilt: parse again
            return cls({})
        if not isinstance(data, dict):
            return cls({})
        return cls({name: raw for name, raw in data.items()
                    if isinstance(name, str) and isinstance(raw, bytes)})

    def rules(self, name: str) -> list[Any] | None:
        """The rules kept under ``name``, or ``None`` (never kept, or not loadable)."""
        raw = self.kept.get(name)
        if raw is None:
            return None
        try:
            rules = pickle.loads(raw)
        except Exception:  # as in read
            return None
        if not isinstance(rules, list):
            return None
        self.used.add(name)
        return rules

    def add(self, name: str, rules: list[Any]) -> None:
        """Keep the ``rules`` this run parsed under ``name`` (see :meth:`write`)."""
        self.parsed[name] = rules

    def write(self) -> None:
        """Keep the sheets parsed in this run with those read, if it parsed any (never
        raises: sheets that cannot be kept are parsed again next time)."""
        if not self.parsed:
            return
        kept = self.kept
        if len(kept) + len(self.parsed) > MAX_SHEETS:
            kept = {name: raw for name, raw in kept.items() if name in self.used}
        try:
            kept = {**kept, **{name: pickle.dumps(rules, pickle.HIGHEST_PROTOCOL)
                               for name, rules in self.parsed.items()}}
            payload = pickle.dumps(kept, pickle.HIGHEST_PROTOCOL)
        except Exception:  # rules Textual made unpicklable: parsed again next time
            return
        sign(kept_styles_path(), MAGIC, lambda: payload)
        self.kept, self.parsed = kept, {}

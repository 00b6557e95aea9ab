"""Problems found in user input, each pointing at where it is."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Literal

BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
"""A TOML bare key; paths quote any other key."""


def key_path(parent: str, key: object) -> str:
    """``parent.key``; a key that is not a plain bare key is JSON-quoted (ASCII only,
    so nothing unsafe reaches a terminal through a path)."""
    if isinstance(key, str) and BARE_KEY.fullmatch(key):
        part = key
    else:
        part = json.dumps(key if isinstance(key, str) else repr(key))
    return f"{parent}.{part}" if parent else part


@dataclass(frozen=True)
class Problem:
    """One thing wrong (``error``) or worth a look (``warning``) in some input.

    ``path`` is the dotted/indexed path of the offending value inside the document
    (``units[2].figures[0].weapons[1]``); empty for the document as a whole.
    ``line`` is filled by the loader when it knows it.
    """

    message: str
    path: str = ""
    severity: Literal["error", "warning"] = "error"
    line: int | None = None

    def located(self, source: str = "") -> str:
        where = source
        if self.line is not None:
            where = f"{where}:{self.line}" if where else f"line {self.line}"
        parts = [p for p in (where, self.path) if p]
        prefix = ": ".join(parts)
        return f"{prefix}: {self.message}" if prefix else self.message

    @property
    def is_error(self) -> bool:
        return self.severity == "error"


class InvalidInput(ValueError):
    """Raised with every problem found, not just the first."""

    def __init__(self, problems: list[Problem], source: str = "") -> None:
        self.problems = problems
        self.source = source
        super().__init__("\n".join(p.located(source) for p in problems))

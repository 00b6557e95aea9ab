"""Which force files belong to which ruleset, cheaply, for the start screen's lists.

A force file names its ruleset with a top-level ``ruleset = "..."`` key (default
:data:`~deathzap_tui.rules.registry.DEFAULT`). Listing only needs that key, so the
file's top-level lines are scanned (up to the first table header), without parsing
or validating the whole file; starting a game loads and checks it properly.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from deathzap_tui.rules import registry

MAX_SCAN = 64 * 1024
_KEY = re.compile(r"""^\s*ruleset\s*=\s*(?:"([^"\n]*)"|'([^'\n]*)')\s*(?:#.*)?$""")


def ruleset_of(path: Path | None) -> str:
    """The ruleset id a force file asks for ("" if it cannot be read)."""
    if path is None:
        return ""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read(MAX_SCAN)
    except OSError:
        return ""
    for line in text.splitlines():
        if line.lstrip().startswith("["):
            break
        m = _KEY.match(line)
        if m:
            return m.group(1) if m.group(1) is not None else m.group(2)
    return registry.DEFAULT


def forces_for(files: Iterable[Path], ruleset_id: str) -> list[Path]:
    """The files of one ruleset, in the given order."""
    return [p for p in files if ruleset_of(p) == ruleset_id]


Pair = tuple[Path | None, Path | None]


def pair_for(files: Iterable[Path], ruleset_id: str, keep: Pair = (None, None)) -> Pair:
    """Red and black forces for a ruleset: ``keep``'s where they already belong to
    it, else the first files of that ruleset not already taken."""
    mine = forces_for(files, ruleset_id)
    out: list[Path | None] = [p if p is not None and ruleset_of(p) == ruleset_id else None
                              for p in keep]
    spare = [p for p in mine if p not in out]
    for i, p in enumerate(out):
        if p is None and spare:
            out[i] = spare.pop(0)
    return out[0], out[1]

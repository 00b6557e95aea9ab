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

from deathzap_tui.paths import forces_dir
from deathzap_tui.rules import registry
from deathzap_tui.rules.ruleset import SIDES, other_side

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


def named_for(path: Path) -> str:
    """The side a file's name is for ("red" for ``cl-red-dawn-irregulars.toml``), ""
    when it names neither or both."""
    words = set(re.split(r"[^a-z]+", path.stem.lower()))
    sides = [side for side in SIDES if side in words]
    return sides[0] if len(sides) == 1 else ""


def pair_for(files: Iterable[Path], ruleset_id: str, keep: Pair = (None, None)) -> Pair:
    """Red and black forces for a ruleset: ``keep``'s where they already belong to
    it, else the first files of that ruleset not already taken, a file named for a
    side going to that side (issue 22: Classic's red force is RED's)."""
    mine = forces_for(files, ruleset_id)
    out: list[Path | None] = [p if p is not None and ruleset_of(p) == ruleset_id else None
                              for p in keep]
    spare = [p for p in mine if p not in out]
    for i, side in enumerate(SIDES):
        if out[i] is None and spare:
            fits = [p for p in spare if named_for(p) == side] or \
                [p for p in spare if named_for(p) != other_side(side)] or spare
            out[i] = fits[0]
            spare.remove(fits[0])
    return out[0], out[1]


def force_files() -> list[Path]:
    """The force files of the forces folder (none if it cannot be read)."""
    try:
        return sorted(p for p in forces_dir().glob("*.toml") if p.is_file())
    except OSError:
        return []


def shown_path(path: Path | None) -> str:
    """``path`` as a player would type it: relative to here where it is below here."""
    if path is None:
        return ""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)

"""What the start screen says of a good force file (its name, units, points and
warnings), kept from one run to the next, so that the start screen's first frame
neither parses the two forces' TOML nor imports the ruleset's force and points code
(issue 21: about 25 M instructions for the two demo forces).

The summaries are one JSON file beside this user's cache key
(:func:`~deathzap_tui.paths.kept_forces_path`), signed with it (:mod:`.savesign`),
each under a hash of the force file's text and of the code that read it
(:func:`~deathzap_tui.savesign.code_identity`, as a save's summary): a file edited
since, or read by other code, is read again, never described from what it was. A
file with errors is not kept (its problems are listed from the file itself each
time), nor one that is a link or not a regular file; a good file's warnings are
kept as their count, all the start screen says of them."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deathzap_tui.paths import kept_forces_path
from deathzap_tui.safefiles import read_regular
from deathzap_tui.savesign import code_identity, sign, signed

if TYPE_CHECKING:
    from deathzap_tui.forcefile import LoadedForce

MAGIC = b"deathzap-forces 1\n"
"""The kept summaries' own format."""
MAX_BYTES = 256 * 1024
"""The largest file of kept summaries read (one summary is about a hundred bytes)."""
MAX_FORCES = 512
"""Summaries kept at most: beyond, the oldest go first."""
MAX_FORCE_BYTES = 1 << 20
"""The largest force file looked up (:data:`deathzap_tui.forcefile.MAX_BYTES`)."""


@dataclass(frozen=True)
class ForceSummary:
    """What the start screen says of a force that can be played."""

    name: str
    units: int
    points: int | None
    """The force's points, ``None`` when its ruleset has none (or they fail)."""
    warnings: int

    @classmethod
    def of(cls, loaded: LoadedForce) -> ForceSummary:
        force = loaded.force
        try:
            report = loaded.ruleset.points(force)
            points = None if report is None else report.total
        except Exception:  # points are a nicety here
            points = None
        return cls(str(getattr(force, "name", "")), len(getattr(force, "units", ())), points,
                   len(loaded.warnings))


def text_key(text: str) -> str:
    """What a force file's summary is kept under: a hash of its ``text`` (as
    :func:`~deathzap_tui.forcefile.read_force_text` gives it) and of this code."""
    digest = hashlib.sha256(code_identity() + b"\0")
    digest.update(text.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def _file_key(path: Path) -> str | None:
    """:func:`text_key` of the force file at ``path`` as it is now, or ``None`` for a
    file that cannot be read as a force file's text (it is read the long way)."""
    try:
        return text_key(read_regular(path, MAX_FORCE_BYTES).decode("utf-8-sig"))
    except (OSError, ValueError):  # missing, a link, too big, not UTF-8...
        return None


def _kept() -> dict[str, Any]:
    payload = signed(kept_forces_path(), MAGIC, MAX_BYTES)
    if payload is None:
        return {}
    try:
        data = json.loads(payload)
    except (ValueError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def read(path: Path) -> ForceSummary | None:
    """The kept summary of the force file at ``path`` as it is now, or ``None``
    (never kept, edited since, or kept by other code). Never raises."""
    key = _file_key(path)
    if key is None:
        return None
    found = _kept().get(key)
    if not isinstance(found, list) or len(found) != 4:
        return None
    name, units, points, warnings = found
    if not isinstance(name, str) or not all(
            type(n) is int for n in (units, warnings)) or not (
            points is None or type(points) is int):
        return None
    return ForceSummary(name, units, points, warnings)


def keep(text: str, summary: ForceSummary) -> None:
    """Keep ``summary`` of the force file whose ``text`` it was made from (never
    raises: a summary not kept only makes the next start read the file)."""
    kept = _kept()
    kept.pop(text_key(text), None)  # (last, as the newest)
    kept[text_key(text)] = [summary.name, summary.units, summary.points, summary.warnings]
    while len(kept) > MAX_FORCES:
        del kept[next(iter(kept))]
    sign(kept_forces_path(), MAGIC, lambda: json.dumps(kept, ensure_ascii=False).encode())

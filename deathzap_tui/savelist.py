"""The saves in the saves folder, as ``deathzap resume``'s list and the start screen
show them: each save's players, ruleset, events and how its game stands, read from
its summary (:mod:`.savesummary`) where it has a good one, which costs neither the
TOML of its snapshot nor its game's code (issue 21); else from its snapshot."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from deathzap_tui import savesummary
from deathzap_tui.paths import saves_dir
from deathzap_tui.safefiles import read_regular
from deathzap_tui.savepaths import MAX_SAVE_BYTES, journal_path
from deathzap_tui.standing import Standing


@dataclass(frozen=True)
class SaveInfo:
    path: Path
    red: str
    black: str
    ruleset: str
    events: int
    modified: dt.datetime
    problem: str = ""
    standing: Standing | None = None
    """How the game stands, from the save's summary; ``None``: load the game to know."""


def list_saves(directory: Path | None = None) -> list[SaveInfo]:
    """Saves in the directory, newest first; broken ones listed with their problem."""
    directory = directory or saves_dir()
    out = []
    for path in sorted(directory.glob("*.toml")):
        stamps = [p.stat().st_mtime for p in (path, journal_path(path)) if p.exists()]
        modified = dt.datetime.fromtimestamp(max(stamps, default=0))
        out.append(_summarized(path, modified) or _read(path, modified))
    return sorted(out, key=lambda s: s.modified, reverse=True)


def _summarized(path: Path, modified: dt.datetime) -> SaveInfo | None:
    """The save as its summary says, if it has one of its files as they stand. A game
    in progress whose journal is missing is read instead (and refused)."""
    try:
        snapshot = read_regular(path, MAX_SAVE_BYTES)
        try:
            journal: bytes | None = read_regular(journal_path(path), MAX_SAVE_BYTES)
        except FileNotFoundError:
            journal = None
    except OSError:
        return None
    summary = savesummary.read(path, snapshot, journal or b"")
    if summary is None or (journal is None and not summary.standing.over):
        return None
    return SaveInfo(path, summary.red, summary.black, summary.ruleset, summary.events,
                    modified, standing=summary.standing)


def _read(path: Path, modified: dt.datetime) -> SaveInfo:
    """The save as its snapshot says (the journal's events counted, not parsed: a
    listing costs no more for a long game, a journal line being one event)."""
    from deathzap_tui import saves  # lazy: only for a save without a summary (~50 ms CPU)

    try:
        snapshot, journal = saves.read_files(path)
        data = saves.parse_save(path, snapshot, b"")
        forces = data.get("forces", {})
        events = len(data.get("events", [])) + journal.count(b"\n")
        return SaveInfo(path, str(forces.get("red", {}).get("name", "?")),
                        str(forces.get("black", {}).get("name", "?")),
                        str(data.get("ruleset", "?")), events, modified)
    except (saves.SaveError, AttributeError) as exc:
        return SaveInfo(path, "?", "?", "?", 0, modified, problem=str(exc))

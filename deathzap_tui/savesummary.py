"""A save's summary, ``NAME.toml.summary``: what a listing of the saves says of it
(its ruleset, players, events, and how its game stands), kept by the save's writer
after every event it keeps and whenever it writes the cache or the snapshot, so that
a listing reads neither the snapshot's TOML nor the game (issue 21).

It is JSON, signed with this user's key like the cache (:mod:`.savesign`), and read
only when it was made by this code from the save's files as they stand, whole (the
snapshot and every byte of the journal): one made before the last event, or of files
changed since by anything else, is ignored, and the listing reads the save itself.
Written without fsync: a summary lost in a crash only makes a listing slower."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deathzap_tui.savepaths import summary_path
from deathzap_tui.savesign import code_identity, fingerprint, sign, signed
from deathzap_tui.standing import Standing

if TYPE_CHECKING:
    from deathzap_tui.rules.game import Game

MAGIC = b"deathzap-summary 1\n"
"""The summary's own format."""
MAX_BYTES = 64 * 1024
"""The largest summary read (one is a few hundred bytes)."""


@dataclass(frozen=True)
class Summary:
    """What a listing says of a save: as :func:`~.savelist.list_saves` reads it from
    the snapshot (the ruleset's id, each force's name as embedded), its events, and
    how its game stands."""

    ruleset: str
    red: str
    black: str
    events: int
    standing: Standing

    @classmethod
    def of(cls, game: Game) -> Summary:
        red, black = (str(force.source.get("name", "?")) for force in (game.red, game.black))
        return cls(game.ruleset.id, red, black, len(game.log), Standing.of(game))


def write(save: Path, files: bytes, summary: Summary) -> None:
    """Keep ``summary`` beside the save, as made from the save's files whose
    fingerprint is ``files`` (:func:`~.savesign.fingerprint` of the snapshot and the
    whole journal). Never raises: a summary that cannot be kept only makes a listing
    read the save."""
    data = {"code": code_identity().decode(), "files": files.hex(), "ruleset": summary.ruleset,
            "red": summary.red, "black": summary.black, "events": summary.events,
            **summary.standing.to_data()}
    sign(summary_path(save), MAGIC, lambda: json.dumps(data, ensure_ascii=False).encode())


def read(save: Path, snapshot: bytes, journal: bytes) -> Summary | None:
    """The save's summary if this user's code made it from these files (``snapshot``
    and ``journal`` as they are on disk, whole); ``None`` otherwise (never raises)."""
    payload = signed(summary_path(save), MAGIC, MAX_BYTES)
    if payload is None:
        return None
    try:
        data: Any = json.loads(payload)
    except (ValueError, RecursionError):
        return None
    if (not isinstance(data, dict) or data.get("code") != code_identity().decode()
            or data.get("files") != fingerprint(snapshot, journal).hexdigest()):
        return None
    ruleset, red, black, events = (data.get(k) for k in ("ruleset", "red", "black", "events"))
    standing = Standing.from_data(data)
    if (standing is None or not all(isinstance(s, str) for s in (ruleset, red, black))
            or not isinstance(events, int) or isinstance(events, bool)):
        return None
    return Summary(ruleset, red, black, events, standing)

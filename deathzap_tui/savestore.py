"""A game kept in save files: the :class:`~deathzap_tui.gamestore.GameStore` over
:mod:`deathzap_tui.saves` (snapshot and journal), :mod:`deathzap_tui.savecache`,
:mod:`deathzap_tui.savesummary` (what a listing of the saves reads) and
:mod:`deathzap_tui.inflight` (the action in progress beside the save).

The file formats are those of :mod:`.saves`, unchanged: every save ever written
loads, and what this store writes is a save every command reads.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from deathzap_tui import savecache, saves, savesummary
from deathzap_tui.gamestore import Conflict
from deathzap_tui.inflight import FileStore
from deathzap_tui.rules.events import Event
from deathzap_tui.rules.game import Game
from deathzap_tui.savesign import fingerprint


class SaveFileStore:
    """The game of the save ``path`` (``NAME.toml`` and the files beside it)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.label = str(path)
        self.in_flight = FileStore(path)
        self._files: Any = None
        """A running hash of the save's files as this store has written them (read
        when first needed): what a cache is made from."""
        self._journal_bytes = 0
        self._count = 0
        """The events the save holds, as this store last read or wrote them."""
        self._cached: int | None = None
        """The events of the game the save's cache holds, as this store last read or
        wrote it (``None``: not known)."""
        self._game: Game | None = None
        """The game this store keeps, as loaded, created or last written here: after
        each event appended, the save's summary says how it stands."""

    def create(self, game: Game) -> None:
        if os.path.lexists(self.path):
            raise saves.SaveError(f"{self.path} already exists")
        self.rewrite(game)

    def load(self) -> Game:
        loaded = saves.load_save(self.path)
        if loaded.journal and not loaded.journal.endswith(b"\n"):
            self._files = None  # a crash's half line: cut before appending (_read_files)
        else:  # what an append or a cache needs, from the files just read
            self._files = loaded.files()
            self._journal_bytes = len(loaded.journal)
            self._count = len(loaded.game.log)
        self._cached = loaded.cached
        self._game = loaded.game
        return loaded.game

    def rewrite(self, game: Game) -> None:
        snapshot = saves.save_game(game, self.path)
        self._files = fingerprint(snapshot, b"")  # the journal is emptied
        self._journal_bytes = 0
        self._count = len(game.log)
        self._cached = None  # removed by save_game: made from the old files
        self._game = game
        self._summarize()

    def append(self, seq: int, event: Event) -> None:
        self._read_files()
        if seq != self._count:
            raise Conflict(f"{self.path}: the save holds {self._count} events, so event "
                           f"number {seq} cannot come next; reload it")
        try:
            line = saves.append_event(self.path, seq, event,
                                      expected_bytes=self._journal_bytes)
        except Conflict:
            self._files = None  # read again next time
            raise
        self._files.update(line)
        self._journal_bytes += len(line)
        self._count += 1
        self._summarize()

    def events_after(self, count: int) -> list[Event]:
        raw = saves.read_save_data(self.path).get("events")
        try:
            return [Event.from_data(e) for e in (raw if isinstance(raw, list) else [])[count:]]
        except (ValueError, TypeError, AttributeError) as exc:
            raise saves.SaveError(f"{self.path}: an event cannot be read ({exc})") from None

    def keep_cache(self, game: Game) -> None:
        self._game = game
        if self._cached == len(game.log) == self._count:
            self._summarize()  # the cache already holds the game as it stands (just resumed)
            return
        try:
            self._read_files()
        except (OSError, saves.SaveError):
            return  # only a slower resume
        savecache.write(self.path, game, self._journal_bytes, self._files.digest())
        self._cached = len(game.log)
        self._summarize()

    def _summarize(self) -> None:
        """Write the save's summary (:mod:`.savesummary`) when the files as this store
        wrote them hold the game it keeps."""
        game = self._game
        if game is not None and self._files is not None and len(game.log) == self._count:
            savesummary.write(self.path, self._files.digest(), savesummary.Summary.of(game))

    def _read_files(self) -> None:
        """Read the save's files when not known (first, after a conflict): their hash, the
        journal's length, and how many events they hold."""
        if self._files is not None:
            return
        saves.cut_torn_tail(self.path)  # a crash's half line: never append onto it
        snapshot, journal = saves.read_files(self.path)
        self._files = fingerprint(snapshot, journal)
        self._journal_bytes = len(journal)
        self._count = len(saves.parse_save(self.path, snapshot, journal).get("events") or [])

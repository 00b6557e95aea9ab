"""A game kept in save files: the :class:`~deathzap_tui.gamestore.GameStore` over
:mod:`deathzap_tui.saves` (snapshot and journal), :mod:`deathzap_tui.savecache` and
:mod:`deathzap_tui.inflight` (the action in progress beside the save).

The file formats are those of :mod:`.saves`, unchanged: every save ever written
loads, and what this store writes is a save every command reads.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from deathzap_tui import savecache, saves
from deathzap_tui.gamestore import Conflict
from deathzap_tui.inflight import FileStore
from deathzap_tui.rules.events import Event
from deathzap_tui.rules.game import Game


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

    def create(self, game: Game) -> None:
        if os.path.lexists(self.path):
            raise saves.SaveError(f"{self.path} already exists")
        self.rewrite(game)

    def load(self) -> Game:
        return saves.load_game(self.path)

    def rewrite(self, game: Game) -> None:
        saves.save_game(game, self.path)
        self._files = None

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

    def events_after(self, count: int) -> list[Event]:
        raw = saves.read_save_data(self.path).get("events")
        try:
            return [Event.from_data(e) for e in (raw if isinstance(raw, list) else [])[count:]]
        except (ValueError, TypeError, AttributeError) as exc:
            raise saves.SaveError(f"{self.path}: an event cannot be read ({exc})") from None

    def keep_cache(self, game: Game) -> None:
        try:
            self._read_files()
        except (OSError, saves.SaveError):
            return  # only a slower resume
        savecache.write(self.path, game, self._journal_bytes, self._files.digest())

    def _read_files(self) -> None:
        """Read the save's files once (after a rewrite, again): their hash, the
        journal's length, and how many events they hold."""
        if self._files is not None:
            return
        saves.cut_torn_tail(self.path)  # a crash's half line: never append onto it
        snapshot, journal = saves.read_files(self.path)
        self._files = savecache.fingerprint(snapshot, journal)
        self._journal_bytes = len(journal)
        self._count = len(saves.parse_save(self.path, snapshot, journal).get("events") or [])

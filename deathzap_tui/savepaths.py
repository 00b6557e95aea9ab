"""Where a save's files lie and how big one may be: what both :mod:`.saves` and
:mod:`.savecache` need, here so that neither imports the other (issue 20: no import
cycles)."""

from __future__ import annotations

from pathlib import Path

MAX_SAVE_BYTES = 32 * 1024 * 1024
"""The largest snapshot, journal or cache read."""


def journal_path(save: Path) -> Path:
    """The save's journal: the events since its snapshot was written."""
    return save.with_name(save.name + ".journal")


def cache_path(save: Path) -> Path:
    """The save's cache of the game so far (see :mod:`.savecache`)."""
    return save.with_name(save.name + ".cache")


def report_path(save: Path) -> Path:
    """The save's kept report of the finished game (see :mod:`.savecache`)."""
    return save.with_name(save.name + ".report")


def summary_path(save: Path) -> Path:
    """The save's summary: how its game stands, for listings (see :mod:`.savecache`)."""
    return save.with_name(save.name + ".summary")


def socket_path(save: Path) -> Path:
    """Where the referee hosting the save listens unless told otherwise (``deathzap
    host``, ``serve-ssh``), and where ``deathzap join SAVE`` finds it."""
    return save.with_name(save.name.removesuffix(".toml") + ".sock")

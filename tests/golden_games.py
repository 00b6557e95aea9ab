"""Golden games, each played once per test process.

A golden script plays a whole game from fixed seeds (seeded choices, dice typed in)
to its end; its narrative must match a file of ``tests/golden/``, and many other
tests read the finished game (its report, its save, the app's game-over screen).
:func:`play_once` plays a script the first time a test asks for it and keeps the
result for every later test of the process. With pytest-xdist each worker is a
process of its own, so each worker plays a script at most once: the best a cache
that is not written to disk can do.

What a test gets (:class:`Golden`): the session that played the game, shared and
read-only, and on demand the finished save written into the test's own saves folder
or resumed from there as a session of its own, to change as it likes.
"""

from __future__ import annotations

import functools
import os
import tempfile
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from pathlib import Path

import pytest

from deathzap_tui import saves
from deathzap_tui.session import Session


@dataclass(frozen=True)
class Golden:
    """A golden game, finished."""

    played: Session
    """The session that played the script, its game as the play left it. Every test
    of the process shares it: read it, never change it. Its save is gone (it was
    played in a folder of its own); :meth:`saved` writes one where the test wants it."""
    name: str
    """The save's name (the script's ``save_path``)."""
    save: bytes
    """The finished game's save file."""

    def saved(self) -> Path:
        """The save written into the test's saves folder (``DEATHZAP_SAVES_DIR``: the
        ``saves_dir`` fixture), under :attr:`name`."""
        assert os.environ.get("DEATHZAP_SAVES_DIR"), \
            "a golden game is saved only into a test's own saves folder (saves_dir)"
        path = saves.save_path(self.name)
        path.write_bytes(self.save)
        return path

    def resumed(self) -> Session:
        """A session of the test's own: :meth:`saved`, then resumed (the save
        replayed, as ``deathzap resume`` does)."""
        return Session.resume(self.saved())


def assert_golden(text: str, expected: Path) -> None:
    """``text`` (a game's narrative) reads exactly as the golden file ``expected``;
    with ``DEATHZAP_REGOLD=1`` it is first written there, to be read before committing."""
    if os.environ.get("DEATHZAP_REGOLD"):
        expected.write_text(text, encoding="utf-8")
    assert expected.exists(), f"no golden file {expected}: write it with DEATHZAP_REGOLD=1 " \
                              "and read it"
    assert text == expected.read_text(encoding="utf-8")


@functools.cache
def play_once(script: Callable[..., Session], *args: Hashable) -> Golden:
    """``script(*args)``'s game, played the first time it is asked for in this
    process, in a saves folder of its own that is removed after, with the cards dealt
    from the public seed as in every test (``tests/conftest.py``). The script must
    play the game to its end."""
    with tempfile.TemporaryDirectory(prefix="dz-golden-") as folder, \
            pytest.MonkeyPatch.context() as patch:
        patch.setenv("DEATHZAP_SAVES_DIR", folder)
        patch.setattr("deathzap_tui.session.new_deal_seed", lambda: None)
        session = script(*args)
        assert session.path is not None, "a golden script saves its game"
        assert session.over, f"{session.path.stem}: the golden script must finish the game"
        return Golden(session, session.path.stem, session.path.read_bytes())

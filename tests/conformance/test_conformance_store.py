"""Every registered ruleset's game survives its store: the journal written event by
event, the snapshot it is folded into, and the cache a resume starts from all give
back the game as it was played (issue 20)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conformance_kit import new_session, play, play_to_end

from deathzap_tui import savecache, saves
from deathzap_tui.rules.game import Game
from deathzap_tui.session import Session


def _same(again: Session, session: Session) -> None:
    assert again.game.state == session.game.state
    assert again.game.log == session.game.log
    assert again.narrative() == session.narrative()
    assert (again.game.seed, again.game.deal_seed) == (session.game.seed, session.game.deal_seed)


def _resolved(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the events resolved from now on."""
    count = [0]
    real = Game._resolve

    def counting(self: Game, *args: object, **kwargs: object) -> object:
        count[0] += 1
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Game, "_resolve", counting)
    return count


def test_journal_snapshot_and_cache_round_trip(ruleset_id: str, saves_dir: Path) -> None:
    session = new_session(ruleset_id, 8, "round-trip")
    assert session.path is not None
    rnd = random.Random(8)
    for _ in range(6):
        play(session.game, rnd, 4)
        if session.can_undo:
            session.undo()
    assert saves.journal_path(session.path).stat().st_size > 0, "events go to the journal"
    _same(Session.resume(session.path), session)  # snapshot + journal

    session.keep_cache()
    cached = savecache.read(session.path, *saves.read_files(session.path))
    assert cached is not None and cached.events == len(session.game.log)
    play(session.game, rnd, 3)
    with pytest.MonkeyPatch.context() as patch:
        resolved = _resolved(patch)
        again = Session.resume(session.path)  # the cache, then the events after it
    assert resolved[0] <= len(session.game.log) - cached.events
    _same(again, session)

    play_to_end(session.game, rnd)
    session.save()  # the journal folded into the snapshot
    assert not saves.journal_path(session.path).exists() or \
        saves.journal_path(session.path).stat().st_size == 0
    _same(Session.resume(session.path), session)

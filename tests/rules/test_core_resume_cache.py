"""Resuming from a save's cache (issue 11): the cached game, plus the events after
it, is exactly the game a full replay gives; a cache that is stale, tampered with,
signed by another key or made by other code is ignored, never trusted."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from dz3_fixtures import play_random_action

from deathzap_tui import savecache, saves
from deathzap_tui.rules.game import Game
from deathzap_tui.session import Session

FORCES = Path(__file__).resolve().parents[2] / "forces"


def _played(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, events: int) -> Session:
    monkeypatch.setenv("DEATHZAP_SAVES_DIR", str(tmp_path))
    s = Session.new(FORCES / "mortans-men.toml", FORCES / "gutter-saints.toml", seed=4,
                    save_path="c", options={"end": "agreement"})
    rnd = random.Random(4)
    while len(s.game.log) < events:
        play_random_action(s.game, rnd, skip=("end",))
        if rnd.random() < 0.1:
            s.undo()
            if rnd.random() < 0.5:
                s.redo()
    return s


def _replays(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the events resolved from now on."""
    count = [0]
    real = Game._resolve

    def counting(self, *args, **kwargs):
        count[0] += 1
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Game, "_resolve", counting)
    return count


def _full(path: Path) -> Game:
    """The save replayed from its log alone."""
    return saves.game_from_data(saves.read_save_data(path), path)


def test_a_resume_starts_from_the_cache_and_replays_only_what_follows(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    s = _played(tmp_path, monkeypatch, 150)
    assert s.path is not None and saves.cache_path(s.path).exists()
    cached_at = savecache.read(s.path, *saves.read_files(s.path)).events
    full = _full(s.path)
    replays = _replays(monkeypatch)
    again = Session.resume(s.path)
    assert replays[0] <= len(again.game.log) - cached_at
    assert again.game.state == full.state == s.game.state
    assert again.narrative(last=5) == s.narrative(last=5)
    assert replays[0] <= len(again.game.log) - cached_at + 1
    # the older narration is replayed when somebody asks for the whole of it
    assert again.narrative() == s.narrative()
    # and the game goes on, undoes and redoes like the one never saved
    for game in (again.game, full):
        game.undo()
        game.undo()
        game.redo()
    assert again.game.state == full.state
    assert [e.kind for e, _n in again.game.history()] == [e.kind for e, _n in full.history()]


def test_a_writer_opening_a_save_caches_it(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    s = _played(tmp_path, monkeypatch, 70)
    assert s.path is not None
    saves.cache_path(s.path).unlink()
    opened = Session.resume(s.path)
    opened.keep_cache()
    cached = savecache.read(s.path, *saves.read_files(s.path))
    assert cached is not None and cached.events == len(s.game.log)


@pytest.mark.parametrize("spoil", ["payload", "mac", "key", "code", "journal", "truncate"])
def test_a_cache_that_is_not_right_is_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              spoil: str) -> None:
    s = _played(tmp_path, monkeypatch, 70)
    assert s.path is not None
    cache = saves.cache_path(s.path)
    raw = bytearray(cache.read_bytes())
    if spoil == "payload":
        raw[-10] ^= 0xFF
        cache.write_bytes(bytes(raw))
    elif spoil == "mac":
        raw[len(savecache.MAGIC)] ^= 0xFF
        cache.write_bytes(bytes(raw))
    elif spoil == "truncate":
        cache.write_bytes(bytes(raw[:40]))
    elif spoil == "key":
        monkeypatch.setenv("DEATHZAP_CACHE_KEY", str(tmp_path / "another.key"))
    elif spoil == "code":
        monkeypatch.setattr(savecache, "code_identity", lambda: b"other code")
    else:  # the journal rewritten under the cache: its events no longer match it
        journal = saves.journal_path(s.path)
        lines = journal.read_bytes().split(b"\n")
        lines[0], lines[1] = lines[1], lines[0]
        journal.write_bytes(b"\n".join(lines))
        with pytest.raises(saves.SaveError):
            saves.load_game(s.path)  # replayed, and found broken: not hidden by the cache
        return
    assert savecache.read(s.path, *saves.read_files(s.path)) is None
    assert saves.load_game(s.path).state == s.game.state


def test_a_finished_game_keeps_no_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    s = _played(tmp_path, monkeypatch, 70)
    assert s.path is not None
    s.game.play({"type": "end"}, [])
    assert s.over and not saves.cache_path(s.path).exists()
    assert not saves.journal_path(s.path).exists()


def test_a_key_others_could_read_is_not_used(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from deathzap_tui.paths import cache_key

    key = tmp_path / "deep" / "cache.key"
    monkeypatch.setenv("DEATHZAP_CACHE_KEY", str(key))
    made = cache_key()
    assert made is not None and len(made) == 32 and cache_key() == made
    assert key.stat().st_mode & 0o777 == 0o600
    key.chmod(0o644)
    assert cache_key() is None

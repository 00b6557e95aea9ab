"""Resuming from a save's cache (issue 11): the cached game, plus the events after
it, is exactly the game a full replay gives; a cache that is stale, tampered with,
signed by another key or made by other code is ignored, never trusted."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from dz3_fixtures import play_random_action
from signed_files import SPOILS
from signed_files import spoil as spoil_file

from deathzap_tui import savecache, saves, savesign
from deathzap_tui.rules import registry
from deathzap_tui.rules.game import CHECKPOINT_EVERY, Game
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
    if spoil in SPOILS:
        spoil_file(saves.cache_path(s.path), spoil, savecache.MAGIC)
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


# --- issue 21: a resume reads only what follows the cache, for every ruleset ---------

def _long_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ruleset_id: str,
               actions: int, seed: int) -> Session:
    """A game of ``ruleset_id``'s shipped forces, still in progress: random actions,
    each often undone and redone (a long log of undo/redo pairs is a long game too)."""
    from fixtures_common import play_random_action as play_any
    from shipped import shipped_forces

    monkeypatch.setenv("DEATHZAP_SAVES_DIR", str(tmp_path))
    red, black = shipped_forces(ruleset_id)
    s = Session.new(red, black, seed=seed, save_path=f"long-{ruleset_id}", deal_seed=seed)
    rnd = random.Random(seed)
    for _ in range(actions):
        before = len(s.game.log)
        if not play_any(s.game, rnd, skip=("end",)) or s.over:
            break
        if s.over:
            break
        for _ in range(rnd.choice((0, 1, 3))):  # pairs of undo and redo
            s.undo()
            s.redo()
        if rnd.random() < 0.2 and len(s.game.log) > before:
            s.undo()  # and sometimes left undone: the next action drops it
    assert not s.over, f"the random {ruleset_id} game ended: it keeps no cache"
    return s


def _same_game(resumed: Game, full: Game) -> None:
    assert resumed.state == full.state
    assert resumed.log == full.log and len(resumed.log) == len(full.log)
    assert (resumed.can_undo, resumed.can_redo) == (full.can_undo, full.can_redo)
    assert resumed.in_force == full.in_force
    assert [e.to_data() for e in resumed.events()] == [e.to_data() for e in full.events()]
    assert [[n.text for n in notes] for _e, notes in resumed.history()] == \
        [[n.text for n in notes] for _e, notes in full.history()]


@pytest.mark.slow
@pytest.mark.parametrize("ruleset_id", registry.ids())
def test_every_ruleset_resumes_from_its_cache_as_a_full_replay(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ruleset_id: str) -> None:
    s = _long_game(tmp_path, monkeypatch, ruleset_id, 40, 7)
    assert s.path is not None
    s.keep_cache()
    for _ in range(5):  # events after the cache: read from the journal's end
        s.undo()
        s.redo()
    resumed, full = Session.resume(s.path).game, _full(s.path)
    assert len(resumed.log) == len(s.game.log)
    _same_game(resumed, full)
    # and it plays on alike: undo as far back as there is, redo it all
    for game in (resumed, full):
        while game.can_undo:
            game.undo()
        assert game.can_redo
        game.redo()
    _same_game(resumed, full)


@pytest.mark.slow
def test_a_resume_reads_none_of_the_older_events(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from deathzap_tui.rules import events

    s = _played(tmp_path, monkeypatch, 400)
    assert s.path is not None
    s.keep_cache()
    s.undo()
    s.redo()
    decoded = [0]
    real = events.Event.from_data.__func__  # type: ignore[attr-defined]

    def counting(cls, data):
        decoded[0] += 1
        return real(cls, data)

    monkeypatch.setattr(events.Event, "from_data", classmethod(counting))
    again = Session.resume(s.path)
    # the undo and the redo after the cache, and the undo's replay from the last
    # checkpoint: never the hundreds of events before
    assert decoded[0] <= 2 + CHECKPOINT_EVERY
    read = decoded[0]
    lines = again.narrative(last=200)
    assert again.can_undo and again.can_redo is s.can_redo
    assert decoded[0] == read
    assert lines == s.narrative(last=200)
    assert again.game.log[5] == s.game.log[5]  # an older one is read when asked for
    assert again.narrative() == s.narrative()


@pytest.mark.slow
def test_a_long_run_of_undos_resumes_and_redoes(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    s = _played(tmp_path, monkeypatch, 200)
    assert s.path is not None
    while s.can_undo:
        s.undo()
    s.keep_cache()
    for _ in range(3):
        s.redo()
    resumed, full = Session.resume(s.path).game, _full(s.path)
    _same_game(resumed, full)
    for game in (resumed, full):
        while game.can_redo:
            game.redo()
        game.undo()
    _same_game(resumed, full)


def test_a_cache_of_another_rules_version_is_not_used(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from deathzap_tui.rules import RULES_VERSION

    s = _played(tmp_path, monkeypatch, 70)
    assert s.path is not None
    s.keep_cache()
    files = saves.read_files(s.path)
    assert savecache.read(s.path, *files) is not None
    assert f"rules {RULES_VERSION}," in savecache.code_identity().decode()
    monkeypatch.setattr(savesign, "RULES_VERSION", RULES_VERSION + 1)
    assert savecache.read(s.path, *files) is None
    replays = _replays(monkeypatch)
    assert saves.load_game(s.path).state == s.game.state
    assert replays[0] >= s.game.in_force  # replayed from the log


def test_the_cache_is_keyed_on_the_rules_version_not_on_the_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Reinstalling (new files, new modification times) keeps every cache good."""
    s = _played(tmp_path, monkeypatch, 70)
    assert s.path is not None
    s.keep_cache()
    real_stat = Path.stat

    def touched(self: Path, *args, **kwargs):
        st = real_stat(self, *args, **kwargs)
        if self.suffix == ".py":
            raise AssertionError(f"the cache's identity read {self}")
        return st

    monkeypatch.setattr(Path, "stat", touched)
    assert savecache.read(s.path, *saves.read_files(s.path)) is not None


def test_deathzap_resume_writes_the_cache(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """``deathzap resume SAVE`` opens the save through playbyturn.open_for, which takes
    the lock itself: it caches the game as every writer opening a save does."""
    from deathzap_tui.net import playbyturn

    s = _played(tmp_path, monkeypatch, 70)
    assert s.path is not None
    saves.cache_path(s.path).unlink()
    session, lock, _message = playbyturn.open_for(s.path.stem, None)
    try:
        cached = savecache.read(s.path, *saves.read_files(s.path))
        assert cached is not None and cached.events == len(s.game.log)
    finally:
        playbyturn.finish(session, None, lock)


# --- issue 21: opening a save reads its files once --------------------------------

def test_a_writer_opening_a_save_with_a_current_cache_neither_reads_nor_writes_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``deathzap resume`` resumes the game from its cache and keeps it as the one
    writer: the cache already holds the game as it stands, so it is not written again,
    and the save's files are read once (not again, whole, to append and to cache)."""
    from deathzap_tui.net import playbyturn

    s = _played(tmp_path, monkeypatch, 150)
    assert s.path is not None
    s.keep_cache()
    writes, reads, parses = [0], [0], [0]
    real_write, real_read, real_parse = savecache.write, saves.read_files, saves.parse_save
    monkeypatch.setattr(savecache, "write",
                        lambda *a: (writes.__setitem__(0, writes[0] + 1), real_write(*a)))
    monkeypatch.setattr(saves, "read_files",
                        lambda *a: (reads.__setitem__(0, reads[0] + 1), real_read(*a))[1])
    monkeypatch.setattr(saves, "parse_save",
                        lambda *a: (parses.__setitem__(0, parses[0] + 1), real_parse(*a))[1])
    session, lock, _message = playbyturn.open_for(s.path.stem, None)
    try:
        assert (writes[0], reads[0], parses[0]) == (0, 1, 0)
        # and it plays on from what it read: the next cache is of the game as it stands
        rnd = random.Random(8)
        play_random_action(session.game, rnd, skip=("end",))
        while len(session.game.log) % savecache.WRITE_EVERY:
            play_random_action(session.game, rnd, skip=("end",))
        assert writes[0] == 1 and reads[0] == 1
    finally:
        playbyturn.finish(session, None, lock)
    cached = savecache.read(s.path, *real_read(s.path))
    assert cached is not None and cached.events == len(session.game.log)
    _same_game(Session.resume(s.path).game, _full(s.path))


def test_a_writer_opening_a_save_played_on_since_its_cache_caches_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    s = _played(tmp_path, monkeypatch, 100)
    assert s.path is not None
    s.keep_cache()
    s.undo()  # an event after the cache
    opened = Session.resume(s.path)
    opened.keep_cache()
    cached = savecache.read(s.path, *saves.read_files(s.path))
    assert cached is not None and cached.events == len(s.game.log)
    _same_game(Session.resume(s.path).game, _full(s.path))


def test_the_cached_checkpoint_is_unpickled_only_when_an_undo_needs_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from deathzap_tui.rules.game import Packed

    s = _played(tmp_path, monkeypatch, 150)
    assert s.path is not None
    s.keep_cache()
    unpacked = [0]
    real = Packed.unpack

    def counting(self: Packed) -> object:
        unpacked[0] += 1
        return real(self)

    monkeypatch.setattr(Packed, "unpack", counting)
    again = Session.resume(s.path)
    assert again.narrative(last=100) == s.narrative(last=100) and unpacked[0] == 0
    full = _full(s.path)
    for game in (again.game, full):
        game.undo()
    assert unpacked[0] >= 1
    _same_game(again.game, full)


def test_the_first_undo_after_a_resume_replays_at_most_a_checkpoint_s_worth(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Even for a game cached with a checkpoint at its very end (events in force a
    multiple of CHECKPOINT_EVERY), where the undo's state is before that checkpoint."""
    s = _played(tmp_path, monkeypatch, 100)
    assert s.path is not None
    rnd = random.Random(9)
    while s.game.in_force % CHECKPOINT_EVERY:
        play_random_action(s.game, rnd, skip=("end",))
    s.keep_cache()
    again = Session.resume(s.path)
    replays = _replays(monkeypatch)
    again.undo()
    assert replays[0] <= CHECKPOINT_EVERY
    _same_game(again.game, _full(s.path))  # the undo is in the save too

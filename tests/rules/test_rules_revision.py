"""A game plays to its end by the rules revision it began under (rules/revision.py).

Issue 26 stopped asking "which figure?" for a unit that loses every living figure
whichever goes first (revision 2). A save from before holds the answer to that
question: it must still replay, resume and play on as it began (revision 1, what a
save without a revision is), while a new game records the current revision.
"""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from fixtures_common import play_random_action

from deathzap_tui import saves
from deathzap_tui.forcefile import load_force
from deathzap_tui.paths import PROJECT_ROOT
from deathzap_tui.rules import registry, revision
from deathzap_tui.rules.game import CorruptLog, Game
from deathzap_tui.rules.ruleset import END
from deathzap_tui.rules.steps import Question
from deathzap_tui.session import Session

FORCES = {
    "classic": ("cl-red-dawn-irregulars.toml", "cl-black-maw-brood.toml"),
    "command-hand": ("ch-ironbark-rangers.toml", "ch-cinder-collective.toml"),
}
OLD_SAVES = [Path(__file__).resolve().parents[1] / "golden" / f"{name}_save_before_revisions.toml"
             for name in ("cl", "ch")]
"""Saves written by the code before issue 26's change (commit 68d9aae^, forces and
seeds as :func:`old_game` plays them), each with a doomed unit's pick answered."""
PICK = re.compile(r"loses a figure \((\d+) of (\d+)\): which one\?")
"""The owner's pick of the figure a casualty removes (rules/casualties.py)."""


def doomed_pick(state: Any, step: Any) -> bool:
    """Whether ``step`` asks which figure goes of a unit losing every living figure
    anyway: the question revision 2 no longer asks."""
    found = PICK.search(step.prompt) if isinstance(step, Question) else None
    if not found:
        return False
    number, of = map(int, found.groups())
    unit, _ = state.figure(step.choices[0].value)
    return of - number + 1 >= len(unit.alive_figures)


def old_game(ruleset_id: str) -> Game:
    """A game of revision 1 of the shipped forces, played at random through the engine
    until a doomed unit's pick has been asked and answered, then a little further."""
    ruleset = registry.get(ruleset_id)
    red, black = (load_force(PROJECT_ROOT / "forces" / name).force
                  for name in FORCES[ruleset_id])
    asked: list[bool] = []

    def watch(state: Any, step: Any) -> None:
        asked.append(doomed_pick(state, step))

    for seed in range(1, 30):
        game = Game(ruleset, red, black, ruleset.options(), seed, revision=revision.FIRST)
        rnd = random.Random(seed)
        for _ in range(2000):
            if ruleset.is_over(game.state):
                break
            asked.clear()
            if not play_random_action(game, rnd, skip=(END,), watch=watch):
                break
            if any(asked):
                for _ in range(5):
                    if ruleset.is_over(game.state) or not play_random_action(
                            game, rnd, skip=(END,)):
                        break
                return game
    raise AssertionError(f"no {ruleset_id} game asked a doomed unit's pick")


def write_old_save(game: Game, path: Path) -> None:
    """``game`` as a save written before games recorded their revision."""
    saves.save_game(game, path)
    data = saves.read_save_data(path)
    del data["revision"]
    path.write_text(tomli_w.dumps(dict(data)), encoding="utf-8")


@pytest.mark.parametrize("ruleset_id", sorted(FORCES))
def test_an_old_save_that_answered_a_doomed_units_pick_replays_and_plays_on(
        ruleset_id: str, saves_dir: Path) -> None:
    game = old_game(ruleset_id)
    try:  # the current rules would not have asked: the log is of another revision
        now = Game(game.ruleset, game.red, game.black, game.options, game.seed, game.log)
        assert now.state != game.state
    except CorruptLog:
        pass
    path = saves_dir / "old.toml"
    write_old_save(game, path)
    assert "revision" not in path.read_text(encoding="utf-8")

    session = Session.resume("old")
    assert session.game.revision == revision.FIRST
    assert session.game.state == game.state
    assert [n for _, notes in session.game.history() for n in notes] == [
        n for _, notes in game.history() for n in notes]
    rnd = random.Random(1)
    for _ in range(10):
        if game.ruleset.is_over(session.game.state):
            break
        assert play_random_action(session.game, rnd, skip=(END,))
    again = Session.resume("old")  # what was played on is saved, at the same revision
    assert again.game.revision == revision.FIRST
    assert again.game.state == session.game.state
    assert saves.read_save_data(path).get("revision", revision.FIRST) == revision.FIRST


@pytest.mark.parametrize("old", OLD_SAVES, ids=lambda p: p.name)
def test_a_save_written_before_revisions_replays_and_plays_on(
        old: Path, saves_dir: Path) -> None:
    path = saves_dir / "kept.toml"
    shutil.copyfile(old, path)
    session = Session.resume("kept")
    assert session.game.revision == revision.FIRST
    assert len(session.game.log) == len(saves.read_save_data(old)["events"])
    ruleset = session.game.ruleset
    with pytest.raises(CorruptLog):  # what the current rules make of its answers
        Game(ruleset, session.game.red, session.game.black, session.game.options,
             session.game.seed, session.game.log)
    rnd = random.Random(2)
    for _ in range(10):
        if ruleset.is_over(session.game.state):
            break
        assert play_random_action(session.game, rnd, skip=(END,))
    assert Session.resume("kept").game.state == session.game.state


def test_a_new_game_records_the_current_revision(saves_dir: Path) -> None:
    red, black = (PROJECT_ROOT / "forces" / name for name in FORCES["command-hand"])
    session = Session.new(red, black, seed=3, save_path="new")
    assert session.game.revision == revision.CURRENT
    assert session.game.state.revision == revision.CURRENT
    assert saves.read_save_data(session.path)["revision"] == revision.CURRENT
    assert Session.resume("new").game.state.revision == revision.CURRENT


@pytest.mark.parametrize("value", [0, -1, revision.CURRENT + 1, "2", True, 1.5])
def test_a_revision_this_code_does_not_play_is_refused_naming_it(
        value: object, saves_dir: Path) -> None:
    red, black = (PROJECT_ROOT / "forces" / name for name in FORCES["classic"])
    session = Session.new(red, black, seed=3, save_path="odd")
    data = dict(saves.read_save_data(session.path))
    data["revision"] = value
    session.path.write_text(tomli_w.dumps(data), encoding="utf-8")
    with pytest.raises(saves.SaveError, match="rules revision") as info:
        saves.load_game(session.path)
    assert str(session.path) in str(info.value)


def test_a_doomed_units_pick_is_asked_only_before_revision_2() -> None:
    """The question itself: same unit, same casualties, both revisions."""
    from deathzap_tui.rules.casualties import pick_casualty

    ruleset = registry.get("command-hand")
    red, black = (load_force(PROJECT_ROOT / "forces" / name).force
                  for name in FORCES["command-hand"])
    for rev, asks in ((revision.FIRST, True), (revision.CURRENT, False)):
        game = Game(ruleset, red, black, ruleset.options(), 1, revision=rev)
        state = game.state
        unit = next(u for u in state.units["red"]
                    if len({f.name for f in u.alive_figures}) > 1)
        living = len(unit.alive_figures)
        pick = pick_casualty(state, unit, "k", 1, living, unit.name, "CH §4",
                             lambda f: f.name, lambda f: f.name, lambda f: (0,))
        try:
            step = next(pick)
        except StopIteration:
            step = None
        assert isinstance(step, Question) is asks, rev

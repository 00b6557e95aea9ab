"""The end-of-game report (issue 14), ruleset-independent parts: the score over time,
what is counted after undo, and that a report is derived from the log alone."""

from __future__ import annotations

import random

from dz3_fixtures import new_game, play_random_action, play_random_game

from deathzap_tui.rules.game import Game
from deathzap_tui.rules.luck import judge
from deathzap_tui.rules.report import build_report
from deathzap_tui.rules.steps import Dice, DiceRequest


def random_game(seed: int, actions: int = 60) -> Game:
    game = new_game()
    rnd = random.Random(seed)
    for _ in range(actions):
        if not play_random_action(game, rnd):
            break
    return game


def judged_rolls(game: Game) -> int:
    """The judged rolls of ``game``'s events in force, counted straight from a replay."""
    n = 0
    for _, res in game.replay(game.events()):
        for step, answer in zip(res.asked, res.answers, strict=True):
            if isinstance(step, DiceRequest) and isinstance(answer, Dice):
                n += judge(step, answer, 1) is not None
    return n


def test_the_score_runs_from_the_start_to_the_last_event() -> None:
    game = play_random_game(new_game(), random.Random(7))
    report = build_report(game)
    view = game.ruleset.view(game.state)
    assert report.events == len(game.events())
    assert report.series[0].event == 0 and report.series[-1].event == report.events
    assert report.series[0].score == {"red": 0, "black": 0}
    assert report.series[-1].score == dict(view.score) == dict(report.score)
    assert [p.event for p in report.series] == sorted({p.event for p in report.series})
    assert all(a.score != b.score for a, b in zip(report.series[1:-1], report.series[2:-1],
                                                  strict=False))
    assert report.over == view.over and report.result == view.result


def test_every_judged_roll_of_the_events_in_force_is_counted() -> None:
    game = random_game(3)
    report = build_report(game)
    assert len(report.rolls) == judged_rolls(game) > 0
    assert {r.side for r in report.rolls} <= {"red", "black"}
    assert sum(report.luck[s].rolls for s in ("red", "black")) == len(report.rolls)


def test_undone_events_leave_the_report_and_redo_brings_them_back() -> None:
    game = random_game(11, 40)
    before = build_report(game).to_json()
    rnd = random.Random(5)
    while not play_random_action(game, rnd):
        pass
    game.undo()
    assert build_report(game).to_json() == before
    game.redo()
    assert build_report(game).events == before["events"] + 1


def test_the_report_is_derived_from_the_log_alone() -> None:
    game = random_game(21)
    again = Game(game.ruleset, game.red, game.black, game.options, game.seed, game.log,
                 deal_seed=game.deal_seed)
    assert build_report(again).to_json() == build_report(game).to_json()


def test_every_unit_is_listed_once_with_its_side() -> None:
    game = random_game(4)
    report = build_report(game)
    view = game.ruleset.view(game.state)
    assert [(u.id, u.side) for u in report.units] == [
        (row.id, side) for side in ("red", "black") for row in view.units[side]]
    assert report.forces == {"red": game.red.name, "black": game.black.name}


def test_a_game_before_any_event_reports_an_empty_game() -> None:
    report = build_report(new_game())
    assert report.events == 0 and report.rolls == ()
    assert [p.event for p in report.series] == [0]
    assert report.luck["red"].method == "none"

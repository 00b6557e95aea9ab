"""Issue 22, the board at 80x24: every name and state whole (columns give way, whole,
in the ruleset's order, with a legend; long states wrap), a key bar whose keys keep
their words and places, and a phase track that agrees with the header after turn 1."""

from __future__ import annotations

import re

import pytest
from app_helpers import aiotest, battle_app
from board_helpers import BUSY, busy_session, screen_lines

from deathzap_tui.app.app import GamePlan
from deathzap_tui.app.battle.battle import BattleScreen
from deathzap_tui.app.battle.clock import ClockWidget
from deathzap_tui.app.battle.units import UnitTable, plan, render_units
from deathzap_tui.app.common.keybar import KeyBar
from deathzap_tui.headless.flow import new_session, quick_setup
from deathzap_tui.rules.ruleset import ADVANCE, UNIT, Column, UnitRow

COLUMNS = ("Unit", "Figs", "Shields", "Skill", "Status")
HINTS = (Column(), Column(), Column("Sh", "shields"), Column(drop=1), Column(wrap=True))
ROWS = [
    UnitRow("red.0", "red", "Director Vell's Retinue",
            ("Director Vell's Retinue", "3/3", "3/3 H", "Elite",
             "3 wounds pending, in contact: Briar Stalkers, The Rootmother")),
    UnitRow("red.1", "red", "Briar Stalkers",
            ("Briar Stalkers", "6/6", "4/4 M", "Regular", "")),
]


def _table(width: int, height: int | None = None) -> list[str]:
    return render_units(COLUMNS, ROWS, width, height, HINTS).plain.split("\n")


def test_a_long_state_wraps_under_its_column_and_names_stay_whole() -> None:
    lines = _table(80)
    assert "…" not in "".join(lines) and len(lines) == 4
    assert lines[1].startswith("Director Vell's Retinue ")
    status_at = lines[0].index("Status")
    state = " ".join(line[status_at:].strip() for line in lines[1:3])
    assert state == "3 wounds pending, in contact: Briar Stalkers, The Rootmother"
    assert not lines[2][:status_at].strip(), "continued under its column, one more line"


def test_headers_shorten_then_columns_drop_in_the_rulesets_order_with_a_legend() -> None:
    assert _table(80)[0].split() == ["Unit", "Figs", "Shields", "Skill", "Status"]
    shorter = _table(74)  # "Shields" becomes "Sh", explained under the table
    assert shorter[0].split() == ["Unit", "Figs", "Sh", "Skill", "Status"]
    assert shorter[-1] == "Sh shields"
    # No line left for that legend: no short header, a whole column gives way instead.
    assert _table(74, height=4)[0].split() == ["Unit", "Figs", "Shields", "Status"]
    narrow = _table(70)  # then Skill (drop=1) gives way: the state keeps two lines
    assert narrow[0].split() == ["Unit", "Figs", "Shields", "Status"]
    assert narrow[-1] == "on the unit card: Skill" and len(narrow) == 5
    layouts = plan(COLUMNS, HINTS, [r.cells for r in ROWS], 56)
    assert layouts[-1].headers == ("Unit", "Figs", "Sh", "Status")
    assert layouts[-1].legend == "Sh shields · on the unit card: Skill"


def test_the_legend_gives_way_before_any_unit_and_then_more_says_how_many() -> None:
    assert _table(70, height=5)[-1] == "on the unit card: Skill"
    assert not any("on the unit card" in line for line in _table(70, height=4))
    short = _table(70, height=3)  # the two-line row gives way to the one-line one
    assert short[1].startswith("Briar Stalkers") and short[-1].startswith("+1 more")


def test_names_wrap_at_spaces_only_when_nothing_else_can_give_way() -> None:
    lines = _table(30)
    text = " ".join(" ".join(lines).split())
    assert "…" not in text
    for word in ["Director", "Vell's", "Retinue", "Briar", "Stalkers", "Rootmother"]:
        assert word in text.split()


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@pytest.mark.parametrize("ruleset", list(BUSY))
@aiotest
async def test_busiest_board_shows_every_name_and_state_whole(ruleset, size, workdir) -> None:
    session = busy_session(ruleset, workdir)
    view = session.view()
    app = battle_app(session)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, BattleScreen)
        for side, rows in view.units.items():
            table = screen.query_one(f"#units-{side}", UnitTable)
            text = table.render().plain
            lines = text.split("\n")
            assert "…" not in text and "more" not in lines[-1], (ruleset, lines)
            state_column = " ".join(_column(lines, {"Status", "State"}).split())
            for row in rows:
                assert any(line.startswith(row.cells[0] + " ") or line == row.cells[0]
                           for line in lines), (row.cells[0], lines)
                state = row.cells[view.columns.index(_state_header(view.columns))]
                assert " ".join(state.split()) in state_column, (state, lines)
        prompt = screen.query_one("#prompt").region
        top = [line[prompt.x:prompt.right] for line in screen_lines(app)[prompt.y:prompt.bottom]]
        assert " ".join(" ".join(top).split()) == " ".join(view.prompt.split()), top


def _state_header(columns: tuple[str, ...]) -> str:
    return next(c for c in columns if c in ("Status", "State"))


def _column(lines: list[str], headers: set[str]) -> str:
    """The text of the column under the first of ``headers`` in ``lines[0]``, line by
    line (a wrapped cell read back whole)."""
    words = list(re.finditer(r"\S+", lines[0]))
    at = next(i for i, w in enumerate(words) if w.group() in headers)
    start = words[at].start()
    end = words[at + 1].start() if at + 1 < len(words) else None
    return "\n".join(line[start:end] for line in lines[1:])


@pytest.mark.parametrize("ruleset", list(BUSY))
@aiotest
async def test_the_key_bar_shows_whole_keys_and_ends_with_quit(ruleset, workdir) -> None:
    """It ended in "^q" with no word (issue 22): at 80 columns the keys close up, keys
    that do not fit give way whole from the end (the app's help and palette first),
    and quit always ends the bar with its word; e and o keep their places."""
    app = battle_app(busy_session(ruleset, workdir))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        bar = app.screen.query_one(KeyBar)
        shown = bar.render().plain
        items = [f"{key} {word}" for key, word, *_ in bar._items]
        kept = [item for item in items if f" {item} " in f"{shown} "]
        assert " " + " ".join(kept) + " " == shown and len(shown) <= 80, \
            "whole keys, each with its word"
        assert kept[-1] == "^q Quit" and kept[:-1] == items[:len(kept) - 1], \
            "the last gave way, quit stays"
        for key in ("c Unit card", "e End game", "o Other"):
            assert key in kept
        await pilot.resize_terminal(160, 40)
        await pilot.pause()
        assert bar.render().plain == "".join(f" {item} " for item in items), \
            "all of them, roomy, where they fit"


@aiotest
async def test_end_game_keeps_its_place_in_the_key_bar_before_and_after_set_up(
        demo_paths) -> None:
    """"e End game" appeared and disappeared between screens (issue 22): it is listed
    (dimmed while it does not apply) on the board before and after the set-up."""
    red, black = demo_paths
    session = new_session(GamePlan(red, black, 7, {"end": "agreement"}, "keys"))
    app = battle_app(session)
    async with app.run_test(size=(160, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        bar = screen.query_one(KeyBar)
        assert "e End game" in bar.render().plain
        assert screen.check_action("end", ()) is None  # shown, dimmed
        quick_setup(session)
        screen.refresh_board()
        await pilot.pause()
        assert "e End game" in bar.render().plain
        assert screen.check_action("end", ()) is True


def _play_turn_one(session) -> None:
    """Play turn 1 to its end: advance where the rules allow, else a unit acts."""
    for _ in range(200):
        state = session.game.state
        if state.stage == "battle" and state.turn == 1 and not state.step:
            return
        options = session.intents()
        option = next((o for o in options if o.group == ADVANCE), None) or \
            next(o for o in options if o.group == UNIT)
        action = session.begin(option.intent)
        while action.resolution.step is not None:
            from deathzap_tui.headless.describe import auto_answer

            action.resolution.answer(auto_answer(action.resolution.step))
        session.commit(action)
    raise AssertionError("turn 1 did not end")


@pytest.mark.parametrize("ruleset", ["classic", "plasmashok"])
@aiotest
async def test_after_turn_one_the_track_says_the_turn_the_header_says(ruleset,
                                                                        workdir) -> None:
    """The header said "Turn 2: roll for impetus" while the track said "Turn 1 of 6";
    turn 1's statuses ("shot", "lost 4 this turn") stayed on (issue 22)."""
    session = busy_session(ruleset, workdir)
    _play_turn_one(session)
    view = session.view()
    assert view.prompt.startswith("Turn 2:")
    app = battle_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        clock = app.screen.query_one(ClockWidget)
        limit = session.game.state.options["turns"]
        assert f"Turn 2 of {limit}" in str(clock.border_title)
        text = "\n".join(screen_lines(app))
        assert f"Turn 2 of {limit}" in text and "Turn 1 of" not in text
        for rows in view.units.values():
            for row in rows:
                assert "this turn" not in row.cells[-1] and "shot" not in row.cells[-1]


@aiotest
async def test_the_objectives_read_whole_on_the_score_page(workdir) -> None:
    """At 80x24 the score panel scrolls (the objective text was cut mid-sentence): the
    palette's "Score and objectives" shows the panel's text whole on a page."""
    from deathzap_tui.app.common.help import TextScreen

    session = busy_session("classic", workdir)
    view = session.view()
    app = battle_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        (page,) = [c for t, _h, c in app.screen.palette_commands()
                   if t == "Score and objectives"]
        page()
        await pilot.pause()
        assert isinstance(app.screen, TextScreen)
        words = " ".join(" ".join(screen_lines(app)).split())
        for line in (*view.score_lines, *view.objectives):
            assert " ".join(line.split()) in words, line

"""Issue 11, table-side faults: the unit tables with long statuses, a log that only
changes at its end, the dice mode kept with the save, a watcher's board, and a
command palette that offers every action of the battle screen."""

from __future__ import annotations

from typing import Any

from app_helpers import aiotest, battle_app, session_at
from rich.cells import cell_len

from deathzap_tui import saves
from deathzap_tui.app.app import DeathzapApp, Launch
from deathzap_tui.app.battle.battle import BattleScreen
from deathzap_tui.app.battle.units import UnitTable, render_units
from deathzap_tui.app.common.keybar import KeyBar
from deathzap_tui.app.common.log import EventLog, TailLog
from deathzap_tui.app.common.text import clean
from deathzap_tui.rules.classic.view import COLUMN_HINTS as CL_HINTS
from deathzap_tui.rules.classic.view import COLUMNS as CL_COLUMNS
from deathzap_tui.rules.deathzap3.view import COLUMN_HINTS as DZ3_HINTS
from deathzap_tui.rules.deathzap3.view import COLUMNS as DZ3_COLUMNS
from deathzap_tui.rules.ruleset import ADVANCE, Column, UnitRow
from deathzap_tui.session import Session

DZ3_ROWS = [
    UnitRow("red.0", "red", "Heavy Walker Mk II Alpha",
            ("Heavy Walker Mk II Alpha", "1/1", "0/3 H", "Veteran", "", "entered",
             "destroyed, immobilised, gun crippled, weapon crippled", ""), gone=True),
    UnitRow("red.1", "red", "Heavy Walker Mk II Beta",
            ("Heavy Walker Mk II Beta", "1/1", "2/3 H", "Veteran", "●", "entered",
             "immobilised, gun crippled", "")),
    UnitRow("red.2", "red", "Blade Cell Penumbra",
            ("Blade Cell Penumbra", "3/5", "2/3 M", "Regular", "", "entered", "in melee", "2")),
    UnitRow("red.3", "red", "Blade Cell Umbra",
            ("Blade Cell Umbra", "5/5", "3/3 M", "Regular", "", "off-table", "", "")),
]
CL_ROWS = [
    UnitRow("black.0", "black", "Black Skitterers Pack",
            ("Black Skitterers Pack", "Beast", "4/6", "",
             "in melee with Red Dawn Riflemen and Red Dawn Command Squad, panicked")),
    UnitRow("black.1", "black", "Black Skitterers Brood",
            ("Black Skitterers Brood", "Beast", "6/6", "", "")),
    UnitRow("black.2", "black", "Maw Gunners",
            ("Maw Gunners", "Infantry", "5/5", "3 Rifle, 1 Heavy Flamer, 1 Grenade Launcher",
             "pinned")),
]


def _check_table(columns: tuple[str, ...], rows: list[UnitRow], width: int,
                 hints: tuple[Column, ...]) -> list[str]:
    """Issue 22 (it was one line a unit, a long state cut with "…"): every name whole
    on its first line, nothing cut, every word of every cell shown."""
    lines = render_units(columns, rows, width, hints=hints).plain.split("\n")
    assert all(cell_len(line) <= width for line in lines)
    assert "…" not in "".join(lines)
    starts = [line for line in lines[1:] if line[:1] != " "]
    assert [line for line in starts if any(line.startswith(r.name) for r in rows)]
    assert all(any(line.startswith(r.name + " ") for line in starts) for r in rows), lines
    words = " ".join(lines).split()
    headers = lines[0].split()
    for i, column in enumerate(columns):
        if column not in headers and hints[i].short not in headers:
            assert hints[i].drop and column in lines[-1], (column, lines)  # the legend
            continue
        for row in rows:
            assert all(w in words for w in row.cells[i].split()), (row.cells[i], lines)
    return lines


def test_long_statuses_dz3_and_classic_at_80_columns() -> None:
    # The tables are 56 cells wide at 80 columns (the side column takes 24): a long
    # state wraps under its column, whole (issue 22).
    dz3 = _check_table(DZ3_COLUMNS, [r for r in DZ3_ROWS], 56, DZ3_HINTS)
    assert len(dz3) > 1 + len(DZ3_ROWS), "the long states take more lines"
    _check_table(CL_COLUMNS, CL_ROWS, 56, CL_HINTS)


def test_rows_that_do_not_fit_are_counted_not_dropped() -> None:
    rows = [UnitRow(f"red.{i}", "red", f"Squad {i}",
                    (f"Squad {i}", "1/5", "", "", "", "", "", ""), gone=i % 3 == 0)
            for i in range(12)]
    lines = render_units(DZ3_COLUMNS, rows, 56, height=6).plain.split("\n")
    assert len(lines) == 6
    assert lines[-1].startswith("+8 more (4 destroyed or fled)"), lines
    assert all("Squad 0 " not in line for line in lines), "a destroyed unit gives way first"
    assert [line.split()[1] for line in lines[1:-1]] == ["1", "2", "4", "5"]


@aiotest
async def test_a_long_force_at_80x24_shows_more_line(demo_paths) -> None:
    app = battle_app(session_at(*demo_paths))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, BattleScreen)
        rows = [UnitRow(f"red.{i}", "red", f"Unit number {i}",
                        (f"Unit number {i}", "1/5", "", "", "", "",
                         "destroyed, immobilised, gun crippled", ""))
                for i in range(14)]
        table = screen.query_one("#units-red", UnitTable)
        table.show(DZ3_COLUMNS, rows, "Long", None, "", DZ3_HINTS)
        await pilot.pause()
        height = table.content_region.height
        lines = table.render().plain.split("\n")
        assert 2 < height < 15 and len(lines) == height
        shown = sum(line.startswith("Unit number") for line in lines)
        assert lines[-1].startswith(f"+{14 - shown} more"), lines


# --- the log ------------------------------------------------------------------------
def _log_lines(screen: BattleScreen) -> list[list[str]]:
    return [[t.plain for t in log.lines] for log in screen.query(EventLog)]


@aiotest
async def test_log_changes_only_at_its_end(demo_paths, monkeypatch) -> None:
    session = session_at(*demo_paths, draws=2)
    calls: dict[str, int] = {"set": 0, "add": 0, "written": 0}
    real_add = TailLog.add_lines

    def counting_add(self: TailLog, lines: Any) -> None:
        lines = list(lines)
        calls["add"] += 1
        calls["written"] += len(lines)
        real_add(self, lines)

    def counting_set(self: TailLog, lines: Any) -> None:
        calls["set"] += 1

    monkeypatch.setattr(TailLog, "add_lines", counting_add)
    monkeypatch.setattr(TailLog, "set_lines", counting_set)
    app = battle_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, BattleScreen)
        want = [clean(line) for line in session.narrative()]
        assert _log_lines(screen) == [want, want]
        calls["written"] = 0
        draw = screen.in_group(ADVANCE)[0]
        screen.run_intent(draw)  # a card: asks nothing, committed at once
        await pilot.pause()
        new = session.last_lines()
        assert new and calls["written"] == 2 * len(new), "only the new lines written"
        want = [clean(line) for line in session.narrative()]
        assert _log_lines(screen) == [want, want]
        calls["written"] = 0
        screen.action_undo()
        assert _log_lines(screen) == [[clean(x) for x in session.narrative()]] * 2
        assert calls["written"] == 0, "an undo only drops the undone event's lines"
        screen.action_redo()
        assert _log_lines(screen) == [want, want]
        assert calls["written"] == 2 * len(new)
        # A narrative that moved on elsewhere (a watcher, a shared table) keeps what
        # it still begins with.
        calls["written"] = 0
        screen.log_replace([*session.narrative()[:-1], "something else"])
        assert calls["written"] == 2
        assert calls["set"] == 0, "the log is never rebuilt"


# --- the dice mode, the save's name, a watcher --------------------------------------
@aiotest
async def test_dice_mode_is_kept_with_the_save(demo_paths) -> None:
    session = session_at(*demo_paths, save="kept")
    app = battle_app(session, dice_mode="physical")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, BattleScreen)
        assert "dice: physical · save: kept" in str(screen.query_one("#save-name").render())
        await pilot.press("m")
        assert app.dice_mode == "generated"
        assert "dice: generated" in str(screen.query_one("#save-name").render())
        snapshot = saves.stamp(session.path)
    assert saves.read_settings(session.path) == {"dice": "generated"}
    assert saves.stamp(session.path) == snapshot, "a toggle does not touch the save"
    # No mode given (`deathzap resume` without --dice): the save's. A mode given
    # wins over it (issue 26: tests/commands/test_cmd_log_resume.py).
    again = DeathzapApp(Launch("battle"), session=Session.resume(session.path))
    async with again.run_test(size=(80, 24)):
        assert again.dice_mode == "generated"
        assert "dice: generated" in str(again.screen.query_one("#save-name").render())


@aiotest
async def test_a_watcher_sees_it_is_watching_and_has_no_moves(demo_paths) -> None:
    from deathzap_tui.net.lock import read_only

    session = session_at(*demo_paths, draws=2, save="watched")
    watcher = read_only(session.path)
    app = DeathzapApp(Launch("battle"), session=watcher, dice_mode="physical")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, BattleScreen)
        assert "watching watched (read only)" in str(screen.query_one("#save-name").render())
        keys = screen.query_one(KeyBar).render().plain
        for word in ("Draw", "Activate", "Undo", "Redo", "Dice", "Hand", "End", "Other"):
            assert word not in keys, keys
        assert "Log" in keys
        events = len(watcher.game.log)
        await pilot.press("d", "a", "u", "m", "e", "o", "h")
        assert app.screen is screen and app.dice_mode == "physical"
        assert len(watcher.game.log) == events
        titles = [t for t, _h, _c in screen.palette_commands()]
        # only looking: the log, the score page and the units' cards (issue 22), no move
        assert titles[:2] == ["Whole log", "Score and objectives"] and len(titles) > 2
        assert all(t.startswith("Unit card: ") for t in titles[2:]), titles


# --- the command palette --------------------------------------------------------------
@aiotest
async def test_palette_offers_every_board_action(demo_paths) -> None:
    from deathzap_tui.app.common.palette import PaletteCommands

    app = battle_app(session_at(*demo_paths, draws=1))
    async with app.run_test(size=(80, 24)):
        screen = app.screen
        assert isinstance(screen, BattleScreen)
        titles = [t for t, _h, _c in screen.palette_commands()]
        for wanted in ("Undo", "Toggle dice mode", "Whole log"):
            assert wanted in titles
        assert {clean(o.label, oneline=True) for o in screen.options} <= set(titles)
        provider = PaletteCommands(screen)
        every = [t for t, _h, _c in provider._commands()]
        assert "Help: rules" in every and "Whole log" in every

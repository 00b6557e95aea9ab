"""Issue 11: a wizard step is drawn in one frame.

Frames are counted in-process: every ``App._display`` call with something to draw is
one frame (the update Textual would write to the terminal between a pair of
synchronized-output marks; headless, it is computed and dropped). After each key the
test lets the app settle (``pilot.pause``), so a count above 1 means the step asked
for a further layout or repaint after its first frame: a second layout because a
widget changed size, a full-screen repaint on a focus change, the option list
re-wrapping after a resize, the live feedback following a typed digit a frame
late. No timing is measured.

The flows avoid a list longer than its box: a scrollbar appearing is laid out by
Textual in a second pass (see benchmarks/ui.py for the whole-game figures).

Issue 21 adds ``a`` (the unit chooser, on the battle screen) and the force editor at
80x24: the outline's arrows (each shows another form), Enter on a unit (its first
field focused), Esc back and a digit typed in a number field (the points line
updated). The overrides of Textual that make these one frame are in
``deathzap_tui/app/frames.py``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from app_helpers import aiotest, battle_app, keys_for, session_at
from editor_helpers import editing
from test_odds_panel import to_first_hit_roll
from test_wizard_keys import ToyApp, loose
from textual.app import App
from textual.widgets._toast import Toast

from deathzap_tui.app.battle.units import UnitTable
from deathzap_tui.app.wizard import wizard
from deathzap_tui.app.wizard.wizard import WizardScreen
from deathzap_tui.rules.ruleset import Column, UnitRow
from deathzap_tui.rules.steps import DiceRequest


class FrameCounter:
    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.frames = 0
        display = App._display

        def counted(app: App[Any], screen: Any, renderable: Any) -> None:
            if renderable is not None and not app._batch_count:
                self.frames += 1
            display(app, screen, renderable)

        monkeypatch.setattr(App, "_display", counted)

    async def press(self, pilot: Any, *keys: str) -> int:
        """Frames drawn for ``keys``, once the app has settled."""
        await pilot.pause()
        before = self.frames
        await pilot.press(*keys)
        for _ in range(3):
            await pilot.pause(0.05)
        return self.frames - before


@aiotest
async def test_every_toy_wizard_key_is_one_frame(monkeypatch) -> None:
    """Pick, type dice, Enter, a choice, a number, confirm: list and input take
    turns at the focus, the step box's headline changes its height."""
    counter = FrameCounter(monkeypatch)
    app = ToyApp(loose(3))
    async with app.run_test(size=(80, 24)) as pilot:
        wiz = app.wizard
        frames = {}
        frames["pick"] = await counter.press(pilot, "1")
        frames["die 1"] = await counter.press(pilot, "4")
        frames["die 2"] = await counter.press(pilot, "5")
        frames["dice entered"] = await counter.press(pilot, "enter")
        assert wiz.resolution.step.key == "leader"
        frames["choice"] = await counter.press(pilot, "2")
        assert wiz.resolution.step.key == "range"
        frames["digit"] = await counter.press(pilot, "3")
        frames["number entered"] = await counter.press(pilot, "enter")
        assert wiz.resolution.done
        frames["back"] = await counter.press(pilot, "escape")
        frames["answer again"] = await counter.press(pilot, "enter")
        assert frames == dict.fromkeys(frames, 1)


@aiotest
async def test_demo_shooting_steps_are_one_frame_each(demo_paths, monkeypatch) -> None:
    """The demo game's shooting activation: questions, the odds panel appearing and
    changing, the to-hit roll typed; each answer one frame."""
    counter = FrameCounter(monkeypatch)
    app = battle_app(session_at(*demo_paths, draws=2))
    async with app.run_test(size=(80, 24)) as pilot:
        await to_first_hit_roll(pilot)
        wiz = app.screen
        assert isinstance(wiz, WizardScreen)
        counts = []
        for _ in range(6):
            res = wiz.resolution
            if res is None or res.step is None:
                break
            keys = keys_for(res.step, entered=True)
            if isinstance(res.step, DiceRequest) or len(keys) > 1:
                await pilot.press(*keys[:-1])  # typing: one frame a key, not counted
                keys = keys[-1:]
            counts.append((res.step.key, await counter.press(pilot, *keys)))
        assert len(counts) >= 3
        assert all(n == 1 for _, n in counts), counts


@aiotest
async def test_the_unit_chooser_opens_in_one_frame(demo_paths, monkeypatch) -> None:
    """``a`` on the battle screen: the wizard's unit chooser, pushed over the board.
    The wizard is mounted by the first ``a`` of a battle screen and kept: every ``a``
    is one frame (pushing a screen asks Textual for a layout and a full repaint,
    drawn together by ``OneFrameScreen``; the first one's layout, done by Textual as
    the screen is first shown, asks for two more, drawn with it)."""
    counter = FrameCounter(monkeypatch)
    app = battle_app(session_at(*demo_paths, draws=1))
    async with app.run_test(size=(80, 24)) as pilot:
        counts = [await counter.press(pilot, "a")]  # mounts the wizard
        assert isinstance(app.screen, WizardScreen)
        for _ in range(3):
            await counter.press(pilot, "escape")
            counts.append(await counter.press(pilot, "a"))
            assert isinstance(app.screen, WizardScreen)
            assert app.screen.pick is not None and app.screen.pick.title == "Choose a unit"
        assert counts == [1, 1, 1, 1]


@aiotest
async def test_a_notification_expiring_under_the_wizard_is_one_frame(
        demo_paths, monkeypatch) -> None:
    """A notification shown on the battle screen (``a`` with nothing to activate says
    why) is shown again on the wizard pushed over it, and both toasts expire
    (``Toast._expire``, a timer: nothing the player pressed; fired here by hand, the
    battle screen's first, as its timer started first). The wizard draws its own
    toast going away, and only that: the battle screen's, hidden under it, made
    Textual repaint the whole wizard in a second frame (benchmarks/ui.py saw it a
    quarter of a second after some keys)."""
    counter = FrameCounter(monkeypatch)
    app = battle_app(session_at(*demo_paths, draws=1))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        app.notify("Not allowed", timeout=60)
        await counter.press(pilot, "a")
        wiz = app.screen
        assert isinstance(wiz, WizardScreen)
        toasts = [screen.query_one(Toast) for screen in app.screen_stack[1:]]
        assert [toast.screen for toast in toasts] == app.screen_stack[1:]
        before = counter.frames
        for toast in toasts:  # the battle screen's, then the wizard's
            toast._expire()
            for _ in range(3):
                await pilot.pause(0.05)
        assert not app._notifications
        assert [len(screen.query(Toast)) for screen in app.screen_stack[1:]] == [0, 0]
        assert counter.frames - before == 1


@aiotest
async def test_editor_outline_enter_and_a_keystroke_are_one_frame_each(
        workdir, monkeypatch) -> None:
    """The force editor at 80x24 (the outline, a form, the points on the status line):
    the outline's down and up arrows show another form, Enter focuses the unit's first
    field, a digit typed in its move changes the points line, backspace takes it off
    again; each one frame."""
    counter = FrameCounter(monkeypatch)
    async with editing(workdir / "forces" / "demo-ashfall-legion.toml",
                       size=(80, 24)) as (pilot, screen):
        status = screen.query_one("#editor-status")
        frames = {}
        for n in range(1, 12):  # the force, its weapons, ..., the first unit
            frames[f"down {n}"] = await counter.press(pilot, "down")
        assert screen._shown == ("units", 0)
        frames["up"] = await counter.press(pilot, "up")
        frames["down"] = await counter.press(pilot, "down")
        frames["enter"] = await counter.press(pilot, "enter")
        assert screen.focused is screen._rows["units[0].name"][0]
        await pilot.press("tab", "tab", "1")  # move (its text selected): 1
        assert screen.doc.get("units[0].move") == 1
        before = str(status.render())
        frames["digit"] = await counter.press(pilot, "0")
        assert screen.doc.get("units[0].move") == 10 and str(status.render()) != before
        frames["backspace"] = await counter.press(pilot, "backspace")
        assert screen.doc.get("units[0].move") == 1 and str(status.render()) == before
        assert frames == dict.fromkeys(frames, 1)


@aiotest
async def test_a_frame_waits_for_requests_still_on_their_way(demo_paths, monkeypatch) -> None:
    """In a real terminal the screen's frame timer may fire before a widget has posted
    the layout it asked for (it posts it when it next goes idle): the screen then drew
    what it had and the late request made a second frame (``a`` drew the wizard twice).
    Here the timer fires by hand between the request and its posting: no frame is
    drawn until the request has arrived, then one."""
    counter = FrameCounter(monkeypatch)
    app = battle_app(session_at(*demo_paths, draws=1))
    async with app.run_test(size=(80, 24)) as pilot:
        await counter.press(pilot, "a")
        wiz = app.screen
        assert isinstance(wiz, WizardScreen)
        await pilot.pause()
        before = counter.frames
        wiz.refresh(layout=True)  # the screen's own request: a frame is due
        step = wiz.query_one("#wiz-step")
        step.refresh(layout=True)  # a widget's, posted when it goes idle
        wiz._on_timer_update()  # the timer fires first
        assert counter.frames == before
        for _ in range(3):
            await pilot.pause(0.05)
        assert counter.frames == before + 1


def test_a_change_of_state_restyles_every_widget_the_states_style() -> None:
    """A change of one of the wizard's state classes restyles only that state's
    ``STATE_STYLED`` widgets (issue 21, 24): every rule of wizard.tcss that reads a
    state class styles one of the widgets listed for that state (never the screen)."""
    sheet = (Path(wizard.__file__).parent / "wizard.tcss").read_text(encoding="utf-8")
    sheet = re.sub(r"/\*.*?\*/", "", sheet, flags=re.S)
    styled = {state: {f"#{name}" for name in names}
              for state, names in wizard.STATE_STYLED.items()}
    targets: dict[str, set[str]] = {state: set() for state in styled}
    for selectors in re.findall(r"([^{}]+)\{", sheet):
        for selector in selectors.split(","):
            for state in re.findall(r"\.-(picking|fresh|done)\b", selector):
                targets[state].add(selector.split()[-1])
    assert all(targets.values()), targets
    for state, widgets in targets.items():
        assert widgets <= styled[state], (state, widgets - styled[state])


@aiotest
async def test_a_game_s_keys_are_one_frame_each(demo_paths, monkeypatch) -> None:
    """The demo game as benchmarks/ui.py plays it (generated dice, Enter for every
    step), three cards: each draw, unit chooser, pick, step and confirm one frame.
    It passes the cases Textual drew in two to four frames (issue 21): a list
    growing past its box (a unit's actions, the targets: its scrollbar appears, and
    is itself laid out), ``a`` after a confirm (the list, hidden on Confirm, filled
    while hidden and shown again, with the scrollbar of its last list), and the board
    after a confirm (a layout and the full repaint of the screen coming back)."""
    counter = FrameCounter(monkeypatch)
    app = battle_app(session_at(*demo_paths, seed=1), dice_mode="generated")
    frames: list[tuple[str, int]] = []
    scrolled = 0
    async with app.run_test(size=(80, 24)) as pilot:
        for card in range(3):
            frames.append((f"d {card}", await counter.press(pilot, "d")))
            for activation in range(4):
                n = await counter.press(pilot, "a")
                wiz = app.screen
                if not isinstance(wiz, WizardScreen):
                    break
                frames.append((f"a {card}.{activation}", n))
                for _ in range(40):
                    if not isinstance(app.screen, WizardScreen):
                        break
                    done = wiz.resolution is not None and wiz.resolution.done
                    key = f"{'confirm' if done else 'step'} {card}.{activation}"
                    n = await counter.press(pilot, "enter")
                    if wiz.query_one("#wiz-feedback").has_class("error"):
                        n = await counter.press(pilot, "1")  # a rules question: its key
                    frames.append((key, n))
                    scrolled += wiz.query_one("#wiz-choices").show_vertical_scrollbar
    assert scrolled and any(k.startswith("a 0.") for k, _ in frames)
    assert len(frames) > 20
    assert [(k, n) for k, n in frames if n != 1] == []


@aiotest
async def test_a_status_table_s_new_title_is_drawn_with_its_rows(monkeypatch) -> None:
    """A unit table whose new rows leave no line for its legend names it in brief in
    its title ("· Sh shields"): the rows and the title change in one frame (the title
    was decided as the table was drawn, after its border, and drawn by a second frame:
    the board after some confirms)."""
    counter = FrameCounter(monkeypatch)
    columns, hints = ("Name", "Shields"), (Column(), Column(short="Sh", meaning="shields"))

    def rows(n: int) -> list[UnitRow]:
        return [UnitRow(f"red.{i}", "red", "Alpha Squad", ("Alpha Squad of the Ninth", "2"))
                for i in range(n)]

    class TableApp(App[None]):
        def compose(self) -> Any:
            yield UnitTable("red")

        def on_mount(self) -> None:
            table = self.query_one(UnitTable)
            table.styles.height = 7
            table.styles.border_top = ("solid", "red")
            table.show(columns, rows(3), "Legion", None, "", hints)

    app = TableApp()
    async with app.run_test(size=(30, 10)) as pilot:
        await pilot.pause()
        table = app.query_one(UnitTable)
        assert "shields" not in str(table.border_title)
        before = counter.frames
        table.show(columns, rows(5), "Legion", None, "", hints)
        for _ in range(3):
            await pilot.pause(0.05)
        assert "Sh shields" in str(table.border_title)
        assert counter.frames - before == 1

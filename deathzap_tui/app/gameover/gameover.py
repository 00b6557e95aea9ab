"""Game over: the final score (in the ruleset's own terms), how it was earned, units
lost; then the end-of-game report (the score over time, what each unit did and
suffered, dice luck).

The report is worked out once, when the screen opens: at once for a short local
game, else in a thread (a long game's replay, or a joined terminal's wait for the
referee, must not freeze the screen), "Working out the report…" showing meanwhile.
A joined terminal that cannot get it (an older referee, a lost connection) says
where the report can be had instead.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.geometry import Size
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static

from deathzap_tui.app.common.keybar import KeyBar
from deathzap_tui.app.common.text import clean
from deathzap_tui.headless.describe import side_label
from deathzap_tui.reporttext import (
    MIN_CHART_HEIGHT,
    as_markdown,
    luck_text,
    units_note,
    units_table,
    vp_chart,
)
from deathzap_tui.rules.report import GameReport
from deathzap_tui.rules.ruleset import BoardView
from deathzap_tui.rules.steps import Refused
from deathzap_tui.safefiles import remove_stale_temps
from deathzap_tui.saves import write_atomic
from deathzap_tui.session import Session

WORKING = "Working out the report…"
NO_REPORT = ("The report is not available here ({why}); `deathzap report SAVE` on the "
             "host shows it.")
MAX_CHART_HEIGHT = 14
QUICK_EVENTS = 100
"""A local game of at most this many events has its report worked out at once
(a few tenths of a second at most), so the screen opens with it; a longer one, or a
joined terminal's (a round trip to the referee), is worked out in a thread."""


def render_over(view: BoardView, names: dict[str, str]) -> Text:
    out = Text()
    out.append(clean(view.result or "Game over", oneline=True) + "\n\n", style="bold")
    label = clean(view.score_label, oneline=True)
    out.append(f"Final {label}\n", style="bold underline")
    for side, n in view.score.items():
        out.append(f"  {side_label(side)} ({clean(names.get(side, ''), oneline=True)}): "
                   f"{n} {label}\n")
    if view.score_lines:
        out.append("\nHow they were earned\n", style="bold underline")
        for line in view.score_lines:
            out.append(f"  {clean(line, oneline=True)}\n")
    out.append("\nUnits lost\n", style="bold underline")
    for side, rows in view.units.items():
        lost = [clean(r.name, oneline=True) for r in rows if r.gone]
        out.append(f"  {side_label(side)}: {', '.join(lost) if lost else 'none'}\n")
    return out


class ReportText(Widget):
    """Plain lines laid out for the widget's width, again whenever it changes (the
    chart fills the screen's width). No markup: the lines quote force files."""

    def __init__(self, lay_out: Callable[[int], list[str]], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._lay_out = lay_out

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self._lay_out(width))

    def render(self) -> Text:
        return Text("\n".join(self._lay_out(self.content_size.width)), no_wrap=True,
                    overflow="crop")


class GameOverScreen(Screen[None]):
    BINDINGS: ClassVar[list[Any]] = [
        Binding("u", "undo", "Undo last"),
        Binding("escape", "app.pop_screen", "Back to board"),
        Binding("s", "app.start_screen", "Start screen"),
        Binding("m", "markdown", "Save report (.md)"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.report: GameReport | None = None
        """The report, once worked out."""

    def compose(self) -> ComposeResult:
        session = self.app.session  # type: ignore[attr-defined]
        game = session.game
        names = {"red": getattr(game.red, "name", ""), "black": getattr(game.black, "name", "")}
        yield Static("Game over", classes="screen-title")
        with VerticalScroll(id="over-body"):
            yield Static(render_over(session.view(), names), id="over-summary")
            yield Static(WORKING, id="report-status", markup=False)
            with Vertical(id="report"):
                yield Static("Score over time", classes="report-heading")
                yield ReportText(self._chart, id="report-chart")
                yield Static("Units", classes="report-heading")
                yield ReportText(self._units, id="report-units")
                yield Static("Dice luck", classes="report-heading")
                yield ReportText(self._luck, id="report-luck")
        yield KeyBar()

    def on_mount(self) -> None:
        session = self.app.session  # type: ignore[attr-defined]
        if not isinstance(session, Session):  # joined: the referee works it out
            self.work_out_report(session.report)
        elif len(session.game.log) <= QUICK_EVENTS:
            self.show_report(session.report())
        else:  # the events taken now: an undo may change the game while the worker runs
            self.work_out_report(partial(session.report, session.game.events()))

    @work(thread=True, exclusive=True, group="report")
    def work_out_report(self, make: Callable[[], GameReport]) -> None:
        try:
            report, why = make(), ""
        except Refused as exc:  # a joined terminal: the referee could not send it
            report, why = None, str(exc)
        self.app.call_from_thread(self.show_report, report, why)

    def show_report(self, report: GameReport | None, why: str = "") -> None:
        """Show ``report`` (or, without one, why not and where to get it); nothing if
        the screen has gone meanwhile (an undo, escape)."""
        if not self.is_attached:
            return
        status = self.query_one("#report-status", Static)
        if report is None:
            status.update(Text(NO_REPORT.format(why=clean(why, oneline=True) or "no answer")))
            return
        self.report = report
        status.display = False
        self.query_one("#report").display = True
        for widget in self.query(ReportText):
            widget.refresh(layout=True)

    # --- the report's parts, laid out for a width --------------------------------
    def _chart(self, width: int) -> list[str]:
        if self.report is None or width < 20:
            return []
        height = max(MIN_CHART_HEIGHT, min(MAX_CHART_HEIGHT, self.app.size.height // 2))
        return vp_chart(self.report, width, height)

    def _units(self, width: int) -> list[str]:
        if self.report is None:
            return []
        return [*units_table(self.report, width), *units_note(self.report, max(width, 20))]

    def _luck(self, width: int) -> list[str]:
        return luck_text(self.report, max(width, 20)) if self.report is not None else []

    # --- keys ------------------------------------------------------------------------
    def action_markdown(self) -> None:
        """Write the report as Markdown beside the save (or in the working folder
        when this terminal has no save: a joined one) and say where."""
        if self.report is None:
            self.notify("The report is not ready.", severity="warning")
            return
        path = markdown_path(self.app.session)  # type: ignore[attr-defined]
        remove_stale_temps(path)  # what an interrupted `m` left (issue 19)
        try:
            write_atomic(path, as_markdown(self.report), mode=0o644)
        except OSError as exc:
            self.notify(f"Could not write {path}: {exc.strerror or exc}", severity="error",
                        markup=False)
            return
        self.notify(f"Report written to {path}", markup=False)

    def action_undo(self) -> None:
        self.app.pop_screen()
        battle = self.app.screen
        if hasattr(battle, "action_undo"):
            battle.action_undo()


def markdown_path(session: Any) -> Path:
    """Where ``m`` writes the report: ``<save>-report.md`` beside the save."""
    save = getattr(session, "path", None) or getattr(session, "source", None)
    if save is None:
        return Path.cwd() / "deathzap-report.md"
    save = Path(save)
    return save.with_name(f"{save.stem}-report.md")

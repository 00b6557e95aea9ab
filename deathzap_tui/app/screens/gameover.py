"""Game over: the final score (in the ruleset's own terms), how it was earned, units
lost."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from deathzap_tui.app.describe import side_label
from deathzap_tui.app.text import clean
from deathzap_tui.app.widgets.keybar import KeyBar
from deathzap_tui.rules.ruleset import BoardView


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


class GameOverScreen(Screen[None]):
    BINDINGS: ClassVar[list[Any]] = [
        Binding("u", "undo", "Undo last"),
        Binding("escape", "app.pop_screen", "Back to board"),
        Binding("s", "app.start_screen", "Start screen"),
    ]
    DEFAULT_CSS = """
    GameOverScreen #over-body { height: 1fr; padding: 1 2; }
    """

    def compose(self) -> ComposeResult:
        session = self.app.session  # type: ignore[attr-defined]
        game = session.game
        names = {"red": getattr(game.red, "name", ""), "black": getattr(game.black, "name", "")}
        yield Static("Game over", classes="screen-title")
        with VerticalScroll(id="over-body"):
            yield Static(render_over(session.view(), names))
        yield KeyBar()

    def action_undo(self) -> None:
        self.app.pop_screen()
        battle = self.app.screen
        if hasattr(battle, "action_undo"):
            battle.action_undo()

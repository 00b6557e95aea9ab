"""The score (victory points, or what the ruleset counts), where it came from, and
the objectives."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from deathzap_tui.app.describe import side_label
from deathzap_tui.app.text import clean
from deathzap_tui.app.widgets.paint import repaint
from deathzap_tui.rules.ruleset import BoardView


def render_score(view: BoardView) -> Text:
    out = Text()
    if view.score_lines:
        out.append("\n".join(clean(line, oneline=True) for line in view.score_lines))
    else:
        label = clean(view.score_label, oneline=True)
        out.append("  ".join(f"{side_label(side)} {n} {label}" for side, n in view.score.items()))
    if view.objectives:
        out.append("\nObjectives", style="bold underline")
        for line in view.objectives:
            out.append("\n" + clean(line, oneline=True))
    return out


class ScoreWidget(Static):
    DEFAULT_CSS = """
    ScoreWidget { height: auto; border: round $secondary; padding: 0 1; }
    """

    def show(self, view: BoardView) -> None:
        key = (tuple(view.score.items()), view.score_label, view.score_lines, view.objectives)
        if key == getattr(self, "_last", None):
            return
        self._last = key
        self.border_title = "Score"
        repaint(self, render_score(view))  # its height follows the text (issue 22)

"""The score (victory points, or what the ruleset counts), where it came from, and
the objectives.

The panel is drawn for its own size at render time, as the unit tables are: all of it
when it fits; else, at 80x24, abbreviated where the reader sees it is: what fits, ended
by "…", and a last line "more: press s" (the score page: the whole text, one key
away). The objective text no longer stops mid-sentence unmarked (issue 22)."""

from __future__ import annotations

from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget

from deathzap_tui.app.battle.units import wrap
from deathzap_tui.app.common.text import clean
from deathzap_tui.headless.describe import side_label
from deathzap_tui.rules.ruleset import BoardView

MORE = "more: press s"
"""The last line of a panel with no room for all of it (``s``: the score page)."""



def _paragraphs(view: BoardView) -> list[tuple[str, str]]:
    """The panel's paragraphs (text, style): the score lines, the heading, the
    objectives."""
    if view.score_lines:
        score = [clean(line, oneline=True) for line in view.score_lines]
    else:
        label = clean(view.score_label, oneline=True)
        score = ["  ".join(f"{side_label(side)} {n} {label}" for side, n in view.score.items())]
    out = [(line, "") for line in score]
    if view.objectives:
        out.append(("Objectives", "bold underline"))
        out.extend((clean(line, oneline=True), "") for line in view.objectives)
    return out


def render_score(view: BoardView) -> Text:
    """The whole panel's text (the score page shows it too)."""
    out = Text()
    for n, (text, style) in enumerate(_paragraphs(view)):
        out.append(("\n" if n else "") + text, style=style or None)
    return out


def _lines(text: str, width: int) -> int:
    return len(wrap(text, width))


def fit_score(view: BoardView, width: int, height: int) -> Text:
    """The panel in ``width`` x ``height`` cells: all of it if it fits; else the
    paragraphs that fit whole, then as many words of the next as fit ended by "…",
    and the :data:`MORE` line: the text is abbreviated where the reader sees it is,
    never cut silently."""
    paragraphs = _paragraphs(view)
    if sum(_lines(text, width) for text, _s in paragraphs) <= height:
        return render_score(view)
    out = Text()
    room = height - 1
    for text, style in paragraphs:
        if _lines(text, width) > room:
            words = text.split()
            while words and _lines(" ".join(words) + " …", width) > room:
                words.pop()
            if words:
                out.append(("\n" if out else "") + " ".join(words) + " …", style=style or None)
            break
        out.append(("\n" if out else "") + text, style=style or None)
        room -= _lines(text, width)
    out.append(("\n" if out else "") + MORE, style="italic reverse")
    return out


class ScoreWidget(Widget):
    """Sized by its whole text (up to its CSS limit), drawn for the room it got."""


    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._view: BoardView | None = None
        self._key: tuple = ()

    def show(self, view: BoardView) -> None:
        key = (tuple(view.score.items()), view.score_label, view.score_lines, view.objectives)
        if key == self._key:
            return
        width = self.content_region.width
        before = self.get_content_height(Size(0, 0), Size(0, 0), width) if width else -1
        self._key, self._view = key, view
        self.border_title = "Score"
        after = self.get_content_height(Size(0, 0), Size(0, 0), width) if width else 0
        self.refresh(layout=after != before)  # its height follows the text (issue 22)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if self._view is None:
            return 0
        return sum(_lines(text, max(1, width)) for text, _s in _paragraphs(self._view))

    def render(self) -> Text:
        if self._view is None:
            return Text()
        region = self.content_region
        return fit_score(self._view, region.width, region.height)

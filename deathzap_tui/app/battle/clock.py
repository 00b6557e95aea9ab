"""The phase track of a ruleset played in turns: which turn (the border title), the
phases with the current one marked, who acts now and a line of detail (a
:class:`TurnClock`).

A card-driven ruleset has no clock (``BoardView.clock`` is ``None``): the widget
is then not displayed at all, and takes no room.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from deathzap_tui.app.battle.units import SIDE_STYLE
from deathzap_tui.app.common.paint import repaint
from deathzap_tui.app.common.text import clean
from deathzap_tui.headless.describe import side_label
from deathzap_tui.rules.ruleset import TurnClock


def turn_line(clock: TurnClock) -> str:
    """"Turn 2 of 6", "Round 3", "Before turn 1 of 6"."""
    unit = clean(clock.unit, oneline=True) or "Turn"
    of = f" of {clock.limit}" if clock.limit else ""
    if clock.number <= 0:
        return f"Before {unit.lower()} 1{of}"
    return f"{unit} {clock.number}{of}"


def render_clock(clock: TurnClock) -> Text:
    """One line a phase (done ones dim, the current one marked and reversed), then
    whose move it is and the detail line. The turn itself is the border title."""
    phases = [clean(p, oneline=True) for p in clock.phases]
    current = clean(clock.current, oneline=True)
    lines: list[Text] = []
    done = current in phases
    for phase in phases:
        if phase == current:
            lines.append(Text.assemble(("▶", "bold"), (f" {phase} ", "bold reverse")))
            done = False
        else:
            lines.append(Text(f"  {phase}", style="dim" if done else ""))
    if current and current not in phases:
        lines.append(Text.assemble(("▶", "bold"), (f" {current} ", "bold reverse")))
    if clock.active:
        lines.append(Text(f"{side_label(clock.active)} to act",
                          style=SIDE_STYLE.get(clock.active, "bold")))
    if clock.detail:
        lines.append(Text(clean(clock.detail, oneline=True)))
    return Text("\n", end="").join(lines)


class ClockWidget(Static):
    """Shows a :class:`TurnClock`; hidden while there is none."""


    def show(self, clock: TurnClock | None) -> None:
        if clock == getattr(self, "_last", None) and self.display == (clock is not None):
            return
        self._last = clock
        self.display = clock is not None
        if clock is None:
            return
        self.border_title = Text(turn_line(clock), style="bold")
        repaint(self, render_clock(clock))

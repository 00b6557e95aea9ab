"""A unit's card (issue 22): one unit in full, from the battle screen (``c`` on the
selected row, or "Unit card: ..." in the command palette), at 80x24 too.

Generic over rulesets: everything shown comes from the board's
:class:`~deathzap_tui.rules.ruleset.UnitRow` (its cells under the view's column
headers, even those the narrow table leaves out, then the ruleset's card sections:
figures, weapons and profiles, shields or wounds, tokens, status, this turn).
``n`` and ``p`` step to the next and previous unit of the board; up and down
scroll a long card.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from deathzap_tui.app.battle.units import SIDE_STYLE
from deathzap_tui.app.common.keybar import KeyBar
from deathzap_tui.app.common.text import clean
from deathzap_tui.headless.describe import side_label
from deathzap_tui.rules.ruleset import UnitRow


def card_title(row: UnitRow) -> Text:
    """"RED — Command Squad" (destroyed or fled units say so)."""
    title = Text(f"{side_label(row.side)} — ", style=SIDE_STYLE.get(row.side, "bold"))
    title.append(clean(row.name, oneline=True), style="bold")
    if row.gone:
        title.append(" (out of play)", style="italic")
    return title


def render_card(columns: Sequence[str], row: UnitRow) -> Text:
    """The row's cells as "Header value" in one paragraph (the name and empty cells
    left out), then each section of the ruleset's card under its heading."""
    out = Text()
    glance = [(clean(h, oneline=True), clean(c, oneline=True))
              for h, c in zip(columns[1:], row.cells[1:], strict=False)]
    for n, (header, cell) in enumerate((h, c) for h, c in glance if c):
        out.append(" · " if n else "")
        out.append(f"{header} ", style="bold")
        out.append(cell)
    for heading, lines in row.card:
        out.append("\n" + clean(heading, oneline=True) + "\n", style="bold underline")
        for line in lines:
            out.append(clean(line, oneline=True) + "\n")
    out.rstrip()
    return out


class UnitCardScreen(Screen[None]):
    """One unit in full; ``rows`` are the board's units in its order, so that ``n`` and
    ``p`` step through them."""

    BINDINGS: ClassVar[list[Any]] = [
        Binding("escape,c", "app.pop_screen", "Back to the board"),
        Binding("n", "step(1)", "Next unit"),
        Binding("p", "step(-1)", "Previous unit"),
    ]

    def __init__(self, columns: Sequence[str], rows: Sequence[UnitRow], unit_id: str) -> None:
        super().__init__()
        self.columns = tuple(columns)
        self.rows = tuple(rows)
        self.index = next((i for i, r in enumerate(self.rows) if r.id == unit_id), 0)

    @property
    def row(self) -> UnitRow:
        return self.rows[self.index]

    def compose(self) -> ComposeResult:
        yield Static(id="card-title")
        with VerticalScroll(id="card-body"):
            yield Static(id="card-text")
        yield KeyBar()

    def on_mount(self) -> None:
        self.show_row()

    def show_row(self) -> None:
        self.query_one("#card-title", Static).update(card_title(self.row))
        self.query_one("#card-text", Static).update(render_card(self.columns, self.row))
        self.query_one("#card-body", VerticalScroll).scroll_home(animate=False)

    def follow(self, columns: Sequence[str], rows: Sequence[UnitRow]) -> None:
        """The board changed while the card is open (a move at another terminal of a
        joined table, a watched save): show the same unit as it is now, or the first
        if it has left the board. Repaints only when the card's unit changed."""
        unit_id = self.row.id
        before = (self.columns, self.row)
        self.columns, self.rows = tuple(columns), tuple(rows)
        if not self.rows:
            return
        self.index = next((i for i, r in enumerate(self.rows) if r.id == unit_id), 0)
        if (self.columns, self.row) != before and self.is_mounted:
            body = self.query_one("#card-body", VerticalScroll)
            at = body.scroll_y
            self.show_row()
            if self.row.id == unit_id:  # the same card: the reader keeps their place
                body.scroll_to(y=at, animate=False)

    def action_step(self, step: int) -> None:
        self.index = (self.index + step) % len(self.rows)
        self.show_row()

"""The activation deck: the current card big and clear, what it grants, what is left."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from deathzap_tui.app.common.paint import repaint
from deathzap_tui.app.common.text import clean
from deathzap_tui.headless.describe import side_label
from deathzap_tui.rules.ruleset import DeckView

COLOUR_STYLE = {"red": "bold red", "black": "bold"}


def card_face(card: str, colour: str) -> Text:
    """A 7x5 drawing of the card, its rank in the corners and its suit in the middle."""
    style = COLOUR_STYLE.get(colour, "bold magenta")
    card = clean(card, oneline=True)
    if not card:
        rank, suit = "?", " "
    elif card.lower().startswith("joker"):
        rank, suit = "JK", "★"
    else:
        rank, suit = card[:-1] or card, card[-1]
    out = Text()
    out.append("┌─────┐\n", style="dim")
    out.append("│", style="dim").append(f"{rank:<5}", style=style).append("│\n", style="dim")
    out.append("│", style="dim").append(f"{suit:^5}", style=style).append("│\n", style="dim")
    out.append("│", style="dim").append(f"{rank:>5}", style=style).append("│\n", style="dim")
    out.append("└─────┘", style="dim")
    return out


def render_deck(deck: DeckView) -> Group:
    grid = Table.grid(padding=(0, 1), expand=False)
    grid.add_column(no_wrap=True)
    grid.add_column(overflow="fold")
    info = Text()
    if deck.current:
        info.append(clean(deck.current_words or deck.current, oneline=True) + "\n", style="bold")
        colour = side_label(deck.colour) if deck.colour else "no colour"
        info.append(f"{colour} card\n", style=COLOUR_STYLE.get(deck.colour, "bold magenta"))
    else:
        info.append("No card drawn yet\n", style="bold")
    if deck.grants:
        info.append(clean(deck.grants, oneline=True))
    grid.add_row(card_face(deck.current, deck.colour), info)
    rest = Text()
    rest.append(f"{deck.cards_left} left", style="bold")
    by_colour = ", ".join(f"{clean(k, oneline=True)} {v}"
                          for k, v in deck.left_by_colour.items())
    if by_colour:
        rest.append(f" ({by_colour})")
    rest.append(f", {deck.jokers_left} joker{'s' if deck.jokers_left != 1 else ''}\n")
    rest.append("Last: ", style="dim")
    rest.append(" ".join(clean(c, oneline=True) for c in deck.recent[-6:]) or "—")
    return Group(grid, rest)


class DeckWidget(Static):
    """Shows a :class:`DeckView`; not displayed (no room taken) for a ruleset without
    cards (``None``)."""


    def show(self, deck: DeckView | None) -> None:
        if deck == getattr(self, "_last", None) and self.display == (deck is not None):
            return
        self._last = deck
        self.display = deck is not None
        if deck is None:
            return
        self.border_title = "Deck"
        repaint(self, render_deck(deck), fixed=True)

"""The lobby: a member's first screen in the club (issue 23).

Four sections in one list, so the cursor walks them all and each key acts on the row
under it: **Your games** (the hub lists yours-to-move first), **Challenges** (open
ones and ones addressed to you, your own marked), **Finished** (the result; open one
for its end-of-game report) and **Watch** (games their players made public).

Every name and free text shown comes from other members: the hub cleans it, and the
lines here are built as :class:`rich.text.Text` (never markup) from :func:`clean`
text once more.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from deathzap_tui.app.common.keybar import KeyBar
from deathzap_tui.app.common.text import clean

Row = Mapping[str, Any]
SECTIONS = (("games", "Your games"), ("challenges", "Challenges"),
            ("finished", "Finished"), ("watch", "Watch"))
"""(key of the hub's ``lobby`` reply, heading), in the order shown."""
WIDTH = 80
"""The width every line fits; a wider terminal gives its texts the columns beyond."""


def ago_text(seconds: int) -> str:
    """How long ago, in the largest whole unit: "now", "5m", "3h", "2d"."""
    if seconds < 60:
        return "now"
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds // size}{unit}"
    return "now"  # not reached


def _cut(text: object, width: int) -> str:
    """``text`` cleaned to one line and fitted to ``width`` columns (… when cut)."""
    s = clean(text, oneline=True)
    return s if len(s) <= width else s[:width - 1] + "…"


def _col(text: object, width: int) -> str:
    return _cut(text, width).ljust(width)


def _more(width: int) -> int:
    """Columns beyond the 80 every line is laid out for, shared among its texts."""
    return max(0, width - WIDTH)


def game_line(row: Row, width: int = WIDTH) -> Text:
    """One of your games: ▶ when it is your move, the ruleset, the opponent, the
    turn or round, whose move, how long since the last move, and ● with the number
    of events you have not seen."""
    more = _more(width)
    yours = bool(row.get("yours"))
    t = Text("▶ " if yours else "  ", style="bold")
    t.append(f"#{row['game']:<4} ")
    t.append(_col(row.get("title", ""), 12 + more // 5) + " ")
    t.append(_col(f"v {row.get('opponent', '')}", 15 + more // 3) + " ")
    t.append(_col(row.get("turn", ""), 20 + more // 3) + " ")
    whose = "your move" if yours else "their move" if row.get("whose") else ""
    t.append(_col(whose, 10), style="bold" if yours else "")
    t.append(f"{ago_text(int(row.get('ago', 0))):>4}")
    unread = int(row.get("unread", 0))
    if unread:
        t.append(f" ●{unread}", style="bold reverse")
    return t


def challenge_line(row: Row, width: int = WIDTH) -> Text:
    """A challenge: who made it, to whom (or anyone), the ruleset and their force."""
    more = _more(width)
    t = Text("  ")
    t.append(f"c{row['challenge']:<4} ")
    t.append(_col(row.get("title", ""), 14 + more // 4) + " ")
    to = row.get("to") or "anyone"
    if row.get("mine"):
        who, style = f"yours, to {to}", "dim"
    else:
        who = f"{row.get('by', '')} → " + ("you" if row.get("to") else "anyone")
        style = "bold" if row.get("to") else ""
    t.append(_col(who, 26 + more // 4) + " ", style=style)
    t.append(_cut(row.get("force", ""), 24 + more // 2), style="dim")
    return t


def finished_line(row: Row, width: int = WIDTH) -> Text:
    """A finished game: the ruleset, the opponent and the result."""
    more = _more(width)
    t = Text("  ")
    t.append(f"#{row['game']:<4} ")
    t.append(_col(row.get("title", ""), 14 + more // 4) + " ")
    t.append(_col(f"v {row.get('opponent', '')}", 15 + more // 4) + " ")
    t.append(_cut(row.get("result") or "game over", 40 + more // 2))
    return t


def watch_line(row: Row, width: int = WIDTH) -> Text:
    """A public game of others: its players, turn and whose move."""
    more = _more(width)
    t = Text("  ")
    t.append(f"#{row['game']:<4} ")
    t.append(_col(row.get("title", ""), 14 + more // 4) + " ")
    t.append(_col(row.get("opponent", ""), 29 + more // 2) + " ")
    t.append(_col(row.get("turn", ""), 13 + more // 4) + " ")
    t.append(_cut(f"{row.get('whose')} to move" if row.get("whose") else "", 14))
    return t


LINES = {"games": game_line, "challenges": challenge_line, "finished": finished_line,
         "watch": watch_line}


def row_id(section: str, row: Row) -> str:
    """The option id of a row: its section and its game or challenge number."""
    return f"{section}:{row['challenge'] if section == 'challenges' else row['game']}"


class LobbyScreen(Screen[None]):
    """The lobby; the app (:class:`deathzap_tui.club.lobby.LobbyApp`) does what its
    keys ask and calls :meth:`show` with every new ``lobby`` reply."""

    class OpenGame(Message):
        """Open ``game``: play it, watch it, or read its report."""

        def __init__(self, game: int) -> None:
            super().__init__()
            self.game = game

    class Accept(Message):
        """Accept ``challenge`` (the form asks for the force first)."""

        def __init__(self, challenge: Mapping[str, Any]) -> None:
            super().__init__()
            self.challenge = challenge

    class Decline(Message):
        """Decline ``challenge``, or withdraw it if it is this member's own."""

        def __init__(self, challenge: Mapping[str, Any]) -> None:
            super().__init__()
            self.challenge = challenge

    class SetPublic(Message):
        """Let others watch ``game`` (``public``), or not."""

        def __init__(self, game: int, public: bool) -> None:
            super().__init__()
            self.game = game
            self.public = public

    BINDINGS: ClassVar[list[Any]] = [
        Binding("enter,o", "open", "Open"),
        Binding("n", "app.new_game", "New game"),
        Binding("a", "accept", "Accept"),
        Binding("d", "decline", "Decline"),
        Binding("w", "watch", "Watch"),
        Binding("r", "report", "Report"),
        Binding("p", "public", "Public", show=False),
        Binding("f", "app.new_force", "New force", show=False),
        Binding("g", "app.refresh_lobby", "Refresh", show=False),
    ]

    def __init__(self, member: str) -> None:
        super().__init__()
        self.member = member
        self.rows: dict[str, tuple[str, Row]] = {}
        """option id -> (section, row) of what the list shows."""
        self.data: Mapping[str, Any] = {}
        """The ``lobby`` reply shown."""

    def compose(self) -> ComposeResult:
        yield Static(Text(f"Deathzap club — {clean(self.member, oneline=True)}",
                          style="bold"), classes="screen-title", id="lobby-title")
        yield OptionList(id="lobby-list", compact=True)
        yield Static(id="lobby-status")
        yield KeyBar()

    def on_mount(self) -> None:
        self.show({}, waiting=True)

    # --- what it shows ------------------------------------------------------------
    def show(self, data: Mapping[str, Any], *, waiting: bool = False) -> None:
        """Show a ``lobby`` reply, the cursor staying on the same row if it is still
        there (else on the first row there is)."""
        listing = self.query_one("#lobby-list", OptionList)
        was = self.selected_id()
        self.data = data
        width = listing.size.width or self.app.size.width
        options: list[Option] = []
        self.rows = {}
        for section, heading in SECTIONS:
            rows = list(data.get(section, ()))
            options.append(Option(Text(f"{heading} ({len(rows)})" if not waiting
                                       else heading, style="bold underline"),
                                  disabled=True))
            if not rows:
                options.append(Option(Text("  …" if waiting else "  none", style="dim"),
                                      disabled=True))
            for row in rows:
                oid = row_id(section, row)
                self.rows[oid] = (section, row)
                options.append(Option(LINES[section](row, width), id=oid))
        listing.set_options(options)
        ids = [o.id for o in options]
        target = was if was in self.rows else next(iter(self.rows), None)
        if target is not None:
            listing.highlighted = ids.index(target)
        listing.focus()

    def on_resize(self) -> None:
        if self.data:
            self.show(self.data)

    def say(self, text: str, *, error: bool = False) -> None:
        """One line under the list: what just happened, or what went wrong."""
        self.query_one("#lobby-status", Static).update(
            Text(clean(text, oneline=True), style="bold red" if error else ""))

    def selected_id(self) -> str | None:
        listing = self.query_one("#lobby-list", OptionList)
        if listing.highlighted is None or listing.highlighted >= listing.option_count:
            return None
        return listing.get_option_at_index(listing.highlighted).id

    def selected(self) -> tuple[str, Row] | tuple[None, None]:
        oid = self.selected_id()
        return self.rows.get(oid, (None, None)) if oid else (None, None)

    # --- keys -----------------------------------------------------------------------
    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_open()

    def action_open(self) -> None:
        """Open a game of yours, a finished one (its report) or a public one; on a
        challenge, accept it (your own: say how to withdraw it)."""
        section, row = self.selected()
        if section is None or row is None:
            self.say("Choose a game or a challenge first.")
        elif section == "challenges":
            self.action_accept()
        else:
            self.post_message(self.OpenGame(int(row["game"])))

    def action_accept(self) -> None:
        section, row = self.selected()
        if section != "challenges" or row is None:
            self.say("Accept: choose a challenge first.")
        elif row.get("mine"):
            self.say("That challenge is your own: d withdraws it.")
        else:
            self.post_message(self.Accept(row))

    def action_decline(self) -> None:
        section, row = self.selected()
        if section != "challenges" or row is None:
            self.say("Decline: choose a challenge first.")
        elif not row.get("mine") and not row.get("to"):
            self.say("An open challenge is declined by leaving it; only its maker "
                     "withdraws it.")
        else:
            self.post_message(self.Decline(row))

    def action_watch(self) -> None:
        section, row = self.selected()
        if section != "watch" or row is None:
            self.say("Watch: choose a public game under Watch first.")
        else:
            self.post_message(self.OpenGame(int(row["game"])))

    def action_report(self) -> None:
        section, row = self.selected()
        if section != "finished" or row is None:
            self.say("Report: choose a finished game first.")
        else:
            self.post_message(self.OpenGame(int(row["game"])))

    def action_public(self) -> None:
        section, row = self.selected()
        if section not in ("games", "finished") or row is None:
            self.say("Public: choose one of your games first.")
        else:
            self.post_message(self.SetPublic(int(row["game"]), not row.get("public")))

    def palette_commands(self) -> list[tuple[str, str, Any]]:
        """Everything the lobby's keys do, for the command palette."""
        app: Any = self.app
        return [
            ("Open", "Open the game under the cursor (or accept the challenge)",
             self.action_open),
            ("New game", "Challenge a member, or anyone", app.action_new_game),
            ("Accept", "Accept the challenge under the cursor", self.action_accept),
            ("Decline", "Decline (or withdraw) the challenge under the cursor",
             self.action_decline),
            ("Watch", "Watch the public game under the cursor", self.action_watch),
            ("Report", "The end-of-game report of the finished game under the cursor",
             self.action_report),
            ("Public / private", "Let others watch your game under the cursor, or not",
             self.action_public),
            ("New force", "Build a force in the editor and keep it in the club",
             app.action_new_force),
            ("Refresh", "Ask the club for the lobby again", app.action_refresh_lobby),
        ]

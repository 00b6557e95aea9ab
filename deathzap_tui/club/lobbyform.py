"""A new game, or accepting a challenge: the choices a member makes in the lobby.

A new game: the ruleset, the opponent (a member's name, or nobody for an open
challenge), the house rules (the start screen's own option fields), whether others
may watch, and your force. Accepting: only your force (the challenger chose the
rest). A force is a shipped one (the forces folder), one of your saved forces, or a
new one built in the force editor and kept in the club (ctrl+e): the club checks it
as ``deathzap check`` does and refuses one with errors, saying which.

The screen is dismissed with the hub request's fields (``challenge`` or ``accept``
without ``id``), or ``None``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Checkbox, Input, Label, Select, Static

from deathzap_tui.app.common.inputs import SteadyInput
from deathzap_tui.app.common.keybar import KeyBar
from deathzap_tui.app.common.text import clean
from deathzap_tui.app.start.start import option_widgets, read_options
from deathzap_tui.headless.forcelist import force_files, forces_for
from deathzap_tui.rules import registry
from deathzap_tui.rules.ruleset import OptionSpec


def force_choices(ruleset_id: str, saved: Sequence[Mapping[str, str]]) -> list[tuple[str, str]]:
    """(value, label) for every force of the ruleset a member may play: the shipped
    ones (``shipped:ID``) and their saved ones (``saved:NAME``)."""
    out = [(f"shipped:{p.stem}", f"{p.stem} (shipped)")
           for p in forces_for(force_files(), ruleset_id)]
    out += [(f"saved:{f['name']}", f"{clean(f['name'], oneline=True)} (yours)")
            for f in saved if f.get("ruleset") == ruleset_id]
    return out


def force_spec(value: str) -> dict[str, str]:
    """The hub's ForceSpec for a :func:`force_choices` value."""
    kind, _, name = value.partition(":")
    return {kind: name}


class GameFormScreen(ModalScreen[dict[str, Any] | None]):
    """A new challenge (``challenge`` is ``None``) or the force to accept one with."""

    BINDINGS: ClassVar[list[Any]] = [
        Binding("ctrl+s", "done", "Challenge / accept", priority=True),
        Binding("ctrl+e", "build", "Build a force", priority=True),
        Binding("escape", "cancel", "Back"),
    ]

    def __init__(self, saved: Sequence[Mapping[str, str]],
                 challenge: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        self.saved = list(saved)
        self.challenge = challenge
        ids = registry.ids()
        self.ruleset_id = challenge["ruleset"] if challenge is not None else \
            registry.DEFAULT if registry.DEFAULT in ids else ids[0]
        self.option_specs: tuple[OptionSpec, ...] = ()

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            if self.challenge is None:
                yield Label(Text("New game", style="bold underline"))
                with Horizontal(classes="row"):
                    yield Label("Ruleset", classes="row-label")
                    yield Select([(Text(clean(registry.get(i).title, oneline=True)), i)
                                  for i in registry.ids()], value=self.ruleset_id,
                                 allow_blank=False, id="form-ruleset", compact=True,
                                 classes="row-field")
                with Horizontal(classes="row"):
                    yield Label("Opponent", classes="row-label")
                    yield SteadyInput("", placeholder="a member's name; empty: anyone",
                                      id="form-opponent", compact=True, classes="row-field")
                yield from self._force_row()
                with Horizontal(classes="row"):
                    yield Label("Others may watch", classes="row-label")
                    yield Checkbox("", value=False, id="form-public", compact=True)
                specs, widgets = option_widgets(self.ruleset_id)
                self.option_specs = specs
                yield Label(Text("House rules", style="bold underline"))
                yield Vertical(*widgets, id="form-options")
            else:
                c = self.challenge
                yield Label(Text(f"Accept challenge c{c['challenge']}", style="bold underline"))
                yield Static(Text(f"{clean(c.get('title', ''), oneline=True)} against "
                                  f"{clean(c.get('by', ''), oneline=True)} "
                                  f"({clean(c.get('force', ''), oneline=True)}); sides are "
                                  "drawn when you accept."))
                yield from self._force_row()
            yield Static(id="form-problems")
        yield KeyBar()

    def _force_row(self) -> ComposeResult:
        with Horizontal(classes="row"):
            yield Label("Your force", classes="row-label")
            yield Select(self._choices(), prompt="choose a force", id="form-force",
                         compact=True, classes="row-field")
        yield Static("ctrl+e: build a new force in the editor (kept in the club)",
                     classes="hint")

    def _choices(self) -> list[tuple[Text, str]]:
        return [(Text(label), value) for value, label in
                force_choices(self.ruleset_id, self.saved)]

    def on_mount(self) -> None:
        """Focus the first thing to choose: the opponent, or (accepting) the force."""
        first = "#form-force" if self.challenge is not None else "#form-opponent"
        self.query_one(first).focus()

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "form-ruleset" and isinstance(event.value, str) \
                and event.value != self.ruleset_id:
            self.ruleset_id = event.value
            self.option_specs, widgets = option_widgets(event.value)
            box = self.query_one("#form-options", Vertical)
            box.remove_children()
            box.mount_all(widgets)
            self.query_one("#form-force", Select).set_options(self._choices())

    # --- a force built here ---------------------------------------------------------
    class BuildForce(Message):
        """Build a new force of ``ruleset_id`` in the editor and keep it in the club;
        ``done(row)`` with the kept force, or ``done(None, problems)``."""

        def __init__(self, ruleset_id: str, done: Callable[..., None]) -> None:
            super().__init__()
            self.ruleset_id = ruleset_id
            self.done = done

    def action_build(self) -> None:
        self.post_message(self.BuildForce(self.ruleset_id, self.force_saved))

    def force_saved(self, row: Mapping[str, str] | None, problems: Sequence[str] = ()) -> None:
        """The editor's force as the club kept it (chosen here), or why it was not."""
        if row is None:
            if problems:
                self.problem("\n".join(problems))
            return
        self.saved = [f for f in self.saved if f["name"] != row["name"]] + [dict(row)]
        select = self.query_one("#form-force", Select)
        select.set_options(self._choices())
        if row.get("ruleset") == self.ruleset_id:
            select.value = f"saved:{row['name']}"
        self.problem("")

    # --- done ---------------------------------------------------------------------------
    def problem(self, text: str) -> None:
        self.query_one("#form-problems", Static).update(Text(clean(text)))

    def action_done(self) -> None:
        force = self.query_one("#form-force", Select).value
        problems: list[str] = []
        if not isinstance(force, str):
            problems.append("choose your force (or build one: ctrl+e)")
        if self.challenge is not None:
            if problems:
                self.problem("; ".join(problems))
                return
            self.dismiss({"challenge": int(self.challenge["challenge"]),
                          "force": force_spec(str(force))})
            return
        options, wrong = read_options(self, self.option_specs)
        problems += wrong
        if problems:
            self.problem("; ".join(problems))
            return
        self.dismiss({"ruleset": self.ruleset_id,
                      "opponent": self.query_one("#form-opponent", Input).value.strip(),
                      "options": options, "force": force_spec(str(force)),
                      "public": self.query_one("#form-public", Checkbox).value})

    def action_cancel(self) -> None:
        self.dismiss(None)

    def palette_commands(self) -> list[tuple[str, str, Any]]:
        """The form's keys, for the command palette."""
        done = "Challenge" if self.challenge is None else "Accept"
        return [(done, "With the choices made here", self.action_done),
                ("Build a force", "In the force editor; kept in the club under your name",
                 self.action_build),
                ("Back to the lobby", "Without making or accepting a challenge",
                 self.action_cancel)]

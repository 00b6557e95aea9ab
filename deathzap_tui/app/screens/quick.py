"""Quick resolve: one shooting attack, melee or morale test between any two units of
any forces, outside a game and without a save, through the same wizard.

The app holds no rules, so this needs the ruleset to offer a standalone resolution.
The ruleset decides what can be resolved (``Ruleset.quick_kinds``) and builds the
resolution (``Ruleset.quick_resolution``); a ruleset that offers none says so.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Label, Select, Static

from deathzap_tui.app.screens.start import shown_path
from deathzap_tui.app.text import clean
from deathzap_tui.app.widgets.inputs import SteadyInput
from deathzap_tui.app.widgets.keybar import KeyBar
from deathzap_tui.paths import forces_dir
from deathzap_tui.rules.steps import Refused


def split_ref(ref: str) -> tuple[str, str]:
    """``FILE:UNIT`` -> (file, unit); the unit is a name or a 1-based number."""
    path, sep, unit = ref.rpartition(":")
    return (path, unit) if sep and path else (ref, "")


class QuickResolveScreen(Screen[None]):
    BINDINGS: ClassVar[list[Any]] = [
        Binding("ctrl+s", "resolve", "Resolve", priority=True),
        Binding("escape", "leave", "Back"),
    ]
    DEFAULT_CSS = """
    QuickResolveScreen #quick-body { height: 1fr; padding: 0 1; }
    QuickResolveScreen .row { height: 1; }
    QuickResolveScreen .row-label { width: 18; }
    QuickResolveScreen .row-field { width: 1fr; }
    QuickResolveScreen #quick-result { height: auto; margin: 1 0 0 0; }
    """

    def __init__(self, *, attacker: str = "", target: str = "") -> None:
        super().__init__()
        self.refs = {"attacker": split_ref(attacker), "target": split_ref(target)}
        self.forces: dict[str, Any] = {}

    def compose(self) -> ComposeResult:
        files = sorted(forces_dir().glob("*.toml")) if forces_dir().is_dir() else []
        yield Static("Quick resolve — one attack or test, no game, no save",
                     classes="screen-title")
        with VerticalScroll(id="quick-body"):
            for role in ("attacker", "target"):
                path, _unit = self.refs[role]
                with Horizontal(classes="row"):
                    yield Label(Text(f"{role.capitalize()} force", style="bold"),
                                classes="row-label")
                    default = shown_path(files[0]) if files else ""
                    yield SteadyInput(path or default,
                                      placeholder="path/to/force.toml", id=f"{role}-file",
                                      compact=True, classes="row-field")
                with Horizontal(classes="row"):
                    yield Label(f"{role.capitalize()} unit", classes="row-label")
                    yield Select([], id=f"{role}-unit", compact=True, classes="row-field",
                                 prompt="load the force first")
            with Horizontal(classes="row"):
                yield Label("Resolve", classes="row-label")
                yield Select([], id="kind", compact=True, classes="row-field",
                             prompt="(the ruleset offers no quick resolution)")
            with Horizontal(classes="row"):
                yield Label("Seed", classes="row-label")
                yield SteadyInput("1", type="integer", id="seed", compact=True,
                                  classes="row-field")
            yield Button("Resolve (ctrl+s)", id="go", compact=True)
            yield Static(id="quick-result")
        yield KeyBar()

    def on_mount(self) -> None:
        for role in ("attacker", "target"):
            self._load(role)
        kinds = self._ruleset().quick_kinds()
        select = self.query_one("#kind", Select)
        select.set_options([(Text(clean(label, oneline=True)), kind) for kind, label in kinds])
        if kinds:
            select.value = kinds[0][0]

    def _ruleset(self) -> Any:
        loaded = self.forces.get("attacker") or self.forces.get("target")
        if loaded is not None:
            return loaded.ruleset
        from deathzap_tui.rules import registry

        return registry.get()

    def _load(self, role: str) -> None:
        raw = self.query_one(f"#{role}-file", SteadyInput).value.strip()
        select = self.query_one(f"#{role}-unit", Select)
        if not raw:
            return
        try:
            from deathzap_tui.forcefile import load_force

            loaded = load_force(Path(raw).expanduser())
        except Exception as exc:  # InvalidInput, OSError
            self._say(Text(clean(str(exc)), style="red"))
            return
        self.forces[role] = loaded
        units = list(getattr(loaded.force, "units", ()))
        select.set_options([(Text(f"{i + 1}. {clean(getattr(u, 'name', ''), oneline=True)}"),
                             i) for i, u in enumerate(units)])
        wanted = self.refs[role][1]
        for i, u in enumerate(units):
            if wanted and (wanted == str(i + 1) or wanted.lower() == str(u.name).lower()):
                select.value = i
                break
        else:
            if units:
                select.value = 0

    def on_input_submitted(self, event: SteadyInput.Submitted) -> None:
        if event.input.id in ("attacker-file", "target-file"):
            self._load(event.input.id.removesuffix("-file"))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "go":
            self.action_resolve()

    def _say(self, text: Text) -> None:
        self.query_one("#quick-result", Static).update(text)

    def action_leave(self) -> None:
        if len(self.app.screen_stack) > 2:
            self.app.pop_screen()
        else:
            self.app.action_start_screen()  # type: ignore[attr-defined]

    def action_resolve(self) -> None:
        ruleset = self._ruleset()
        if not ruleset.quick_kinds():
            self._say(Text(f"{clean(ruleset.title, oneline=True)} offers no quick "
                           "resolution.", style="bold"))
            return
        picks = {}
        for role in ("attacker", "target"):
            unit = self.query_one(f"#{role}-unit", Select).value
            loaded = self.forces.get(role)
            picks[role] = (loaded.force, unit) if loaded and isinstance(unit, int) else None
        kind = self.query_one("#kind", Select).value
        try:
            seed = int(self.query_one("#seed", SteadyInput).value or "1")
            resolution = ruleset.quick_resolution(kind, picks["attacker"],
                                                  picks["target"], seed)
        except (Refused, ValueError) as exc:
            self._say(Text(clean(str(exc)), style="red"))
            return
        from deathzap_tui.app.screens.wizard import WizardScreen

        def done(result: Any) -> None:
            if result is None:
                self._say(Text("Cancelled."))
                return
            out = Text("Result\n", style="bold underline")
            for note in resolution.ctx.notes:
                out.append(clean(note.text) + "\n")
            self._say(out)

        self.app.push_screen(
            WizardScreen(title="Quick resolve", begin=lambda intent: (None, resolution),
                         started=(True, resolution), intent_label=str(kind),
                         ruleset=ruleset,
                         dice_mode=self.app.dice_mode),  # type: ignore[attr-defined]
            done)

"""Quick resolve: one attack or test (each ruleset's kinds: shooting, melee, special
combat, grenades, morale and quality tests...) between any two units of any forces,
outside a game and without a save, through the same wizard and its odds panel.

The app holds no rules, so this needs the ruleset to offer a standalone resolution.
The ruleset decides what can be resolved (``Ruleset.quick_kinds``) and builds the
resolution (``Ruleset.quick_resolution``, a plugin's ``quick`` part); a ruleset that
offers none says so. The wizard names the two units of the resolution's state (the
acting ``red.0`` and the other ``black.0``, :mod:`deathzap_tui.rules.quick`) by their
names. The result is shown above the form, its end in sight at 80x24.

Each unit comes from a force file or is typed in: a text area, prefilled with a
one-unit force in the chosen ruleset's force-file shape (:mod:`..templates`), read
with :func:`~deathzap_tui.forcefile.force_from_text` as a file would be. Problems are
listed with their line and path under the text, which is never changed by a failed
read.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Button, Label, Select, Static, TextArea

from deathzap_tui.app.common.inputs import SteadyInput
from deathzap_tui.app.common.keybar import KeyBar
from deathzap_tui.app.common.log import TailLog
from deathzap_tui.app.common.messages import OpenStart
from deathzap_tui.app.common.text import clean
from deathzap_tui.app.wizard.wizard import WizardScreen
from deathzap_tui.forcefile import force_from_text, load_force
from deathzap_tui.headless.forcelist import pair_for, shown_path
from deathzap_tui.headless.templates import template
from deathzap_tui.paths import forces_dir
from deathzap_tui.rules import registry
from deathzap_tui.rules.problems import InvalidInput
from deathzap_tui.rules.quick import ACTING, OTHER
from deathzap_tui.rules.steps import Refused

ROLES = ("attacker", "target")
FILE = "file"
TYPED = "type:"
"""Source values: ``"file"``, or ``"type:<ruleset id>"`` for a typed unit."""
READ_DELAY = 0.4
"""Seconds of no typing before a typed unit is read again (resolving reads at once)."""


def split_ref(ref: str) -> tuple[str, str]:
    """``FILE:UNIT`` -> (file, unit); the unit is a name or a 1-based number."""
    path, sep, unit = ref.rpartition(":")
    return (path, unit) if sep and path else (ref, "")


def typed_label(role: str) -> str:
    """The source name of a typed unit, as its problems are located."""
    return f"<typed {role}>"


def default_forces() -> tuple[Path | None, Path | None]:
    """The attacker's and target's force files to open on: two files (one if there is
    only one) of a ruleset that offers quick resolution, the default ruleset first."""
    files = sorted(forces_dir().glob("*.toml")) if forces_dir().is_dir() else []
    ids = sorted(registry.ids(), key=lambda rid: rid != registry.DEFAULT)
    for rid in ids:
        attacker, target = pair_for(files, rid)
        if attacker is not None and registry.get(rid).quick_kinds():
            return attacker, target or attacker
    return None, None


class Result(TailLog):
    """The narration of the last resolution: the end, in whole lines."""

    WHOLE = True


class QuickResolveScreen(Screen[None]):
    BINDINGS: ClassVar[list[Any]] = [
        Binding("ctrl+s", "resolve", "Resolve", priority=True),
        Binding("escape", "leave", "Back"),
    ]

    def __init__(self, *, attacker: str = "", target: str = "") -> None:
        super().__init__()
        self.refs = {"attacker": split_ref(attacker), "target": split_ref(target)}
        self.forces: dict[str, Any] = {}
        self.sources = dict.fromkeys(ROLES, FILE)
        self._pending: dict[str, Timer] = {}
        self._kinds_of = ""
        self._templated: dict[str, str] = {}
        """role -> the template last put in its text area (replaced only if untouched)"""

    def compose(self) -> ComposeResult:
        defaults = default_forces()
        sources: list[tuple[Any, str]] = [(Text("a force file"), FILE)]
        sources += [(Text(f"a unit typed in ({clean(registry.get(rid).title, oneline=True)})"),
                      TYPED + rid) for rid in registry.ids() if registry.get(rid).quick_kinds()]
        yield Static("Quick resolve — one attack or test, no game, no save",
                     classes="screen-title")
        # Above the form, so that they are seen at once whatever the form's scroll: a
        # message, and the last result (its tail when it is taller than the room).
        yield Static(id="quick-message")
        yield Result(id="quick-result")
        with VerticalScroll(id="quick-body"):
            for role in ROLES:
                path, _unit = self.refs[role]
                with Horizontal(classes="row"):
                    yield Label(Text(f"{role.capitalize()} from", style="bold"),
                                classes="row-label")
                    yield Select(sources, id=f"{role}-source", compact=True,
                                 classes="row-field", allow_blank=False, value=FILE)
                with Horizontal(classes="row", id=f"{role}-file-row"):
                    yield Label(f"{role.capitalize()} force", classes="row-label")
                    yield SteadyInput(path or shown_path(defaults[ROLES.index(role)]),
                                      placeholder="path/to/force.toml", id=f"{role}-file",
                                      compact=True, classes="row-field")
                area = TextArea(id=f"{role}-text", classes="typed", compact=True,
                                show_line_numbers=True, soft_wrap=False)
                area.display = False
                yield area
                problems = Static(id=f"{role}-problems", classes="problems")
                problems.display = False
                yield problems
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
        yield KeyBar()

    def on_mount(self) -> None:
        for role in ROLES:
            self.query_one(f"#{role}-text", TextArea).cursor_blink = False
            self._load(role)
        self._refresh_kinds()

    def _ruleset(self) -> Any:
        loaded = self.forces.get("attacker") or self.forces.get("target")
        if loaded is not None:
            return loaded.ruleset
        return registry.get()

    def _refresh_kinds(self) -> None:
        """Offer the kinds of the ruleset in use, when that ruleset changes."""
        ruleset = self._ruleset()
        if ruleset.id == self._kinds_of:
            return
        self._kinds_of = ruleset.id
        kinds = ruleset.quick_kinds()
        select = self.query_one("#kind", Select)
        select.set_options([(Text(clean(label, oneline=True)), kind) for kind, label in kinds])
        if kinds:
            select.value = kinds[0][0]

    def _offer_units(self, role: str, loaded: Any) -> None:
        self.forces[role] = loaded
        select = self.query_one(f"#{role}-unit", Select)
        units = list(getattr(loaded.force, "units", ()))
        select.set_options([(Text(f"{i + 1}. {clean(getattr(u, 'name', ''), oneline=True)}"),
                             i) for i, u in enumerate(units)])
        wanted = self.refs[role][1] if self.sources[role] == FILE else ""
        for i, u in enumerate(units):
            if wanted and (wanted == str(i + 1) or wanted.lower() == str(u.name).lower()):
                select.value = i
                break
        else:
            if units:
                select.value = 0
        self._refresh_kinds()

    def _forget(self, role: str, prompt: str) -> None:
        self.forces.pop(role, None)
        select = self.query_one(f"#{role}-unit", Select)
        select.set_options([])
        select.prompt = prompt

    def _load(self, role: str) -> None:
        raw = self.query_one(f"#{role}-file", SteadyInput).value.strip()
        if not raw:
            return
        try:
            loaded = load_force(Path(raw).expanduser())
        except Exception as exc:  # InvalidInput, OSError
            self._say(Text(clean(str(exc)), style="red"))
            return
        self._offer_units(role, loaded)

    # --- typed units -------------------------------------------------------------

    def _use_source(self, role: str, source: str) -> None:
        if source == self.sources[role]:
            return
        self.sources[role] = source
        typed = source.startswith(TYPED)
        area = self.query_one(f"#{role}-text", TextArea)
        self.query_one(f"#{role}-file-row").display = not typed
        area.display = typed
        self.query_one(f"#{role}-problems").display = typed
        self._forget(role, "fix the typed unit first" if typed else "load the force first")
        if not typed:
            self._cancel_read(role)
            self._load(role)
            self._refresh_kinds()
            return
        # Never replace what the player typed: only blank text or an untouched
        # template (of another ruleset) gives way to this ruleset's template.
        if area.text.strip() == "" or area.text == self._templated.get(role):
            self._templated[role] = template(source.removeprefix(TYPED))
            area.load_text(self._templated[role])
        self._read(role)
        area.focus()

    def _read(self, role: str) -> bool:
        """Read the typed text of ``role``; True if it is a valid force."""
        self._cancel_read(role)
        text = self.query_one(f"#{role}-text", TextArea).text
        try:
            loaded = force_from_text(text, typed_label(role))
        except InvalidInput as exc:
            shown = Text()
            count = len(exc.problems)
            shown.append(f"{count} problem{'s' if count != 1 else ''} in the typed "
                         f"{role} (the text is kept; fix it and it is read again):\n",
                         style="bold red")
            for problem in exc.problems:
                shown.append(clean(problem.located(), oneline=True) + "\n", style="red")
            self._show_problems(role, shown)
            self._forget(role, "fix the typed unit first")
            self._refresh_kinds()
            return False
        units = list(getattr(loaded.force, "units", ()))
        shown = Text(f"Read: {len(units)} unit{'s' if len(units) != 1 else ''}.",
                     style="green")
        for warning in loaded.warnings:
            shown.append("\n" + clean(warning.located(), oneline=True), style="yellow")
        self._show_problems(role, shown)
        self._offer_units(role, loaded)
        return True

    def _show_problems(self, role: str, text: Text) -> None:
        text.rstrip()
        self.query_one(f"#{role}-problems", Static).update(text)

    def _cancel_read(self, role: str) -> None:
        timer = self._pending.pop(role, None)
        if timer is not None:
            timer.stop()

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        role = (event.text_area.id or "").removesuffix("-text")
        if role not in ROLES or not self.sources[role].startswith(TYPED):
            return
        self._cancel_read(role)
        self._pending[role] = self.set_timer(READ_DELAY, lambda: self._read(role))

    def on_select_changed(self, event: Select.Changed) -> None:
        select_id = event.select.id or ""
        if select_id.endswith("-source") and isinstance(event.value, str):
            self._use_source(select_id.removesuffix("-source"), event.value)

    # --- the rest ------------------------------------------------------------------

    def on_input_submitted(self, event: SteadyInput.Submitted) -> None:
        if event.input.id in ("attacker-file", "target-file"):
            self._load(event.input.id.removesuffix("-file"))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "go":
            self.action_resolve()

    def _say(self, text: Text) -> None:
        """A message above the form (the last result stays)."""
        self.query_one("#quick-message", Static).update(text)

    def _show_result(self, title: str, lines: list[str]) -> None:
        """The result of the last resolution above the form, which gives it the room."""
        result = self.query_one("#quick-result", Result)
        result.border_title = title
        result.set_lines(Text(clean(line)) for line in lines)
        self.add_class("-result")
        self._say(Text())

    def action_leave(self) -> None:
        if isinstance(self.focused, TextArea):  # the first escape only leaves the text
            self.focus_next()
            return
        if len(self.app.screen_stack) > 2:
            self.app.pop_screen()
        else:
            self.post_message(OpenStart())

    def action_resolve(self) -> None:
        for role in ROLES:
            if self.sources[role].startswith(TYPED) and (
                    role in self._pending or role not in self.forces) and not self._read(role):
                self._say(Text(f"The typed {role} has problems: see under its text.",
                               style="red"))
                self.query_one(f"#{role}-text", TextArea).focus()
                return
        ruleset = self._ruleset()
        if not ruleset.quick_kinds():
            self._say(Text(f"{clean(ruleset.title, oneline=True)} offers no quick "
                           "resolution.", style="bold"))
            return
        picks = {}
        for role in ROLES:
            unit = self.query_one(f"#{role}-unit", Select).value
            loaded = self.forces.get(role)
            picks[role] = (loaded.force, unit) if loaded and isinstance(unit, int) else None
        kind = self.query_one("#kind", Select).value
        other = self.forces.get("target")
        if picks["target"] is not None and other is not None and other.ruleset.id != ruleset.id:
            self._say(Text(f"The attacker follows {clean(ruleset.title, oneline=True)}, "
                           f"the target {clean(other.ruleset.title, oneline=True)}: pick "
                           "units of one ruleset.", style="red"))
            return
        try:
            seed = int(self.query_one("#seed", SteadyInput).value or "1")
            resolution = ruleset.quick_resolution(kind, picks["attacker"],
                                                  picks["target"], seed)
        except (Refused, ValueError) as exc:
            self._say(Text(clean(str(exc)), style="red"))
            return
        def done(result: Any) -> None:
            if result is None:
                self._say(Text("Cancelled."))
                return
            self._show_result(f"Result: {label}", [n.text for n in resolution.ctx.notes])

        label = clean(dict(ruleset.quick_kinds()).get(kind, str(kind)), oneline=True)
        state = resolution.ctx.state
        self.app.push_screen(
            WizardScreen(title="Quick resolve", begin=lambda intent: (None, resolution),
                         started=(True, resolution), intent_label=label,
                         unit_names={u: state.unit(u).name for u in (ACTING, OTHER)},
                         ruleset=ruleset, records=False,
                         dice_mode=self.app.dice_mode),  # type: ignore[attr-defined]
            done)

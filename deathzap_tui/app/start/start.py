"""Start: a new game (ruleset, forces, house rules, seed, dice mode) or resume a save."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import Button, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from deathzap_tui import forcesummary
from deathzap_tui.app.common.dropdown import Dropdown
from deathzap_tui.app.common.formrow import FormRow
from deathzap_tui.app.common.inputs import SteadyInput
from deathzap_tui.app.common.keybar import KeyBar
from deathzap_tui.app.common.messages import (
    DiceMode,
    Hold,
    OpenBattle,
    OpenQuickResolve,
    OpenSetup,
)
from deathzap_tui.app.common.text import clean
from deathzap_tui.app.frames import (
    HeldFrameScreen,
    OneFrameScreen,
    SteadyOptionList,
    SteadySize,
    SteadyStyles,
)
from deathzap_tui.forcesummary import ForceSummary
from deathzap_tui.headless.flow import GamePlan, new_session, quick_setup, writer_lock
from deathzap_tui.headless.forcelist import (
    force_files,
    forces_for,
    pair_for,
    ruleset_of,
    shown_path,
)
from deathzap_tui.paths import forces_dir, saves_dir
from deathzap_tui.rules import registry
from deathzap_tui.rules.narration import plural
from deathzap_tui.rules.problems import InvalidInput
from deathzap_tui.rules.ruleset import OptionSpec

NEW_FORCE = "new"
"""The edit list's entry for a new force file."""

STATES_WAIT = 0.1
"""Seconds the resume list waits for its saves' states before it is shown without."""


def option_widgets(ruleset_id: str) -> tuple[tuple[OptionSpec, ...], list[Widget]]:
    """The ruleset's house rules (its :class:`OptionSpec` list) and a labelled field
    for each (``#opt-KEY``), read back by :func:`read_options`; shared by the start
    screen and the club's new-game screen."""
    try:
        specs = registry.get(ruleset_id).option_specs()
    except Exception as exc:  # an unfinished ruleset must not stop the app
        return (), [Static(Text(f"(options unavailable: {clean(exc, oneline=True)})"))]
    widgets: list[Widget] = []
    for spec in specs:
        if spec.choices:
            field: Widget = Dropdown([(Text(clean(c, oneline=True)), c) for c in spec.choices],
                                   value=spec.default, allow_blank=False,
                                   id=f"opt-{spec.key}", classes="row-field", compact=True)
        else:
            field = SteadyInput(str(spec.default), type="integer", id=f"opt-{spec.key}",
                                classes="row-field", compact=True)
        row = FormRow(Text(f"{clean(spec.label, oneline=True)}"
                           + (f" ({spec.rule})" if spec.rule else "")), field)
        row.tooltip = clean(spec.help)
        widgets.append(row)
    return specs, widgets


def read_options(screen: Widget, specs: tuple[OptionSpec, ...]) -> tuple[dict[str, Any],
                                                                        list[str]]:
    """The options the fields of :func:`option_widgets` on ``screen`` hold, and what
    is wrong with them ("Turns: a whole number")."""
    options: dict[str, Any] = {}
    problems: list[str] = []
    for spec in specs:
        field = screen.query_one(f"#opt-{spec.key}")
        if isinstance(field, Select):
            options[spec.key] = field.value
        elif isinstance(field, Input):
            try:
                options[spec.key] = int(field.value.strip())
            except ValueError:
                problems.append(f"{spec.label}: a whole number")
    return options, problems


def save_text(info: Any, width: int, state: tuple[str, str] | None = None) -> Text:
    """A save in the resume list, ``width`` columns wide: the players; the ruleset
    and how the game stands (``state``: the ruleset's title and "in progress: ..." or
    "finished: <result>", once read); the save's name and events. Lines wrap between
    words, never inside one; a word longer than the list is cut with an ellipsis
    (issue 22)."""
    lines = [(f"{clean(info.red, oneline=True)} vs {clean(info.black, oneline=True)}", "")]
    if info.problem:
        lines.append((clean(info.problem, oneline=True), "red"))
    else:
        title, now = state or (info.ruleset, "")
        lines.append((clean(title, oneline=True), "bold"))
        if now:
            lines.append((clean(now, oneline=True),
                          "green" if now.startswith("finished") else ""))
    lines.append((f"{clean(info.path.stem, oneline=True)} · {plural(info.events, 'event')}",
                  "dim"))
    text = Text()
    for n, (line, style) in enumerate(lines):
        indent = "  " if n else ""
        for row in textwrap.wrap(line, max(8, width), initial_indent=indent,
                                 subsequent_indent=indent + "  ", break_long_words=False,
                                 break_on_hyphens=False):
            cut = Text(row, style=style)
            cut.truncate(max(8, width), overflow="ellipsis")
            text.append_text(Text("\n") + cut if text else cut)
    return text


class Heading(SteadySize, Label):
    """A part's heading, laid out once (:class:`~deathzap_tui.app.frames.SteadySize`)."""


class Column(SteadySize, Vertical):
    """A column that never scrolls, laid out once per change (``SteadySize``)."""


def _has_saves() -> bool:
    """Whether the saves folder holds a save (its names only: each is read later)."""
    try:
        return any(saves_dir().glob("*.toml"))
    except OSError:
        return False


def _no_saves() -> Option:
    return Option(Text("no saves yet", style="dim"), disabled=True)


class StartScreen(HeldFrameScreen, SteadyStyles, OneFrameScreen[None]):
    AUTO_FOCUS = "#ruleset"
    START_STYLES_ONLY: ClassVar[bool] = True
    """Styled by ``styles.START_STYLES`` alone: the app opening on it reads the other
    sheets only when it shows another screen (``DeathzapApp.read_all_styles``)."""
    BINDINGS: ClassVar[list[Any]] = [
        Binding("ctrl+s", "start(False)", "Start with set-up", priority=True),
        Binding("ctrl+g", "start(True)", "Quick start", priority=True),
        Binding("ctrl+o", "app.quick_resolve", "Quick resolve", priority=True),
        Binding("ctrl+e", "edit_force", "Edit a force", priority=True),
    ]

    def __init__(self, *, red: Path | None = None, black: Path | None = None,
                 seed: int = 1) -> None:
        super().__init__()
        self.files = force_files()
        if red is None and black is None:  # the default ruleset's first two (the demos)
            red, black = pair_for(self.files, registry.DEFAULT)
        self.red, self.black, self.seed = red, black, seed
        self.ruleset_id = ruleset_of(red) if ruleset_of(red) in registry.ids() \
            else registry.DEFAULT
        self.option_specs: tuple[OptionSpec, ...] = ()
        self.saves: list[Any] = []
        self.has_saves = _has_saves()
        """Whether the saves folder has any save to list (else the first frame says so)."""
        self.saves_pending = False
        """The saves are being read (and their states) for the first frame."""
        self.saves_size = Size(0, 0)
        """The size of the resume list's content when it was last filled (its lines
        wrap to its width)."""
        self.save_states: dict[Path, tuple[str, str]] = {}
        """Each save's ruleset title and how its game stands, once read (a thread)."""

    def compose(self) -> ComposeResult:
        yield Static("Deathzap — new game or resume", classes="screen-title")
        with Horizontal(id="start-main"):
            # The form scrolls with the focus; it never holds the focus itself (where
            # Enter does nothing, issue 22): the ruleset is focused first.
            with VerticalScroll(id="new-game", can_focus=False):
                yield Heading(Text("New game", style="bold underline"))
                yield FormRow("Ruleset", Dropdown(
                    [(Text(i), i) for i in registry.ids()], value=self.ruleset_id,
                    allow_blank=False, id="ruleset", compact=True, classes="row-field"))
                listed = forces_for(self.files, self.ruleset_id)
                for side, path in (("red", self.red), ("black", self.black)):
                    # A force of another ruleset (given on the command line) stays
                    # in the path field, unpicked: starting says what is wrong.
                    yield FormRow(Text(f"{side.upper()} force", style="bold"), Dropdown(
                        [(Text(p.stem), str(p)) for p in listed], prompt="pick from forces/",
                        id=f"{side}-pick", value=str(path) if path in listed else Select.NULL,
                        compact=True, classes="row-field"))
                    yield FormRow("  or any path", SteadyInput(
                        shown_path(path), placeholder="path/to/force.toml", id=f"{side}-path",
                        compact=True, classes="row-field"))
                    yield Static(id=f"{side}-about", classes="hint about")
                yield FormRow("Seed", SteadyInput(str(self.seed), type="integer", id="seed",
                                                  compact=True, classes="row-field"))
                yield FormRow("Dice", Dropdown(
                    [(Text("physical (typed in)"), "physical"),
                     (Text("generated (the app rolls)"), "generated")],
                    value=self.app.dice_mode, allow_blank=False,  # type: ignore[attr-defined]
                    id="dice", compact=True, classes="row-field"))
                yield Heading(Text("House rules", style="bold underline"))
                yield Column(*self._option_widgets(self.ruleset_id), id="options")
                yield Static(id="problems", classes="error")
                with Horizontal(id="start-buttons"):
                    yield Button("Start (set-up)", id="start", variant="primary", compact=True)
                    yield Button("Quick start", id="quick", compact=True)
            with Column(id="resume"):
                yield Heading(Text("Resume a save", style="bold underline"))
                yield SteadyOptionList(*([] if self.has_saves else [_no_saves()]),
                                       id="saves", compact=True)
                yield Button("Quick resolve", id="quick-resolve", compact=True)
        yield KeyBar()

    def on_mount(self) -> None:
        # The forces are described in the first frame (reading two small files costs
        # less than drawing the screen twice; from what an earlier start kept of them,
        # forcesummary, when they are unchanged); the saves are read in a thread, which
        # the first frame waits for a few ticks at most (OneFrameScreen.MAX_WAITS):
        # a few saves are in it, many come after it.
        self._describe_forces()
        if self.has_saves:
            self.saves_pending = True
            self._load_saves()

    def _requests_in_flight(self) -> bool:
        return self.saves_pending or super()._requests_in_flight()

    # --- the form -------------------------------------------------------------
    def _build_options(self, ruleset_id: str) -> None:
        box = self.query_one("#options", Vertical)
        box.remove_children()
        box.mount_all(self._option_widgets(ruleset_id))

    def _offer_forces(self, ruleset_id: str) -> None:
        """List the chosen ruleset's force files; pick two of them unless the forces
        already chosen belong to it."""
        if ruleset_id == self.ruleset_id:
            return
        self.ruleset_id = ruleset_id
        chosen = [Path(raw).expanduser() if (raw := self.query_one(f"#{side}-path",
                                                                  Input).value.strip())
                  else None for side in ("red", "black")]
        files = forces_for(self.files, ruleset_id)
        picks = pair_for(files, ruleset_id, (chosen[0], chosen[1]))
        for side, pick in zip(("red", "black"), picks, strict=True):
            select = self.query_one(f"#{side}-pick", Select)
            select.set_options([(Text(p.stem), str(p)) for p in files])
            listed = [p for p in files if pick is not None and p.resolve() == pick.resolve()]
            if listed:
                select.value = str(listed[0])
            self.query_one(f"#{side}-path", Input).value = shown_path(pick)
            self._describe(side)

    def _option_widgets(self, ruleset_id: str) -> list[Widget]:
        self.option_specs, widgets = option_widgets(ruleset_id)
        return widgets

    @work(thread=True, exclusive=True, group="list-saves", exit_on_error=False)
    def _load_saves(self) -> None:
        """List the saves and how each game stands, in a thread (issue 21): from each
        save's summary, or, for a save without a good one, from the save itself and
        its game loaded. The list and the states are shown in one frame when the
        states come quickly, the list first when they take longer than
        :data:`STATES_WAIT` (long games without a summary or a cache)."""
        from deathzap_tui.headless.savestate import save_state  # lazy: as savelist
        from deathzap_tui.savelist import list_saves  # lazy: only with saves (issue 21)

        try:
            found = list_saves()
        except OSError:
            found = []
        self.app.call_from_thread(self._list_soon, found)
        states = {info.path: save_state(info)[:2] for info in found if not info.problem}
        self.app.call_from_thread(self._show_saves, found, states)

    def _list_soon(self, found: list[Any]) -> None:
        """Show the saves without their states unless these come within
        :data:`STATES_WAIT`."""
        def without_states() -> None:
            if self.saves is not found:  # not shown with their states yet
                self._show_saves(found, {})

        self.set_timer(STATES_WAIT, without_states)

    def _show_saves(self, found: list[Any], states: dict[Path, tuple[str, str]]) -> None:
        self.saves_pending = False
        if not self.is_mounted:  # the screen was left meanwhile
            return
        self.saves = found
        self.save_states = states
        if self.saves:
            if self.query_one("#saves", OptionList).content_region.width:
                self._fill_saves()  # (in the frame to come: the list is laid out)
            else:
                self.call_after_refresh(self._fill_saves)  # at the width laid out
            return
        opts = self.query_one("#saves", OptionList)
        opts.clear_options()
        opts.add_option(_no_saves())

    def _fill_saves(self) -> None:
        """The resume list's options at the list's width (and again at each new
        size: they are wrapped to its width). Saves that overflow the list are
        wrapped to the width its scrollbar leaves, whose room is kept for it from
        then on: the list is laid out and drawn once, not again narrower when the
        scrollbar appears (issue 21)."""
        opts = self._saves_list()
        if not self.saves or opts is None:
            return
        size = self.saves_size = opts.content_region.size
        texts = self._save_texts(size.width)
        overflows = sum(len(text.plain.splitlines()) for text in texts) > size.height
        if overflows:
            texts = self._save_texts(size.width - opts.styles.scrollbar_size_vertical)
        opts.styles.scrollbar_gutter = "stable" if overflows else "auto"
        highlighted = opts.highlighted
        opts.clear_options()
        opts.add_options([Option(text, disabled=bool(info.problem))
                          for info, text in zip(self.saves, texts, strict=True)])
        opts.highlighted = highlighted

    def _save_texts(self, width: int) -> list[Text]:
        """Each save's lines in the resume list, wrapped to ``width``."""
        return [save_text(info, width, self.save_states.get(info.path)) for info in self.saves]

    def _saves_list(self) -> OptionList | None:
        """The resume list; ``None`` once the screen is being left."""
        return next(self.query("#saves").results(OptionList), None)

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self._refill_saves)

    def _refill_saves(self) -> None:
        """The resume list again if its size changed since it was filled."""
        opts = self._saves_list()
        if opts is not None and opts.content_region.size != self.saves_size:
            self._fill_saves()

    def _describe_forces(self) -> None:
        for side in ("red", "black"):
            self._describe(side)

    def _describe(self, side: str) -> bool:
        """Read the side's force file and say what it is, or list every problem in
        it (``file:line: path: message``, as text, never markup). True if it can be
        played."""
        about = self.query_one(f"#{side}-about", Static)
        raw = self.query_one(f"#{side}-path", Input).value.strip()
        if not raw:
            about.update(Text("choose a force file"))
            return False
        path = Path(raw).expanduser()
        summary = forcesummary.read(path)
        if summary is None:
            summary = self._read_force(about, path)
            if summary is None:
                return False
        text = Text(f"{clean(summary.name, oneline=True)} — {plural(summary.units, 'unit')}")
        if summary.points is not None:
            text.append(f", {summary.points} pts")
        if summary.warnings:
            text.append(f", {summary.warnings} warning(s)")
        about.update(text)
        return True

    def _read_force(self, about: Static, path: Path) -> ForceSummary | None:
        """Read the force file at ``path`` and keep what the form says of it, or list
        every problem in it on ``about`` (``None``)."""
        from deathzap_tui.forcefile import (  # lazy: a force file not kept (issue 21)
            force_from_text,
            read_force_text,
        )

        try:
            text = read_force_text(path)
            loaded = force_from_text(text, str(path))
        except InvalidInput as exc:
            errors = sum(p.is_error for p in exc.problems)
            shown = Text(f"{errors} error{'s' if errors != 1 else ''} in this force file "
                         "(fix them to start):", style="bold red")
            for problem in exc.problems:
                shown.append("\n" + clean(problem.located(exc.source), oneline=True),
                             style="red" if problem.is_error else "yellow")
            about.update(shown)
            return None
        except Exception as exc:  # OSError, or a missing module
            about.update(Text(clean(str(exc) or repr(exc)), style="red"))
            return None
        summary = ForceSummary.of(loaded)
        forcesummary.keep(text, summary)
        return summary

    def on_select_changed(self, event: Select.Changed) -> None:
        # A Select announces its first value too, and a value set here: only a change
        # from what the form shows rebuilds or reads anything.
        sid = event.select.id or ""
        if sid.endswith("-pick") and isinstance(event.value, str):
            side = sid.removesuffix("-pick")
            path = self.query_one(f"#{side}-path", Input)
            if path.value != shown_path(Path(event.value)):
                path.value = shown_path(Path(event.value))
                self._describe(side)
        elif sid == "ruleset" and isinstance(event.value, str) \
                and event.value != self.ruleset_id:
            self._build_options(event.value)
            self._offer_forces(event.value)
        elif sid == "dice" and isinstance(event.value, str) \
                and event.value != self.app.dice_mode:  # type: ignore[attr-defined]
            self.post_message(DiceMode(event.value, keep=False))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id in ("red-path", "black-path"):
            self._describe(event.input.id.removesuffix("-path"))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start(False)
        elif event.button.id == "quick":
            self.action_start(True)
        elif event.button.id == "quick-resolve":
            self.post_message(OpenQuickResolve())

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list.id == "saves" and event.option_index < len(self.saves):
            self._resume(self.saves[event.option_index].path)

    # --- editing a force file (issue 14) ---------------------------------------
    def action_edit_force(self) -> None:
        """Pick a force file from the forces folder, or name a new one, and edit it."""
        from deathzap_tui.app.common.dialogs import PickScreen  # lazy: only to edit (issue 21)

        choices = [(NEW_FORCE, "+ a new force file...")]
        choices += [(str(p), f"{p.stem}  ({ruleset_of(p)})") for p in self.files]

        def picked(value: str | None) -> None:
            if value == NEW_FORCE:
                self._new_force()
            elif value is not None:
                self._edit(Path(value), None)

        self.app.push_screen(PickScreen("Edit a force file", choices), picked)

    def _new_force(self) -> None:
        from deathzap_tui.app.common.dialogs import (  # lazy: only to edit (issue 21)
            PickScreen,
            PromptScreen,
        )
        from deathzap_tui.forcedoc import force_path  # lazy: the editor, ~38 ms CPU

        def named(name: str | None) -> None:
            if not (name or "").strip():
                return
            try:
                path = force_path(name or "")
            except ValueError as exc:
                self._problem(f"{name}: {exc}")
                return
            if path.exists():
                self._edit(path, None)
                return
            rulesets = [(rid, f"{registry.get(rid).title} ({rid})") for rid in registry.ids()]
            self.app.push_screen(PickScreen(f"The ruleset of {path.name}", rulesets),
                                 lambda rid: self._edit(path, rid) if rid else None)

        self.app.push_screen(PromptScreen(
            "A new force file: a name (in the forces folder) or a path", "",
            f"e.g. my-force, or ~/wargames/my-force (.toml is added); forces folder: "
            f"{shown_path(forces_dir())}"), named)

    def _edit(self, path: Path, ruleset_id: str | None) -> None:
        from deathzap_tui.app.editor.editor import EditorScreen  # lazy: the editor, ~38 ms CPU
        from deathzap_tui.forcedoc import ForceDocument  # lazy: the editor, ~38 ms CPU

        try:
            doc = ForceDocument.open(path, ruleset_id)
        except ValueError as exc:  # InvalidInput (not TOML, with its line) is one
            self._problem(str(exc))
            return
        self.app.push_screen(EditorScreen(doc), lambda _saved: self._refresh_files())

    def _refresh_files(self) -> None:
        """The force lists again (the editor may have made or changed a file)."""
        self.files = force_files()
        listed = forces_for(self.files, self.ruleset_id)
        for side in ("red", "black"):
            select = self.query_one(f"#{side}-pick", Select)
            value = select.value
            select.set_options([(Text(p.stem), str(p)) for p in listed])
            if value in [str(p) for p in listed]:
                select.value = value
            self._describe(side)

    # --- starting -------------------------------------------------------------
    def _problem(self, message: str) -> None:
        self.query_one("#problems", Static).update(Text(clean(message)))

    def plan(self) -> Any:
        red = self.query_one("#red-path", Input).value.strip()
        black = self.query_one("#black-path", Input).value.strip()
        problems = []
        for side, raw in (("red", red), ("black", black)):
            if not raw:
                problems.append(f"choose the {side.upper()} force")
            elif not self._describe(side):
                problems.append(f"the {side.upper()} force file has problems (listed "
                                "under it)")
        seed_text = self.query_one("#seed", Input).value.strip()
        try:
            seed = int(seed_text)
        except ValueError:
            problems.append("the seed is a whole number")
            seed = 0
        options, wrong = read_options(self, self.option_specs)
        problems += wrong
        if problems:
            self._problem("; ".join(problems))
            return None
        ruleset = self.query_one("#ruleset", Select).value
        return GamePlan(Path(red).expanduser(), Path(black).expanduser(), seed, options,
                        None, ruleset if isinstance(ruleset, str) else None)

    def action_start(self, quick: bool) -> None:
        plan = self.plan()
        if plan is None:
            return
        if not quick:
            self.post_message(OpenSetup(plan))
            return
        try:
            session = new_session(plan)
            # the save's writer lock, before any more is written
            self.post_message(Hold(session, writer_lock(session)))
            quick_setup(session)
        except Exception as exc:  # InvalidInput, SaveError, OSError, Refused, SaveLocked
            self._problem(str(exc))
            return
        self.post_message(OpenBattle(session))

    def _resume(self, path: Path) -> None:
        """Open a save to play it, its writer's lock taken first; a save another
        process writes may be watched read only instead."""
        from deathzap_tui.app.start.since import LockedScreen  # lazy: a locked save only
        from deathzap_tui.net import playbyturn  # lazy: only on resuming a save (issue 21)
        from deathzap_tui.net.lock import SaveLocked, read_only  # lazy: as playbyturn

        try:
            session, lock, notice = playbyturn.open_for(path, None, what="deathzap")
        except SaveLocked as exc:  # another process writes it: say who, offer to watch

            def chosen(watch: bool | None) -> None:
                if not watch:
                    return
                try:
                    self.post_message(OpenBattle(read_only(path)))
                except Exception as err:  # SaveError, CorruptLog, OSError
                    self._problem(str(err))

            self.app.push_screen(LockedScreen(str(exc)), chosen)
        except Exception as exc:  # SaveError, CorruptLog, OSError
            self._problem(str(exc))
        else:
            self.post_message(OpenBattle(session, lock, notice or ""))

"""The force editor: a force file of any ruleset, edited field by field, with its
points (or counts) and its problems kept up to date at every key press.

The screen knows no ruleset. The outline (:mod:`deathzap_tui.forceoutline`) comes
from the file's own tables and arrays and the ruleset's template
(:meth:`Ruleset.force_template`), whose entries are the skeletons "add" copies. Every
change goes through :class:`~deathzap_tui.forcedoc.ForceDocument` (comments and key
order kept) and is checked with the code ``deathzap check`` runs: a few ms for the
demo forces, so at once on every change; only after two checks in a row took longer
than :data:`SLOW_CHECK` (a file of thousands of figures) does the next wait for a pause
in the typing (:data:`CHECK_IDLE`), the title saying "checking…" meanwhile. Typed text
that does not read as its field's kind stays in the field, marked, and is kept (by
path) when the form is rebuilt; it never reaches the document. All text from the file
is shown as ``rich.text.Text`` after :func:`~deathzap_tui.app.common.text.clean` (untrusted).
"""

from __future__ import annotations

import re
import time
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.reactive import Reactive
from textual.timer import Timer
from textual.widget import AwaitMount, Widget
from textual.widgets import Input, Label, OptionList, Static, Tree
from textual.widgets.option_list import Option
from textual.widgets.tree import TreeNode

from deathzap_tui import forceoutline as eo
from deathzap_tui.app.common.dialogs import AskScreen, PromptScreen
from deathzap_tui.app.common.inputs import SteadyInput
from deathzap_tui.app.common.keybar import KeyBar
from deathzap_tui.app.common.paint import repaint
from deathzap_tui.app.common.text import clean
from deathzap_tui.app.frames import OneFrameScreen, SteadySize, SteadyStatic, SteadyTree
from deathzap_tui.forcedoc import (
    CheckResult,
    ForceDocument,
    Part,
    SoFar,
    force_path,
    join_path,
    parse_path,
)
from deathzap_tui.headless.forcelist import shown_path
from deathzap_tui.headless.templates import ruleset_template
from deathzap_tui.rules import registry
from deathzap_tui.rules.narration import plural
from deathzap_tui.rules.problems import InvalidInput, Problem

EMPTY = "empty: type a value, or ctrl+d to delete the field"
"""Why an emptied field is not read: emptying never deletes a key (its place and its
comment would go); deleting one is its own key."""

ID = re.compile(r"[A-Za-z0-9_-]+")
"""An id of a new table in a table of tables (``[weapons.<id>]``): a bare TOML key."""

NARROW = 110
"""Below this many columns (80x24 over SSH) the screen is ``narrow``: a narrower
outline, and the points and problems on a page of their own (``p``) with the total
and the problem count on a one-line status, so a field's value keeps room to be read."""

SLOW_CHECK = 0.05
"""Seconds: after two checks in a row slower than this, the next waits for a pause.
Two, because one slow check of a small force can be a garbage collection."""

CHECK_IDLE = 0.3
"""Seconds without a change before a deferred (slow) check runs."""


def template_of(ruleset_id: Any) -> dict[str, Any]:
    """The ruleset's template force as plain data ({} for an unknown ruleset)."""
    text = ruleset_template(ruleset_id)
    try:
        return tomllib.loads(text) if text else {}
    except tomllib.TOMLDecodeError:
        return {}


class FieldInput(SteadyInput):
    """The text of one field; ``field`` says where it goes and what it must be.
    ``initial`` is the text it opened with: the file's value made safe to show
    (:func:`shown_value`), which counts as no change until something else is typed;
    from then on (``touched``) every change is read, the opening text included."""

    BINDINGS: ClassVar[list[Any]] = [
        Binding("ctrl+d", "screen.delete_field", "Delete field", show=False)]

    def __init__(self, field: eo.Field, value: str) -> None:
        super().__init__(value, compact=True, classes="field-input",
                         placeholder=shown_value(field.sample, field.kind))
        self.field = field
        self.initial = value
        self.touched = False

    def open(self, field: eo.Field, value: str) -> None:
        """Show ``field`` (a form shown again reuses its inputs), opening with ``value``."""
        self.field, self.initial, self.touched = field, value, False
        self.placeholder = shown_value(field.sample, field.kind)
        self.value = value


class FieldLine(SteadySize, Horizontal):
    """A field's label and input, on one line (laid out once: :class:`SteadySize`)."""


class FieldLabel(SteadySize, Label):
    """A field's name (laid out once: :class:`SteadySize`)."""


class FieldRow(SteadySize, Vertical):
    """One field of the form: its label, its input and its message (problems, or why
    the typed text is not read). A form shown again reuses the rows already mounted:
    mounting and removing widgets costs a layout and a frame each. Every part is laid
    out once per change (:class:`SteadySize`)."""

    DEFAULT_CLASSES = "field-row"

    def __init__(self, field: eo.Field, value: str) -> None:
        self.label = FieldLabel(classes="field-label")
        self.box = FieldInput(field, value)
        self.message = SteadyStatic(classes="field-msg")
        super().__init__(FieldLine(self.label, self.box, classes="field-line"), self.message)
        self._label_for(field)

    def open(self, field: eo.Field, value: str) -> None:
        self.display = True
        self._label_for(field)
        self.box.open(field, value)

    def _label_for(self, field: eo.Field) -> None:
        repaint(self.label, Text(clean(field.label, oneline=True),
                                 style="" if field.present else "dim"), fixed=True)


def shown_value(value: Any, kind: str) -> str:
    """A value as its field shows it: no control characters or bidi overrides (from
    an untrusted file), on one line."""
    return clean(eo.show(value, kind)).replace("\n", " ")


# --- the editor ---------------------------------------------------------------------


class Outline(SteadyTree[tuple[Part, ...]]):
    """The force's outline. Moving its cursor shows that node's form at once, in the
    frame that draws the cursor (the NodeHighlighted message reaches the screen only
    after the tree has been drawn: a frame for the cursor, more for the form). Its
    focus and scrollbar cost no layout (:class:`SteadyTree`)."""

    def watch_cursor_line(self, previous_line: int, line: int) -> None:
        super().watch_cursor_line(previous_line, line)
        screen = self.screen if self.is_mounted else None
        node = self.cursor_node
        if isinstance(screen, EditorScreen) and node is not None and screen.is_mounted:
            screen.follow(node.data if node.data is not None else ())


class EditorScreen(OneFrameScreen[bool]):
    """Edit ``doc``; dismissed with whether it was saved (or, ``standalone``, the app
    exits: ``deathzap edit``)."""

    focused: Reactive[Widget | None] = Reactive(None, repaint=False)
    """As Textual's, without repainting the whole screen on a focus change (the
    outline and a field, Enter and Esc): the widgets gaining and losing the focus
    repaint themselves, so the change is one frame, not the whole screen drawn again
    (as the wizard's, wizard/wizard.py)."""

    BINDINGS: ClassVar[list[Any]] = [
        Binding("ctrl+s", "save", "Save", priority=True),
        Binding("w", "save_as", "Save as"),
        Binding("a,insert", "add", "Add"),
        Binding("d,delete", "delete", "Delete"),
        Binding("n", "new_field", "New field"),
        Binding("e", "problems", "Problems"),
        Binding("p", "toggle_side", "Points"),
        Binding("l", "limit", "Points limit"),
        Binding("escape", "leave", "Back"),
    ]

    def __init__(self, doc: ForceDocument, *, standalone: bool = False,
                 limit: int | None = None) -> None:
        super().__init__()
        self.doc = doc
        self.standalone = standalone
        self.limit = limit
        """The game size the force is built for (points), shown as used/limit; ``None``:
        none set (``l`` sets it)."""
        self.saved = False
        self.template = template_of(doc.get("ruleset", registry.DEFAULT))
        self.root = eo.outline(doc.data(), self.template)
        self._pending: Timer | None = None
        """The deferred check, while one waits (:data:`SLOW_CHECK`)."""
        self.check_seconds: tuple[float, ...] = ()
        """How long the last two checks took (with the panels they update)."""
        start = time.perf_counter()
        self.result: CheckResult = self._check()
        self._timed(start)
        self.so_far: SoFar = doc.points_so_far(self.result)
        """The points of the units without errors while others have some (shown as
        the total so far), counted after each check's frame (:meth:`_count_so_far`)."""
        self.unparsed: dict[str, tuple[str, str]] = {}
        """path -> (typed text, why it is not a value): typed, never lost."""
        self._tree_nodes: dict[tuple[Part, ...], TreeNode[tuple[Part, ...]]] = {}
        self._shown: tuple[Part, ...] | None = None
        self._rows: dict[str, tuple[FieldInput, Static]] = {}
        self._mounting: AwaitMount | None = None
        """The rows a form shown just now lacked, while they are mounted."""
        self._placed: dict[tuple[Part, ...], list[Problem]] = {}
        self._at_field: dict[str, list[Problem]] = {}
        self._asking_to_leave = False
        """The "Unsaved changes" question is open (:meth:`ask_before_quit`)."""

    def compose(self) -> ComposeResult:
        yield Static(id="editor-title", classes="screen-title")
        yield Static(id="editor-status")
        with Horizontal(id="editor-main"):
            tree = Outline("Force", data=(), id="outline")
            tree.auto_expand = False
            tree.guide_depth = 2
            tree.show_root = True
            yield tree
            with VerticalScroll(id="form"):
                yield SteadyStatic(id="form-heading")
                yield SteadyStatic(id="node-problems", classes="field-msg")
                yield SteadyStatic(id="group-hint", classes="hint")
                # Rows for the longest form, mounted now: a move in the outline then
                # mounts nothing (a layout and a frame more), it fills these.
                longest = max(self.root.walk(), key=lambda node: len(node.fields))
                for field in longest.fields:
                    row = FieldRow(field, "")
                    row.display = False
                    self._follow(row.box)
                    yield row
                yield SteadyStatic(Text("Enter: edit these fields · Esc: back to the "
                                        "outline · n: a field not listed"),
                                   id="table-hint", classes="hint")
            with Vertical(id="side"):
                yield Static(id="points")
                yield Label(Text("Problems", style="bold"), id="problems-title")
                yield OptionList(id="problems", compact=True)
        yield KeyBar()

    async def on_mount(self) -> None:
        self._fit(self.app.size.width)
        self._place_problems()
        self._build_tree(())
        await self._show(())
        self._update_side()
        self.query_one("#outline", Tree).focus()

    # --- the screen's width ----------------------------------------------------
    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.width)

    def _fit(self, width: int) -> None:
        """The ``narrow`` layout below :data:`NARROW` columns (see editor.tcss)."""
        narrow = width < NARROW
        if narrow == self.has_class("narrow"):
            return
        self.set_class(narrow, "narrow")
        if not narrow:
            self._open_side(False)
        self._update_title()
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "toggle_side":  # wide, the points and problems are always shown
            return self.has_class("narrow")
        return True

    def action_toggle_side(self) -> None:
        self._open_side(not self.has_class("side-open"))

    def _open_side(self, shown: bool) -> None:
        """On a narrow screen, the points and problems page (``shown``, its list
        focused) or the outline and the form again."""
        if shown == self.has_class("side-open"):
            return
        self.set_class(shown, "side-open")
        if shown:
            self._focus_problems()
        elif self.focused is None or self.focused.id == "problems":
            self.query_one("#outline", Tree).focus()

    # --- what is shown ---------------------------------------------------------
    def _node(self, parts: tuple[Part, ...]) -> eo.Node | None:
        for node in self.root.walk():
            if node.parts == parts:
                return node
        return None

    def _label(self, node: eo.Node) -> Text:
        placed = [p for n in node.walk() for p in self._placed.get(n.parts, ())]
        if node.kind == eo.GROUP:
            text = Text(f"{clean(node.label, oneline=True)} ({len(node.children)})",
                        style="bold")
        elif not node.parts:
            name = self.doc.get("name", "")
            text = Text("Force", style="bold")
            text.append(f" {clean(name, oneline=True)}" if isinstance(name, str) else "")
        else:
            text = Text(clean(node.label, oneline=True))
        if any(p.is_error for p in placed):
            text.append(" ✗", style="bold red")
        elif placed:
            text.append(" !", style="bold yellow")
        return text

    def _build_tree(self, select: tuple[Part, ...]) -> None:
        """The outline again (after an add or delete), cursor on ``select`` (or the
        nearest node still there above it)."""
        tree = self.query_one("#outline", Tree)
        tree.clear()
        tree.root.set_label(self._label(self.root))
        self._tree_nodes = {(): tree.root}

        def add(parent: TreeNode[tuple[Part, ...]], node: eo.Node) -> None:
            for child in node.children:
                item = parent.add(self._label(child), data=child.parts, expand=True,
                                  allow_expand=bool(child.children))
                self._tree_nodes[child.parts] = item
                add(item, child)

        add(tree.root, self.root)
        tree.root.expand()
        while select not in self._tree_nodes:
            select = select[:-1]
        # move_cursor goes to a node's line, which the Tree sets only when it lays its
        # lines out (when idle, or when asked for a line); Textual documents no way to
        # lay them out now, and call_after_refresh(move_cursor) would be too late for
        # the form shown next from the cursor (_rebuild). So ask for a line.
        tree.get_node_at_line(0)
        tree.move_cursor(self._tree_nodes[select])

    def _relabel(self) -> None:
        for node in self.root.walk():
            item = self._tree_nodes.get(node.parts)
            if item is not None:
                item.set_label(self._label(node))

    async def _show(self, parts: tuple[Part, ...]) -> None:
        """The form of the table or group at ``parts``, its rows mounted."""
        self._fill_form(parts)
        await self._rows_mounted()

    async def _rows_mounted(self) -> None:
        """Wait for the rows the form shown last is mounting, if any."""
        mounting, self._mounting = self._mounting, None
        if mounting is not None:
            await mounting

    def _fill_form(self, parts: tuple[Part, ...]) -> None:
        """Show the form of the table or group at ``parts`` now, in the rows already
        mounted (those not needed hidden); a form longer than any shown before mounts
        the rows it lacks (:meth:`_rows_mounted` waits for them)."""
        node = self._node(parts) or self.root
        self._shown = node.parts
        repaint(self.query_one("#form-heading", Static), self._heading(node))
        group_hint = self.query_one("#group-hint", Static)
        group_hint.display = node.kind == eo.GROUP
        if node.kind == eo.GROUP:
            repaint(group_hint, self._group_hint(node))
        self.query_one("#table-hint").display = node.kind == eo.TABLE
        rows = list(self.query(FieldRow))
        new: list[FieldRow] = []
        self._rows = {}
        for n, field in enumerate(node.fields):
            typed = self.unparsed.get(field.path)
            value = typed[0] if typed else shown_value(self.doc.get(field.path), field.kind)
            if n < len(rows):
                rows[n].open(field, value)
                row = rows[n]
            else:
                row = FieldRow(field, value)
                self._follow(row.box)
                new.append(row)
            self._rows[field.path] = (row.box, row.message)
        for row in rows[len(node.fields):]:
            row.display = False
        self._show_messages()
        if new:
            self._mounting = self.query_one("#form", VerticalScroll).mount_all(
                new, before="#table-hint")

    def _heading(self, node: eo.Node) -> Text:
        where = node.path or "the force"
        text = Text(clean(node.label if node.parts else "Force", oneline=True), style="bold")
        text.append(f"   {where}", style="dim")
        return text

    def _group_hint(self, node: eo.Node) -> Text:
        names = [clean(c.label, oneline=True) for c in node.children]
        lines = [f"{len(names)} in {clean(node.label, oneline=True)}: "
                 + (", ".join(names) if names else "none yet"),
                 "a: add one" + (" (a copy of the template's)" if node.skeleton else "")
                 + " · d on an entry: delete it"]
        return Text("\n".join(lines))

    def _place_problems(self) -> None:
        """Each problem at its field, or at the table (or group) holding its path."""
        self._placed, self._at_field = {}, {}
        for problem in self.result.problems:
            node, field = eo.owner(self.root, parts_of(problem.path))
            self._placed.setdefault(node.parts, []).append(problem)  # marks the outline
            if field is not None:
                self._at_field.setdefault(field.path, []).append(problem)

    def _show_messages(self) -> None:
        for path, (_box, message) in self._rows.items():
            typed = self.unparsed.get(path)
            if typed is not None:
                show_message(message, Text(f"✗ not read: {typed[1]} (the force keeps its "
                                           "old value)", style="bold red"))
                continue
            show_message(message, problem_text(self._at_field.get(path, []),
                                               with_path=False))
        at_rows = {id(p) for path in self._rows for p in self._at_field.get(path, ())}
        node_problems = [p for p in self._placed.get(self._shown or (), ())
                         if id(p) not in at_rows]
        show_message(self.query_one("#node-problems", Static),
                     problem_text(node_problems, with_path=True))

    def _update_side(self) -> None:
        repaint(self.query_one("#points", Static), self._points())
        problems = self.query_one("#problems", OptionList)
        problems.clear_options()
        options = [Option(Text(f"typed, not read: {clean(path, oneline=True)}: {why}",
                               style="bold red"), id=f"typed:{path}")
                   for path, (_text, why) in self.unparsed.items()]
        for n, problem in enumerate(self.result.problems):
            where = [str(problem.line)] if problem.line is not None else []
            where += [clean(problem.path, oneline=True)] if problem.path else []
            text = Text("".join(f"{w}: " for w in where), style="dim")
            text.append(clean(problem.message, oneline=True),
                        style="red" if problem.is_error else "yellow")
            options.append(Option(text, id=f"problem:{n}"))
        if not options:
            options.append(Option(Text("none: deathzap check accepts it", style="green"),
                                  disabled=True))
        problems.add_options(options)
        self._update_title()

    def _update_title(self, changed: bool = False) -> None:
        """The title: the file, whether it is saved, and the force's state; narrow, the
        state goes on the status line under it, with the points total. ``changed``:
        the document was just changed, so it is called unsaved without comparing its
        text with the file's (that costs as much as a check in a huge file)."""
        where = shown_path(self.doc.path) or "(not saved yet)"
        text = Text(f"Force editor — {clean(where, oneline=True)}")
        if changed or self.doc.modified or self.unparsed:
            text.append("  (unsaved)", style="bold")
        state = self._state()
        if self.has_class("narrow"):
            status = Text(f"{self._points_summary()} · ", style="bold")
            status.append(state)
            status.append(" · p: points and problems", style="dim")
            repaint(self.query_one("#editor-status", Static), status, fixed=True)
        else:
            text.append(f"  {state}")
        repaint(self.query_one("#editor-title", Static), text)

    def _state(self) -> str:
        """The force's errors and warnings ("valid": none), and the typed values not
        read into it (so it is not called valid while one waits); "checking…" while a
        deferred check waits."""
        if self._pending is not None:
            return "checking…"
        errors = sum(p.is_error for p in self.result.problems)
        warnings = len(self.result.problems) - errors
        unread = len(self.unparsed)
        parts = [f"{errors} error{'s' * (errors != 1)}"] if errors else []
        parts += [f"{unread} field{'s' * (unread != 1)} not read"] if unread else []
        parts += [f"{warnings} warning{'s' * (warnings != 1)}"] if warnings else []
        return ", ".join(parts) if errors or unread else ", ".join(["valid", *parts])

    def _check(self) -> CheckResult:
        """Check the document now (a pending deferred check is then moot)."""
        if self._pending is not None:
            self._pending.stop()
            self._pending = None
        return self.doc.check()

    def _timed(self, start: float) -> None:
        """The time since ``start`` (:func:`time.perf_counter`) as the last check's."""
        self.check_seconds = (*self.check_seconds[-1:], time.perf_counter() - start)

    def _recheck(self) -> None:
        """After any change: check, then every panel from the new result. After two
        slow checks (:data:`SLOW_CHECK`) the next waits for :data:`CHECK_IDLE` seconds
        without a change (each change restarts the wait), so typing in a huge force
        keeps up; the change itself is in the document already."""
        if len(self.check_seconds) < 2 or min(self.check_seconds) <= SLOW_CHECK:
            self._refresh_result()
            return
        if self._pending is not None:
            self._pending.stop()
        self._pending = self.set_timer(CHECK_IDLE, self._refresh_result)
        self._update_title(changed=True)

    def _refresh_result(self) -> None:
        """Check, and show the result everywhere (timed: what a key would wait for)."""
        start = time.perf_counter()
        self.result = self._check()
        self._place_problems()
        self._relabel()
        self._show_messages()
        self._update_side()
        self._timed(start)
        self.call_after_refresh(self._count_so_far)

    def _settle(self) -> None:
        """Run a deferred check now: whatever decides on the result (save, leave)
        decides on the document as it is."""
        if self._pending is not None:
            self._refresh_result()

    async def _rebuild(self, select: tuple[Part, ...]) -> None:
        """After a change of shape: the outline, the tree and the form again (cursor on
        ``select``), then the check and every panel (:meth:`_refresh_result`)."""
        self.template = template_of(self.doc.get("ruleset", registry.DEFAULT))
        self.root = eo.outline(self.doc.data(), self.template)
        self._build_tree(select)
        cursor = self.query_one("#outline", Tree).cursor_node
        await self._show(cursor.data if cursor is not None and cursor.data is not None
                         else ())
        self._refresh_result()

    # --- moving about -----------------------------------------------------------
    def follow(self, parts: tuple[Part, ...]) -> None:
        """The outline's cursor is on ``parts``: its form, now (see :class:`Outline`)."""
        if parts != self._shown:
            self._fill_form(parts)

    def on_tree_node_selected(self, event: Tree.NodeSelected) -> None:
        """Enter on a node: its first field, focused now (``focus()`` would wait for a
        hop through the app's queue, and its repaints come a frame later)."""
        if self._rows:
            self.set_focus(next(iter(self._rows.values()))[0])

    async def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list.id != "problems" or event.option.id is None:
            return
        kind, _, rest = event.option.id.partition(":")
        path = rest if kind == "typed" else self.result.problems[int(rest)].path
        await self.go_to(path)

    async def go_to(self, path: str) -> None:
        """The form holding ``path``, its field focused (if it has one)."""
        node, field = eo.owner(self.root, parts_of(path))
        self._open_side(False)
        tree = self.query_one("#outline", Tree)
        tree.move_cursor(self._tree_nodes.get(node.parts, tree.root))
        if node.parts != self._shown:
            await self._show(node.parts)
        else:  # shown as the cursor moved (Outline)
            await self._rows_mounted()
        if field is not None and field.path in self._rows:
            self._rows[field.path][0].focus()
        else:
            tree.focus()

    def action_problems(self) -> None:
        if self.has_class("narrow"):
            self._open_side(True)
        self._focus_problems()

    def _focus_problems(self) -> None:
        """The problems list focused, on its first entry if none is highlighted."""
        problems = self.query_one("#problems", OptionList)
        if problems.highlighted is None and problems.option_count:
            problems.highlighted = 0
        problems.focus()

    # --- editing ---------------------------------------------------------------
    def _follow(self, box: FieldInput) -> None:
        """Read every change of ``box`` as it happens (a watcher, not the Changed
        message, which reaches the screen after the input has been drawn), so that the
        form, the points and the problems are drawn with the typed character in one
        frame."""
        self.watch(box, "value", lambda value: self.typed(box, value) if box.is_mounted
                   else None, init=False)

    def typed(self, box: FieldInput, value: str) -> None:
        """``box`` holds ``value`` now (:meth:`_follow`): read it."""
        box.touched = box.touched or value != box.initial
        if box.touched:  # else the text it opened with (made safe to show): no edit
            self.edit(box.field, value)

    async def on_input_changed(self, event: Input.Changed) -> None:
        """The value is read already (:meth:`typed`); a new ruleset's template next."""
        box = event.input
        if not isinstance(box, FieldInput):
            return
        event.stop()
        if event.value != box.value:  # typed on since: a later Changed brings the value
            return
        if box.touched and box.field.parts == ("ruleset",):
            await self._retemplate(box)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if isinstance(event.input, FieldInput):
            event.stop()
            self.focus_next()

    def edit(self, field: eo.Field, text: str) -> None:
        """Take what is typed in ``field``: into the document if it reads as a value
        of the field's kind (set in place: the key keeps its line and comment), else
        kept aside, marked. An emptied field is kept aside too (:data:`EMPTY`) while
        the document has a value there."""
        path = field.path
        try:
            value = eo.parse(text, field.kind)
        except eo.Unparsed as e:
            self._keep_typed(path, text, str(e))
            return
        current = self.doc.get(path)
        if value is None and current is not None:
            self._keep_typed(path, text, EMPTY)
            return
        try:
            if value is not None and (current is None or not eo.same(value, current)):
                self.doc.set(path, value)
        except ValueError as e:
            self._keep_typed(path, text, str(e))
            return
        self.unparsed.pop(path, None)
        self._refresh_entry_label()
        self._recheck()

    async def _retemplate(self, box: FieldInput) -> None:
        """After the force's ``ruleset`` changed: the new ruleset's template (its
        fields and groups) in a rebuilt outline, if it is another; the cursor stays
        where it was in ``box``'s field."""
        if template_of(self.doc.get("ruleset", registry.DEFAULT)) == self.template:
            return
        cursor = box.cursor_position
        await self._rebuild(self._shown or ())
        row = self._rows.get(box.field.path)
        if row is not None:
            row[0].select_on_focus = False
            row[0].focus()
            row[0].cursor_position = cursor

    def action_delete_field(self) -> None:
        """Ctrl+d in a field: its key goes from the document (and any typed text)."""
        box = self.focused
        if not isinstance(box, FieldInput):
            return
        path = box.field.path
        self.unparsed.pop(path, None)
        deleted = self.doc.delete(path)
        box.touched = True
        box.value = ""
        self.notify(f"Deleted {clean(path)}." if deleted else f"{clean(path)} is not set.",
                    markup=False, timeout=3)
        self._refresh_entry_label()
        self._recheck()

    def _keep_typed(self, path: str, text: str, why: str) -> None:
        self.unparsed[path] = (text, why)
        self._show_messages()
        self._update_side()

    def _refresh_entry_label(self) -> None:
        """The outline's label of the entry being edited, and the form's heading (its
        name or count may have changed: issue 22, a renamed unit's form kept its old
        name)."""
        node = self._node(self._shown or ())
        if node is not None and node.parts:
            node.label = eo.entry_label(node.parts[-1], self.doc.get(node.path))
            for heading in self.query("#form-heading").results(Static):
                repaint(heading, self._heading(node))

    def _count_so_far(self) -> None:
        """The points of the units without errors (issue 22), counted after the
        frame of the key that changed the force: it checks the force once more, and
        typing must keep its pace (:data:`SLOW_CHECK`)."""
        so_far = self.doc.points_so_far(self.result)
        if so_far != self.so_far:
            self.so_far = so_far
            self._update_side()

    def _points(self) -> Text:
        return points_text(self.result, self.limit, self.so_far)

    def _points_summary(self) -> str:
        return points_summary(self.result, self.limit, self.so_far)

    def action_limit(self) -> None:
        """Ask for the game size to build against (blank: none)."""
        def refused(text: str) -> str | None:
            value = text.strip()
            return None if not value or (value.isdigit() and int(value) > 0) else \
                "a whole number of points above 0, or nothing for no limit"

        def chosen(text: str | None) -> None:
            if text is not None:
                self.limit = int(text) if text.strip() else None
                self._update_side()

        self.app.push_screen(PromptScreen(
            "Points limit", str(self.limit or ""),
            "the game size to build against, e.g. 1000 (blank: no limit)", refused),
            chosen)

    def _group_for_add(self) -> eo.Node | None:
        node = self._node(self._shown or ())
        if node is None or not node.parts:
            return None
        if node.kind == eo.GROUP:
            return node
        return self._node(node.parts[:-1])

    async def action_add(self) -> None:
        group = self._group_for_add()
        if group is None or group.kind != eo.GROUP:
            self.notify("Pick a group (units, weapons, figures...) or one of its entries "
                        "to add to it.", severity="warning")
            return
        existing = self.doc.get(group.path)
        if group.parts and isinstance(group.parts[-1], str) and (
                isinstance(existing, dict) or (existing is None and isinstance(
                    eo.skeleton_at(self.template, group.parts), dict))):
            self._add_keyed(group, existing)
            return
        await self._rebuild(eo.add_entry(self.doc, group, self.template))

    def _add_keyed(self, group: eo.Node, existing: Any) -> None:
        """A new table in a table of tables (a weapon): ask its id first."""
        def refused(key: str) -> str | None:
            key = key.strip()
            if not ID.fullmatch(key):
                return ("an id is letters, digits, - and _ only" if key
                        else "type an id (Esc: cancel)")
            if isinstance(existing, dict) and key in existing:
                return f"there is already a {key} in {group.label}"
            return None

        async def chosen(key: str | None) -> None:
            if key is None:
                return
            await self._rebuild(eo.add_entry(self.doc, group, self.template, key.strip()))

        self.app.push_screen(PromptScreen(f"New entry in {clean(group.label)}: its id",
                                          eo.new_key(group, existing, self.template),
                                          "letters, digits, - and _.", refused), chosen)

    def action_delete(self) -> None:
        node = self._node(self._shown or ())
        if node is None or node.kind != eo.TABLE or not node.parts:
            self.notify("Pick an entry (a unit, a figure, a weapon...) to delete.",
                        severity="warning")
            return

        async def answered(value: str | None) -> None:
            if value != "yes":
                return
            self.doc.delete(node.path)
            removed = node.parts
            self.unparsed = eo.shift_paths(self.unparsed, removed) \
                if isinstance(removed[-1], int) else {
                    p: v for p, v in self.unparsed.items()
                    if parse_path(p)[:len(removed)] != removed}
            await self._rebuild(self._after_delete(removed))

        self.app.push_screen(AskScreen("Delete?", f"Delete {node.label} ({node.path})?",
                                       [("y", "yes", "delete")]), answered)

    def _after_delete(self, removed: tuple[Part, ...]) -> tuple[Part, ...]:
        """Where the cursor goes after ``removed``: the entry now in its place, the one
        before, or the group."""
        last = removed[-1]
        group = self._node(removed[:-1])
        if isinstance(last, int) and group is not None:
            count = len(group.children) - 1
            if count > 0:
                return (*removed[:-1], min(last, count - 1))
        return removed[:-1]

    def action_new_field(self) -> None:
        node = self._node(self._shown or ())
        if node is None or node.kind != eo.TABLE:
            self.notify("Pick a table (the force, a unit, a weapon...) first.",
                        severity="warning")
            return

        def read(text: str) -> tuple[str, Any]:
            """``key = value`` as (path, value); ``ValueError`` says what is wrong."""
            key, equals, raw = text.partition("=")
            if not equals:
                raise ValueError("type key = value (Esc: cancel)")
            path = join_path(*node.parts, *parse_path(key.strip()))
            if self.doc.get(path) is not None:
                raise ValueError(f"there is already a field {path}: edit it in the form")
            return path, eo.parse_toml_value(raw.strip())

        def refused(text: str) -> str | None:
            try:
                read(text)
            except ValueError as e:  # eo.Unparsed is one
                return str(e)
            return None

        async def chosen(text: str | None) -> None:
            if text is None:
                return
            path, value = read(text)
            try:
                self.doc.set(path, value)
            except ValueError as e:  # e.g. a table where the path needs one
                self.notify(f"Not added: {clean(e)}", severity="error", markup=False)
                return
            await self._rebuild(node.parts)

        self.app.push_screen(PromptScreen(
            f"A new field in {clean(node.path or 'the force')}: key = value", "",
            'e.g. count = 2, rules = ["strike"], melee = { attacks = 1 }', refused), chosen)

    # --- saving and leaving ----------------------------------------------------
    def after_typing(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` once the field being typed in has read every key typed
        before now, with its text taken in. ctrl+s and ctrl+q are priority bindings,
        acted on as the app receives them, while the keys before them may still wait
        in the field's queue (a fast typist's burst: ``name = "Raider Sq"`` was saved
        after "Raider Squad" was typed, issue 26)."""
        box = self.focused
        if not isinstance(box, FieldInput):
            callback()
            return

        def typed() -> None:
            if box.is_attached and (box.touched or box.value != box.initial):
                box.touched = True
                self.edit(box.field, box.value)
            callback()

        box.call_later(typed)  # behind the keys already in the field's queue

    def action_save(self, then: Callable[[], None] | None = None) -> None:
        """Save what is typed, to the last key; with errors, ask first (``deathzap
        check`` refuses such a file)."""
        self.after_typing(lambda: self._save(then))

    def action_save_as(self) -> None:
        """Save to another file: a name goes in the forces folder, a path where it
        says (``forcedoc.force_path``); the editor goes on with that file."""
        def refused(text: str) -> str | None:
            try:
                force_path(text)
            except ValueError as e:
                return str(e)
            return None

        def chosen(text: str | None) -> None:
            if text is None:
                return
            target = force_path(text)
            if target.exists() and target != self.doc.path:
                self.app.push_screen(AskScreen(
                    "Replace it?", f"{clean(shown_path(target))} exists: replace it?",
                    [("y", "replace", "replace it")]),
                    lambda value: self.after_typing(lambda: self._save(None, target))
                    if value == "replace" else None)
                return
            self.after_typing(lambda: self._save(None, target))

        self.app.push_screen(PromptScreen(
            "Save as: a file name (in the forces folder) or a path",
            shown_path(self.doc.path), "e.g. my-force, or ~/wargames/my-force", refused),
            chosen)

    def _save(self, then: Callable[[], None] | None, target: Path | None = None) -> None:
        """Save (to ``target``, else the file being edited); ask first with errors."""
        self._settle()
        if self.result.ok:
            self._write(then, target)
            return
        errors = sum(p.is_error for p in self.result.problems)

        def answered(value: str | None) -> None:
            if value == "save":
                self._write(then, target)

        self.app.push_screen(AskScreen(
            "Save with errors?",
            f"This force has {errors} error{'s' * (errors != 1)}. Save anyway: "
            "deathzap check will refuse it until they are fixed.",
            [("y", "save", "save anyway")]), answered)

    def _write(self, then: Callable[[], None] | None, target: Path | None = None) -> None:
        try:
            self.doc.save(target)
        except (OSError, ValueError) as e:  # InvalidInput is a ValueError
            message = e.problems[0].message if isinstance(e, InvalidInput) else str(e)
            self.notify(f"Not saved: {clean(message)}", severity="error", markup=False)
            return
        self.saved = True
        self.notify(f"Saved {clean(shown_path(self.doc.path))}", markup=False, timeout=3)
        if self.unparsed:
            self.notify(f"{len(self.unparsed)} typed value(s) could not be read and were "
                        "not saved: they are still in their fields.", severity="warning")
        self._update_title()
        if then is not None:
            then()

    def action_leave(self) -> None:
        if self.has_class("side-open"):
            self._open_side(False)
            return
        if isinstance(self.focused, (FieldInput, OptionList)):
            self.set_focus(self.query_one("#outline", Tree))  # now: one frame
            return
        self.ask_before_quit(quit_app=False)

    def ask_before_quit(self, quit_app: bool = True) -> None:
        """Leave the editor (``quit_app``: the app too, as ctrl+q does, see
        ``DeathzapApp.action_quit``), asking first about unsaved changes or unread typed
        text. While that question is open, asking again (a second ctrl+q) does nothing:
        the open question is still the answer to it."""
        if self._asking_to_leave:
            return
        self._asking_to_leave = True  # from now: the last keys typed are read first
        self.after_typing(lambda: self._leave(quit_app))

    def _leave(self, quit_app: bool) -> None:
        close = self.app.exit if quit_app else self._close
        self._settle()
        if not self.doc.modified and not self.unparsed:
            self._asking_to_leave = False
            close()
            return
        typed = f" and {len(self.unparsed)} typed value(s) not read" if self.unparsed else ""

        def answered(value: str | None) -> None:
            self._asking_to_leave = False
            if value == "save":
                self.action_save(then=close)
            elif value == "discard":
                close()

        self.app.push_screen(AskScreen(
            "Unsaved changes", f"This force has unsaved changes{typed}.",
            [("s", "save", "save"), ("d", "discard", "discard")]), answered)

    def _close(self) -> None:
        if self.standalone:
            self.app.exit()
        else:
            self.dismiss(self.saved)


def parts_of(path: str) -> tuple[Part, ...]:
    """A problem's path as parts; ``()`` (the force) for none, or for one that does not
    parse: such a problem is shown at the force, not at a field it cannot reach."""
    try:
        return parse_path(path) if path else ()
    except ValueError:
        return ()


def show_message(static: Static, text: Text) -> None:
    """``static`` shows ``text``, or is hidden if it is empty."""
    repaint(static, text)
    static.display = bool(text.plain)


def problem_text(problems: list[Problem], *, with_path: bool) -> Text:
    text = Text()
    for n, problem in enumerate(problems):
        mark = "✗" if problem.is_error else "!"
        where = f"{problem.path}: " if with_path and problem.path else ""
        text.append(("\n" if n else "") + f"{mark} {clean(where + problem.message)}",
                    style="red" if problem.is_error else "yellow")
    return text


def used(total: int, limit: int | None) -> str:
    """"272 points", or against a limit "272/1000 points"."""
    return f"{total}/{limit} points" if limit else plural(total, "point")


def points_summary(result: CheckResult, limit: int | None = None,
                   so_far: SoFar = (None, ())) -> str:
    """The points total (or the counts) in a few words: the narrow status line."""
    if not result.ok:
        report = so_far[0]
        return "points not counted" if report is None else f"{used(report.total, limit)} so far"
    if result.points is not None:
        return used(result.points.total, limit)
    if result.loaded is None:
        return "no points"
    units, models = result.loaded.counts()
    return f"{plural(units, 'unit')}, {plural(models, 'model')}"


def points_text(result: CheckResult, limit: int | None = None,
                so_far: SoFar = (None, ())) -> Text:
    """The points of each unit and the total (against ``limit``: used/limit, and what
    is left or how far over), or the counts of a ruleset without points. While there
    are errors only in some units, the others' points and the total so far, naming
    the units left out; with other errors, why there are none. The report's notes
    follow, as ``deathzap points`` prints them (the force file's ``expected_points``
    against the formula, DZ3-R17)."""
    report = result.points if result.ok else so_far[0]
    errors = sum(p.is_error for p in result.problems)
    if report is None and not result.ok:
        return Text(f"Points\nnot counted: {plural(errors, 'error')} to fix first",
                    style="dim")
    text = Text()
    if report is None:
        text.append("Counts (no points system)\n", style="bold")
        rows = list(result.counts)
        if result.loaded is not None:
            units, models = result.loaded.counts()
            rows = [("Units", units), ("Models", models), *rows]
        for label, count in rows:
            text.append(f"{clean(label, oneline=True)[:24]:<24}{count:>6}\n")
        return text
    text.append("Points" if result.ok else "Points so far", style="bold")
    text.append(f" (limit {limit})\n" if limit else "\n", style="bold")
    for unit in report.units:
        text.append(f"{clean(unit.name, oneline=True)[:24]:<24}{unit.points:>6}\n")
    if report.has_command:
        text.append(f"{'Command':<24}{report.command_points:>6}\n")
    total = f"{report.total}/{limit}" if limit else str(report.total)
    text.append(f"{'Total' if result.ok else 'Total so far':<20}{total:>10}", style="bold")
    text.append("\n")
    if limit:
        left = limit - report.total
        text.append(f"{left} left\n" if left >= 0 else f"{-left} over the limit\n",
                    style="" if left >= 0 else "bold red")
    if not result.ok:
        names = ", ".join(clean(n, oneline=True) for n in so_far[1])
        text.append(f"not counted: {names} ({plural(errors, 'error')} to fix)\n",
                    style="dim")
    for warning in report.warnings:
        text.append(f"! {clean(warning)}\n", style="yellow")
    for note in report.notes:
        text.append(f"{clean(note)}\n", style="italic")
    return text


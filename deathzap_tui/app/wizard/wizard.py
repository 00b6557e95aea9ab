"""The resolution wizard: pick what to do (only legal choices), then walk the
engine's steps one at a time.

It is handed a ``begin(intent) -> (token, Resolution)`` callback, so the same screen
serves a game (token = ``game.Action``), the set-up and a quick resolve outside any
game. It dismisses with the token once the player confirms the finished resolution,
or ``None`` if they cancel: cancelling changes nothing in the game but what the
action showed, which ``spend`` records (dice rolled stay rolled). Given ``keep`` (the
session's ``keep_action``), it keeps the action in progress with the save after
every change (``None``: there is none), so that quitting or a crash loses none of it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.reactive import Reactive
from textual.widget import Widget
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from deathzap_tui.app.common.dialogs import AskScreen
from deathzap_tui.app.common.inputs import SteadyInput
from deathzap_tui.app.common.keybar import KeyBar, sync_key_bars
from deathzap_tui.app.common.log import TailLog
from deathzap_tui.app.common.paint import repaint
from deathzap_tui.app.common.text import clean
from deathzap_tui.app.frames import OneFrameScreen, SteadyOptionList, SteadyStyles
from deathzap_tui.app.wizard.odds import OddsPanel, sync_odds
from deathzap_tui.headless import describe as d
from deathzap_tui.rules.ids import UnitId, side_of
from deathzap_tui.rules.ruleset import IntentOption
from deathzap_tui.rules.steps import (
    ROLL,
    Answer,
    Dice,
    DiceRequest,
    Question,
    Refused,
    Resolution,
    Step,
)

Begin = Callable[[Mapping[str, Any]], tuple[Any, Resolution]]

CHOICE_KEYS = "1234567890abcdefghijklmnopqrstuvwxyz"
"""The key of each option, by position, the same on every step: 1-9, 0, then letters
(none of them bound elsewhere in the wizard; the app's own keys are ctrl+q, ? and f1).
An option past the 36th has no key (arrows and Enter still reach it)."""


def choice_key(index: int) -> str:
    """The key that picks option ``index`` (0-based); "" past :data:`CHOICE_KEYS`."""
    return CHOICE_KEYS[index] if 0 <= index < len(CHOICE_KEYS) else ""


@dataclass
class _Pick:
    """One stage of choosing the intent: a title and (label, payload) options."""

    title: str
    options: list[tuple[str, Any]]


class Settled:
    """Mixin for the wizard's widgets: a size change found by a layout pass does not
    ask for another layout pass.

    Textual's ``Widget._size_updated`` sets the ``virtual_size`` reactive, which
    refreshes with ``layout=True``: every widget whose size a layout changed (a
    headline wrapping to two lines, the odds strip appearing, the history giving it
    room) asks for a second layout of the whole screen, drawn as a second frame a
    refresh period (~17-30 ms) later, though nothing moves in it. These widgets are
    not scroll containers and their heights were measured at their new widths in the
    first pass, so that pass is final: the key's changes are drawn in one frame."""

    def _size_updated(self, size: Any, virtual_size: Any, container_size: Any,
                      layout: bool = True) -> bool:
        return super()._size_updated(  # type: ignore[misc]
            size, virtual_size, container_size, layout=False)


class StepText(Settled, Static):
    """A line (or a few, wrapped) of the step box: who, headline, reason, feedback."""


class StepBox(Settled, Vertical):
    """The step box (fixed height but for the -picking and -done layouts)."""


class History(Settled, TailLog):
    """What this action has done so far. Once it is resolved the summary scrolls
    (↑/↓, PgUp/PgDn, Home/End), so that every roll can be read before confirming
    however few rows the terminal has (issue 26)."""

    back = 0
    """Wrapped rows scrolled back from the end (0: the tail, following new lines)."""

    def set_lines(self, lines: Iterable[Text]) -> None:
        self.back = 0
        super().set_lines(lines)

    def scroll_rows(self, rows: int) -> None:
        """Scroll ``rows`` rows back (negative: forward), within the summary."""
        most = len(self._rows()) - self.content_region.height
        self.back = max(0, min(self.back + rows, most))
        self.refresh()

    def _rows(self) -> list[Text]:
        width = max(1, self.content_region.width)
        return [row for line in self.lines for row in line.wrap(self.app.console, width)]

    def render(self) -> Text:
        if not self.back:
            return super().render()
        height = max(1, self.content_region.height)
        rows = self._rows()
        end = max(height, len(rows) - self.back)
        return Text("\n").join(rows[end - height:end])


class Odds(Settled, OddsPanel):
    """The odds panel (odds.py)."""


class StepInput(Settled, SteadyInput):
    """The dice / number input. The live feedback under it follows each typed
    character in the same frame: the screen watches its value (``WizardScreen.on_mount``),
    not the Changed message, which reaches the screen after the input has been drawn."""


class ConfirmBar(Settled, Static):
    """"Confirm" as plain text: Enter (a screen binding) or a click confirms. A
    Button would repaint the whole screen again for its press animation."""

    class Pressed(Message):
        """Clicked: confirm."""

    def on_click(self) -> None:
        self.post_message(self.Pressed())


class ChoiceList(SteadyOptionList):
    """The wizard's option list. Enter picks the highlighted option only when the
    list is ``armed``: the wizard disarms it when a rules question arrives in
    generated-dice mode, where Enter also rolls the dice, so an Enter pressed for a
    roll cannot answer the question that follows it. Moving the highlight (arrow
    keys, Home/End, paging) or the mouse arms it: that highlight is the player's."""

    MOVES: ClassVar[frozenset[str]] = frozenset(
        {"up", "down", "home", "end", "pageup", "pagedown"})

    class UnarmedEnter(Message):
        """Enter while the list is not armed: the screen says why nothing was picked."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.armed = True
        self._lines_width = 0
        """The width the options were last wrapped at; 0: not yet (they are wrapped
        when first drawn, at the width laid out)."""

    def fill(self, prompts: list[Text]) -> None:
        """Replace the options (a new step)."""
        self.clear_options()
        self._lines_width = self.scrollable_content_region.width
        self.add_options([Option(prompt) for prompt in prompts])

    def _on_resize(self, event: events.Resize) -> None:
        """Textual's OptionList drops its line and render caches on every resize and
        repaints: a second frame, after the one that drew the new size. The render
        cache was rebuilt by that frame anyway (``fill`` emptied it), and the lines
        hold while every option wraps to as many lines as before: keep them then
        (the step's headline took another line, the list was shown again)."""
        width = self.scrollable_content_region.width
        if not self._lines_width or width == self._lines_width or (
                self._wrapped_height(width) == self._wrapped_height(self._lines_width)):
            event.prevent_default()
        self._lines_width = width  # else Textual's handler rewraps them at this width

    def _wrapped_height(self, width: int) -> int:
        """Lines of all the options wrapped at ``width`` (an option never takes fewer
        lines at a smaller width, so equal totals mean every option's is equal)."""
        return self.get_content_height(self.size, self.size, width)

    def on_key(self, event: events.Key) -> None:
        if event.key in self.MOVES:
            self.armed = True

    def on_mouse_down(self) -> None:
        self.armed = True

    def action_select(self) -> None:
        if self.armed:
            super().action_select()
        else:
            self.post_message(self.UnarmedEnter())


STATE_STYLED: dict[str, tuple[str, ...]] = {
    "picking": ("wiz-step", "wiz-history"),
    "fresh": ("wiz-step",),
    "done": ("wiz-step", "wiz-history"),
}
"""The widgets (ids) wizard.tcss styles by each of the screen's state classes
(``-picking``, ``-fresh``, ``-done``): the only ones a change of that state styles
again (no rule styles the screen itself by them)."""
HIDDEN_WHEN_DONE = ("wiz-who", "wiz-feedback")
"""The widgets (ids) a resolved action does not show: hidden as ``-done`` is set, not
by a rule, since a restyle matches every rule against the widget again (two of the
four a followed action's ``-done`` restyled at every move, issue 24) where hiding it
only lays the step box out, as it is anyway."""


class WizardScreen(SteadyStyles, OneFrameScreen[Any]):
    VERTICAL_BREAKPOINTS: ClassVar[list[Any]] = [(0, "-tiny"), (24, "-short"), (32, "-tall")]
    """-tiny (under 24 rows): the step box takes what the history and odds leave."""
    HORIZONTAL_BREAKPOINTS: ClassVar[list[Any]] = [(0, "-narrow"), (120, "-wide")]
    """-wide: the odds panel is a side column (odds.py)."""
    HAND_OVER: ClassVar[bool] = True
    """One terminal for both players (hot seat, set-up, a quick resolve): a step for
    another side than the step answered before it says so in its "who" line, since
    the keyboard changes hands (a reaction, a defender's dice). A joined terminal
    (remote/wizard.py) is asked only its own player's steps."""
    AUTO_FOCUS: ClassVar[str | None] = ""
    """Nothing: each step focuses what it needs itself (:meth:`_draw`), and nothing
    while the wizard waits for another player or is resolved. Textual's auto focus
    (the first focusable widget, whenever the screen shows with nothing focused)
    focused the hidden choice list there: Enter and the arrows then went to it, not
    to Confirm and the summary, after any screen over the wizard closed; and a joined
    terminal opening the wizard on a step it waits for restyled the list twice a move
    for it (focused as it showed, unfocused as it opened again, issue 24)."""
    focused: Reactive[Widget | None] = Reactive(None, repaint=False)
    """As Textual's, without repainting the whole screen on a focus change (the list
    and the dice input take turns every few steps): the widgets that gain and lose
    focus repaint themselves (their Focus/Blur handlers and :focus styles), so the
    step is drawn in one frame, not a full-screen frame and then the step's own."""
    BINDINGS: ClassVar[list[Any]] = [
        Binding("escape", "back", "Back a step"),
        Binding("ctrl+x", "cancel", "Cancel action", priority=True),
        Binding("ctrl+r", "roll", "Roll for me", priority=True),
        Binding("ctrl+s", "confirm", "Confirm", priority=True),
        Binding("ctrl+o", "odds", "Odds chart", priority=True),
        Binding("enter", "confirm", "Confirm", show=False),
        *[Binding(key, action, show=False) for key, action in (
            ("up", "scroll_history(1)"), ("down", "scroll_history(-1)"),
            ("pageup", "page_history(1)"), ("pagedown", "page_history(-1)"),
            ("home", "page_history(1000)"), ("end", "page_history(-1000)"))],
        *[Binding(key, f"pick({i})", show=False) for i, key in enumerate(CHOICE_KEYS)],
    ]

    def __init__(self, **kw: Any) -> None:
        """Arguments as for :meth:`start`."""
        super().__init__()
        self.start(**kw)

    def start(self, *, title: str, begin: Begin,
              intents: Sequence[IntentOption] = (),
              started: tuple[Any, Resolution] | None = None,
              intent_label: str = "",
              unit_names: Mapping[str, str] | None = None,
              dice_mode: str = "physical", context: str = "",
              ruleset: Any = None, on_close: Callable[[Any], None] | None = None,
              records: bool = True, acting_side: str | None = None,
              keep: Callable[[Any], None] | None = None,
              spend: Callable[[Any], None] | None = None) -> None:
        """(Re)start the wizard on a new action. The battle screen keeps one wizard
        installed and restarts it for every action: removing a popped screen costs
        Textual two more layouts of the screen below (on top of mounting a new one),
        which would double the time from confirming an action to the updated board."""
        self.context = clean(context, oneline=True)
        self.wizard_title = clean(title, oneline=True)
        self.begin = begin
        self.intents = list(intents)
        self.unit_names = dict(unit_names or {})
        self.dice_mode = dice_mode
        self.records = records
        """Confirming records the action in the game (False: a quick resolve)."""
        self.odds_ruleset = ruleset
        """For the odds panel; ``None``: the session's (odds.py)."""
        self.on_close = on_close
        self.token: Any = None
        self.resolution: Resolution | None = None
        self.intent_label = clean(intent_label, oneline=True)
        self.acting_side = acting_side
        """The side taking the action (its :class:`IntentOption`'s ``side``): a first
        step for the other side hands the keys over from it."""
        self.keep = keep
        """Keeps the action in progress (the token) with the save; ``None``: nothing is
        kept (a quick resolve, an unsaved game, a table whose referee keeps it)."""
        self.spend = spend
        """Gives up an action begun here and records what it showed (the session's
        ``cancel``: dice rolled stay rolled, a turned card stays turned); ``None``:
        nothing is recorded (a quick resolve, a table whose referee does it)."""
        self._asking_to_quit = False
        self._states: dict[str, bool] | None = None
        """The state classes a redraw sets at its end (:meth:`_state`)."""
        self.asked: list[Step] = []
        self.chosen_unit: str | None = None
        self.pick: _Pick | None = None
        self.shown: Step | None = None
        """The step the choices on screen belong to (a redraw of the same step keeps
        the player's highlight)."""
        if started is not None:
            self.token, self.resolution = started
            # A resumed action comes with its answered steps (a remote one without).
            self.asked = list(getattr(self.resolution, "asked", ()))
            self._keep()
        if self.is_mounted:
            odds = self.query_one(OddsPanel)
            if odds.detail:
                odds.toggle_detail()
            self._show_first()

    # --- layout ---------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield StepText(id="wiz-title")
        yield History(id="wiz-history")
        yield Odds(id="wiz-odds")
        with StepBox(id="wiz-step"):
            yield StepText(id="wiz-who")
            yield StepText(id="wiz-headline")
            yield StepText(id="wiz-reason")
            yield ChoiceList(id="wiz-choices")
            yield StepInput(id="wiz-input", compact=True)
            yield StepText(id="wiz-feedback")
            yield ConfirmBar(Text(" ✔ Confirm (Enter) ", style="bold reverse green"),
                             id="wiz-confirm")
        yield KeyBar()

    def on_mount(self) -> None:
        self.watch(self.query_one("#wiz-input", StepInput), "value", self._live_feedback,
                   init=False)
        self._show_first()

    def _show_first(self) -> None:
        if self.resolution is None:
            self._start_pick()
        self._redraw()

    # --- picking the intent ---------------------------------------------------
    def _start_pick(self) -> None:
        units: dict[str, list[IntentOption]] = {}
        loose: list[IntentOption] = []
        for opt in self.intents:
            unit = opt.unit
            if unit is None:
                loose.append(opt)
            else:
                units.setdefault(unit, []).append(opt)
        # The unit chooser is shown even for one unit: skipping it would shift what
        # every later key answers ("a 1 2", issue 26).
        if self.chosen_unit is None and units:
            options = [(self._unit_label(u), ("unit", u)) for u in units]
            options += [(clean(o.label, oneline=True), ("intent", o)) for o in loose]
            self.pick = _Pick("Choose a unit", options)
        else:
            unit = self.chosen_unit or next(iter(units), None)
            opts = units.get(unit, []) if unit else loose
            title = f"Choose an action for {self._unit_label(unit)}" if unit else "Choose"
            self.pick = _Pick(title, [(clean(o.label, oneline=True), ("intent", o))
                                      for o in opts])

    def _unit_label(self, unit: str) -> str:
        """"RED  Squad 2"; a name its side uses twice gets the unit's place in the force
        ("RED  Squad (unit 3)"), never an internal id."""
        name = self.unit_names.get(unit, "")
        side = side_of(unit)
        label = f"{d.side_label(side)}  {clean(name, oneline=True)}".rstrip()
        twins = [u for u, n in self.unit_names.items() if n == name and side_of(u) == side]
        try:
            index = UnitId.parse(unit).index
        except ValueError:
            return label
        return f"{label}  (unit {index + 1})" if len(twins) > 1 else label

    def _picked(self, payload: Any) -> None:
        kind, value = payload
        if kind == "unit":
            # A unit with a single action still shows it, to be picked like any other:
            # skipping it would shift what the next key answers (issue 11).
            self.chosen_unit = value
            self._start_pick()
            self._redraw()
            return
        opt: IntentOption = value
        try:
            self.token, self.resolution = self.begin(opt.intent)
        except Refused as exc:
            self._feedback(str(exc), error=True)
            return
        except Exception as exc:  # an engine bug must not end the evening's game
            self._feedback(f"internal error: {exc!r}", error=True)
            return
        self.intent_label = clean(opt.label, oneline=True)
        self.acting_side = opt.side
        self.asked = []
        self.pick = None
        self._keep()
        self._redraw()

    # --- rendering ------------------------------------------------------------
    def _redraw(self) -> None:
        """Show where the action stands. One key, one frame: every widget is updated
        here, in this handler, and Textual draws them together when the screen next
        goes idle. Focus moves with ``set_focus`` now (``widget.focus()`` waits for
        a hop through the app's queue, and its Focus/Blur repaints could arrive just
        after that frame and cost another). The screen's state classes change once,
        at the end (:meth:`_state`)."""
        self._states = {}
        try:
            self._draw()
        finally:
            states, self._states = self._states, None
            self._state(**states)

    def _state(self, **states: bool) -> None:
        """Set the screen's state classes (``done=True``: ``-done``; ``picking``,
        ``fresh``) in one change, or during :meth:`_redraw` at its end: every change
        of the screen's classes styles each of its widgets again, as costly as the
        rest of a step, and opening the unit chooser after an action changed three."""
        if self._states is not None:
            self._states.update(states)
            return
        changed = sorted(name for name, value in states.items()
                         if self.has_class(f"-{name}") != value)
        if not changed:
            return
        self.add_class(*(f"-{name}" for name in changed if states[name]), update=False)
        self.remove_class(*(f"-{name}" for name in changed if not states[name]), update=False)
        if "done" in changed:
            for name in HIDDEN_WHEN_DONE:
                self._by_id[name].display = not states["done"]
        styled = dict.fromkeys(self._by_id[name] for state in changed
                               for name in STATE_STYLED[state])
        self.app.stylesheet.update_nodes(styled, animate=True)

    def _draw(self) -> None:
        step = self.resolution.step if self.resolution is not None else None
        if self._redraw_other(step):
            return
        title = self.wizard_title
        if self.intent_label:
            title = f"{title} — {self.intent_label}" if title else self.intent_label
        elif self.context:
            title = f"{title} — {self.context}" if title else self.context
        # Whole, on a second line if long (issue 22: a Classic melee's names were cut).
        repaint(self.query_one("#wiz-title", Static), Text(title))
        choices = self.query_one("#wiz-choices", ChoiceList)
        inp = self.query_one("#wiz-input", Input)
        confirm = self.query_one("#wiz-confirm", ConfirmBar)
        who = self.query_one("#wiz-who", Static)
        headline = self.query_one("#wiz-headline", Static)
        reason = self.query_one("#wiz-reason", Static)
        self._feedback("")
        self._render_history()
        sync_odds(self, self._odds_panel, self._history)
        self._state(picking=self.resolution is None)
        if self.resolution is None:
            self._state(done=False)
            pick = self.pick or _Pick("Nothing can be done now", [])
            repaint(who, "")
            repaint(headline, Text(pick.title, style="bold"))
            repaint(reason, Text("Only what the rules allow now is offered.", style="dim"))
            self._fill_choices(choices, [label for label, _ in pick.options])
            choices.armed = True
            self.shown = None
            choices.display, inp.display, confirm.display = True, False, False
            self.set_focus(choices)
            self._sync_bindings()
            return
        self._state(done=step is None)
        if step is None:
            repaint(who, "")
            repaint(headline, Text("Resolved. Confirm to record it." if self.records else
                                   "Resolved. Confirm to see the result (nothing is "
                                   "recorded or saved).", style="bold"))
            rolled = self.records and any(isinstance(a, Dice) and a.generated
                                          for a in self.resolution.answers)
            repaint(reason, Text("↑/↓ scroll · Esc goes back a step · ctrl+x cancels "
                                 + ("(dice stay rolled)." if rolled
                                    else "(nothing changes)."), style="dim"))
            self.shown = None
            choices.display, inp.display, confirm.display = False, False, True
            self.set_focus(None)
            self._sync_bindings()
            return
        repaint(who, self._who_line(step))
        repaint(headline, Text(d.step_headline(step), style="bold"))
        repaint(reason, Text(d.step_reason(step), style="italic"))
        confirm.display = False
        if isinstance(step, Question) and step.choices:
            labels = []
            for c in step.choices:
                label = clean(c.label, oneline=True)
                if c.detail:
                    label += f" — {clean(c.detail, oneline=True)}"
                labels.append(label)
            same = step is self.shown
            kept = choices.highlighted
            self._fill_choices(choices, labels)
            default = next((i for i, c in enumerate(step.choices)
                            if step.default is not None and c.value == str(step.default)), 0)
            choices.highlighted = kept if same and kept is not None else default
            if not same:
                choices.armed = self.dice_mode != "generated"
            choices.display, inp.display = True, False
            self.set_focus(choices)
        else:
            choices.display, inp.display = False, True
            inp.value = ""
            if isinstance(step, DiceRequest):
                roll_hint = "Enter rolls for you" if self.dice_mode == "generated" else \
                    "ctrl+r (or r, Enter) rolls for you"
                inp.placeholder = f"dice, e.g. 3 5 6 or 356 — {roll_hint}"
            else:
                inp.placeholder = d.number_range(step) or "a whole number"
                if step.default is not None:
                    inp.placeholder += f" (Enter for {step.default})"
            self.set_focus(inp)
            self._live_feedback("")
        self.shown = step
        self._sync_bindings()

    def _redraw_other(self, step: Any) -> bool:
        """Draw ``step`` some other way and return True, or False to draw it as a step
        to answer here. ``step`` is read once per redraw and passed on: a remote
        resolution's step may change under the app at any moment (a joined
        terminal's wizard draws another player's step as "waiting")."""
        return False

    def _who_line(self, step: Step) -> Text | str:
        """"BLACK answers": who answers the step; on a shared terminal, when that
        side is not the one that answered the step before (before the first step:
        the side taking the action), "⇄ RED hands over to BLACK" follows, so that
        the other player takes the keys (:data:`HAND_OVER`)."""
        words = d.who(step)
        if not words:
            return ""
        line = Text(words, style="bold reverse")
        side = getattr(step, "side", None)
        before = next((s.side for s in reversed(self.asked) if getattr(s, "side", None)),
                      self.acting_side)
        if self.HAND_OVER and before and side and before != side:
            line.append(f"  ⇄ {d.side_label(before)} hands over to {d.side_label(side)}",
                        style="bold")
        return line

    def _fill_choices(self, choices: ChoiceList, labels: list[str]) -> None:
        choices.fill([Text(f"{choice_key(i) or ' '}  {label}") for i, label in enumerate(labels)])
        if labels:
            choices.highlighted = 0

    def _render_history(self) -> None:
        """What has happened in this action so far, newest at the bottom; the notes
        of the last answer marked ▶ (what that step did)."""
        lines: list[Text] = []
        res = self.resolution
        if res is None:
            if self.chosen_unit:
                lines.append(Text(f"Unit: {self._unit_label(self.chosen_unit)}", style="bold"))
            self._show_history(lines)
            return
        notes = res.ctx.notes
        n = len(res.answers)
        for k in range(n + 1):
            latest = k == n and n > 0
            for note in notes:
                if note.after == k:
                    lines.append(Text(("▶ " if latest else "  ") + clean(note.text),
                                      style="bold" if latest else ""))
            if k < n and k < len(self.asked):
                lines.append(Text(f"  ✓ {d.answer_line(self.asked[k], res.answers[k])}",
                                  style="dim"))
        self._show_history(lines)

    def _show_history(self, lines: list[Text]) -> None:
        """The history box holds ``lines``. With none (an action just begun) it is not
        shown and the step box takes its room (-fresh), rather than a box saying
        nothing happened yet (issue 22)."""
        history = self._history
        history.display = bool(lines)
        self._state(fresh=not lines)
        history.set_lines(lines)

    def _feedback(self, message: str, *, error: bool = False) -> None:
        style = "bold" if error else ""
        prefix = "✗ " if error and message else ""
        repaint(self.query_one("#wiz-feedback", Static), Text(prefix + clean(message), style=style))
        self.query_one("#wiz-feedback", Static).set_class(error, "error")

    def _live_feedback(self, value: str) -> None:
        step = self.resolution.step if self.resolution else None
        if isinstance(step, DiceRequest):
            ok, msg = d.dice_feedback(value, step)
            if not value.strip() and self.dice_mode == "generated":
                ok, msg = True, "Enter: roll for me — or type the dice rolled at the table"
            self._feedback(msg, error=ok is False and bool(value.strip()))
        elif isinstance(step, Question):
            ok, msg = d.number_feedback(value, step)
            self._feedback(msg, error=not ok and bool(value.strip()))

    # --- answering ------------------------------------------------------------
    def answer(self, answer: Answer) -> bool:
        """Feed one answer to the resolution; show the refusal if any."""
        res = self.resolution
        if res is None or res.step is None:
            return False
        step = res.step
        try:
            res.answer(answer)
        except Refused as exc:  # the resolution is where it was: keep the input
            self._feedback(str(exc), error=True)
            return False
        except Exception as exc:  # an engine bug must not end the evening's game
            res.replay(list(res.answers))
            self._feedback(f"internal error, answer not taken: {exc!r}", error=True)
            return False
        self.asked.append(step)
        self._keep()
        self._redraw()
        return True

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        step = self.resolution.step if self.resolution else None
        text = event.value.strip()
        if isinstance(step, DiceRequest):
            if d.asks_roll(text) or (not text and self.dice_mode == "generated"):
                self.answer(ROLL)
            elif not text:
                self._feedback(d.dice_feedback("", step)[1] + "; or r to roll for me",
                               error=True)
            else:
                self.answer(text)
        elif isinstance(step, Question):
            # An empty Enter takes the default, with generated dice too (issue 26).
            if not text and step.default is not None:
                self.answer(step.default)
            elif not text:
                self._feedback(d.number_feedback("", step)[1], error=True)
            else:
                self.answer(text)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._choose(event.option_index)

    def on_confirm_bar_pressed(self, event: ConfirmBar.Pressed) -> None:
        self.action_confirm()

    def on_choice_list_unarmed_enter(self, event: ChoiceList.UnarmedEnter) -> None:
        """Enter on a question's list as it arrived (generated dice): say how to answer."""
        self._feedback(f"Enter does not answer this for you: press {self._key_range()}, "
                       "or move with ↑/↓ first", error=True)

    def _key_range(self) -> str:
        """The keys of the options shown, in words: "1-4", "1-9, 0, a-c"."""
        n = min(self.query_one("#wiz-choices", ChoiceList).option_count, len(CHOICE_KEYS))
        runs = [(0, min(n, 9)), (9, min(n, 10)), (10, n)]
        return ", ".join(choice_key(lo) if hi - lo == 1 else
                         f"{choice_key(lo)}-{choice_key(hi - 1)}" for lo, hi in runs if hi > lo)

    def _choose(self, index: int) -> None:
        if self.resolution is None:
            if self.pick and 0 <= index < len(self.pick.options):
                self._picked(self.pick.options[index][1])
            return
        step = self.resolution.step
        if isinstance(step, Question) and step.choices and 0 <= index < len(step.choices):
            self.answer(step.choices[index].value)

    # --- actions --------------------------------------------------------------
    def _sync_bindings(self) -> None:
        """Refresh the key bar only when what it shows changes."""
        sync_key_bars(self, ("roll", "confirm", "odds"))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        step = self.resolution.step if self.resolution else None
        if action == "roll":
            return isinstance(step, DiceRequest)
        if action in ("confirm", "scroll_history", "page_history"):
            return self.resolution is not None and step is None
        if action == "odds":
            return self._odds_panel.display and not self.has_class("-wide")
        if action == "pick":
            return self.focused is not self._step_input
        return True

    # Looked up once: check_action asks for them for each of the ~50 bindings every
    # time the bindings are read (the key bar, each key), every redraw syncs the odds
    # with the history, and the wizard is kept.
    @cached_property
    def _step_input(self) -> StepInput:
        return self.query_one("#wiz-input", StepInput)

    @cached_property
    def _odds_panel(self) -> OddsPanel:
        return self.query_one(OddsPanel)

    @cached_property
    def _history(self) -> History:
        return self.query_one("#wiz-history", History)

    @cached_property
    def _by_id(self) -> dict[str, Widget]:
        """The widgets a state class styles or hides, by id (:meth:`_state`)."""
        names = {*HIDDEN_WHEN_DONE, *(n for names in STATE_STYLED.values() for n in names)}
        return {name: self.query_one(f"#{name}") for name in names}

    def action_odds(self) -> None:
        """ctrl+o: the odds panel's chart in the history's place, or back."""
        self.query_one(OddsPanel).toggle_detail()
        self._redraw()

    def action_pick(self, index: int) -> None:
        self._choose(index)

    def action_scroll_history(self, rows: int) -> None:
        """Scroll the resolved action's summary ``rows`` rows back (-: forward)."""
        self.query_one(History).scroll_rows(rows)

    def action_page_history(self, pages: int) -> None:
        """Scroll the summary ``pages`` pages (a page less a row) back (-: forward)."""
        history = self.query_one(History)
        history.scroll_rows(pages * max(1, history.content_region.height - 1))

    def action_roll(self) -> None:
        self.answer(ROLL)

    def action_confirm(self) -> None:
        if self.resolution is not None and self.resolution.done:
            self.close(self.token)

    def action_back(self) -> None:
        res = self.resolution
        if res is not None and res.answers:
            try:
                res.back()
            except Refused as exc:  # generated dice are not taken back
                self._feedback(str(exc), error=True)
                return
            self.asked = self.asked[: len(res.answers)]
            self._keep()
            self._redraw()
            return
        if res is not None and self.intents:
            # Back out of the steps to the choice of action.
            self._give_up()
            self.resolution, self.token, self.intent_label = None, None, ""
            self._keep()
            self._start_pick()
            self._redraw()
            return
        if res is None and self.chosen_unit is not None:
            self.chosen_unit = None
            self._start_pick()
            if self.pick and self.pick.title != "Choose a unit":
                self.close(None)
                return
            self._redraw()
            return
        self.close(None)

    def close(self, result: Any) -> None:
        """Dismiss with ``result`` (the token, or ``None``: cancelled). ``on_close``
        gets it first, while this screen still covers the board: what it changes
        there is then drawn once, as the board comes back. (Given to a dismiss
        callback, which runs after the pop, Textual would draw the board twice.)"""
        if result is None:
            self._give_up()
            self.token = None
            self._keep()  # cancelled: nothing in progress any more
        if self.on_close is not None:
            self.on_close(result)
        self.dismiss(result)

    def action_cancel(self) -> None:
        self.close(None)

    def _give_up(self) -> None:
        """The action in progress is dropped (cancelled, or backed out of to the
        choice of action): ``spend`` records what it showed, as at a table."""
        if self.token is not None and self.spend is not None:
            self.spend(self.token)

    # --- keeping the action in progress -----------------------------------------
    def _keep(self) -> None:
        """Keep the action as it stands now (``keep``): every answer, step back,
        begin and cancel is on disk before the next key is read."""
        if self.keep is None:
            return
        try:
            self.keep(self.token)
        except OSError as exc:
            self.app.notify(f"The action in progress could not be kept with the save "
                            f"({exc.strerror or exc}): quitting now would lose it.",
                            severity="warning", markup=False, timeout=8)

    def kept_where(self) -> str:
        """What becomes of the action in progress if the app quits now."""
        if self.keep is not None:
            return ("It is kept with the save: resuming the game comes back to this "
                    "step, with the answers and dice given so far.")
        return "It is not saved anywhere: quitting now loses it."

    def ask_before_quit(self) -> None:
        """ctrl+q (``DeathzapApp.action_quit``) in the middle of an action of the game
        says what becomes of it and asks first; otherwise the app quits. While the
        question is open, asking again does nothing."""
        if not self.records or self.resolution is None:
            self.app.exit()
            return
        if self._asking_to_quit:
            return
        def answered(value: str | None) -> None:
            self._asking_to_quit = False
            if value == "quit":
                self.app.exit()

        self._asking_to_quit = True
        what = f" ({self.intent_label})" if self.intent_label else ""
        self.app.push_screen(AskScreen(
            "Quit in the middle of an action?",
            f"The action in progress{what} is not recorded yet. {self.kept_where()}",
            [("y", "quit", "quit"), ("n", "stay", "stay")]), answered)

"""The battle screen: the deck or the phase track, both sides' units, score, log;
keys that drive the game.

Everything shown comes from ``session.view()`` (a ``BoardView``) and what can be done
from ``session.intents()``. The keys follow the intents' groups, never their types:
``d`` the ADVANCE intent (labelled by ``view.advance_label``), ``a`` the UNIT ones,
``e`` END, ``o`` OTHER, ``n`` SETUP. One key press refreshes every widget once, in
the same message handler, so Textual repaints once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from deathzap_tui.app.battle.clock import ClockWidget
from deathzap_tui.app.battle.deck import DeckWidget
from deathzap_tui.app.battle.hand import HandWidget
from deathzap_tui.app.battle.hidden import HiddenHands
from deathzap_tui.app.battle.score import ScoreWidget, render_score
from deathzap_tui.app.battle.unitcard import UnitCardScreen
from deathzap_tui.app.battle.units import UnitTable
from deathzap_tui.app.common.dialogs import AskScreen
from deathzap_tui.app.common.help import TextScreen
from deathzap_tui.app.common.keybar import KeyBar, sync_key_bars
from deathzap_tui.app.common.log import EventLog
from deathzap_tui.app.common.messages import DiceMode, GameOver
from deathzap_tui.app.common.paint import repaint
from deathzap_tui.app.common.text import clean
from deathzap_tui.app.frames import ChangedRegions, OneFrameScreen, SteadyStyles
from deathzap_tui.app.wizard.wizard import WizardScreen
from deathzap_tui.gamestore import StoreError
from deathzap_tui.headless.describe import side_label
from deathzap_tui.headless.flow import in_group
from deathzap_tui.headless.hidden import board_options, shared, terminal_side
from deathzap_tui.rules.game import NARRATED_TAIL
from deathzap_tui.rules.ruleset import (
    ADVANCE,
    END,
    SETUP,
    SIDES,
    UNIT,
    BoardView,
    IntentOption,
    UnitRow,
)
from deathzap_tui.rules.steps import Refused

if TYPE_CHECKING:
    from deathzap_tui.session import Session

_T = TypeVar("_T")

GROUP_KEYS = {"advance": ADVANCE, "unit": UNIT, "setup": SETUP, "end": END}
"""The battle screen's actions that play an intent group (``o`` is OTHER: whatever
no other key covers)."""


REFUSED_ALOUD = frozenset({*GROUP_KEYS, "other", "undo", "redo", "hand"})
"""The game keys that say why when they do not apply now (``BattleScreen.why_not``)."""


LOG_EVENTS = 200
"""The log beside the board tells the last this-many events in force (far more lines
than it can show); the whole game is on the log screen (``l``). A resumed game need not
narrate its older events to start (issue 11)."""


class BattleScreen(ChangedRegions, SteadyStyles, OneFrameScreen[None]):
    HORIZONTAL_BREAKPOINTS: ClassVar[list[Any]] = [(0, "-narrow"), (110, "-wide")]
    BINDINGS: ClassVar[list[Any]] = [
        Binding("d", "advance", "Draw card"),  # shown as view.advance_label
        # "Activate": the word of the card editions' rules, and fair for any unit
        # acting (moving, shooting...) in a turn-based one.
        Binding("a", "unit", "Activate"),
        Binding("c", "card", "Unit card"),  # of the selected row (up, down)
        Binding("n", "setup", "Set-up step"),
        Binding("u", "undo", "Undo"),
        Binding("m", "dice_mode", "Dice"),
        Binding("e", "end", "End game"),
        Binding("o", "other", "Other"),  # actions no other key covers
        # At 80 columns the key bar has room up to here, and quit (keybar.PINNED).
        Binding("r", "redo", "Redo"),
        Binding("l", "whole_log", "Log"),
        Binding("h", "hand", "Hand"),
        Binding("s", "score_page", "Score page", show=False),  # the panel's "more: s"
        Binding("up", "select(-1)", "Previous unit", show=False),
        Binding("down", "select(1)", "Next unit", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.view: BoardView | None = None
        self.options: list[IntentOption] = []
        self.game_over_shown = False
        self.hidden = HiddenHands(self)
        self._wizard: WizardScreen | None = None
        self._spent = False
        """The wizard's action was given up after showing chance (``spend``)."""
        self.advance_label = ""
        """The advance key's label, from the view ("Draw card", "Next phase")."""
        self._logs: tuple[EventLog, ...] = ()
        self.selected = ""
        """The unit whose row is selected (up and down) for its card (``c``); "" until
        the player picks one: then the first that may act (:meth:`selected_unit`)."""

    @property
    def session(self) -> Session:
        return self.app.session  # type: ignore[attr-defined,no-any-return]

    @property
    def watching(self) -> bool:
        """A read-only watcher's board: it shows the game and offers no move."""
        return bool(getattr(self.session, "read_only", False))

    def save_label(self) -> Text:
        """The right end of the prompt line: the dice mode and which save this is, or
        that this board only watches the save."""
        session = self.session
        path = getattr(session, "path", None) or getattr(session, "source", None)
        name = clean(path.stem, oneline=True) if path is not None else ""
        if self.watching:
            return Text(f"watching {name} (read only)", style="bold reverse")
        label = Text(f"dice: {self.app.dice_mode}", style="dim")  # type: ignore[attr-defined]
        if name:
            label.append(f" · save: {name}")
        return label

    def compose(self) -> ComposeResult:
        with Horizontal(id="top"):
            yield Static(id="prompt")
            yield Static(id="save-name")
        with Horizontal(id="main"):
            with Vertical(id="tables"):
                yield UnitTable("red", id="units-red")
                yield UnitTable("black", id="units-black")
                yield HandWidget(id="hand", compact=True)  # one side only: hidden.py
                yield EventLog(id="log-wide", classes="wide-only")
            with Vertical(id="side"):
                yield ClockWidget(id="clock")
                yield DeckWidget(id="deck")
                yield ScoreWidget(id="score")
                yield EventLog(id="log-narrow", classes="narrow-only")
        yield KeyBar()

    def on_mount(self) -> None:
        self.log_replace(self.session.narrative(last=LOG_EVENTS))
        self.refresh_board()

    # --- showing --------------------------------------------------------------
    def refresh_board(self) -> None:
        session = self.session
        view = session.view()
        self.view = view
        # A shared terminal lists no secret decision: the cover screen offers it.
        self.options = [] if view.over else board_options(session, view, session.intents())
        self.show_tables(view)
        self.query_one(ClockWidget).show(view.clock)
        self.query_one(DeckWidget).show(view.deck)
        self.query_one(ScoreWidget).show(view)
        prompt = Text(clean(view.result if view.over else view.prompt, oneline=True),
                      style="bold")
        if prompt != getattr(self, "_last_prompt", None):  # whole, on more lines if long
            self._last_prompt = prompt
            repaint(self.query_one("#prompt", Static), prompt)
        label = self.save_label()
        if label != getattr(self, "_last_label", None):  # its width may change: layout
            self._last_label = label
            self.query_one("#save-name", Static).update(label)
        self.hidden.refresh(view)
        self.follow_cards(view)
        self.advance_label = clean(view.advance_label, oneline=True)
        self._sync_bindings()
        if view.over and not self.game_over_shown:
            self.game_over_shown = True
            # Later: a wizard closing (WizardScreen.close) is still on top just now.
            self.post_message(GameOver())
        elif not view.over:
            self.game_over_shown = False

    def board_rows(self, view: BoardView | None = None) -> list[UnitRow]:
        """Every unit on the board, in its order (red's table, then black's)."""
        view = view or self.view or self.session.view()
        return [row for side in SIDES for row in view.units.get(side, ())]

    def selected_unit(self, view: BoardView | None = None) -> str:
        """The selected row's unit: the one picked while it is on the board, else the
        first that may act, else the first."""
        rows = self.board_rows(view)
        if any(row.id == self.selected for row in rows):
            return self.selected
        first = next((r for r in rows if r.ready and not r.gone), rows[0] if rows else None)
        return first.id if first is not None else ""

    def action_select(self, step: int) -> None:
        """Move the selected row up or down, across both tables."""
        rows = self.board_rows()
        if not rows:
            return
        ids = [row.id for row in rows]
        at = ids.index(self.selected_unit())
        self.selected = ids[(at + step) % len(ids)]
        if self.view is not None:
            self.show_tables(self.view)

    def action_card(self, unit_id: str = "") -> None:
        """The card of ``unit_id`` (the selected row's by default)."""
        view = self.view or self.session.view()
        rows = self.board_rows(view)
        if rows:
            self.app.push_screen(UnitCardScreen(view.columns, rows,
                                                unit_id or self.selected_unit(view)))

    def follow_cards(self, view: BoardView | None = None) -> None:
        """Unit cards open over this board show their units as ``view`` (the
        session's now, by default) has them (issue 22: a card showed the unit as it
        was when opened)."""
        cards = [s for s in self.app.screen_stack if isinstance(s, UnitCardScreen)]
        if cards:
            view = view or self.session.view()
            for card in cards:
                card.follow(view.columns, self.board_rows(view))

    def show_tables(self, view: BoardView) -> None:
        """Both sides' unit tables, the selected row marked."""
        game = self.session.game
        names = {"red": getattr(game.red, "name", ""), "black": getattr(game.black, "name", "")}
        for side in SIDES:
            self.query_one(f"#units-{side}", UnitTable).show(
                view.columns, view.units.get(side, ()), names[side], view.score.get(side),
                view.score_label, view.column_hints, self.selected_unit(view))

    def logs(self) -> tuple[EventLog, ...]:
        """The two logs: beside the deck on narrow terminals, under the tables on wide
        ones. Looked up once (a joined terminal writes to them at every push)."""
        if not self._logs:
            self._logs = tuple(self.query(EventLog))
        return self._logs

    def log_replace(self, lines: list[str]) -> None:
        """Show ``lines`` in the logs, rewriting only where they differ from what is
        shown (a watcher's or a shared table's narrative that moved on)."""
        for log in self.logs():
            log.replace(lines)

    def unit_names(self) -> dict[str, str]:
        view = self.view or self.session.view()
        return {row.id: row.name for rows in view.units.values() for row in rows}

    def in_group(self, *groups: str) -> list[IntentOption]:
        """The options on the board now of the given intent groups."""
        return in_group(self.options, *groups)

    # --- acting ---------------------------------------------------------------
    def _sync_bindings(self) -> None:
        """Refresh the key bar only when what it shows changes."""
        sync_key_bars(self, (*GROUP_KEYS, "other", "undo", "redo", "hand"),
                      (self.advance_label,))

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        """Textual's, with the advance key described by the view's label (so the key
        bar and the keys panel say what it does in this ruleset, at this moment)."""
        out = super().active_bindings
        for key, active in out.items():
            if active.node is self and active.binding.action == "advance" \
                    and self.advance_label:
                out[key] = active._replace(
                    binding=dataclasses.replace(active.binding, description=self.advance_label))
        return out

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.watching:  # only looking: the log, the rules and the units' cards
            return action in ("whole_log", "card", "select", "score_page")
        if self.view is None:
            return True
        if action in GROUP_KEYS:
            if self.in_group(GROUP_KEYS[action]):
                return True
            # The set-up key only appears during the set-up; the others keep their
            # place in the key bar, dimmed while they do not apply (issue 22).
            return False if action == "setup" else None
        if action == "other":  # kept in its place, dimmed while it does not apply
            return True if self._others() else None
        if action == "hand":  # only where there are secret lines (hidden.py)
            return self.hidden.available()
        if action == "undo":
            return True if self.session.can_undo else None
        if action == "redo":
            return True if self.session.can_redo else None
        return True

    def on_key(self, event: events.Key) -> None:
        """A key whose action does not apply now says why (Textual passes over a
        disabled binding without a word): every key acts or explains (issue 26).
        Runs before the screen's bindings, so an action that applies is left to
        them."""
        for binding in self._bindings.key_to_bindings.get(event.key, ()):
            if binding.action in REFUSED_ALOUD and \
                    self.check_action(binding.action, ()) is not True:
                event.stop()
                event.prevent_default()
                self._error(self.why_not(binding.action))
                return

    def why_not(self, action: str) -> str:
        """Why the game key of ``action`` does nothing now, in the player's words."""
        view = self.view
        if self.watching:
            return "this board only watches the game: moves are made on another terminal"
        if view is None:
            return "the board is not ready yet"
        if action == "undo":
            return "nothing to undo"
        if action == "redo":
            return "nothing to redo (only what was just undone can come back)"
        if action == "hand":
            return "there are no secret cards or hands in this game"
        if view.over:
            return "the game is over: undo (u) takes back the last action"
        if action == "setup":
            return f"the set-up is done{self._what_now()}"
        if view.secret_turn and shared(self.session):
            # The secret decision is off the board: only the cover offers it.
            return (f"{side_label(view.secret_turn)} decides in secret first: press h, "
                    "pass the terminal and choose there")
        if self.in_group(SETUP):
            return f"finish the set-up first: n plays the next step{self._what_now(keys=False)}"
        hint = self._what_now()
        if action == "advance":
            return f"not yet{hint}"
        if action == "unit":
            return f"no unit can act now{hint}"
        if action == "end":
            return f"the rules offer no end by agreement now{hint}"
        return f"no other action now{hint}"

    def _what_now(self, keys: bool = True) -> str:
        """" — <the board's prompt> (<the keys that move the game now>)" for a
        refusal, so that it says what to do instead."""
        view = self.view
        prompt = clean(view.prompt, oneline=True) if view is not None else ""
        usable = [f"{self.app.get_key_display(active.binding)} "
                  f"{active.binding.description.lower()}"
                  for active in self.active_bindings.values()
                  if keys and active.node is self and active.enabled
                  and active.binding.action in ("unit", "advance", "setup", "other")]
        return ((f" — {prompt}" if prompt else "")
                + (f" ({', '.join(usable)})" if usable else ""))

    def _error(self, message: str) -> None:
        self.app.notify(clean(message), title="Not allowed", severity="warning",
                        markup=False)

    def run_intent(self, option: IntentOption) -> None:
        """Begin an intent; commit at once if it asks nothing, else open the wizard."""
        try:
            action = self.session.begin(option.intent)
        except Refused as exc:
            self._error(str(exc))
            return
        if action.resolution.done:
            self.commit(action)
            return
        self.open_wizard(started=(action, action.resolution), label=option.label,
                         side=option.side)

    def open_wizard(self, *, intents: list[IntentOption] | None = None,
                    started: tuple[Any, Any] | None = None, label: str = "",
                    side: str | None = None) -> None:
        def begin(intent: Mapping[str, Any]) -> tuple[Any, Any]:
            action = self.session.begin(intent)
            return action, action.resolution

        kw = dict(title=self.session.ruleset.title, begin=begin, intents=intents or (),
                  started=started, intent_label=label, unit_names=self.unit_names(),
                  dice_mode=self.app.dice_mode,  # type: ignore[attr-defined]
                  context=self.view.prompt if self.view else "", on_close=self._wizard_done,
                  acting_side=side, keep=getattr(self.session, "keep_action", None),
                  spend=self.spend if hasattr(self.session, "cancel") else None)
        # One wizard per battle screen, installed so that Textual keeps it when it is
        # popped: restarting it is much cheaper than mounting and removing a new one.
        if self._wizard is None:
            self._wizard = self.wizard(**kw)
            self.app.install_screen(self._wizard, f"wizard-{id(self)}")
        else:
            self._wizard.start(**kw)
        self.app.push_screen(self._wizard)

    def wizard(self, **kw: Any) -> WizardScreen:
        """The wizard screen ``open_wizard`` pushes (JoinedBattleScreen: a shared table's)."""
        return WizardScreen(**kw)

    def on_unmount(self) -> None:
        wizard, self._wizard = self._wizard, None
        if wizard is not None and wizard not in self.app.screen_stack:
            self.app.uninstall_screen(wizard)
            wizard.remove()

    def _wizard_done(self, action: Any) -> None:
        spent, self._spent = self._spent, False
        if action is None:
            if not spent:
                self.app.notify("Cancelled: nothing changed.", markup=False, timeout=2)
            return
        self.commit(action)

    def spend(self, action: Any) -> None:
        """The wizard gave ``action`` up: what it showed stays spent, as at a table
        (``Session.cancel``), and the log says so."""
        done = self._attempt(lambda: self.session.cancel(action))
        if done is not None and done[0] is not None:
            self._spent = True
            self.app.notify("Cancelled: what the action showed stays shown (see the log).",
                            markup=False, timeout=3)
            self.committed(action)

    def commit(self, action: Any) -> None:
        if self._attempt(lambda: self.session.commit(action)) is not None:
            self.committed(action)

    def _attempt(self, call: Callable[[], _T]) -> tuple[_T] | None:
        """``(call(),)`` for a session call that may be refused or fail to save; ``None``
        when it was refused (the reason shown) or the save failed (the game stops:
        :meth:`_unsaved`)."""
        try:
            return (call(),)
        except Refused as exc:
            self._error(str(exc))
        except (OSError, StoreError) as exc:
            self._unsaved(exc)
        return None

    def _unsaved(self, exc: Exception) -> None:
        """The save could not be written (disk full, file replaced...): the game stops
        here with the reason and a non-zero exit, rather than play on unsaved. The save
        holds every event before this one, so nothing acknowledged is lost."""
        where = getattr(self.session, "path", None) or "the game"
        self.app.exit(return_code=1, message=clean(
            f"deathzap: could not save {where}: {exc}. The save holds everything before "
            "this action; resume it once it can be written."))

    def committed(self, action: Any) -> None:
        """After ``commit``: the notes this terminal may see join the log."""
        lines = self.session.last_lines(terminal_side(self.session))
        for log in self.logs():
            log.add(lines)
        self.refresh_board()

    def _play_group(self, group: str) -> None:
        """Play the group's one option at once; offer a choice if there are several."""
        opts = self.in_group(group)
        if len(opts) == 1:
            self.run_intent(opts[0])
        elif opts:
            self.open_wizard(intents=opts)

    def action_advance(self) -> None:
        self._play_group(ADVANCE)

    def action_setup(self) -> None:
        self._play_group(SETUP)

    def action_end(self) -> None:
        """End the game once the player says yes (issue 22: one stray key must not
        end a game)."""
        opts = self.in_group(END)
        if not opts:
            return
        what = "; ".join(clean(o.label, oneline=True) for o in opts)
        self.app.push_screen(
            AskScreen("End the game?", f"{what}. The game ends as it stands now.",
                      [("y", END, "end it"), ("n", "", "keep playing")]),
            lambda answer: self._play_group(END) if answer == END else None)

    def action_unit(self) -> None:
        opts = self.in_group(UNIT)
        if not opts:
            self._error(self.why_not("unit"))
            return
        self.open_wizard(intents=opts)

    def _others(self) -> list[IntentOption]:
        """Legal intents no key above covers (OTHER: interrupts, passing...; and any
        group this app does not know)."""
        keyed = GROUP_KEYS.values()
        return [o for o in self.options if o.group not in keyed]

    def action_other(self) -> None:
        others = self._others()
        if others:
            self.open_wizard(intents=others)

    def action_hand(self) -> None:
        self.hidden.open()

    def action_whole_log(self) -> None:
        """The game's narrative: of a long game, the last :data:`NARRATED_TAIL` events
        (narrated at hand, even just after a resume), ``e`` for the rest (issue 21). A
        joined terminal's session has every line already: it shows them all."""
        if getattr(self.session.game, "in_force", 0) > NARRATED_TAIL:
            page = TextScreen("The game so far", self.session.narrative(last=NARRATED_TAIL),
                              bottom=True, earlier=self.session.narrative)
        else:
            page = TextScreen("The game so far", self.session.narrative(), bottom=True)
        self.app.push_screen(page)

    def action_score_page(self) -> None:
        """The score and the objectives on a page of their own: the panel beside the
        board scrolls when a narrow terminal has no room for them (issue 22)."""
        view = self.view or self.session.view()
        self.app.push_screen(TextScreen("Score and objectives",
                                        render_score(view).plain.split("\n")))

    def action_undo(self) -> None:
        undone = len(self.session.last_lines(terminal_side(self.session)))
        self._through_history(self.session.undo, lambda log: log.drop_lines(undone))

    def action_redo(self) -> None:
        self._through_history(
            self.session.redo,
            lambda log: log.add(self.session.last_lines(terminal_side(self.session))))

    def _through_history(self, undo_or_redo: Callable[[], object],
                         follow: Callable[[EventLog], None]) -> None:
        """Undo or redo; a refusal is shown, else ``follow`` updates each log (only the
        lines of the event undone or redone change) and the board is shown again."""
        if self._attempt(undo_or_redo) is None:
            return
        for log in self.logs():
            follow(log)
        self.refresh_board()

    def action_dice_mode(self) -> None:
        mode = "generated" if self.app.dice_mode == "physical" else "physical"  # type: ignore[attr-defined]
        self.post_message(DiceMode(mode, keep=True))  # the app shows it on this board

    def palette_commands(self) -> list[tuple[str, str, Any]]:
        """(title, help, callback) for the command palette: every action of the board
        that applies now (as its keys would) and every legal intent, of any group,
        played exactly as listed; a watcher's board offers only the log."""
        out: list[tuple[str, str, Any]] = []
        if not self.watching:
            out.extend(self._move_commands())
        out.append(("Whole log", "The game so far", self.action_whole_log))
        out.append(("Score and objectives", "The score panel's text whole, on a page",
                    self.action_score_page))
        for row in self.board_rows():
            out.append((f"Unit card: {side_label(row.side)} {clean(row.name, oneline=True)}",
                        "Everything about this unit: figures, weapons, status, this turn",
                        lambda unit=row.id: self.action_card(unit)))
        return out

    def _move_commands(self) -> list[tuple[str, str, Any]]:
        out: list[tuple[str, str, Any]] = []
        for opt in self.options:
            help_text = clean(opt.rule, oneline=True)
            if opt.side:
                help_text = f"{side_label(opt.side)} {help_text}".strip()
            out.append((clean(opt.label, oneline=True), help_text,
                        lambda o=opt: self.run_intent(o)))
        if self.session.can_undo:
            out.append(("Undo", "Take back the last thing recorded", self.action_undo))
        if self.session.can_redo:
            out.append(("Redo", "Bring back what was undone", self.action_redo))
        out.append(("Toggle dice mode", "Physical dice (typed in) or generated",
                    self.action_dice_mode))
        if self.hidden.available():
            out.append(("Show a hand", "The secret cards, behind a cover", self.action_hand))
        return out

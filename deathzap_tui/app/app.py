"""The Textual app: owns the ONE session object and moves between screens.

Screens read ``app.session`` and call its facade (``view``, ``intents``, ``begin``,
``commit``, ``undo``, ``redo``, ``narrative``); they ask the app to move on by the
messages of :mod:`deathzap_tui.app.common.messages`. The app holds no rules.

The screens a game moves through are imported when first opened (``# lazy``): each
command opens on one of them, and importing them all would cost about 80 ms of CPU
before any first frame (medians after ``deathzap_tui.cli``: start 13 ms, set-up 24 ms
and quick resolve 40 ms with the wizard, the battle screen 40 ms with it).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from deathzap_tui.app.common.messages import (
    DiceMode,
    GameOver,
    Hold,
    OpenBattle,
    OpenQuickResolve,
    OpenSetup,
    OpenStart,
)
from deathzap_tui.app.common.palette import PaletteCommands
from deathzap_tui.app.frames import Backdrop, KeptStylesheet
from deathzap_tui.app.styles import START_STYLES, STYLES
from deathzap_tui.headless.flow import GamePlan, writer_lock
from deathzap_tui.rules import registry

if TYPE_CHECKING:
    from textual.dom import DOMNode
    from textual.timer import Timer

    from deathzap_tui.net.lock import SaveLock
    from deathzap_tui.session import GameSession, Session


@dataclass
class Launch:
    """What the app opens on."""

    kind: str = "start"
    """start | setup | battle | resolve"""
    plan: GamePlan | None = None
    red: Path | None = None
    black: Path | None = None
    seed: int = 1
    attacker: str = ""
    target: str = ""


class DeathzapApp(App[None]):
    CSS_PATH: ClassVar[list[Any]] = START_STYLES
    """The rest of ``STYLES`` is read before any screen but the start screen is shown
    (:meth:`read_all_styles`)."""
    TITLE = "deathzap"
    COMMANDS = App.COMMANDS | {PaletteCommands}
    BINDINGS: ClassVar[list[Any]] = [
        Binding("ctrl+q", "quit", "Quit", priority=True),
        Binding("question_mark,f1", "help", "Help", key_display="?"),
    ]
    ENABLE_COMMAND_PALETTE = True

    def __init__(self, launch: Launch | None = None, *, session: Session | None = None,
                 dice_mode: str | None = None, lock: SaveLock | None = None,
                 greeting: tuple[str, list[str]] | None = None) -> None:
        """``dice_mode``: "physical" or "generated"; ``None``: as the save was last
        played, else physical (a mode given wins over the save's, issue 26).
        ``lock``: the writer's lock already taken on ``session``'s save (else the
        app takes it on mount); ``greeting``: (title, lines) shown over the first
        screen (play by turn: what happened since this player last looked)."""
        super().__init__()
        self.kept_styles = KeptStylesheet.replacing(self.stylesheet)
        """The style sheets, parsed or kept by an earlier run (issue 21)."""
        self.stylesheet = self.kept_styles
        self.launch = launch or Launch()
        self.session: GameSession[Any] | None = session  # local, or a RemoteSession (joined)
        self.dice_mode = dice_mode or "physical"
        self._dice_given = dice_mode is not None
        self.lock: SaveLock | None = lock
        """The save lock this app holds as the save's one writer (net/lock.py)."""
        self.greeting = greeting
        self._watch_timer: Timer | None = None
        self._watch_stamp: tuple[int, ...] | None = None
        self._all_styles_read = False

    # --- screens --------------------------------------------------------------
    def on_mount(self) -> None:
        if self.session is not None:
            self._hold_or_watch(self.session, self.lock)
        # Pushed rather than returned from get_default_screen: Textual 8.2 gives the
        # default screen no result callback, so it could not be switched away later.
        first = self.first_screen()
        if not getattr(first, "START_STYLES_ONLY", False):
            self.read_all_styles()
        super().push_screen(first)
        self.reopen_action(first)
        if self.greeting is not None:
            from deathzap_tui.app.start.since import SinceScreen  # lazy: play by turn only

            self.push_screen(SinceScreen(*self.greeting))

    def read_all_styles(self) -> None:
        """Read the sheets of ``STYLES`` after ``START_STYLES`` (once, in their order):
        every screen but the start screen (and its dialogs) may use them. No widget
        already styled is styled again: their rules name other screens' widgets."""
        if self._all_styles_read:
            return
        self._all_styles_read = True
        rest = [Path(path) for path in STYLES[len(START_STYLES):]]
        self.css_path = [*self.css_path, *rest]
        for path in rest:
            self.stylesheet.read(path)

    def push_screen(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        self.read_all_styles()
        return super().push_screen(*args, **kwargs)

    def switch_screen(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        self.read_all_styles()
        return super().switch_screen(*args, **kwargs)

    def on_unmount(self) -> None:
        self.release_lock()
        self.kept_styles.keep()

    def get_default_screen(self) -> Screen:
        # Not Textual's own: the terminal's first size report re-drew, through it,
        # the screen above it, a second frame at start-up (issue 21).
        return Backdrop(id="_default")

    def first_screen(self) -> Screen:
        kind = self.launch.kind
        if kind == "battle" and self.session is not None:
            from deathzap_tui.app.battle.battle import BattleScreen  # lazy: ~40 ms CPU

            return BattleScreen()
        if kind == "setup" and self.launch.plan is not None:
            from deathzap_tui.app.start.setup import SetupScreen  # lazy: ~24 ms CPU

            return SetupScreen(self.launch.plan)
        if kind == "resolve":
            from deathzap_tui.app.quick.quick import QuickResolveScreen  # lazy: ~40 ms CPU

            return QuickResolveScreen(attacker=self.launch.attacker, target=self.launch.target)
        from deathzap_tui.app.start.start import StartScreen  # lazy: ~13 ms CPU

        return StartScreen(red=self.launch.red, black=self.launch.black, seed=self.launch.seed)

    def update_styles(self, node: DOMNode, animate: bool = True) -> None:
        # A widget is styled as it is mounted: a class its constructor sets before
        # then (``compact``, a button's variant) needs no styling of its own. Textual
        # styled each such widget, its parts, again and again before mounting it
        # (issue 21: 26 times for the start screen's fields).
        if node is self or node.is_attached:
            super().update_styles(node, animate)

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        # No screenshot command: it writes the whole screen to disk (stack-facts).
        for cmd in super().get_system_commands(screen):
            if cmd.title != "Screenshot":
                yield cmd

    def open_battle(self, session: Session) -> None:
        from deathzap_tui.app.battle.battle import BattleScreen  # lazy: ~40 ms CPU

        self._hold_or_watch(session)
        battle = BattleScreen()
        self._replace_all(battle)
        self.reopen_action(battle)

    def reopen_action(self, screen: Screen) -> None:
        """On a battle screen of a save this app writes, open the wizard on the action
        kept in progress when the game was last open (quit, crash or dropped link
        mid-action: ``Session.kept_action``), at the same step with the same answers
        and dice; say so when a kept action no longer fits the game and was dropped."""
        kept = getattr(self.session, "kept_action", None)
        if kept is None or self.lock is None or not self.lock.held:
            return  # (the start screen: no game, and no battle module imported)
        from deathzap_tui.app.battle.battle import BattleScreen  # lazy: ~40 ms CPU

        if not isinstance(screen, BattleScreen):
            return
        action, message = kept()
        if message:
            self.notify(message, markup=False, severity="warning", timeout=10)
        if action is None:
            return
        option = next((o for o in self.session.intents()  # type: ignore[union-attr]
                       if dict(o.intent) == dict(action.intent)), None)
        screen.open_wizard(started=(action, action.resolution),
                           label=option.label if option else str(action.intent.get("type")),
                           side=option.side if option else None)

    # --- one writer per save (issue 5) ------------------------------------------
    def hold(self, session: GameSession[Any], lock: SaveLock | None = None, *,
             what: str = "deathzap") -> None:
        """Make ``session`` the app's, holding its save's writer lock: ``lock`` if
        already taken, the one this app holds on that save, or a new one (raises
        :class:`~deathzap_tui.net.lock.SaveLocked` naming the holder). A lock on
        another save is released; a read-only session is watched for changes."""
        path = getattr(session, "path", None)
        if lock is None and self.lock is not None and self.lock.held \
                and path is not None and self.lock.path == path:
            lock = self.lock
        if lock is None:
            lock = writer_lock(session, what)
        if self.lock is not None and self.lock is not lock:
            self.lock.release()
        self.lock = lock
        self.session = session
        if lock is not None:
            self._restore_dice(lock.path)
        self._watch()

    def _restore_dice(self, save: Path) -> None:
        """Take the dice mode kept with the save (``saves.read_settings``) unless one
        was given, or keep this one there for the next sitting."""
        from deathzap_tui import saves  # lazy: once a game is open (issue 21: ~40 ms CPU)

        saved = saves.read_settings(save).get("dice")
        if saved is not None and not self._dice_given:
            self.dice_mode = saved
        else:
            saves.write_setting(save, "dice", self.dice_mode)

    def set_dice_mode(self, mode: str) -> None:
        """Switch between typed and generated dice; the save's writer keeps the mode
        with the save, so resuming the game restores it."""
        from deathzap_tui import saves  # lazy: as in _restore_dice

        self.dice_mode = mode
        if self.lock is not None and self.lock.held:
            saves.write_setting(self.lock.path, "dice", mode)

    def _hold_or_watch(self, session: GameSession[Any], lock: SaveLock | None = None) -> None:
        """:meth:`hold`, or if another process writes the save, watch it read only."""
        from deathzap_tui.net.lock import SaveLocked, read_only  # lazy: ~20 ms, game open

        try:
            self.hold(session, lock)
        except SaveLocked as exc:
            self.hold(read_only(exc.path))
            self.notify(f"{exc} Watching it read only.", markup=False, severity="warning",
                        timeout=8)

    def release_lock(self) -> None:
        if self.lock is not None:
            self.lock.release()

    def _watch(self) -> None:
        """Poll a read-only session's save (about once a second) while it is shown."""
        source = getattr(self.session, "source", None)
        if getattr(self.session, "read_only", False) and source is not None:
            self.sub_title = f"watching {source.stem} (read only)"
            self._watch_stamp = None  # the first poll re-reads: nothing missed
            if self._watch_timer is None:
                self._watch_timer = self.set_interval(1.0, self.poll_save)
        elif self._watch_timer is not None:
            self._watch_timer.stop()
            self._watch_timer = None
            self.sub_title = ""

    def poll_save(self) -> None:
        """Re-read a watched save if the writer saved it, and show the new state."""
        from deathzap_tui import saves  # lazy: as in _restore_dice
        from deathzap_tui.app.battle.battle import LOG_EVENTS, BattleScreen  # lazy: ~40 ms CPU

        session = self.session
        source = getattr(session, "source", None)
        if session is None or source is None or not getattr(session, "read_only", False):
            return
        stamp = saves.stamp(source)
        if stamp is None or stamp == self._watch_stamp:
            return
        try:
            game = saves.load_game(source)
        except (ValueError, OSError):  # mid-replace or broken: try again next time
            return
        self._watch_stamp = stamp
        session.game = game
        for screen in self.screen_stack:
            if isinstance(screen, BattleScreen) and screen.is_mounted:
                screen.log_replace(session.narrative(last=LOG_EVENTS))
                screen.refresh_board()

    def open_setup(self, plan: GamePlan) -> None:
        from deathzap_tui.app.start.setup import SetupScreen  # lazy: ~24 ms CPU

        self._replace_all(SetupScreen(plan))

    def _replace_all(self, screen: Screen) -> None:
        """Make ``screen`` the only one above the (blank) default screen."""
        while len(self.screen_stack) > 2:
            self.pop_screen()
        self.switch_screen(screen)

    def show_game_over(self) -> None:
        from deathzap_tui.app.gameover.gameover import GameOverScreen  # lazy: ~13 ms CPU

        self.push_screen(GameOverScreen())

    # --- what the screens ask (messages up: common/messages.py) -----------------
    def on_hold(self, message: Hold) -> None:
        self.hold(message.session, message.lock)

    def on_open_battle(self, message: OpenBattle) -> None:
        if message.lock is not None:
            self.hold(message.session, message.lock)
        if message.notice:
            self.notify(message.notice, markup=False, timeout=6)
        self.open_battle(message.session)

    def on_open_setup(self, message: OpenSetup) -> None:
        self.open_setup(message.plan)

    def on_open_start(self, message: OpenStart) -> None:
        self.action_start_screen()

    def on_open_quick_resolve(self, message: OpenQuickResolve) -> None:
        self.action_quick_resolve()

    def on_game_over(self, message: GameOver) -> None:
        self.show_game_over()

    def on_dice_mode(self, message: DiceMode) -> None:
        """The dice mode chosen on the start screen (for the game to come) or the
        battle screen (kept with the save, and shown on the board at once)."""
        if not message.keep:
            self.dice_mode = message.mode
            return
        from deathzap_tui.app.battle.battle import BattleScreen  # lazy: ~40 ms CPU

        self.set_dice_mode(message.mode)
        if isinstance(self.screen, BattleScreen):
            self.screen.refresh_board()

    # --- actions --------------------------------------------------------------
    async def action_quit(self) -> None:
        """Quit, unless a screen holding unsaved work (the force editor) is open: then
        its ``ask_before_quit()`` takes the quit over (it asks, or quits). That screen
        may be under a dialog of its own (a prompt, a confirmation): the top-most such
        screen of the stack is asked."""
        for screen in reversed(self.screen_stack):
            ask = getattr(screen, "ask_before_quit", None)
            if ask is not None:
                ask()
                return
        await super().action_quit()

    def action_help(self) -> None:
        from deathzap_tui.app.common.help import HelpScreen  # lazy: not in a first frame

        if isinstance(self.screen, HelpScreen):
            return
        ruleset = self.session.ruleset if self.session is not None else registry.get()
        self.push_screen(HelpScreen(ruleset))

    def action_quick_resolve(self) -> None:
        from deathzap_tui.app.quick.quick import QuickResolveScreen  # lazy: ~40 ms CPU

        if not isinstance(self.screen, QuickResolveScreen):
            self.push_screen(QuickResolveScreen())

    def action_start_screen(self) -> None:
        from deathzap_tui.app.start.start import StartScreen  # lazy: ~13 ms CPU

        self._replace_all(StartScreen(seed=self.launch.seed))


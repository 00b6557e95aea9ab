"""The Textual app: owns the ONE session object and moves between screens.

Screens read ``app.session`` and call its facade (``view``, ``intents``, ``begin``,
``commit``, ``undo``, ``redo``, ``narrative``). The app holds no rules.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

if TYPE_CHECKING:
    from deathzap_tui.session import Session


@dataclass
class GamePlan:
    """A new game as chosen on the start screen or the command line."""

    red: Path
    black: Path
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    save: str | None = None
    ruleset_id: str | None = None


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


def palette_provider() -> type:
    """The command palette's provider, imported only when the palette opens."""
    from deathzap_tui.app.palette import PaletteCommands

    return PaletteCommands


class DeathzapApp(App[None]):
    CSS_PATH: ClassVar[list[Any]] = [
        "app.tcss", "screens/start.tcss", "screens/battle.tcss", "screens/wizard.tcss"]
    """All the styles, loaded up front (one parse at start-up)."""
    TITLE = "deathzap"
    COMMANDS = App.COMMANDS | {palette_provider}
    BINDINGS: ClassVar[list[Any]] = [
        Binding("ctrl+q", "quit", "Quit", priority=True),
        Binding("question_mark,f1", "help", "Help", key_display="?"),
    ]
    ENABLE_COMMAND_PALETTE = True

    def __init__(self, launch: Launch | None = None, *, session: Session | None = None,
                 dice_mode: str = "physical") -> None:
        super().__init__()
        self.launch = launch or Launch()
        self.session: Session | None = session
        self.dice_mode = dice_mode

    # --- screens --------------------------------------------------------------
    def on_mount(self) -> None:
        # Pushed rather than returned from get_default_screen: Textual 8.2 gives the
        # default screen no result callback, so it could not be switched away later.
        self.push_screen(self.first_screen())

    def first_screen(self) -> Screen:
        kind = self.launch.kind
        if kind == "battle" and self.session is not None:
            from deathzap_tui.app.screens.battle import BattleScreen

            return BattleScreen()
        if kind == "setup" and self.launch.plan is not None:
            from deathzap_tui.app.screens.setup import SetupScreen

            return SetupScreen(self.launch.plan)
        if kind == "resolve":
            from deathzap_tui.app.screens.quick import QuickResolveScreen

            return QuickResolveScreen(attacker=self.launch.attacker, target=self.launch.target)
        from deathzap_tui.app.screens.start import StartScreen

        return StartScreen(red=self.launch.red, black=self.launch.black, seed=self.launch.seed)

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        # No screenshot command: it writes the whole screen to disk (stack-facts).
        for cmd in super().get_system_commands(screen):
            if cmd.title != "Screenshot":
                yield cmd

    def open_battle(self, session: Session) -> None:
        from deathzap_tui.app.screens.battle import BattleScreen

        self.session = session
        self._replace_all(BattleScreen())

    def open_setup(self, plan: GamePlan) -> None:
        from deathzap_tui.app.screens.setup import SetupScreen

        self._replace_all(SetupScreen(plan))

    def _replace_all(self, screen: Screen) -> None:
        """Make ``screen`` the only one above the (blank) default screen."""
        while len(self.screen_stack) > 2:
            self.pop_screen()
        self.switch_screen(screen)

    def show_game_over(self) -> None:
        from deathzap_tui.app.screens.gameover import GameOverScreen

        self.push_screen(GameOverScreen())

    # --- actions --------------------------------------------------------------
    def action_help(self) -> None:
        from deathzap_tui.app.screens.help import HelpScreen

        if isinstance(self.screen, HelpScreen):
            return
        if self.session is not None:
            ruleset = self.session.ruleset
        else:
            from deathzap_tui.rules import registry

            ruleset = registry.get()
        self.push_screen(HelpScreen(ruleset))

    def action_quick_resolve(self) -> None:
        from deathzap_tui.app.screens.quick import QuickResolveScreen

        if not isinstance(self.screen, QuickResolveScreen):
            self.push_screen(QuickResolveScreen())

    def action_start_screen(self) -> None:
        from deathzap_tui.app.screens.start import StartScreen

        self._replace_all(StartScreen(seed=self.launch.seed))


def run_app(session: Any, *, side: str | None, joined: bool) -> None:
    """Run the app on ``session``; ``joined``: a RemoteSession at a referee's table
    (see :mod:`deathzap_tui.app.joined`: live updates, no mouse, no screenshot)."""
    from deathzap_tui.app.joined import run_app as run_joined

    run_joined(session, side=side, joined=joined)

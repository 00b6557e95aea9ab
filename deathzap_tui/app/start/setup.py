"""Set-up: who is red and who is black, then the ruleset's pre-game steps (its SETUP
intents: roll-off, objectives, naming a general...) one after the other through the
wizard, whatever they ask, then the battle screen."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from deathzap_tui.app.common.keybar import KeyBar
from deathzap_tui.app.common.messages import Hold, OpenBattle
from deathzap_tui.app.common.text import clean
from deathzap_tui.app.wizard.wizard import WizardScreen
from deathzap_tui.forcefile import load_force
from deathzap_tui.headless.flow import GamePlan, new_session, quick_setup, setup_steps, writer_lock

if TYPE_CHECKING:
    from deathzap_tui.session import Session


def force_name(path: Any) -> str:
    try:
        return str(load_force(path).force.name)
    except Exception:  # shown as the file name; the real error comes on continue
        return str(getattr(path, "name", path))


class SetupScreen(Screen[None]):
    BINDINGS: ClassVar[list[Any]] = [
        Binding("s", "swap", "Swap red/black"),
        Binding("enter", "go", "Continue"),
        Binding("g", "generate", "Roll all for me"),
        Binding("escape", "app.start_screen", "Back to start"),
    ]

    def __init__(self, plan: GamePlan) -> None:
        super().__init__()
        self.plan = plan
        self.names = {"red": force_name(plan.red), "black": force_name(plan.black)}
        self.session: Session | None = None
        self.done_lines: list[str] = []
        self.problem = ""

    def compose(self) -> ComposeResult:
        yield Static("Set-up", classes="screen-title")
        with VerticalScroll(id="setup-body"):
            yield Static(id="setup-text")
        yield KeyBar()

    def on_mount(self) -> None:
        self._redraw()

    def _redraw(self) -> None:
        out = Text()
        out.append("1. Sides\n", style="bold underline")
        out.append(f"   RED:   {clean(self.names['red'], oneline=True)}\n", style="bold red")
        out.append(f"   BLACK: {clean(self.names['black'], oneline=True)}\n", style="bold")
        if self.session is None:
            out.append("\n   s swaps the sides; Enter confirms and starts the pre-game steps.\n"
                       "   g plays them all with generated dice and the default answers.\n",
                       style="dim")
        else:
            out.append("\n2. Pre-game steps\n", style="bold underline")
            for line in self.done_lines:
                out.append(f"   {clean(line)}\n")
            pending = setup_steps(self.session)
            if pending:
                out.append(f"\n   Next: {clean(pending[0].label, oneline=True)} "
                           "— press Enter.\n", style="bold")
        if self.problem:
            out.append(f"\n{clean(self.problem)}\n", style="bold red")
        self.query_one("#setup-text", Static).update(out)
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "swap":
            return True if self.session is None else None
        return True

    def action_swap(self) -> None:
        if self.session is None:
            self.plan = dataclasses.replace(self.plan, red=self.plan.black, black=self.plan.red)
            self.names = {"red": self.names["black"], "black": self.names["red"]}
            self._redraw()

    def _ensure_session(self) -> bool:
        if self.session is not None:
            return True
        try:
            session = new_session(self.plan)
            lock = writer_lock(session)
        except Exception as exc:  # InvalidInput, SaveError, OSError, SaveLocked
            self.problem = str(exc)
            self._redraw()
            return False
        self.post_message(Hold(session, lock))
        self.session = session
        self.problem = ""
        return True

    def action_generate(self) -> None:
        if not self._ensure_session():
            return
        assert self.session is not None
        quick_setup(self.session)
        self.post_message(OpenBattle(self.session))

    def action_go(self) -> None:
        if not self._ensure_session():
            return
        session = self.session
        assert session is not None
        pending = setup_steps(session)
        if not pending:
            self.post_message(OpenBattle(session))
            return
        option = pending[0]
        try:
            action = session.begin(option.intent)
        except Exception as exc:  # Refused
            self.problem = str(exc)
            self._redraw()
            return
        if action.resolution.done:
            self._done(action)
            return

        def begin(intent: Mapping[str, Any]) -> tuple[Any, Any]:
            a = session.begin(intent)
            return a, a.resolution

        self._redraw()
        self.app.push_screen(
            WizardScreen(title="Set-up", begin=begin, started=(action, action.resolution),
                         intent_label=option.label, keep=session.keep_action,
                         spend=session.cancel,
                         dice_mode=self.app.dice_mode),  # type: ignore[attr-defined]
            self._done)

    def _done(self, action: Any) -> None:
        if action is None:
            self._redraw()
            return
        assert self.session is not None
        self.session.commit(action)
        self.done_lines.extend(n.text for n in action.resolution.ctx.notes)
        self._redraw()
        if not setup_steps(self.session):
            self.post_message(OpenBattle(self.session))
        else:
            self.action_go()

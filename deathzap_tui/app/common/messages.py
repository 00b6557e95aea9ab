"""What a screen asks of the app (messages up): the app, the one module that opens
screens and holds the session, handles them (``DeathzapApp.on_open_battle``...).
Screens never call the app's methods. These are here, not beside one screen,
because several screens post them (the start screen, set-up, quick resolve, the
battle screen); a message one widget posts to its own screen is defined beside that
widget (``ConfirmBar.Pressed``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.message import Message

if TYPE_CHECKING:
    from deathzap_tui.headless.flow import GamePlan
    from deathzap_tui.net.lock import SaveLock


class Hold(Message):
    """``session`` is the app's game from now on, with the writer's ``lock`` on its
    save already taken (``headless.flow.writer_lock``: the screen takes it, so that a
    save another process writes is refused where it was asked for)."""

    def __init__(self, session: Any, lock: SaveLock | None) -> None:
        super().__init__()
        self.session = session
        self.lock = lock


class OpenBattle(Message):
    """Show the battle screen of ``session`` alone (over nothing but the blank
    default screen), holding ``lock`` if given, saying ``notice`` if any."""

    def __init__(self, session: Any, lock: SaveLock | None = None, notice: str = "") -> None:
        super().__init__()
        self.session = session
        self.lock = lock
        self.notice = notice


class OpenSetup(Message):
    """Start a new game from ``plan`` through its set-up steps."""

    def __init__(self, plan: GamePlan) -> None:
        super().__init__()
        self.plan = plan


class OpenStart(Message):
    """Go back to the start screen."""


class OpenQuickResolve(Message):
    """Open quick resolve over the screen shown."""


class GameOver(Message):
    """The game shown has ended: show its result."""


class DiceMode(Message):
    """Dice are typed in (``"physical"``) or rolled by the app (``"generated"``) from
    now on; ``keep``: kept with the save this app writes, for the next sitting."""

    def __init__(self, mode: str, *, keep: bool) -> None:
        super().__init__()
        self.mode = mode
        self.keep = keep


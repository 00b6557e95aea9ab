"""How a game stands, in words: its ruleset's title, whose move it is or how it
ended. ``deathzap resume``'s list and the start screen say it of every save, and a
save's summary keeps it (:mod:`.savesummary`), so that a listing need not load the
game (issue 21)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from deathzap_tui.rules.game import Game
    from deathzap_tui.rules.ruleset import BoardView, IntentOption


def whose_turn(view: BoardView, intents: Iterable[IntentOption]) -> str:
    """Whose move it is, in words ("Red to activate (1 of 2 left)"), from the board
    as a shared terminal sees it and the intents on offer; a finished game's result."""
    if view.over:
        return view.result or "The game is over."
    sides = {o.side for o in intents if o.side}
    prompt = view.prompt
    if len(sides) == 1:
        side = sides.pop()
        if side.lower() not in prompt.lower():
            prompt = f"{side}: {prompt}"
    return prompt


@dataclass(frozen=True)
class Standing:
    """How a game stands: what a save's summary keeps."""

    title: str
    """The ruleset's title."""
    now: str
    """Whose move it is, or the result (:func:`whose_turn`)."""
    over: bool

    @classmethod
    def of(cls, game: Game) -> Standing:
        ruleset, state = game.ruleset, game.state
        view = ruleset.view(state)
        return cls(ruleset.title, whose_turn(view, () if view.over else ruleset.intents(state)),
                   ruleset.is_over(state))

    @property
    def text(self) -> str:
        """"in progress: <whose move>" or "finished: <result>"."""
        return f"{'finished' if self.over else 'in progress'}: {self.now}"

    def to_data(self) -> dict[str, Any]:
        return {"title": self.title, "now": self.now, "over": self.over}

    @classmethod
    def from_data(cls, data: Any) -> Standing | None:
        """The standing :meth:`to_data` gave, or ``None`` for anything else."""
        if not isinstance(data, dict):
            return None
        title, now, over = data.get("title"), data.get("now"), data.get("over")
        if not (isinstance(title, str) and isinstance(now, str) and isinstance(over, bool)):
            return None
        return cls(title, now, over)

"""Command Hand app-test helpers: the shipped ch-* forces, sessions at a known
point, a one-side session, and reading what is on screen."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

from app_helpers import copy_forces

from deathzap_tui import saves
from deathzap_tui.app.app import GamePlan
from deathzap_tui.headless.flow import new_session, quick_setup
from deathzap_tui.rules.cards import Card
from deathzap_tui.session import Session

CH_FORCES = ("ch-ironbark-rangers.toml", "ch-cinder-collective.toml")
CH_SEED = 7
"""Seed 7: red holds 2♦ 8♦ 9♥ 10♥, black 5♠ 9♣ J♠; the first card flipped is 3♣
(black's), so red may interrupt it, and 2♦ would go first (CH §2)."""


def ch_forces(workdir: Path) -> tuple[Path, Path]:
    """Copies of the two shipped Command Hand forces in the test's forces/."""
    return copy_forces(workdir, CH_FORCES)


def ch_session(red: Path, black: Path, seed: int = CH_SEED, save: str = "ch") -> Session:
    s = new_session(GamePlan(red, black, seed, {}, save))
    quick_setup(s)
    return s


def screen_text(app: Any) -> str:
    """The characters of the screen on top, read back from its SVG export."""
    svg = app.export_screenshot()
    return "".join(html.unescape(t) for t in re.findall(r"<text[^>]*>(.*?)</text>", svg)
                   ).replace("\xa0", " ")


def hand_words(codes: list[str]) -> list[str]:
    """What would give a hand away: each card's label and words."""
    out = []
    for code in codes:
        card = Card.parse(code)
        out += [card.label, card.words]
    return out


def shown(text: str, words: list[str]) -> list[str]:
    """The ``words`` found in ``text``, whitespace (and so wrapping) ignored."""
    flat = "".join(text.split())
    return [w for w in words if "".join(w.split()) in flat]


def has(text: str, words: str) -> bool:
    return bool(shown(text, [words]))


class OneSide(Session):
    """A local session seen from one side, as a joined terminal sees a hosted game
    (``view``/``intents`` for that viewer, actions made ``by`` it). Make one with
    :func:`one_side`."""

    side = "red"

    def view(self) -> Any:
        return self.game.ruleset.view(self.game.state, self.side)

    def intents(self) -> list[Any]:
        return self.game.ruleset.intents(self.game.state, self.side)

    def begin(self, intent: Any, by: str = "") -> Any:
        return super().begin(intent, by or self.side)


def one_side(local: Session) -> OneSide:
    """Red's terminal on ``local``'s save, the game read back from it: from now on the
    save's one writer. (Two sessions appending to one save race for each event
    number, and the second gets a ``Conflict``, as two processes would.)"""
    assert local.path is not None
    return OneSide(saves.load_game(local.path), local.path)

"""Boards mid-game for the issue 22 tests: each ruleset's shipped forces (the longest
names) played by a fixed random walk through the legal moves to a busy moment (long
states: melees, pending wounds, poison...), and reading the screen back as text."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from app_helpers import copy_forces

from deathzap_tui.app.app import GamePlan
from deathzap_tui.headless.describe import auto_answer
from deathzap_tui.headless.flow import new_session, quick_setup
from deathzap_tui.rules.ruleset import END

BUSY: dict[str, tuple[tuple[str, str], int]] = {
    "deathzap3": (("demo-ashfall-legion.toml", "demo-vanta-syndicate.toml"), 57),
    "classic": (("cl-red-dawn-irregulars.toml", "cl-black-maw-brood.toml"), 12),
    "plasmashok": (("ps-iron-choir.toml", "ps-verdant-swarm.toml"), 17),
    "doubletap": (("dt-kestrel-cell.toml", "dt-rustmoth-gang.toml"), 8),
    "commandhand": (("ch-ironbark-rangers.toml", "ch-cinder-collective.toml"), 8),
}
"""Per ruleset: its forces and how many moves of the walk reach its busiest board
(measured: the most text in the units' states). Deathzap 3: units fled and in melee;
Classic: turn 1's shooting with every unit in melee; Plasmashok: turn 1's melee with
pending wounds and contacts; Double Tap: a poisoned unit, a wounded one, melees;
Command Hand: units destroyed, off-table and on the edges."""


def busy_session(ruleset: str, workdir: Path, seed: int = 7) -> Any:
    """The game of ``ruleset`` at its busy moment (:data:`BUSY`): quick set-up, then a
    walk choosing among the legal moves (never ending the game) with a fixed random
    generator, every step answered as nobody asked (generated dice, defaults)."""
    forces, moves = BUSY[ruleset]
    session = new_session(GamePlan(*copy_forces(workdir, forces), seed, {}, "busy"))
    quick_setup(session)
    pick = random.Random(seed)
    for _ in range(moves):
        action = session.begin(pick.choice(
            [o for o in session.intents() if o.group != END]).intent)
        while action.resolution.step is not None:
            action.resolution.answer(auto_answer(action.resolution.step))
        session.commit(action)
    return session


def screen_lines(app: Any) -> list[str]:
    """The screen on top as lines of text, as the terminal shows them."""
    from textual.geometry import Size

    size = app.size
    strips = app.screen._compositor.render_strips(Size(size.width, size.height))
    return [strip.text.rstrip() for strip in strips]

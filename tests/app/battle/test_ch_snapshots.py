"""Snapshots of a Command Hand game (fixed seed 7, 80x24 and 120x40): the hot-seat
cover, the revealed hand with the interrupt prompt, the battle screen (no hand on
it), and a terminal that plays red only (its own hand on the board, no cover).

Seed 7: red holds 2♦ 8♦ 9♥ 10♥; the first card flipped is 3♣, so red may interrupt.
Look at an SVG before accepting it (``--snapshot-update``)."""

from __future__ import annotations

import pytest
from app_helpers import battle_app
from ch_helpers import ch_forces, ch_session, one_side


@pytest.fixture
def ch_paths(workdir):
    return ch_forces(workdir)


SMALL = (80, 24)
LARGE = (120, 40)


def test_ch_cover_small(snap_compare, ch_paths) -> None:
    """d flips 3♣: the cover for red, nothing secret on it."""
    assert snap_compare(battle_app(ch_session(*ch_paths)), press=["d"], terminal_size=SMALL)


def test_ch_cover_large(snap_compare, ch_paths) -> None:
    assert snap_compare(battle_app(ch_session(*ch_paths)), press=["d"], terminal_size=LARGE)


def test_ch_hand_interrupt_small(snap_compare, ch_paths) -> None:
    """Enter on the cover: red's hand and the interrupt choices."""
    assert snap_compare(battle_app(ch_session(*ch_paths)), press=["d", "enter"],
                        terminal_size=SMALL)


def test_ch_hand_interrupt_large(snap_compare, ch_paths) -> None:
    assert snap_compare(battle_app(ch_session(*ch_paths)), press=["d", "enter"],
                        terminal_size=LARGE)


def test_ch_battle_window_small(snap_compare, ch_paths) -> None:
    """Esc on the cover: the board while red may interrupt; no hand on it."""
    assert snap_compare(battle_app(ch_session(*ch_paths)), press=["d", "escape"],
                        terminal_size=SMALL)


def test_ch_battle_after_interrupt_large(snap_compare, ch_paths) -> None:
    """Red interrupted 3♣ with 2♦: red's activation first, then black's."""
    assert snap_compare(battle_app(ch_session(*ch_paths)), press=["d", "enter", "1"],
                        terminal_size=LARGE)


def test_ch_one_side_board_small(snap_compare, ch_paths) -> None:
    """A terminal playing red only: its hand is on the board."""
    local = ch_session(*ch_paths)
    assert snap_compare(battle_app(one_side(local)), terminal_size=SMALL)


def test_ch_one_side_interrupt_large(snap_compare, ch_paths) -> None:
    """...and its interrupt is offered at once, without a cover."""
    local = ch_session(*ch_paths)
    assert snap_compare(battle_app(one_side(local)), press=["d"],
                        terminal_size=LARGE)

"""The joined app playing Command Hand against a real referee: red's terminal shows
red's hand on the board (no cover), and red's interrupt is offered at once when
black flips a card; black's hand is never on red's screen."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from joined_helpers import run, until
from referee_harness import HostThread, hosting
from test_ch_hidden_hands import BLACK, RED, SEED

from deathzap_tui.rules.cards import Card

pytest.importorskip("textual")


@pytest.fixture
def ch_host(saves_dir: Path, tmp_path: Path) -> Iterator[HostThread]:
    from deathzap_tui.headless.flow import quick_setup
    from deathzap_tui.session import Session

    session = Session.new(RED, BLACK, seed=SEED, save_path="ch-joined")
    quick_setup(session)
    yield from hosting(session, tmp_path / "chj.sock")


def on_screen(app: Any, words: list[str]) -> list[str]:
    import html
    import re

    svg = app.export_screenshot()
    flat = "".join("".join(html.unescape(t) for t in re.findall(r"<text[^>]*>(.*?)</text>",
                                                                 svg)).split())
    return [w for w in words if "".join(w.split()) in flat]


@run
async def test_joined_red_sees_its_hand_and_interrupts_inline(ch_host) -> None:
    from deathzap_tui.app.battle.cover import CoverScreen
    from deathzap_tui.app.remote.app import JoinedApp
    from deathzap_tui.app.remote.battle import JoinedBattleScreen
    from deathzap_tui.net.client import RemoteSession

    state = ch_host.table.game.state
    red_hand, black_hand = list(state.hands["red"]), list(state.hands["black"])
    black_words = [w for c in black_hand for w in (Card.parse(c).label, Card.parse(c).words)]
    red = RemoteSession.connect(ch_host.socket_path, "red", timeout=5)
    black = await asyncio.to_thread(RemoteSession.connect, ch_host.socket_path, "black",
                                    timeout=5)
    app = JoinedApp(red, side="red")
    try:
        async with app.run_test(size=(120, 36)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, JoinedBattleScreen))
            await pilot.pause()
            assert on_screen(app, ["Command Hand (4 cards)", Card.parse(red_hand[0]).label])
            assert on_screen(app, black_words) == []
            # Black flips 3♣ (seed 7): red's window opens; red is asked at once.
            def flip() -> None:
                action = black.begin({"type": "draw"})
                black.commit(action)

            await asyncio.to_thread(flip)
            await until(pilot, lambda: isinstance(app.screen, CoverScreen))
            cover = app.screen
            assert not cover.covered and cover.side == "red"
            assert [o.intent.get("type") for o in cover.options][-1] == "pass"
            assert on_screen(app, black_words) == []
            await pilot.press("1")  # interrupt with the first card
            await until(pilot, lambda: ch_host.table.game.state.played == [red_hand[0]])
            await until(pilot, lambda: isinstance(app.screen, JoinedBattleScreen))
            await pilot.pause(0.1)
            assert on_screen(app, ["Command Hand (3 cards)"])
    finally:
        red.close()
        black.close()
    grant = ch_host.table.game.state.grants[0]
    assert (grant.card, grant.side, grant.from_hand) == (red_hand[0], "red", True)

"""The budgets behind the referee's and the SSH server's limits, on a fake clock."""

from __future__ import annotations

import pytest

from deathzap_tui.net.limits import FairQueue, Lobby, Rate


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_rate_allows_its_burst_then_its_pace() -> None:
    clock = Clock()
    rate = Rate(4.0, 3, clock)
    assert [rate.allow() for _ in range(4)] == [True, True, True, False]
    clock.now += 0.25  # one token back
    assert [rate.allow() for _ in range(2)] == [True, False]
    clock.now += 60  # refills to the burst, no further
    assert [rate.allow() for _ in range(4)] == [True, True, True, False]


def test_spending_past_the_burst_says_how_long_to_wait() -> None:
    clock = Clock()
    rate = Rate(10.0, 2, clock)
    assert rate.spend() == 0 and rate.spend() == 0
    assert rate.spend() == pytest.approx(0.1)
    clock.now += 0.1  # the stream waited as told
    assert rate.spend() == pytest.approx(0.1)


def test_a_rate_needs_a_pace_and_a_burst() -> None:
    with pytest.raises(ValueError):
        Rate(0, 1)
    with pytest.raises(ValueError):
        Rate(1, 0)


def test_the_lobby_drops_the_one_waiting_longest() -> None:
    dropped: list[str] = []
    lobby: Lobby[str] = Lobby(2, dropped.append)
    lobby.enter("a")
    lobby.enter("b")
    lobby.leave("a")  # got on with it
    lobby.enter("c")
    assert dropped == [] and len(lobby) == 2
    lobby.enter("d")
    assert dropped == ["b"] and len(lobby) == 2
    lobby.leave("b")  # leaving twice (dropped, then its connection lost) is fine
    assert len(lobby) == 2


def test_the_fair_queue_takes_in_turn_and_drops_from_whoever_floods() -> None:
    dropped: list[str] = []
    queue: FairQueue[str, str] = FairQueue(3, 4, dropped.append)
    for i in range(5):
        queue.put("flood", f"f{i}")  # over its 3: its own oldest go
    assert dropped == ["f0", "f1"]
    queue.put("player", "p")
    queue.put("watcher", "w")  # over 4 in all: the flood's oldest goes
    assert dropped == ["f0", "f1", "f2"] and len(queue) == 4
    assert [queue.take() for _ in range(6)] == ["f3", "p", "w", "f4", None, None]
    queue.put("a", "x")
    queue.clear()
    assert dropped[-1] == "x" and len(queue) == 0

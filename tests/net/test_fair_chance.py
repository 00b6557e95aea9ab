"""Hidden information and fair chance over the wire, for every registered ruleset
(issue 19): a hostile player, speaking the referee's own protocol, tries

(a) to read the other player's secret cards (a Command Hand) and the deck through
    the referee's replies: every card it cannot see must get the same answer;
(b) to choose the card flipped, by naming it in a draw: the referee shuffled the
    deck, so a named card is refused (or, where nothing is drawn, changes nothing);
(c) to preview chance and put it back: dice rolled by the referee stay rolled when
    the action is cancelled (or its player disconnects), they cannot be stepped
    back over, the referee does not take a client's guess of generated faces, and a
    card turned by a draw stays turned.

A real referee hosts each ruleset's two shipped forces; the players are raw
protocol clients. The ruleset list comes from the registry: a new ruleset is
tested here without a line changed.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from rawclient import RawClient
from referee_harness import HostThread
from shipped import shipped_forces

from deathzap_tui.rules import registry
from deathzap_tui.rules.cards import Card, build_deck
from deathzap_tui.rules.dice import Rng
from deathzap_tui.rules.events import RESOLVE, SPENT, Event
from deathzap_tui.rules.game import Game
from deathzap_tui.rules.ruleset import SIDES, other_side

SEED = 23
DEAL_SEED = 2**61 + 0xFA1C


@dataclass
class Seat:
    """A hosted game and its two players."""

    host: HostThread
    clients: dict[str, RawClient]

    @property
    def game(self) -> Game:
        return self.host.table.game

    def intents(self, side: str) -> list[dict[str, Any]]:
        """The intents offered to ``side`` (as its snapshot carries them)."""
        return [o["intent"] for o in self.host.table.snapshot(side)["intents"]]

    def drive_to_dice(self, side: str, intent: dict[str, Any]) -> bool:
        """Begin ``intent`` as ``side`` and answer its steps up to its first dice
        request, which is answered with a roll. False (the action cancelled) when it
        rolls no dice."""
        reply = self.clients[side].request("begin", intent=intent)
        if reply["t"] != "ok":
            return False
        if self.drive(reply["pending"]["aid"], to_dice=True):
            return True
        assert self.clients[side].request("cancel", aid=reply["pending"]["aid"])["t"] == "ok"
        return False

    def drive(self, aid: int, to_dice: bool = False) -> bool:
        """Answer the pending action's steps, whoever must answer (dice rolled; a
        question's default, else its first choice, else its minimum) to its end, or
        (``to_dice``) only up to its first roll. Whether it rolled."""
        for _ in range(200):
            pending = self.host.table.pending
            if pending is None or pending.action.resolution.step is None:
                return False
            step = pending.action.resolution.step
            dice = type(step).__name__ == "DiceRequest"
            answer = {"roll": True} if dice else step.default if step.default is not None \
                else step.choices[0].value if step.choices else step.minimum or 0
            reply = self.clients[pending.answerer].request("answer", aid=aid, answer=answer)
            assert reply["t"] == "ok", reply
            if dice and to_dice:
                return True
        raise AssertionError("the action never ended")

    def rejoin(self, side: str) -> None:
        """Drop ``side``'s connection and connect again."""
        self.clients[side].close()
        for _ in range(100):  # until the referee has seen the old connection go
            c = RawClient(self.host.socket_path, side)
            first = c.until(lambda m: m["t"] in ("state", "error"))
            if first["t"] == "state":
                self.clients[side] = c
                return
            c.close()
            time.sleep(0.02)
        raise AssertionError(f"{side} could not join again")

    def close(self) -> None:
        for c in self.clients.values():
            c.close()


def seat(ruleset_id: str, tmp_path: Path, name: str, *, set_up: bool) -> Iterator[Seat]:
    from deathzap_tui.headless.flow import quick_setup
    from deathzap_tui.session import Session

    red, black = shipped_forces(ruleset_id)
    session = Session.new(red, black, seed=SEED, save_path=name, deal_seed=DEAL_SEED)
    if set_up:
        quick_setup(session)
    host = HostThread(session, tmp_path / f"{name}.sock").start()
    clients = {side: RawClient(host.socket_path, side) for side in SIDES}
    for c in clients.values():
        c.until(lambda m: m["t"] == "state")
    s = Seat(host, clients)
    try:
        yield s
    finally:
        s.close()
        host.stop()


def needles(code: str) -> list[str]:
    card = Card.parse(code)
    return [card.words, card.label, card.code]


def normal(reply: dict[str, Any], code: str) -> str:
    """A reply with the card's own names taken out (and the request and action ids,
    which count requests): what it tells beyond the card the player named."""
    text = re.sub(r"'aid': \d+", "'aid': N", repr({k: v for k, v in reply.items() if k != "id"}))
    for n in needles(code):
        text = text.replace(n, "<card>")
    return text


def all_cards() -> list[str]:
    return [c.code for c in build_deck(jokers=4)]


# --- the three attacks ------------------------------------------------------------

def read_hidden_cards(s: Seat, prober: str) -> None:
    """(a) Every card ``prober`` cannot see (the other side's hand, the deck) named in
    every intent the rules know of must be answered alike, up to the card's colour
    (which naming a card tells anyway)."""
    state = s.game.state
    foe = other_side(prober)
    hidden = set(getattr(state, "hands", {}).get(foe, ())) | set(getattr(state, "deck", ()))
    types = {i["type"] for side in SIDES for i in s.intents(side)} | {"draw", "interrupt"}
    me = s.clients[prober]
    for kind in sorted(types):
        seen: dict[str | None, dict[str, set[str]]] = {}
        for code in all_cards():
            if code not in hidden:
                continue
            reply = me.request("begin", intent={"type": kind, "card": code})
            if reply["t"] == "ok":  # taken: put it back before the next probe
                assert me.request("cancel", aid=reply["pending"]["aid"])["t"] == "ok"
            colour = Card.parse(code).colour
            seen.setdefault(colour, {}).setdefault(normal(reply, code), set()).add(code)
        for colour, answers in seen.items():
            assert len(answers) == 1, (
                f"{kind!r} naming {colour or 'joker'} cards {prober} cannot see is answered "
                f"{len(answers)} ways: {answers}")


def choose_the_card(s: Seat, side: str) -> None:
    """(b) A draw (or any advance) naming a card other than the top one either is
    refused, or changes nothing a plain one would not."""
    game = s.game
    state = game.state
    deck = list(getattr(state, "deck", ()))
    advance = next(i for i in s.intents(side) if "unit" not in i)
    named = deck[-1] if len(deck) > 1 else "AS"
    me = s.clients[side]
    events = len(game.log)
    reply = me.request("begin", intent={**advance, "card": named})
    if reply["t"] == "error":
        assert len(game.log) == events
        assert list(getattr(game.state, "deck", ())) == deck
        return
    s.drive(reply["pending"]["aid"])
    assert me.request("commit", aid=reply["pending"]["aid"])["t"] == "ok"
    last = game.log[-1]
    plain = Event(last.kind, {**last.data, "intent": advance}, last.by)
    replayed = Game(game.ruleset, game.red, game.black, game.options, game.seed,
                    [*game.log[:-1], plain], deal_seed=game.deal_seed)
    assert game.ruleset.view(game.state, None) == game.ruleset.view(replayed.state, None), \
        f"naming {named} changed what {advance} did"


def preview_dice(s: Seat, side: str) -> None:
    """(c) Dice: roll, try to step back over the roll and to guess faces, cancel; then
    roll and disconnect. Each time the next roll comes after the dice shown."""
    game = s.game
    intent = next(i for i in s.intents(side) if s.drive_to_dice(side, i))
    pending = s.host.table.pending
    assert pending is not None
    aid = pending.aid
    shown = pending.action.resolution.answers[-1].faces
    start = pending.action.resolution.start.rng.state
    me = s.clients[side]
    assert s.clients[pending.answerers[-1]].request("back", aid=aid)["t"] == "error", \
        "a roll shown could be stepped back over"
    assert me.request("cancel", aid=aid)["t"] == "ok"
    rng = Rng(start)
    assert rng.roll(len(shown)) == shown
    assert game.state.rng == rng, "cancelling put the shown dice back"
    assert game.log[-1].kind == SPENT
    assert s.drive_to_dice(side, intent)
    pending = s.host.table.pending
    assert pending is not None
    assert pending.action.resolution.answers[-1].faces == rng.roll(len(shown))
    # A client that names "generated" faces is refused, whatever it names, and the
    # RNG does not move for the guess.
    step = pending.action.resolution.step
    if step is not None and type(step).__name__ == "DiceRequest":
        before = Rng(pending.action.resolution.ctx.state.rng.state)
        for face in range(1, 7):
            guess = {"faces": [face] * step.count, "generated": True}
            reply = s.clients[pending.answerer].request("answer", aid=pending.aid,
                                                         answer=guess)
            assert reply["t"] == "error"
        assert pending.action.resolution.ctx.state.rng == before
    # Leaving instead of cancelling does not put them back either: the action is
    # spent, or kept for its player to go on with, its dice still rolled.
    start = game.state.rng.state
    rolled = list(pending.action.resolution.answers)
    s.rejoin(side)
    kept = s.host.table.pending
    if kept is not None:
        assert kept.action.resolution.answers[:len(rolled)] == rolled
        assert s.clients[side].request("cancel", aid=kept.aid)["t"] == "ok"
    assert game.state.rng.state != start
    assert game.log[-1].kind == SPENT


def preview_card(s: Seat, side: str) -> None:
    """(c) Cards: a draw turns its card; cancelling it leaves the card turned (the
    draw stands), so the next draw turns the card after it."""
    game = s.game
    deck = list(getattr(game.state, "deck", ()))
    draws = [i for i in s.intents(side) if i.get("type") == "draw"]
    if not deck or not draws:
        return
    me = s.clients[side]
    reply = me.request("begin", intent=draws[0])
    assert reply["t"] == "ok", reply
    assert me.request("cancel", aid=reply["pending"]["aid"])["t"] == "ok"
    assert list(game.state.deck) == deck[1:], "cancelling put the turned card back"
    assert game.log[-1].kind == RESOLVE


@pytest.mark.parametrize("ruleset_id", registry.ids())
def test_no_player_reads_chooses_or_previews_chance(ruleset_id: str, saves_dir: Path,
                                                    tmp_path: Path) -> None:
    for s in seat(ruleset_id, tmp_path, "setup", set_up=False):
        preview_dice(s, "red")
    for s in seat(ruleset_id, tmp_path, "battle", set_up=True):
        read_hidden_cards(s, "black")
        read_hidden_cards(s, "red")
        preview_card(s, "black")
        # Again after a card is turned (a Command Hand interrupt may be open now).
        read_hidden_cards(s, "black")
        read_hidden_cards(s, "red")
    for s in seat(ruleset_id, tmp_path, "named", set_up=True):
        choose_the_card(s, "red")


@pytest.mark.parametrize("ruleset_id", registry.ids())
def test_a_table_hosted_with_generated_dice_refuses_typed_dice(
        ruleset_id: str, saves_dir: Path, tmp_path: Path) -> None:
    """``host --dice generated``: the referee rolls every die, so a player cannot
    type the faces they would like; a roll is still taken (issue 19)."""
    for s in seat(ruleset_id, tmp_path, "rolled", set_up=False):
        s.host.table.typed_dice = False
        side = next(side for side in SIDES if s.intents(side))
        reply = s.clients[side].request("begin", intent=s.intents(side)[0])
        assert reply["t"] == "ok", reply
        pending = s.host.table.pending
        assert pending is not None
        for _ in range(50):
            step = pending.action.resolution.step
            if step is None or type(step).__name__ == "DiceRequest":
                break
            answer = step.default if step.default is not None else step.choices[0].value \
                if step.choices else step.minimum
            assert s.clients[pending.answerer].request(
                "answer", aid=pending.aid, answer=answer)["t"] == "ok"
        assert type(step).__name__ == "DiceRequest", "no dice in the first action"
        me = s.clients[pending.answerer]
        for typed in ({"faces": [6] * step.count}, {"successes": step.count}):
            reply = me.request("answer", aid=pending.aid, answer=typed)
            assert reply["t"] == "error" and "--dice generated" in reply["message"]
        assert me.request("answer", aid=pending.aid, answer={"roll": True})["t"] == "ok"


def test_host_and_serve_ssh_take_the_dice_rule() -> None:
    import argparse

    from deathzap_tui.commands import host, serve_ssh

    for command in (host, serve_ssh):
        parser = argparse.ArgumentParser()
        command.add_arguments(parser)
        base = ["g"] if command is host else ["g", "--keys", "k"]
        assert parser.parse_args(base).dice == "physical"
        assert parser.parse_args([*base, "--dice", "generated"]).dice == "generated"

"""Command Hand over the network: each player's hand reaches that player only.

A real referee hosts a Command Hand game between the two shipped ``ch-*`` forces;
red, black and a watcher are byte-recording raw clients. The players flip cards,
interrupt (once each), pass and activate for several turns. Then every byte each
client received is searched for the other side's hand cards, as codes (``"9H"`` as
the intents carry them), labels (``9♥``) and words (``9 of hearts``):

- a card still in red's hand at the end was never sent to black or the watcher, but
  was sent to red (and the other way round);
- a card played from a hand is public once played (the log says so), but no byte
  sent to the opponent or the watcher named it before it was played.

The hands and the deck come from the game's secret deal seed, which the referee
holds: no byte sent to anyone names it either (the public seed alone does not tell
the cards, ``tests/rules/commandhand/test_ch_secret_deal.py``).

(SSH play runs ``deathzap join`` against this same referee, one process per key.)
"""

from __future__ import annotations

import json
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rawclient import RawClient
from referee_harness import HostThread, hosting

from deathzap_tui.paths import PROJECT_ROOT
from deathzap_tui.rules.cards import Card
from deathzap_tui.rules.ruleset import SIDES, other_side

FORCES = PROJECT_ROOT / "forces"
RED = FORCES / "ch-ironbark-rangers.toml"
BLACK = FORCES / "ch-cinder-collective.toml"
SEED = 7
DEAL_SEED = 2**62 + 0xC0FFEE
"""The secret deal seed, fixed so the hands are the same every run; nineteen digits
that no message holds unless the secret leaked."""


@pytest.fixture
def ch_host(saves_dir: Path, tmp_path: Path) -> Iterator[HostThread]:
    from deathzap_tui.headless.flow import quick_setup
    from deathzap_tui.session import Session

    session = Session.new(RED, BLACK, seed=SEED, save_path="ch-duel", deal_seed=DEAL_SEED)
    assert session.ruleset.id == "command-hand"
    quick_setup(session)
    yield from hosting(session, tmp_path / "ch.sock")


def frames(data: bytes) -> list[dict[str, Any]]:
    out, i = [], 0
    while i + 4 <= len(data):
        (n,) = struct.unpack(">I", data[i:i + 4])
        out.append(json.loads(data[i + 4:i + 4 + n]))
        i += 4 + n
    return out


def needles(code: str) -> list[bytes]:
    """Every way a card can be named on the wire."""
    card = Card.parse(code)
    return [f'"{card.code}"'.encode(), card.label.encode(), card.words.encode()]


def named(data: bytes, code: str) -> list[bytes]:
    return [n for n in needles(code) if n in data]


def auto(step: dict[str, Any]) -> Any:
    """An answer for a step as sent on the wire: roll dice, else the default, else
    the first choice, else the minimum."""
    if step["kind"] == "dice":
        return {"roll": True}
    if step.get("default") is not None:
        return step["default"]
    if step.get("choices"):
        return step["choices"][0]["value"]
    return step.get("minimum") or 0


class Table:
    def __init__(self, host: HostThread) -> None:
        self.host = host
        self.clients = {"red": RawClient(host.socket_path, "red"),
                        "black": RawClient(host.socket_path, "black"),
                        "watch": RawClient(host.socket_path, "watch")}
        for c in self.clients.values():
            c.until(lambda m: m["t"] == "state")
        self.before_played: dict[str, dict[str, bytes]] = {}
        """card -> role -> every byte that role had received before it was played."""

    @property
    def state(self) -> Any:
        return self.host.table.game.state

    def options(self) -> list[Any]:
        return self.host.table.ruleset.intents(self.state)

    def act(self, side: str, intent: dict[str, Any]) -> None:
        """Begin, answer every step (whoever must answer it), confirm."""
        me = self.clients[side]
        reply = me.request("begin", intent=intent)
        assert reply["t"] == "ok", reply
        p = reply["pending"]
        aid = p["aid"]
        for _ in range(200):
            step = p["step"]
            if step is None:
                break
            n = len(p["answers"])
            if step["kind"] == "wait":
                who = self.clients[step["side"]]
                theirs = who.until(lambda m, n=n: m["t"] == "state" and bool(m["pending"])
                                   and m["pending"]["aid"] == aid and m["pending"]["yours"]
                                   and len(m["pending"]["answers"]) == n)["pending"]
                assert who.request("answer", aid=aid, answer=auto(theirs["step"]))["t"] == "ok"
                p = me.until(lambda m, n=n: m["t"] == "state" and bool(m["pending"])
                             and m["pending"]["aid"] == aid
                             and len(m["pending"]["answers"]) == n + 1)["pending"]
            else:
                reply = me.request("answer", aid=aid, answer=auto(step))
                assert reply["t"] == "ok", reply
                p = reply["pending"]
        reply = me.request("commit", aid=aid)
        assert reply["t"] == "ok", reply

    def mark_before_playing(self, code: str) -> None:
        """Everything each client had been sent before ``code`` is played."""
        for c in self.clients.values():
            c.drain(quiet=0.1)
        self.before_played[code] = {role: bytes(c.received)
                                    for role, c in self.clients.items()}

    def close(self) -> None:
        for c in self.clients.values():
            c.close()


def play(table: Table, actions: int = 24) -> dict[str, list[str]]:
    """Play ``actions`` actions: each side interrupts its first window with its
    first card and passes on later ones; activations prefer a plain run."""
    played: dict[str, list[str]] = {"red": [], "black": []}
    passed: set[str] = set()
    done = 0
    while done < actions or not all(played.values()) or len(passed) < 1:
        assert done < 120, "the game never gave both sides an interrupt"
        st = table.state
        assert not st.over
        opts = table.options()
        if st.window:
            side = st.window
            mine = [o for o in opts if o.side == side]
            assert {o.intent["type"] for o in mine} <= {"interrupt", "pass"}
            cards = [o for o in mine if o.intent["type"] == "interrupt"]
            if not played[side] and cards:
                code = cards[0].intent["card"]
                table.mark_before_playing(code)
                table.act(side, cards[0].intent)
                played[side].append(code)
            else:
                table.act(side, {"type": "pass"})
                passed.add(side)
        else:
            draws = [o for o in opts if o.intent["type"] == "draw"]
            if draws:
                # Either player may flip; alternate who does.
                table.act(SIDES[done % 2], draws[0].intent)
            else:
                acts = [o for o in opts if o.intent["type"] == "activate"]
                assert acts, opts
                pick = next((o for o in acts if o.intent["action"] == "run"
                             and not o.intent.get("flank")), None) or next(
                    (o for o in acts if o.intent["action"] == "recharge"), acts[0])
                table.act(pick.side, dict(pick.intent))
        done += 1
    return played


def test_each_hand_reaches_its_owner_only(ch_host) -> None:
    table = Table(ch_host)
    try:
        dealt = {s: list(table.state.hands[s]) for s in SIDES}
        assert all(dealt.values())
        played = play(table)
        for c in table.clients.values():
            c.drain(quiet=0.2)
        kept = {s: list(table.state.hands[s]) for s in SIDES}
        assert all(kept.values()), "keep a card in each hand to check it never leaked"
        assert {s: sorted(played[s] + kept[s]) for s in SIDES} == \
            {s: sorted(dealt[s]) for s in SIDES}
        got = {role: bytes(c.received) for role, c in table.clients.items()}
        for role, data in got.items():
            for secret in (str(DEAL_SEED), f"{DEAL_SEED:x}", f"{DEAL_SEED:X}"):
                assert secret.encode() not in data, f"the deal seed reached {role}"
        for side in SIDES:
            foe = other_side(side)
            for code in kept[side]:
                assert named(got[foe], code) == [], f"{side}'s {code} reached {foe}"
                assert named(got["watch"], code) == [], f"{side}'s {code} reached the watcher"
                # ...but the owner was sent it: as a label (the hand) and a code (the
                # interrupt options of its windows).
                assert Card.parse(code).label.encode() in got[side]
                assert f'"{code}"'.encode() in got[side]
            for code in played[side]:
                before = table.before_played[code]
                assert named(before[foe], code) == [], \
                    f"{side}'s {code} reached {foe} before it was played"
                assert named(before["watch"], code) == []
                assert Card.parse(code).label.encode() in before[side]
                # Played, it is public: the log names it to everyone.
                assert Card.parse(code).label.encode() in got[foe]
                assert Card.parse(code).label.encode() in got["watch"]
        # Structurally too: every view sent holds private lines for its owner only,
        # and nobody is offered the other side's secret options.
        for role, data in got.items():
            states = [m for m in frames(data) if m["t"] == "state"]
            assert len(states) > 20
            for m in states:
                assert set(m["view"]["private"]) <= ({role} if role in SIDES else set())
                for o in m["intents"]:
                    assert o["side"] in (None, "", role)
                    assert o["intent"]["type"] not in ("interrupt", "pass") or role in SIDES
            windows = [m for m in states if m["view"]["secret_turn"] == role]
            if role in SIDES:
                assert windows, f"{role} was never asked to interrupt"
                assert any(o["intent"]["type"] == "interrupt"
                           for m in windows for o in m["intents"])
    finally:
        table.close()

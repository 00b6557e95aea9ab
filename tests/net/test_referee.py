"""Two real clients against a real referee over a Unix socket."""

from __future__ import annotations

import asyncio
import os
import stat
from typing import TYPE_CHECKING

import pytest
import toynet
from rawclient import RawClient

from deathzap_tui.net.client import RemoteSession
from deathzap_tui.net.referee import Place, Turn
from deathzap_tui.net.wire import Waiting
from deathzap_tui.rules.steps import ROLL, Dice, DiceRequest, Question, Refused

if TYPE_CHECKING:
    from deathzap_tui.net.referee import Table


def hit(me: RemoteSession, foe: RemoteSession, *, roll: bool = True) -> None:
    """One full turn: me attacks (cover, to hit), foe rolls the saves, me confirms."""
    action = me.begin({"type": "hit", "side": me.side})
    res = action.resolution
    assert isinstance(res.step, Question)
    res.answer("open")
    assert isinstance(res.step, DiceRequest) and res.step.side == me.side
    res.answer(ROLL if roll else Dice(faces=(6, 6)))
    if isinstance(res.step, Waiting):
        assert res.step.side == foe.side and res.step.text == "saves"
        assert foe.wait_for(lambda s: (a := s.pending_action()) is not None
                            and isinstance(a.resolution.step, DiceRequest))
        theirs = foe.pending_action()
        assert not theirs.mine and theirs.by == me.side
        theirs.resolution.answer(ROLL)
        assert me.wait_for(lambda s: res.step is None)
    assert res.done
    me.commit(action)
    assert me.wait_for(lambda s: s.pending_action() is None)


def test_two_clients_play_and_see_the_same_game(host, clients) -> None:
    red, black = clients("red"), clients("black")
    assert red.wait_for(lambda s: s.presence.get("black") == 1)
    assert red.ruleset.id == toynet.ID
    for _ in range(3):
        assert red.turn["side"] == "red"
        hit(red, black)
        assert black.wait_for(lambda s: s.turn["side"] == "black")
        hit(black, red)
        assert red.wait_for(lambda s: s.turn["side"] == "red")
    assert red.wait_for(lambda s: s.seq == black.seq)
    assert red.view().score == black.view().score == host.table.game.state.points
    assert len(host.table.game.log) == 6
    public = [line for line in red.narrative() if "SECRET" not in line]
    assert public == [line for line in black.narrative() if "SECRET" not in line]
    assert len(public) == 12
    # The save is the referee's: it holds all six events.
    from deathzap_tui import saves

    assert len(saves.load_game(host.table.session.path).log) == 6


def test_each_player_sees_only_their_own_secret(host, clients) -> None:
    red, black = clients("red"), clients("black")
    seed = host.table.game.seed
    hit(red, black)
    black.wait_for(lambda s: s.turn["side"] == "black")
    assert any(toynet.secret("red", seed) in x for x in red.view().score_lines)
    assert not any(toynet.secret("red", seed) in x for x in black.view().score_lines)
    assert any(toynet.secret("red", seed) in x for x in red.narrative())
    assert not any(toynet.secret("red", seed) in x for x in black.narrative())


def test_bytes_sent_to_black_never_hold_reds_secret(host, clients) -> None:
    seed = host.table.game.seed
    spy = RawClient(host.socket_path, "black")
    watcher = RawClient(host.socket_path, "watch")
    red = clients("red")
    for _ in range(2):  # black falls to 2 points of 6
        action = red.begin({"type": "hit", "side": "red"})
        action.resolution.answer("open")
        action.resolution.answer(Dice(faces=(6, 6)))
        spy.until(lambda m: m["t"] == "state" and (m["pending"] or {}).get("yours"))
        spy.request("answer", aid=action.aid, answer={"faces": [1, 1]})
        red.wait_for(lambda s, a=action: a.resolution.done)
        red.commit(action)
        spy.until(lambda m: m["t"] == "state" and m["turn"]["side"] == "black")
        # the referee pushes the new state before its reply, which carries the action
        aid = spy.request("begin", intent={"type": "hit", "side": "black"})["pending"]["aid"]
        spy.request("answer", aid=aid, answer="open")
        spy.request("answer", aid=aid, answer={"faces": [1, 1]})
        spy.request("commit", aid=aid)
        red.wait_for(lambda s: s.turn["side"] == "red")
    spy.drain()
    watcher.drain()
    red_secret = toynet.secret("red", seed).encode()
    assert red_secret in b"".join(x.encode() for x in red.narrative())  # it exists...
    assert red_secret not in spy.received  # ...but never reached black
    assert toynet.secret("black", seed).encode() in spy.received  # black's own is sent
    for secret in (red_secret, toynet.secret("black", seed).encode()):
        assert secret not in watcher.received
    spy.close()
    watcher.close()


def test_a_client_cannot_act_as_the_other_player(host, clients) -> None:
    red, black = clients("red"), clients("black")
    with pytest.raises(Refused, match="you play black"):
        black.begin({"type": "hit", "side": "red"}, by="red")
    with pytest.raises(Refused, match="red's turn"):
        black.begin({"type": "hit", "side": "black"})
    with pytest.raises(Refused, match="it is red's move"):
        # at the protocol level: black's connection asks for red's intent
        black.begin({"type": "hit", "side": "red"})
    action = red.begin({"type": "hit", "side": "red"})
    raw = RawClient(host.socket_path, "watch")
    assert "cannot act" in raw.request("answer", aid=action.aid, answer="open")["message"]
    raw.close()
    black.wait_for(lambda s: s.pending_action() is not None)
    with pytest.raises(Refused, match="for red to answer"):
        black.pending_action().resolution.answer("open")
    with pytest.raises(Refused, match="only red can cancel"):
        black.pending_action().cancel()
    action.resolution.answer("open")
    with pytest.raises(Refused, match="only red can confirm"):
        black._call("commit", aid=action.aid)
    # a second terminal for red is refused while red is connected
    with pytest.raises(Refused, match="red is already connected"):
        RemoteSession.connect(host.socket_path, "red", timeout=3)


def test_generated_dice_are_rolled_by_the_referee_only(host, clients) -> None:
    red = clients("red")
    raw = RawClient(host.socket_path, "black")
    action = red.begin({"type": "hit", "side": "red"})
    action.resolution.answer("open")
    with pytest.raises(Refused, match="rolled by the referee"):
        action.resolution.answer(Dice(faces=(6, 6), generated=True))
    action.resolution.answer(Dice(faces=(6, 6)))
    raw.until(lambda m: m["t"] == "state" and (m["pending"] or {}).get("yours"))
    reply = raw.request("answer", aid=action.aid, answer={"faces": [6, 6], "generated": True})
    assert reply["t"] == "error" and "rolled by the referee" in reply["message"]
    reply = raw.request("answer", aid=action.aid, answer={"roll": True})
    assert reply["t"] == "ok"
    faces = reply["pending"]["answers"][-1]["faces"]
    assert reply["pending"]["answers"][-1]["generated"] is True and len(faces) == 2
    raw.close()


def test_undo_needs_the_opponents_agreement(host, clients) -> None:
    red, black = clients("red"), clients("black")
    hit(red, black)
    black.wait_for(lambda s: s.events == 1)
    assert red.undo() is None  # a request, not an undo
    assert black.wait_for(lambda s: s.request == {"kind": "undo", "by": "red"})
    with pytest.raises(Refused, match="asked to undo"):
        black.begin({"type": "hit", "side": "black"})
    with pytest.raises(Refused, match="no request"):
        red.reply(True)
    black.reply(False)
    assert red.wait_for(lambda s: "black declined your undo" in s.notices)
    assert len(host.table.game.log) == 1
    red.undo()
    black.wait_for(lambda s: s.request is not None)
    black.reply(True)
    assert red.wait_for(lambda s: s.view().score == {"red": 6, "black": 6})
    assert red.turn["side"] == "red" and red.can_redo
    assert [e.kind for e in host.table.game.log] == ["resolve", "undo"]


def finish(me: RemoteSession, foe: RemoteSession, action) -> None:
    """Finish ``me``'s hit from its dice on (foe saves), and confirm it."""
    res = action.resolution
    assert isinstance(res.step, DiceRequest) and res.step.side == me.side
    res.answer(ROLL)
    if isinstance(res.step, Waiting):
        assert foe.wait_for(lambda s: (a := s.pending_action()) is not None
                            and isinstance(a.resolution.step, DiceRequest))
        foe.pending_action().resolution.answer(ROLL)
        assert me.wait_for(lambda s: res.step is None)
    me.commit(action)
    assert me.wait_for(lambda s: s.pending_action() is None)


def test_a_player_who_leaves_mid_wizard_finds_the_action_where_it_was(host, clients) -> None:
    """Issue 26: the referee keeps the action in progress for its player (a closed
    terminal, a dropped link): joining again goes on at the same step."""
    red, black = clients("red"), clients("black")
    action = red.begin({"type": "hit", "side": "red"})
    action.resolution.answer("open")
    assert black.wait_for(lambda s: s.pending_action() is not None)
    red.close()  # the terminal is gone
    assert black.wait_for(lambda s: s.presence["red"] == 0)
    assert host.table.pending is not None and host.table.game.log == []
    assert black.pending_action() is not None  # still red's, waiting for red
    again = clients("red")
    kept = again.pending_action()
    assert kept is not None and kept.mine and kept.resolution.answers == ["open"]
    finish(again, black, kept)
    assert black.wait_for(lambda s: s.events == 1)


def test_client_reconnects_after_the_connection_breaks(host, clients) -> None:
    import socket as socketmod

    red, black = clients("red"), clients("black")
    action = red.begin({"type": "hit", "side": "red"})
    action.resolution.answer("open")
    seen = []
    red.subscribe(lambda s: seen.append(s.connected))
    # Break red's connection under it (as a broken SSH link would).
    red._loop.call_soon_threadsafe(
        lambda: red._writer.transport.get_extra_info("socket").shutdown(socketmod.SHUT_RDWR))
    assert red.wait_for(lambda s: False in seen and s.connected
                        and s.presence.get("red") == 1, 5)
    # The same action goes on at the step it was at (issue 26).
    assert not action.discarded and red.pending_action() is action
    assert action.resolution.answers == ["open"]
    finish(red, black, action)
    hit(black, red)


def test_garbage_frames_are_rejected_without_affecting_the_game(host, clients) -> None:
    red, black = clients("red"), clients("black")
    hit(red, black)
    before = (list(host.table.game.log), dict(host.table.game.state.points))
    bad = RawClient(host.socket_path, "watch")
    bad.drain()
    for junk in (b"\xff\xfe not utf8", b"[1,2,3]", b'{"t": 5}', b"{" * 5000, b'{"t":"ping"',
                 b'{"t":"begin","id":1,"intent":{"type":"hit","side":"red","x":NaN}}',
                 b'{"t":"answer","id":2,"aid":1,"answer":' + b"9" * 5000 + b"}",
                 b'{"t":"hello","v":1,"side":"red"}', b'{"t":"nope","id":3}'):
        bad.send_raw(len(junk).to_bytes(4, "big") + junk)
    replies = bad.drain()
    assert len([m for m in replies if m["t"] == "error"]) == 9
    # An oversized frame ends that connection; the game goes on.
    bad.send_raw((10**6).to_bytes(4, "big") + b"x" * 100)
    with pytest.raises((EOFError, ConnectionError)):
        bad.until(lambda m: False)
    # A client that never says hello, or says it wrong, is dropped too.
    mute = RawClient(host.socket_path)
    mute.send_raw(b"\x00\x00\x00\x05hello")
    assert "bad hello" in mute.until(lambda m: m["t"] == "error")["message"]
    assert (list(host.table.game.log), dict(host.table.game.state.points)) == before
    hit(black, red)
    assert red.wait_for(lambda s: s.events == 2)
    mute.close()
    bad.close()


def test_socket_is_owner_and_group_only(host) -> None:
    mode = stat.S_IMODE(os.stat(host.socket_path).st_mode)
    assert mode & 0o007 == 0, oct(mode)


def test_presence_and_turn_are_shown_to_everyone(host, clients) -> None:
    red = clients("red")
    assert red.presence == {"red": 1, "black": 0, "watch": 0}
    black = clients("black")
    watch = clients("watch")
    assert red.wait_for(lambda s: s.presence == {"red": 1, "black": 1, "watch": 1})
    assert watch.turn == {"side": "red", "text": "red to hit"}
    assert watch.intents() == [] and not watch.can_undo
    assert black.intents() == [] and [o.side for o in red.intents()] == ["red"]
    action = red.begin({"type": "hit", "side": "red"})
    action.resolution.answer("open")
    action.resolution.answer(Dice(faces=(5, 5)))
    assert watch.wait_for(lambda s: s.turn["side"] == "black")
    assert watch.turn["text"] == "Black: saves"
    step = watch.pending_action().resolution.step
    assert isinstance(step, Waiting) and step.side == "black"


def test_join_command_connects_by_save_name(host, saves_dir, monkeypatch) -> None:
    """The non-UI half of ``deathzap join`` (the app's run_app does the rest)."""
    import argparse

    from deathzap_tui.commands import join

    monkeypatch.setattr(join, "socket_for", lambda args: host.socket_path)
    session = join.connect(argparse.Namespace(save="duel", side="black", socket=None,
                                              name="bob"))
    try:
        assert session.side == "black" and session.presence["black"] == 1
    finally:
        session.close()
    from deathzap_tui.savepaths import socket_path
    from deathzap_tui.saves import save_path

    assert socket_path(save_path("duel")) == saves_dir / "duel.sock"


def test_leaving_players_are_marked_as_having_seen_the_game(new_session, tmp_path) -> None:
    from referee_harness import HostThread

    from deathzap_tui.net import lastseen

    session = new_session("marks")
    h = HostThread(session, tmp_path / "m.sock", seen=lastseen.Recorder(session.path)).start()
    try:
        red = RemoteSession.connect(h.socket_path, "red", timeout=5)
        black = RemoteSession.connect(h.socket_path, "black", timeout=5)
        hit(red, black)
        red.close()
        black.wait_for(lambda s: s.presence["red"] == 0)
        assert lastseen.read(session.path) == {"red": 1}
        black.close()
    finally:
        h.stop()


def test_two_terminals_of_a_side_share_one_snapshot_per_change(
        new_session, tmp_path, monkeypatch) -> None:
    """A change is built once per side, not once per terminal (issue 23): red's two
    terminals are sent the same snapshot, each with its own narrative (one frame
    encoded for both while they have been told the same)."""
    from referee_harness import HostThread

    from deathzap_tui.net import protocol
    from deathzap_tui.net.limits import Limits

    h = HostThread(new_session("twice"), tmp_path / "t.sock",
                   limits=Limits(player_terminals=2)).start()
    built: list[str | None] = []
    snapshot = h.table.snapshot
    h.table.snapshot = lambda viewer: (built.append(viewer), snapshot(viewer))[1]
    encoded: list[str] = []
    encode = protocol.encode
    monkeypatch.setattr(protocol, "encode", lambda message: (
        encoded.append(message["t"]), encode(message))[1])
    try:
        red = RemoteSession.connect(h.socket_path, "red", timeout=5)
        again = RemoteSession.connect(h.socket_path, "red", timeout=5)
        black = RemoteSession.connect(h.socket_path, "black", timeout=5)
        assert again.wait_for(lambda s: s.presence.get("black") == 1)
        built.clear()
        encoded.clear()
        action = red.begin({"type": "hit", "side": "red"})
        assert again.wait_for(lambda s: s.pending_action() is not None)
        assert black.wait_for(lambda s: s.pending_action() is not None)
        assert sorted(built, key=str) == ["black", "red"]  # one push: one build a side
        assert encoded.count("state") == 2  # and one frame a side
        assert red.seq == again.seq
        assert again.pending_action().mine and again.view() == red.view()
        action.resolution.answer("open")
        assert again.wait_for(lambda s: len(s.pending_action().resolution.answers) == 1)
        assert built.count("red") == 2 and built.count("black") == 2
        assert again.narrative() == red.narrative()
        for c in (red, again, black):
            c.close()
    finally:
        h.stop()


def test_a_second_terminal_of_a_side_tells_a_commit_from_a_cancel(
        new_session, tmp_path) -> None:
    """Issue 23: each push says how the last action ended, so another terminal of
    the player (and the opponent) knows a commit made elsewhere as a commit, with
    the line that tells what it did, and a cancel as a cancel."""
    from referee_harness import HostThread

    from deathzap_tui.net.limits import Limits

    h = HostThread(new_session("hands"), tmp_path / "h.sock",
                   limits=Limits(player_terminals=2)).start()
    try:
        red = RemoteSession.connect(h.socket_path, "red", timeout=5)
        hands = RemoteSession.connect(h.socket_path, "red", timeout=5)
        black = RemoteSession.connect(h.socket_path, "black", timeout=5)
        assert red.wait_for(lambda s: s.presence.get("black") == 1)
        action = hands.begin({"type": "hit", "side": "red"})
        assert red.wait_for(lambda s: (a := s.pending_action()) is not None
                            and a.aid == action.aid)
        assert black.wait_for(lambda s: (a := s.pending_action()) is not None
                              and a.aid == action.aid)
        seen, theirs = red.pending_action(), black.pending_action()
        action.cancel()
        assert red.wait_for(lambda s: s.pending_action() is None)
        assert black.wait_for(lambda s: s.pending_action() is None)
        for gone in (seen, theirs):
            assert gone.discarded and not gone.committed
            assert gone.ended is not None
            assert (gone.ended.how, gone.ended.by, gone.ended.line) == ("cancelled", "red", "")

        action = hands.begin({"type": "hit", "side": "red"})
        assert red.wait_for(lambda s: s.pending_action() is not None)
        seen = red.pending_action()
        assert seen.mine and seen.ended is None
        action.resolution.answer("open")
        finish(hands, black, action)
        assert red.wait_for(lambda s: s.pending_action() is None)
        assert seen.committed and not seen.discarded
        assert seen.ended is not None and seen.ended.how == "committed"
        assert seen.ended.line and seen.ended.line == red.narrative()[-1]
        assert action.ended == seen.ended  # the committing terminal is told the same
        for c in (red, hands, black):
            c.close()
    finally:
        h.stop()


def test_an_old_referees_state_without_ended_still_drops_the_action(host, clients) -> None:
    """A referee that does not say how an action ended (before issue 23's push
    field): the action that leaves is dropped, as before."""
    from deathzap_tui.net.client import RemoteAction

    red = clients("red")
    action = RemoteAction(red, 99, "red", {"type": "hit"})
    with red._lock:
        red._action = action
        red._apply_pending(None)
    assert action.discarded and not action.committed and action.ended is None


def follow(here: Table, there: Table) -> None:
    """The table ``there`` takes the events the table ``here`` wrote, as a club
    front-end does (without writing them again), then the action in flight."""
    game = there.game
    listeners, game.listeners[:] = list(game.listeners), []
    for event in here.game.log[len(game.log):]:
        game.apply(event)
    game.listeners[:] = listeners
    there.follow()


def test_a_table_following_another_front_end_tells_a_commit_from_a_cancel(
        new_session) -> None:
    """Issue 24: an action that ends on another front-end (here another table of
    the same save) is pushed as committed when its event came, else cancelled."""
    from deathzap_tui.net.referee import Table
    from deathzap_tui.session import Session

    here = Table(new_session("across"))

    for how in ("cancelled", "committed"):
        aid = here.begin("red", {"type": "hit", "side": "red"})
        here.answer("red", aid, "open")
        there = Table(Session.resume("across"))
        assert there.pending is not None  # the same action, at the same step
        here.answer("red", aid, {"faces": [1, 1]})  # both miss: no saves
        if how == "committed":
            here.commit("red", aid)
        else:
            here.cancel("red", aid)
        follow(here, there)
        assert there.pending is None
        line = here.narrative("red")[-1] if how == "committed" else ""
        assert there.ended_for("red") == {"aid": 1, "by": "red", "how": how, "line": line}


def test_a_followed_commit_is_told_by_its_own_event_when_more_came_with_it(
        new_session) -> None:
    """Issue 24: the table takes the commit and the next action's event at once (its
    front-end caught up late): the action ended committed, and its line is its own
    event's, not the later one's."""
    from deathzap_tui.net.referee import Table
    from deathzap_tui.session import Session

    here = Table(new_session("across2"))
    aid = here.begin("red", {"type": "hit", "side": "red"})
    here.answer("red", aid, "open")
    there = Table(Session.resume("across2"))
    assert there.pending is not None
    here.answer("red", aid, {"faces": [1, 1]})
    here.commit("red", aid)
    line = here.narrative("red")[-1]
    later = here.begin("black", {"type": "hit", "side": "black"})  # black's turn
    here.answer("black", later, "open")
    here.answer("black", later, {"faces": [1, 1]})
    here.commit("black", later)
    assert here.narrative("red")[-1] != line  # the later event says something else
    follow(here, there)
    assert there.ended_for("red") == {"aid": 1, "by": "red", "how": "committed",
                                      "line": line}


def test_a_table_turn_is_taken_in_the_order_asked_and_idle_only_when_nobody_waits() -> None:
    """:class:`Turn` (issue 24): what changes a table while its writes wait takes the
    turn first-come; it is idle (what takes it may run at once) only when nobody
    holds it or waits for it, including the moment between one holder letting go
    and the next taking it."""
    async def main() -> None:
        turn, order = Turn(print), []
        assert turn.idle

        async def change(name: str) -> None:
            async with turn:
                order.append(name)
                await asyncio.sleep(0.01)  # a write on its way

        async with turn:
            assert not turn.idle
            tasks = [asyncio.ensure_future(change(n)) for n in ("a", "b", "c")]
            await asyncio.sleep(0)
        assert not turn.idle  # "a" is about to take it: a newcomer must queue
        await asyncio.gather(*tasks)
        assert order == ["a", "b", "c"] and turn.idle

        waiting = asyncio.ensure_future(change("d"))
        async with turn:
            pass
        await waiting
        async with turn:  # one that gives up waiting no longer counts
            waiting = asyncio.ensure_future(change("gave up"))
            await asyncio.sleep(0)
            waiting.cancel()
            with pytest.raises(asyncio.CancelledError):
                await waiting
        assert turn.idle and order == ["a", "b", "c", "d"]

    asyncio.run(main())


def test_a_change_in_a_table_s_turn_is_made_at_once_or_in_its_place() -> None:
    """:meth:`Turn.soon`/:meth:`Turn.later` (issue 24): at once when nobody has the
    turn; else in the place taken when asked, before what asks after; a failure is
    logged, and :meth:`Turn.cancel` drops what has not run."""
    async def main() -> None:
        logged: list[str] = []
        turn, order = Turn(logged.append), []
        turn.soon(lambda: order.append("at once"))
        assert order == ["at once"]

        async def request() -> None:
            async with turn:
                order.append("request")

        async def fails() -> None:
            raise RuntimeError("boom")

        async with turn:
            turn.soon(lambda: order.append("queued"))
            turn.later(fails)
            asked = asyncio.ensure_future(request())
            await asyncio.sleep(0)
            assert order == ["at once"]  # nothing ran while the turn was held
        await asyncio.wait_for(asked, 1)
        assert order == ["at once", "queued", "request"]
        assert logged and "boom" in logged[0]

        async with turn:
            turn.soon(lambda: order.append("dropped"))
            turn.cancel()
        await asyncio.sleep(0.01)
        assert order == ["at once", "queued", "request"] and turn.idle

    asyncio.run(main())


def test_a_place_in_a_table_s_turn_is_kept_from_when_it_is_taken() -> None:
    """:meth:`Turn.place` (issue 24): a change queued as a task while the turn is held
    (another front-end's notice) goes before what asks for the turn after it was
    queued, even when that asks before the task has started; a place whose task is
    cancelled before it starts is forgotten, and the turn passes on."""
    async def main() -> None:
        turn, order = Turn(print), []

        async def queued(place: Place, name: str) -> None:
            async with place:
                order.append(name)

        async def request(name: str) -> None:
            async with turn:
                order.append(name)

        async with turn:
            place = turn.place()
            notice = asyncio.ensure_future(queued(place, "notice"))
        # the turn is let go; a request asks for it (in this task, at once) before
        # the notice's task has run
        await asyncio.wait_for(request("request"), 1)
        await notice
        assert order == ["notice", "request"] and turn.idle

        async with turn:
            dropped = turn.place()
            never = asyncio.ensure_future(queued(dropped, "never"))
            never.cancel()  # cancelled before it starts: its place is left unused
        with pytest.raises(asyncio.CancelledError):
            await never
        dropped.forget()
        await asyncio.wait_for(request("after"), 1)
        assert order == ["notice", "request", "after"] and turn.idle

    asyncio.run(main())

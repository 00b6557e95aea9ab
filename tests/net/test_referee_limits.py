"""The referee stays up for the players (issue 19): floods of watchers, slots, stalled
frames, a peer gone quietly. Wire-level, against a real referee on a Unix socket."""

from __future__ import annotations

import asyncio
import re
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import asyncssh
import pytest
from rawclient import RawClient
from referee_harness import HostThread
from subprocess_env import child_env
from test_faults import LAUNCH, ROOT, start_host

from deathzap_tui.net import protocol
from deathzap_tui.net.client import RemoteSession
from deathzap_tui.net.limits import Limits


@pytest.fixture
def limited(new_session, tmp_path: Path) -> Iterator[Callable[..., HostThread]]:
    """``limited(**limits)``: a started referee with those :class:`Limits`."""
    hosts: list[HostThread] = []

    def start(**limits) -> HostThread:
        h = HostThread(new_session(), tmp_path / "lim.sock", limits=Limits(**limits)).start()
        hosts.append(h)
        return h

    yield start
    for h in hosts:
        h.stop()


def first_reply(c: RawClient) -> dict:
    return c.until(lambda m: m["t"] in ("welcome", "error"))


def gone(c: RawClient, within: float = 3.0) -> list[dict]:
    """Read until the referee closes ``c`` (within ``within`` s); what it said."""
    said = []
    c.sock.settimeout(within)
    try:
        while (msg := c.recv()) is not None:
            said.append(msg)
    except ConnectionError:
        pass
    return said


def test_a_watcher_coming_and_going_sends_the_players_no_snapshot(limited) -> None:
    host = limited()
    red = RawClient(host.socket_path, "red")
    red.until(lambda m: m["t"] == "state")
    red.drain(0.4)
    for _ in range(5):
        w = RawClient(host.socket_path, "watch")
        assert w.until(lambda m: m["t"] == "state")["presence"]["watch"] == 1  # its own
        w.close()
    seen = red.drain(0.8)
    assert [m for m in seen if m["t"] == "state"] == []
    presence = [m["presence"] for m in seen if m["t"] == "presence"]
    assert presence and presence[-1] == {"red": 1, "black": 0, "watch": 0}
    assert len(presence) <= 4  # coalesced: ten joins and leaves in well under a second
    red.close()


def test_presence_messages_reach_the_client_facade(limited) -> None:
    host = limited()
    red = RemoteSession.connect(host.socket_path, "red", timeout=5)
    try:
        watch = RawClient(host.socket_path, "watch")
        assert red.wait_for(lambda s: s.presence["watch"] == 1, 3)
        seq = red.seq
        watch.close()
        assert red.wait_for(lambda s: s.presence["watch"] == 0, 3)
        assert red.seq == seq  # no new snapshot, only who is here
    finally:
        red.close()


def test_each_connections_requests_are_paced_and_the_players_go_first(limited) -> None:
    host = limited(watcher_requests=(40.0, 5))
    red = RawClient(host.socket_path, "red")
    red.until(lambda m: m["t"] == "state")
    flood = RawClient(host.socket_path, "watch")
    flood.until(lambda m: m["t"] == "state")
    started = time.monotonic()
    for i in range(1, 46):
        flood.send({"t": "ping", "id": i})
    t = time.monotonic()
    assert red.request("ping")["t"] == "ok"
    player_rtt = time.monotonic() - t
    flood.until(lambda m: m.get("id") == 45, timeout=10)
    # 40 pings beyond the burst of 5 at 40 a second: at least a second
    assert time.monotonic() - started >= 0.95
    assert player_rtt < 0.5
    red.close()
    flood.close()


FLOOD = """
import socket, sys, time
hello = bytes.fromhex(sys.argv[2])
end = time.monotonic() + float(sys.argv[3])
held = []
while time.monotonic() < end:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(sys.argv[1])
        s.sendall(hello)
    except OSError:
        s.close()
        continue
    held.append(s)
    if len(held) > 8:
        held.pop(0).close()
"""
"""A process joining as a watcher as fast as it can, never reading, keeping its
eight newest connections: argv = socket, hello frame (hex), seconds."""


def test_players_join_and_play_while_two_processes_flood_the_referee(limited) -> None:
    host = limited()
    black = RemoteSession.connect(host.socket_path, "black", timeout=5)
    hello = protocol.encode({"t": "hello", "v": protocol.VERSION, "side": "watch"}).hex()
    floods = [subprocess.Popen([sys.executable, "-c", FLOOD, str(host.socket_path), hello,
                                "4"]) for _ in range(2)]
    try:
        time.sleep(0.5)  # the flood is on
        red = RemoteSession.connect(host.socket_path, "red", timeout=5)
        rtts = []
        for _ in range(20):
            t = time.monotonic()
            red._call("ping")
            rtts.append(time.monotonic() - t)
        assert all(f.poll() is None for f in floods), "the flood ended too soon"
        assert sorted(rtts)[10] < 0.1, rtts  # the median: milliseconds, not seconds
        assert black.wait_for(lambda s: s.presence["red"] == 1, 5)
        red.close()
    finally:
        for f in floods:
            f.kill()
            f.wait()
        black.close()


def test_watchers_joining_too_fast_are_refused_for_the_moment_not_players(limited) -> None:
    host = limited(watcher_joins=(0.5, 2))
    replies = [first_reply(RawClient(host.socket_path, "watch")) for _ in range(3)]
    assert [r["t"] for r in replies] == ["welcome", "welcome", "error"]
    assert "too many watchers joining" in replies[2]["message"]
    red = RawClient(host.socket_path, "red")
    assert first_reply(red)["t"] == "welcome"
    red.close()


def test_idle_watchers_never_take_a_players_slot(limited) -> None:
    host = limited()  # the default limits
    watchers = [RawClient(host.socket_path, "watch") for _ in range(16)]
    replies = [first_reply(w) for w in watchers]
    welcomed = [r for r in replies if r["t"] == "welcome"]
    assert len(welcomed) == Limits().max_watchers
    assert all("no room for another watcher" in r["message"]
               for r in replies if r["t"] == "error")
    red = RemoteSession.connect(host.socket_path, "red", timeout=5)
    black = RemoteSession.connect(host.socket_path, "black", timeout=5)
    red.close()
    again = RemoteSession.connect(host.socket_path, "red", timeout=5)  # reconnecting
    assert again.wait_for(lambda s: s.presence["red"] == 1 and s.presence["watch"] == 12)
    again.close()
    black.close()
    for w in watchers:
        w.close()


def test_a_stalled_partial_frame_is_dropped_and_frees_the_slot(limited) -> None:
    host = limited(stall_timeout=0.3)
    quiet = RawClient(host.socket_path, "watch")
    half_header = RawClient(host.socket_path, "watch")
    red = RawClient(host.socket_path, "red")
    for c in (quiet, half_header, red):
        c.until(lambda m: m["t"] == "state")
    half_header.send_raw(b"\x00\x00")
    body = protocol.encode({"t": "ping", "id": 1})
    red.send_raw(body[:7])  # the header and three bytes of the body
    for c in (half_header, red):
        said = gone(c)
        assert any("stalled" in m.get("message", "") for m in said if m["t"] == "bye")
    assert host.table.connected["red"] == 0
    # Quiet between frames is no stall; red's side is free again.
    assert quiet.request("ping")["t"] == "ok"
    again = RawClient(host.socket_path, "red")
    assert first_reply(again)["t"] == "welcome"
    for c in (quiet, half_header, red, again):
        c.close()


def test_connections_that_never_say_hello_give_way_to_new_ones(limited) -> None:
    host = limited(greeting=2)
    idle = []
    for _ in range(3):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(3)
        s.connect(str(host.socket_path))
        idle.append(s)
    assert idle[0].recv(100) == b""  # the one waiting longest is dropped at once
    red = RawClient(host.socket_path, "red")
    assert first_reply(red)["t"] == "welcome"
    red.close()
    for s in idle:
        s.close()


def test_a_player_gone_without_a_word_is_no_error_on_the_host(limited) -> None:
    """A terminal that quits with the referee's messages unread: the referee's next
    write meets a closed peer. The host says red left, nothing more."""
    host = limited()
    black = RawClient(host.socket_path, "black")
    red = RawClient(host.socket_path, "red")
    red.until(lambda m: m["t"] == "state")
    for _ in range(3):
        black.request("ping")
    red.send({"t": "begin", "id": 1, "intent": {"type": "hit", "side": "red"}})
    red.close()
    black.until(lambda m: m["t"] in ("state", "presence") and m["presence"]["red"] == 0)
    assert any(line.startswith("red left") for line in host.logged)
    assert not [line for line in host.logged if "Errno" in line or "pipe" in line]
    black.close()


def test_host_takes_the_watchers_limit_from_its_flag(new_session, saves_dir: Path) -> None:
    new_session("flagged")
    proc = start_host(saves_dir, "flagged", "--max-watchers", "1")
    try:
        sock = saves_dir / "flagged.sock"
        first, second = RawClient(sock, "watch"), RawClient(sock, "watch")
        assert first_reply(first)["t"] == "welcome"
        assert "at most 1" in first_reply(second)["message"]
        first.close()
        second.close()
    finally:
        proc.terminate()
        proc.wait(5)


def test_serve_ssh_takes_the_login_budget_from_its_flags(new_session, saves_dir: Path,
                                                         tmp_path: Path) -> None:
    new_session("sshed")
    red = asyncssh.generate_private_key("ssh-ed25519")
    keys = tmp_path / "keys.toml"
    keys.write_text(f'[[players]]\nside = "red"\n'
                    f'key = "{red.export_public_key().decode().strip()}"\n')
    env = child_env(DEATHZAP_SAVES_DIR=str(saves_dir), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-c", LAUNCH, "serve-ssh", "sshed",
                             "--keys", str(keys), "--port", "0", "--socket",
                             str(tmp_path / "s.sock"), "--max-unauthenticated", "1",
                             "--login-timeout", "0.5"],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)

    async def main(port: int) -> None:
        idle_r, idle_w = await asyncio.open_connection("127.0.0.1", port)
        early_r, early_w = await asyncio.open_connection("127.0.0.1", port)
        await asyncio.wait_for(idle_r.read(), 5)  # dropped at once: a budget of one
        await asyncio.wait_for(early_r.read(), 5)  # dropped after the login timeout
        async with asyncio.timeout(10), asyncssh.connect(
                "127.0.0.1", port, username="x", client_keys=[red], known_hosts=None,
                agent_path=None) as conn:
            assert (await conn.run()).exit_status == 1  # served (no pty: one line)
        idle_w.close()
        early_w.close()

    try:
        line = proc.stdout.readline()
        found = re.search(r":(\d+) \(", line)
        assert found, line + proc.stderr.read()
        asyncio.run(main(int(found.group(1))))
    finally:
        proc.terminate()
        proc.wait(5)

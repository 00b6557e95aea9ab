"""Issue 23's "done when", end to end: ``deathzap club serve --open`` on a temporary
store, members on real SSH connections (asyncssh clients with a pty, reading what
the lobby app draws), from registering to a report of the exported game.

alice and bob register (their sessions' apps forked from the server's zygote);
alice challenges bob (the ``--notify`` command runs, bob's lobby shows it live and
rings the bell); bob accepts and both choose forces; both play the set-up live, each
answering their own steps (the server rolls); bob leaves, alice draws a card alone;
bob comes back to the unread marker and "since you last looked"; carol registers and
sees nothing of their private game; ``club export`` gives a save that ``deathzap
report`` reads.
"""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import asyncssh
import pytest

pytestmark = pytest.mark.slow

ANSI = re.compile(rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"
                  rb"|\x1b[()][A-Za-z0-9]|\x1b[=>78c]")
"""Escape sequences: what is left is the text the app drew."""
OSC = re.compile(rb"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")
KEYS = {"enter": b"\r", "tab": b"\t", "down": b"\x1b[B", "ctrl+s": b"\x13",
        "ctrl+r": b"\x12", "ctrl+l": b"\x0c", "ctrl+q": b"\x11"}
OUTCOME = re.compile(r"(Red|Black) won the roll-off|Roll-off: Red's die")
"""After both dice of a roll-off: its winner, or (a tie) Red to roll again."""


class Terminal:
    """One member's SSH session on a pty, 80x24: keys in, the app's text out."""

    def __init__(self, conn: asyncssh.SSHClientConnection,
                 proc: asyncssh.SSHClientProcess) -> None:
        self.conn = conn
        self.proc = proc
        self.raw = bytearray()
        self.mark = 0
        """Where :meth:`expect` starts looking (what was drawn before is old)."""

    @classmethod
    async def open(cls, port: int, key: asyncssh.SSHKey) -> Terminal:
        conn = await asyncssh.connect("127.0.0.1", port, username="member",
                                      client_keys=[key], known_hosts=None, agent_path=None)
        proc = await conn.create_process(term_type="xterm-256color", term_size=(80, 24),
                                         encoding=None)
        return cls(conn, proc)

    def text(self, start: int = 0) -> str:
        return ANSI.sub(b"", bytes(self.raw[start:])).decode("utf-8", "replace")

    def rang(self, start: int = 0) -> bool:
        """The terminal bell (BEL outside an OSC sequence) was sent since ``start``."""
        return b"\x07" in OSC.sub(b"", bytes(self.raw[start:]))

    async def _read(self, timeout: float) -> None:
        try:
            chunk = await asyncio.wait_for(self.proc.stdout.read(65536), timeout)
        except TimeoutError:
            return
        if not chunk:
            raise AssertionError(f"the session ended; it last showed:\n{self.text()[-2000:]}")
        self.raw += chunk

    async def expect(self, *texts: str, timeout: float = 30.0) -> str:
        """Read until every one of ``texts`` was drawn since the mark; move the mark to
        the end. Returns the text drawn meanwhile."""
        deadline = time.monotonic() + timeout
        while not all(t in self.text(self.mark) for t in texts):
            if time.monotonic() > deadline:
                raise AssertionError(f"never drew {texts}; drew:\n{self.text(self.mark)[-3000:]}")
            await self._read(0.2)
        seen = self.text(self.mark)
        self.mark = len(self.raw)
        return seen

    async def match(self, pattern: re.Pattern[str], timeout: float = 30.0) -> re.Match[str]:
        """Read until ``pattern`` matches what was drawn since the mark; move the mark
        to the end."""
        deadline = time.monotonic() + timeout
        while (found := pattern.search(self.text(self.mark))) is None:
            if time.monotonic() > deadline:
                raise AssertionError(f"never drew {pattern.pattern!r}; drew:\n"
                                     f"{self.text(self.mark)[-3000:]}")
            await self._read(0.2)
        self.mark = len(self.raw)
        return found

    async def settle(self, quiet: float = 0.4) -> None:
        """Read whatever comes until nothing has for ``quiet`` seconds."""
        while True:
            before = len(self.raw)
            await self._read(quiet)
            if len(self.raw) == before:
                return

    def press(self, *keys: str) -> None:
        self.mark = len(self.raw)
        for key in keys:
            self.proc.stdin.write(KEYS.get(key, key.encode()))

    async def type(self, *keys: str) -> None:
        """Press ``keys`` one at a time, each once the app has drawn what the last did
        (a busy machine must not merge a field's text and the key that leaves it)."""
        mark = len(self.raw)
        for key in keys:
            self.proc.stdin.write(KEYS.get(key, key.encode()))
            await self.settle(0.3)
        self.mark = mark

    async def close(self) -> None:
        self.conn.close()
        await self.conn.wait_closed()


async def register(port: int, key: asyncssh.SSHKey, name: str) -> Terminal:
    term = await Terminal.open(port, key)
    await term.expect("choose your member name", "Name:")
    term.press(name, "enter")
    await term.expect(f"Deathzap club — {name}", "Your games (0)")
    return term


def assert_forked_from_the_zygote(log: Path, sessions: int) -> None:
    """The sessions' apps the server's log names (each still running) are children
    of the zygote it started (issue 23)."""
    text = log.read_text()
    zygote = re.search(r"zygote: ready \(pid (\d+)\)", text)
    assert zygote, text[-2000:]
    apps = [int(pid) for pid in re.findall(r"session started \(pid (\d+)", text)]
    assert len(apps) == sessions, text[-2000:]
    for pid in apps:
        stat = Path(f"/proc/{pid}/stat").read_text()
        assert int(stat.rsplit(")", 1)[1].split()[1]) == int(zygote.group(1)), stat


async def until(predicate, what: str, timeout: float = 30.0, every: float = 0.2) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out: {what}"
        await asyncio.sleep(every)


def events(store: Path) -> int:
    """The events the club keeps for game 1 (read beside the server, as a check)."""
    from deathzap_tui.club.sqlstore import open_store

    club = open_store(store)
    try:
        return club.game_info(1).events
    finally:
        club.close()


@pytest.fixture
def club_server(tmp_path: Path, saves_dir: Path) -> Iterator[dict]:
    """``deathzap club serve --open`` on a temporary store, with a notify script that
    appends its arguments to a file."""
    store = tmp_path / "club.sqlite"
    notified = tmp_path / "notified.txt"
    script = tmp_path / "notify.sh"
    script.write_text(f'#!/bin/sh\necho "$1 $2 $3" >> "{notified}"\n')
    script.chmod(0o755)
    log = (tmp_path / "server.log").open("wb")
    server = subprocess.Popen(
        [sys.executable, "-m", "deathzap_tui", "club", "serve", "--open", "--port", "0",
         "--store", str(store), "--notify", str(script)],
        stdout=subprocess.PIPE, stderr=log, env=os.environ.copy(), cwd=tmp_path)
    try:
        line = server.stdout.readline().decode()  # type: ignore[union-attr]
        found = re.search(r"club serving on 127\.0\.0\.1:(\d+)", line)
        if not found:
            server.wait(15)
            log.flush()
            pytest.fail(f"the server did not start: {line!r}\n"
                        f"{(tmp_path / 'server.log').read_text()[-3000:]}")
        yield {"port": int(found.group(1)), "store": store, "notified": notified,
               "log": tmp_path / "server.log"}
    finally:
        server.terminate()
        server.wait(15)
        log.close()


def side_of(text: str) -> str:
    found = re.search(r"you: (RED|BLACK)", text)
    assert found, f"no side shown in:\n{text[-2000:]}"
    return found.group(1).lower()


def test_two_members_from_challenge_to_report_over_ssh(club_server: dict, tmp_path: Path,
                                                       saves_dir: Path) -> None:
    port, store = club_server["port"], club_server["store"]
    keys = {name: asyncssh.generate_private_key("ssh-ed25519")
            for name in ("alice", "bob", "carol")}

    async def main() -> None:
        alice = await register(port, keys["alice"], "alice")
        bob = await register(port, keys["bob"], "bob")
        assert_forked_from_the_zygote(club_server["log"], sessions=2)

        # alice challenges bob by name with the first shipped Deathzap 3 force.
        alice.press("n")
        await alice.expect("New game", "Opponent")
        await alice.type("bob", "tab", "enter")
        await alice.expect("demo-ashfall-legion (shipped)")
        await alice.type("down", "enter")
        alice.press("ctrl+s")
        await alice.expect("Challenge c1 made, to bob.")
        await bob.expect("alice → you")  # live, with the bell
        assert bob.rang(0)
        await until(lambda: club_server["notified"].exists(), "notify ran")
        assert "bob challenge-1 challenge" in club_server["notified"].read_text()

        # bob accepts with another shipped force: the game opens for him.
        bob.press("a")
        await bob.expect("Accept challenge c1")
        await bob.type("enter")
        await bob.expect("demo-vanta-syndicate (shipped)")
        await bob.type("down", "down", "enter")
        bob.press("ctrl+s")
        sides = {"bob": side_of(await bob.expect("you: "))}
        await alice.expect("bob accepted your challenge")
        alice.press("enter")  # the cursor is on the new game
        sides["alice"] = side_of(await alice.expect("you: "))
        assert {sides["alice"], sides["bob"]} == {"red", "black"}
        term = {sides["alice"]: alice, sides["bob"]: bob}

        # Set-up, live: alice starts the roll-off; each rolls their own die at their
        # own terminal (the server rolls it); the winner picks an edge; alice confirms.
        alice.press("n")
        winner = ""
        await term["red"].expect("Roll-off: Red's die")
        for _ in range(10):  # a tie rolls again
            term["red"].press("ctrl+r")
            await term["black"].expect("Roll-off: Black's die")
            await term["red"].settle()
            term["black"].press("ctrl+r")
            term["red"].mark = len(term["red"].raw)
            found = await term["red"].match(OUTCOME)
            if found.group(1):
                winner = found.group(1).lower()
                break
        assert winner
        await until_event(store, 1, (term[winner], "1"), (alice, "ctrl+s"))

        # alice places the objectives alone: every default (her own steps).
        alice.press("n")
        await alice.expect("Distance between the two entry edges")
        await until_event(store, 2, (alice, "enter"))

        # bob leaves the table for the lobby, then logs out; alice draws a card.
        bob.press("ctrl+l")
        await bob.expect("Your games (1)")
        await bob.close()
        alice.press("d")
        await until(lambda: events(store) == 3, "alice's draw kept")
        alice.press("ctrl+l")
        await alice.expect("Your games (1)")
        await alice.close()

        # bob comes back: the unread marker in the lobby, then "since you last looked".
        bob = await Terminal.open(port, keys["bob"])
        lobby = await bob.expect("Deathzap club — bob", "Your games (1)")
        assert re.search(r"#1 .*v alice.*●\d", lobby), lobby[-2000:]
        bob.press("enter")
        seen = await bob.expect("since you last looked")
        assert "drew" in seen.lower() or "card" in seen.lower()
        bob.press("enter")
        await bob.settle()
        bob.press("ctrl+l")
        await bob.expect("Your games (1)")

        # carol: a member, but the game of two others is private.
        carol = await register(port, keys["carol"], "carol")
        await carol.settle()
        shown = carol.text()
        assert "Watch (0)" in shown and "alice" not in shown and "#1" not in shown
        for t in (bob, carol):
            t.press("ctrl+q")
            await asyncio.wait_for(t.proc.wait(), 15)
            await t.close()

    asyncio.run(asyncio.wait_for(main(), 240))

    # The game exported from the club is a save `deathzap report` reads.
    run = {"cwd": tmp_path, "capture_output": True, "text": True, "timeout": 60}
    out = subprocess.run([sys.executable, "-m", "deathzap_tui", "club", "export", "1",
                          "--store", str(store), "--to", str(saves_dir / "club-game")],
                         check=False, **run)
    assert out.returncode == 0, out.stderr
    report = subprocess.run([sys.executable, "-m", "deathzap_tui", "report", "club-game"],
                            check=False, **run)
    assert report.returncode == 0, report.stderr
    assert "Ashfall Legion" in report.stdout and "Vanta Syndicate" in report.stdout


async def until_event(store: Path, count: int, *presses: tuple[Terminal, str]) -> None:
    """Press each (terminal, key) in turn (answering a choice, confirming, or taking
    a step's default) until the club keeps event number ``count``: a key that comes
    before its step is drawn does nothing, so it is pressed again."""
    deadline = time.monotonic() + 60
    while events(store) < count:
        assert time.monotonic() < deadline, \
            f"event {count} never came:\n{presses[-1][0].text()[-2000:]}"
        for term, key in presses:
            term.press(key)
            await term.settle(0.3)

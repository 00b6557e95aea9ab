"""A club under load on one machine: real SSH sessions on loopback (issue 23).

A real club server process (:class:`~deathzap_tui.club.server.ClubSSHServer`, its
hub and one referee per game, on a real SQLite store with fsync per event) hosts
SESSIONS/2 games of the toy duel (``tests/net/toynet.py``: a move is a begin, a cover
answer, the attacker's dice, the defender's saves, a commit). Each player is a real
asyncssh client with a pty (80x24) whose session runs the app a player sees in a
game: the joined battle screen (``deathzap join``, one process per session, as the
lobby runs it once a game is open). The players' hands are protocol connections at
each game's table (a member may have a game open in several sessions), so the moves
cost the server what a player's keys would, and the screens are the real ones.

Each game makes a move every EVERY seconds (each player moves every 2 x EVERY
seconds), starting at random offsets. For each move we time from sending the commit
to the first bytes of the opponent's screen update arriving at their SSH client
(the opponent's screen is quiet before the commit is sent). Then: p50/p95, the
server's CPU (the server process and every session's app) during play, RSS and PSS
per idle session (all started, nothing moving) and per playing session, and how the
server's event loop fared while they played (how late it ran a timer; its store
writes per move, and how long they held the loop).

    .venv/bin/python benchmarks/club.py [--sessions 100] [--seconds 60] [--every 3]

Several front-ends (issue 24): ``--store postgresql://...`` (an empty database; or
``--store private-postgres`` to start a private PostgreSQL 15 for the run) and
``--front-ends 2`` run that many ``club serve`` processes on the one database. Half
the games are played across two front-ends (red's session on one, black's on the
other: the move reaches the opponent through the store's LISTEN/NOTIFY), half within
one; p50/p95 are given for each, and a move across hop by hop (:func:`hops_line`:
the commit sent -> the event kept by the mover's front-end A -> its notice heard by
the opponent's front-end B (B may hear it before A's call has returned: a hop of
-1 ms) -> B's state written to its terminals -> the opponent's screen), with the
store reads per move (a front-end takes another's change from its notice; it reads
the store only when not in step with the notices). Then the store's event-append throughput: events
kept per second (each one transaction, fsync as the database is configured), by one
writer and by four at once on four games.

The sessions' apps run ``--app-nice N`` niceness levels below the server (as ``club
serve --app-nice``; default its default; 0: at the server's priority); the header
says which, and, with ``private-postgres``, the niceness PostgreSQL's processes run at
(the database server's own: its backends are its children, not the front-ends').
``--no-fsync`` runs the private server without syncing (as the tests' is), to
compare. Each front-end runs in a session of its own, as a service does (the
kernel's autogroups share the CPU between sessions first), and ends with the
benchmark. Per move it also prints the frames the apps drew (the terminals say they
have synchronized output, so each frame is counted) and the server processes'
context switches (every thread's).
The sessions' apps are forked from the server's zygote (:mod:`deathzap_tui.club.zygote`);
``--no-zygote`` starts each as a process of its own (as before it), to compare: the
time from asking for a session's terminal to its app's first bytes, and the memory
per session (the zygote's own is printed apart: its children share it).
``--fork-memory N`` measures the same without SSH: N joined apps at one toy referee,
each on its own pty (``setsid``, the pty its controlling terminal), started as fresh
interpreters and then forked from a process that imported the app first; RSS, PSS
and private memory per app once they idle.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from subprocess_env import child_env, helper_folders  # noqa: E402

sys.path[:0] = helper_folders()  # the tests' helpers (toynet...), as pytest finds them
os.environ.update(child_env())  # and so do the processes started here (the zygote...)

import asyncssh  # noqa: E402
import toynet  # noqa: E402

from deathzap_tui.club.pgstore import redact  # noqa: E402
from deathzap_tui.club.server import APP_NICE, niceness  # noqa: E402
from deathzap_tui.club.zygote import preload  # noqa: E402

JOIN = ("import sys; import toynet; toynet.install(); "
        "from deathzap_tui.cli import main; sys.exit(main(sys.argv[1:]))")
"""``python -c JOIN ARGS...``: the CLI with the toy ruleset known (``PYTHONPATH``)."""
TICK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")
QUIET = 0.08
"""Seconds a screen must have been silent before a commit is timed."""
SYNC_START = b"\x1b[?2026h"
"""How Textual begins each frame on a terminal that has synchronized output (the
sessions' terminals here say they have it, as a modern terminal does)."""


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))]


# --- the server process ------------------------------------------------------------

async def serve(store_path: str, rundir: Path, front: int, fronts: int,
                zygote: bool, app_nice: int) -> None:
    """Host the games of the store that have a player on front-end ``front`` (of
    ``fronts``, :func:`front_of`), as a lobby opening them would; print the port and
    each game's socket."""
    from deathzap_tui.club.hosting import Club
    from deathzap_tui.club.hub import HubServer
    from deathzap_tui.club.server import ClubSSHServer
    from deathzap_tui.club.sqlstore import open_store
    from deathzap_tui.net import sshd

    toynet.long_duels()
    store = open_store(store_path)
    club = Club(store, rundir, log=lambda text: None)
    hops = Hops(store, club)
    await club.start()  # with several front-ends: hear the others' moves
    seats: dict[str, tuple[str, str]] = {}
    sockets: dict[int, str] = {}
    for i, info in enumerate(sorted(store.games(), key=lambda g: g.id)):
        if front not in (front_of(i, "red", fronts), front_of(i, "black", fronts)):
            continue
        hosted = await club.host(info.id)
        sockets[info.id] = str(hosted.socket)
        seats[info.red or ""] = (str(hosted.socket), "red")
        seats[info.black or ""] = (str(hosted.socket), "black")

    def command(member: str) -> list[str]:
        sock, side = seats[member]
        return [sys.executable, "-c", JOIN, "join", "--socket", sock, "--as", side]

    hub = HubServer(club, rundir / "hub.sock", log=lambda text: None)
    await hub.start()
    server = ClubSSHServer(club, hub, sshd.host_key(rundir), command=command, port=0,
                           max_unauthenticated=64, zygote=zygote, app_nice=app_nice,
                           log=lambda text: None)
    await server.start()
    loop = asyncio.get_running_loop()
    watch = LoopWatch(store, hops)
    loop.add_signal_handler(signal.SIGUSR1, watch.reset)  # play starts
    loop.add_signal_handler(signal.SIGUSR2, watch.report)  # play is over

    def orphaned() -> None:  # the benchmark is gone (its pipe closed): end as if told to
        if not os.read(0, 512):
            os.kill(os.getpid(), signal.SIGTERM)

    loop.add_reader(0, orphaned)  # in a session of its own, no terminal hangs it up
    print(json.dumps({"port": server.port, "sockets": sockets}), flush=True)
    await watch.sample()


class LoopWatch:
    """In a server process: how late its event loop runs a timer (what a move waits
    for it), and how long its store writes take (an event, which waits for the
    disk, and an action's records) and of that how long they hold the loop (those
    made on it; a hosted game's are made on the store's writer threads)."""

    WRITES = ("append_event", "store_in_flight")
    READS = ("rows_since", "event_rows", "load_in_flight", "game_info")
    """What a front-end reads of a game in play (catching it up, a lobby's line)."""
    EVERY = 0.05
    """Seconds between the timer's samples (few: its own CPU counts as the server's)."""

    def __init__(self, store: Any, hops: Hops) -> None:
        self.hops = hops
        self.lags: list[float] = []
        self.writes = 0
        self.writing = 0.0
        self.on_loop = 0.0
        """Of the writes' time: theirs made on the event loop's thread."""
        self.reads = 0
        self.counting = threading.Lock()
        """The writes are counted on several threads."""
        for name in self.READS:
            read = getattr(store, name)

            def counted(*args: Any, read: Any = read) -> Any:
                self.reads += 1
                return read(*args)

            setattr(store, name, counted)
        self.events = 0
        self.event_writing = 0.0
        """Of the writes: the events' (each waits for the disk)."""
        for name in self.WRITES:
            write = getattr(store, name)

            def timed(*args: Any, write: Any = write, name: str = name) -> Any:
                started = time.perf_counter()
                try:
                    return write(*args)
                finally:
                    took = time.perf_counter() - started
                    with self.counting:
                        self.writes += 1
                        self.writing += took
                        if threading.current_thread() is threading.main_thread():
                            self.on_loop += took
                        if name == "append_event":
                            self.events += 1
                            self.event_writing += took

            setattr(store, name, timed)
        self.loop_calls = 0
        self.loop_calling = 0.0
        """Every transaction of the store made on the loop's thread (a lobby's
        requests among them), and their time."""
        transaction = store._tx

        @contextlib.contextmanager
        def on_loop(**kw: Any) -> Any:
            if threading.current_thread() is not threading.main_thread():
                with transaction(**kw) as run:
                    yield run
                return
            started = time.perf_counter()
            try:
                with transaction(**kw) as run:
                    yield run
            finally:
                self.loop_calls += 1
                self.loop_calling += time.perf_counter() - started

        store._tx = on_loop

    async def sample(self) -> None:
        while True:
            started = time.perf_counter()
            await asyncio.sleep(self.EVERY)
            self.lags.append(time.perf_counter() - started - self.EVERY)

    def reset(self) -> None:
        self.lags, self.writes, self.writing, self.reads = [], 0, 0.0, 0
        self.events, self.event_writing, self.on_loop = 0, 0.0, 0.0
        self.loop_calls, self.loop_calling = 0, 0.0

    def report(self) -> None:
        ms = [lag * 1000 for lag in self.lags] or [0.0]
        print(json.dumps({"lag50": pct(ms, 50), "lag95": pct(ms, 95), "writes": self.writes,
                          "writing": self.writing, "on_loop": self.on_loop,
                          "loop_calls": self.loop_calls, "loop_calling": self.loop_calling,
                          "reads": self.reads,
                          "events": self.events, "event_writing": self.event_writing,
                          **vars(self.hops)}), flush=True)


class Hops:
    """In a server process: when each event was kept here, and when one kept by
    another front-end was heard of (its notice taken off the listening connection)
    and its state written to this front-end's terminals, by ``"GAME:NUMBER"``
    (``time.monotonic``: one clock for every process on the machine)."""

    def __init__(self, store: Any, club: Any) -> None:
        self.kept: dict[str, float] = {}
        self.heard: dict[str, float] = {}
        self.sent: dict[str, float] = {}
        append, changed = store.append_event, club._changed_elsewhere

        def kept(game_id: int, seq: int, data: str) -> None:
            append(game_id, seq, data)
            self.kept[f"{game_id}:{seq}"] = time.monotonic()

        def heard(game_id: int, what: str, data: str = "") -> None:
            hosted = club.hosted.get(game_id)
            if hosted is not None and what.startswith("event"):
                self.heard.setdefault(f"{game_id}:{len(hosted.table.game.log)}",
                                      time.monotonic())
            changed(game_id, what, data)

        store.append_event = kept
        club._changed_elsewhere = heard  # before club.start() hands it to the store
        from deathzap_tui.net.referee import Referee  # lazy: after the path is set

        pushed = Referee.changed

        def sent(referee: Referee, *, anew: bool = False) -> None:
            pushed(referee, anew=anew)  # the state written to the terminals' sockets
            for seq in range(len(referee.table.game.log)):
                self.sent.setdefault(f"{referee.socket_path.stem[5:]}:{seq}",
                                     time.monotonic())

        Referee.changed = sent  # type: ignore[method-assign]


# --- measuring processes ---------------------------------------------------------

def children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                stat = Path(f"/proc/{entry}/stat").read_text()
                if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                    out.append(int(entry))
    return out


def switches(pid: int) -> int:
    """Context switches of every thread of ``pid`` so far (voluntary: it waited, for
    a lock, the disk or a socket; involuntary: the CPU was taken from it)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            for line in (task / "status").read_text().splitlines():
                if "ctxt_switches:" in line:
                    total += int(line.split()[-1])
    return total


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def memory(pid: int, *, private: bool = False) -> tuple[float, ...]:
    """RSS and PSS in MB; and the private memory (shared with no other process)."""
    rss = pss = own = 0.0
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Rss:"):
                rss = int(line.split()[1]) / 1024
            elif line.startswith("Pss:"):
                pss = int(line.split()[1]) / 1024
            elif line.startswith("Private_"):
                own += int(line.split()[1]) / 1024
    return (rss, pss, own) if private else (rss, pss)


def is_zygote(pid: int) -> bool:
    try:
        return b"deathzap_tui.club.zygote" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def zygotes(server: int) -> list[int]:
    """The server's zygote (:mod:`deathzap_tui.club.zygote`), if it runs one."""
    return [pid for pid in children(server) if is_zygote(pid)]


def apps(server: int) -> list[int]:
    """The sessions' app processes: the server's children, or its zygote's."""
    return [app for pid in children(server)
            for app in (children(pid) if is_zygote(pid) else [pid])]


def zygote_line(server: int) -> str:
    return "".join(f", zygote {rss:.1f} MB RSS / {pss:.1f} MB PSS (shared by its children)"
                   for rss, pss in map(memory, zygotes(server)))


def mem_line(pids: list[int]) -> str:
    if not pids:
        return "no processes"
    rows = [memory(p) for p in pids]
    rss = statistics.mean(r for r, _ in rows)
    pss = statistics.mean(p for _, p in rows)
    return f"RSS {rss:.1f} MB, PSS {pss:.1f} MB per session ({len(pids)} app processes)"


# --- the players -------------------------------------------------------------------

class Screen:
    """An SSH session's terminal: when its last bytes came, and how many frames its
    app has drawn."""

    def __init__(self, proc: asyncssh.SSHClientProcess) -> None:
        self.proc = proc
        self.last = 0.0
        self.tail = b""
        """The last bytes shown (why a session ended, if it did)."""
        self.frames = 0
        self.arrived = asyncio.Event()
        self.reading = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        while chunk := await self.proc.stdout.read(65536):
            self.last = time.monotonic()
            if b"\x1b[?2026$p" in chunk:  # DECRQM: synchronized output is supported
                self.proc.stdin.write(b"\x1b[?2026;2$y")
            seen = self.tail[-len(SYNC_START) + 1:] + chunk  # one split across reads
            self.frames += seen.count(SYNC_START)
            self.tail = (self.tail + chunk)[-4000:]
            self.arrived.set()

    async def quiet(self, limit: float = 5.0) -> None:
        end = time.monotonic() + limit
        while time.monotonic() < end and time.monotonic() - self.last < QUIET:
            await asyncio.sleep(QUIET / 2)

    async def next_update(self, timeout: float = 10.0) -> float:
        self.arrived.clear()
        await asyncio.wait_for(self.arrived.wait(), timeout)
        return self.last


async def open_screen(port: int, key: asyncssh.SSHKey, starts: list[float]) -> Screen:
    """A session; the time from asking for its terminal (logged in) to the first
    bytes its app draws goes into ``starts``."""
    conn = await asyncssh.connect("127.0.0.1", port, username="p", client_keys=[key],
                                  known_hosts=None, agent_path=None)
    asked = time.monotonic()
    proc = await conn.create_process(term_type="xterm-256color", term_size=(80, 24),
                                     encoding=None)
    screen = Screen(proc)
    await asyncio.wait_for(screen.arrived.wait(), 60)
    starts.append(screen.last - asked)
    return screen


async def play(socks: dict[str, str], screens: dict[str, Screen], every: float,
               until: float, times: list[float], errors: list[str],
               moves: list[tuple[str, float, float]]) -> None:
    """Play one game; each move's time to the opponent's screen goes into ``times``
    and, with its ``"GAME:NUMBER"`` (:class:`Hops`), when the commit was sent and
    the screen's bytes arrived into ``moves``."""
    from server_helpers import Seat, begin, whose

    hands = {side: await Seat.join(socks[side], side) for side in ("red", "black")}
    await asyncio.sleep(random.uniform(0, every))
    while time.monotonic() < until:
        started = time.monotonic()
        stage = "waiting for both front-ends"
        try:
            # the game as both front-ends have it (one may not have heard of the last
            # move yet: wait for it)
            states = [await hands[s].fresh() for s in ("red", "black")]
            latest = max(st["events"] for st in states)
            for hand, st in zip(hands.values(), states, strict=True):
                if st["events"] < latest:
                    await hand.until_state(lambda s, n=latest: s["events"] >= n)
            state = hands["red"].state
            if state["over"]:
                return
            side = whose(state)
            stage = "begin"
            pending = await begin(hands[side], side)
            stage = "answers"
            pending = await answer_all(hands, side, pending)
            other = screens["black" if side == "red" else "red"]
            await other.quiet()
            stage = "the opponent's screen after the commit"
            sent = time.monotonic()
            commit = asyncio.ensure_future(hands[side].request("commit", aid=pending["aid"]))
            seen = await other.next_update()
            reply = await commit
            if reply["t"] != "ok":
                errors.append(reply.get("message", "?"))
            else:
                game = Path(socks[side]).stem[5:]  # game-N.sock
                moves.append((f"{game}:{reply['events'] - 1}", sent, seen))
            times.append(seen - sent)
        except (TimeoutError, EOFError, OSError, AssertionError, RuntimeError) as exc:
            errors.append(f"{stage}: {exc!r}")
        await asyncio.sleep(max(0.0, every - (time.monotonic() - started)))


async def answer_all(hands: dict[str, Any], side: str, pending: dict[str, Any]) -> dict:
    """Every step answered at the hand of the side asked (on its own front-end, with
    the action as that table numbers it); the finished action as the mover's table
    has it, not committed."""
    from deathzap_tui.headless.describe import auto_answer
    from deathzap_tui.net.wire import answer_out, step_from_data

    while pending["step"] is not None:
        seat = hands[pending["step"].get("side") or side]
        mine = await seat.shown(len(pending["answers"]))
        reply = await seat.request("answer", aid=mine["aid"], answer=answer_out(
            auto_answer(step_from_data(mine["step"]))))  # type: ignore[arg-type]
        pending = reply["pending"]
    return await hands[side].shown(len(pending["answers"]))



# --- the run -----------------------------------------------------------------------


def ended(screens: list[Screen]) -> str:
    """How many sessions have ended, and the last words of one."""
    gone = [s for s in screens if s.reading.done()]
    if not gone:
        return ""
    words = re.sub(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]", b" ", gone[0].tail)
    last = " ".join(words.decode("utf-8", "replace").split())[-300:]
    return f"  {len(gone)} sessions ended early; the last words of one: {last}"


def front_of(game: int, side: str, fronts: int) -> int:
    """The front-end of a game's player: with several, even games are played across
    two front-ends, odd ones within one (each front-end in turn)."""
    if fronts == 1:
        return 0
    if game % 2 == 0:
        return (game // 2 + (side == "black")) % fronts
    return (game // 2) % fronts


def make_club(store_path: str, sessions: int) -> list[asyncssh.SSHKey]:
    from deathzap_tui.club.members import PublicKey
    from deathzap_tui.club.sqlstore import open_store
    from deathzap_tui.rules.game import Game
    from deathzap_tui.session import new_deal_seed

    toynet.long_duels()
    ruleset = toynet.RULESET
    store = open_store(store_path)
    keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(sessions)]
    for i, key in enumerate(keys):
        store.add_member(f"p{i}", PublicKey.parse(key.export_public_key().decode()))
    for g in range(sessions // 2):
        red = ruleset.parse_force({"ruleset": toynet.ID, "name": "Reds"})
        black = ruleset.parse_force({"ruleset": toynet.ID, "name": "Blacks"})
        game = Game(ruleset, red, black, ruleset.options({}), g, deal_seed=new_deal_seed())
        store.new_game(red=f"p{2 * g}", black=f"p{2 * g + 1}").create(game)
    store.close()
    return keys


async def run(args: argparse.Namespace, store_spec: str) -> None:
    sessions = args.sessions - args.sessions % 2
    fronts = args.front_ends
    with tempfile.TemporaryDirectory(prefix="dzb-") as tmp:
        store_spec = store_spec or str(Path(tmp) / "club.sqlite")
        keys = make_club(store_spec, sessions)
        servers, ports, sockets = [], [], []
        for front in range(fronts):
            rundir = Path(tmp) / f"run{front}"
            rundir.mkdir(mode=0o700)
            # Each front-end a session of its own, as a service is, apart from this
            # process (the players' side): where the kernel's autogroups are on, it
            # shares the CPU between sessions first. It ends when this process does.
            servers.append(subprocess.Popen(
                [sys.executable, __file__, "--serve", store_spec, str(rundir), str(front),
                 str(fronts), "no" if args.no_zygote else "yes", str(args.app_nice)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                start_new_session=True,
                env={**os.environ, "DEATHZAP_SAVES_DIR": tmp}))
        server = servers[0]
        try:
            for proc in servers:
                assert proc.stdout is not None
                info = json.loads(proc.stdout.readline())
                ports.append(info["port"])
                sockets.append({int(k): v for k, v in info["sockets"].items()})
            games = sorted(set().union(*sockets))
            print(f"{sessions} SSH sessions in {len(games)} games on loopback; a move "
                  f"per game every {args.every:g} s for {args.seconds:g} s "
                  f"({os.cpu_count()} cores; store {redact(store_spec)}, {fronts} "
                  f"front-end{'s' if fronts > 1 else ''}; sessions' apps "
                  f"{'started each as a process' if args.no_zygote else 'forked from a zygote'}"
                  f", {args.app_nice} niceness levels below the server)")
            started = time.monotonic()
            screens: list[Screen] = []
            starts: list[float] = []
            for i in range(0, sessions, args.batch):  # start a few at a time
                screens += await asyncio.gather(*(
                    open_screen(ports[front_of(n // 2, ("red", "black")[n % 2], fronts)],
                                keys[n], starts)
                    for n in range(i, min(i + args.batch, sessions))))
            ms = [t * 1000 for t in starts]
            print(f"  all sessions up in {time.monotonic() - started:.1f} s ({args.batch} at "
                  f"a time); a session's start (terminal asked -> its app's first bytes): "
                  f"p50 {pct(ms, 50):.0f} ms, p95 {pct(ms, 95):.0f} ms")
            await asyncio.sleep(3)
            if why := ended(screens):
                print(why)
            pids = [p for proc in servers for p in apps(proc.pid)]
            print(f"  idle:    {mem_line(pids)}; server {memory(server.pid)[0]:.1f} MB RSS"
                  f"{zygote_line(server.pid)}")
            own0 = sum(cpu_seconds(p) for proc in servers
                       for p in (proc.pid, *zygotes(proc.pid)))
            cpu0 = own0 + sum(cpu_seconds(p) for p in pids)
            mine0 = sum(os.times()[:2])
            frames0 = sum(s.frames for s in screens)
            switches0 = sum(switches(proc.pid) for proc in servers)
            for proc in servers:
                proc.send_signal(signal.SIGUSR1)  # play starts: the loop watch begins
            wall0 = time.monotonic()
            across: list[float] = []
            within: list[float] = []
            errors: list[str] = []
            moves: list[tuple[str, float, float]] = []  # the moves across front-ends
            until = time.monotonic() + args.seconds
            plays = []
            for i, g in enumerate(games):
                where = {s: front_of(i, s, fronts) for s in ("red", "black")}
                plays.append(play({s: sockets[where[s]][g] for s in where},
                                  {"red": screens[2 * i], "black": screens[2 * i + 1]},
                                  args.every, until,
                                  across if where["red"] != where["black"] else within,
                                  errors, moves if where["red"] != where["black"] else []))
            await asyncio.gather(*plays)
            times = across + within
            wall = time.monotonic() - wall0
            own = sum(cpu_seconds(p) for proc in servers
                      for p in (proc.pid, *zygotes(proc.pid))) - own0
            cpu = own + own0 + sum(cpu_seconds(p) for p in pids) - cpu0
            mine = sum(os.times()[:2]) - mine0
            frames = sum(s.frames for s in screens) - frames0
            switched = sum(switches(proc.pid) for proc in servers) - switches0
            print(f"  playing: {mem_line(pids)}; server {memory(server.pid)[0]:.1f} MB RSS"
                  f"{zygote_line(server.pid)}")
            for label, measured in (("across front-ends", across),
                                    ("within one front-end", within)):
                if measured:
                    ms = [t * 1000 for t in measured]
                    print(f"  move -> opponent's screen, {label}: p50 {pct(ms, 50):.0f} ms, "
                          f"p95 {pct(ms, 95):.0f} ms, max {max(ms):.0f} ms ({len(ms)} "
                          f"moves, {len(ms) / wall:.1f}/s)")
            print(f"  server CPU while playing: {cpu / wall * 100:.0f}% of one core "
                  f"(server process and the sessions' apps; {os.cpu_count()} cores here); "
                  f"the clients (this process) {mine / wall * 100:.0f}%; load average "
                  f"{os.getloadavg()[0]:.1f}")
            if times:
                print(f"  CPU per move: {cpu / len(times) * 1000:.0f} ms, of which the server "
                      f"process (SSH, hub, referees, store) {own / len(times) * 1000:.0f} ms "
                      "and the apps the rest (both screens repaint at each step of a "
                      "move: begin, answers, commit)")
                print(f"  per move: the apps drew {frames / len(times):.1f} frames (both "
                      f"screens of the game), the server processes switched threads "
                      f"{switched / len(times):.0f} times (every thread's context switches)")
            watched = []
            for proc in servers:
                proc.send_signal(signal.SIGUSR2)
                assert proc.stdout is not None
                watched.append(json.loads(proc.stdout.readline()))
            writes = sum(w["writes"] for w in watched)
            writing = sum(w["writing"] for w in watched)
            on_loop = sum(w["on_loop"] for w in watched)
            loop_calls = sum(w["loop_calls"] for w in watched)
            loop_calling = sum(w["loop_calling"] for w in watched)
            reads = sum(w["reads"] for w in watched)
            events = sum(w["events"] for w in watched)
            event_writing = sum(w["event_writing"] for w in watched)
            print(f"  the server's event loop: a timer late by p50 "
                  f"{max(w['lag50'] for w in watched):.1f} ms, p95 "
                  f"{max(w['lag95'] for w in watched):.1f} ms; store writes "
                  f"{writes / max(1, len(times)):.1f} per move, "
                  f"{writing * 1000 / max(1, writes):.1f} ms each (an event "
                  f"{event_writing * 1000 / max(1, events):.1f} ms, a record "
                  f"{(writing - event_writing) * 1000 / max(1, writes - events):.1f} ms), "
                  f"taking {writing / wall / fronts * 100:.0f}% of the time and holding "
                  f"the loop {on_loop / wall / fronts * 100:.0f}% (per front-end; the "
                  "rest on the store's writer threads); "
                  f"store reads {reads / max(1, len(times)):.1f} per move; every store "
                  f"call on the loop (a lobby's too): {loop_calls / max(1, len(times)):.1f} "
                  f"per move, {loop_calling * 1000 / max(1, loop_calls):.1f} ms each, "
                  f"{loop_calling / wall / fronts * 100:.0f}% of the time")
            if moves:
                print(hops_line(moves, watched))
            if errors:
                print(f"  {len(errors)} moves failed, e.g. {errors[0]}")
            if why := ended(screens):
                print(why)
            print(LIMITS)
        finally:
            for proc in servers:
                proc.terminate()
                proc.wait(10)
        if args.appends:
            appends(store_spec, args.appends)


def hops_line(moves: list[tuple[str, float, float]], watched: list[dict[str, Any]]) -> str:
    """A move across front-ends hop by hop (p50 / p95, ms): the commit sent -> the
    event kept by the mover's front-end A; -> its notice taken by the opponent's
    front-end B; -> B's state written to its terminals (the opponent's app among
    them); -> the app's new screen at the opponent's SSH client."""
    hops: list[list[float]] = [[], [], [], []]
    for key, sent, seen in moves:
        kept = [w["kept"][key] for w in watched if key in w["kept"]]
        heard = [w["heard"][key] for w in watched if key in w["heard"]]
        told = [w["sent"][key] for w in watched if key in w["sent"] and key not in w["kept"]]
        if kept and heard and told:
            times = [sent, kept[0], heard[0], told[0], seen]
            for i in range(4):
                hops[i].append((times[i + 1] - times[i]) * 1000)
    if not hops[0]:
        return "  (no move across front-ends timed hop by hop)"
    names = ("commit sent -> kept on A", "-> B heard the notice",
             "-> B's terminals sent the state", "-> the opponent's screen")
    return (f"  across, hop by hop ({len(hops[0])} moves; p50 / p95 ms): " + "; ".join(
        f"{name} {pct(h, 50):.0f} / {pct(h, 95):.0f}" for name, h in zip(names, hops,
                                                                         strict=True)))


def appends(store_spec: str, count: int) -> None:
    """The store's event-append throughput: ``count`` events kept one by one (each
    its own transaction, durable before the call returns), by one writer, then by
    four writers at once (threads, a connection each) on four games."""
    import threading

    from deathzap_tui.club.sqlstore import open_store
    from deathzap_tui.rules.events import Event

    def writer(game: int, n: int) -> None:
        store = open_store(store_spec)
        games = store.game_store(game)
        seq = store.game_info(game).events
        for i in range(n):
            games.append(seq + i, Event("intent", {"intent": {"type": "bench", "i": i}},
                                        "red"))
        store.close()

    store = open_store(store_spec)
    ids = [g.id for g in store.games()][:4]
    store.close()
    for writers in (1, 4):
        each = count // writers
        threads = [threading.Thread(target=writer, args=(g, each)) for g in ids[:writers]]
        started = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        took = time.monotonic() - started
        print(f"  event appends, {writers} writer{'s' if writers > 1 else ''}: "
              f"{each * writers / took:.0f} events/s ({each * writers} events, "
              f"{took * 1000 / each:.1f} ms per append per writer)")


def fork_memory(count: int, idle: float = 10.0) -> None:
    """Memory per joined app started as today and forked from a pre-imported process
    (see the module's docstring), ``count`` apps each way."""
    import fcntl
    import pty
    import selectors
    import termios
    import threading
    import tty

    from referee_harness import HostThread

    from deathzap_tui.net.limits import Limits
    from deathzap_tui.session import Session

    def app(sock: Path, side: str, fresh: bool) -> None:
        """In the child: the app on the pty that is stdin/stdout/stderr."""
        argv = ["join", "--socket", str(sock), "--as", side]
        if fresh:
            os.execv(sys.executable, [sys.executable, "-c", JOIN, *argv])
        from deathzap_tui.cli import main as cli_main

        os._exit(cli_main(argv) or 0)

    def measure(fresh: bool) -> str:
        tmp = Path(tempfile.mkdtemp(prefix="dzf-"))
        os.environ["DEATHZAP_SAVES_DIR"] = str(tmp)
        sock = tmp / "ref.sock"
        kids: list[tuple[int, int, int]] = []
        for i in range(count):  # forked before any thread starts
            master, slave = pty.openpty()
            tty.setraw(slave)
            fcntl.ioctl(master, termios.TIOCSWINSZ, bytes([24, 0, 80, 0, 0, 0, 0, 0]))
            go_r, go_w = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.close(go_w)
                os.close(master)
                os.read(go_r, 1)  # the referee is up
                os.setsid()
                fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
                for fd in (0, 1, 2):
                    os.dup2(slave, fd)
                os.environ["TERM"] = "xterm-256color"
                app(sock, ("red", "black")[i % 2], fresh)
            os.close(go_r)
            os.close(slave)
            kids.append((pid, master, go_w))
        red, black = toynet.write_forces(tmp)
        host = HostThread(Session.new(red, black, seed=11, save_path="duel"), sock,
                          limits=Limits(player_terminals=count)).start()
        screens = selectors.DefaultSelector()
        for _pid, master, go_w in kids:
            screens.register(master, selectors.EVENT_READ)
            os.write(go_w, b"!")
            os.close(go_w)

        def drain() -> None:  # the terminals read what the apps draw
            while screens.get_map():
                for key, _ in screens.select(0.5):
                    try:
                        if not os.read(key.fd, 65536):
                            screens.unregister(key.fd)
                    except OSError:
                        screens.unregister(key.fd)

        reader = threading.Thread(target=drain, daemon=True)
        reader.start()
        time.sleep(idle)
        joined = sum(host.table.connected[s] for s in ("red", "black"))
        rows = [memory(pid, private=True) for pid, _m, _w in kids]
        for pid, _m, _w in kids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
        for pid, _m, _w in kids:
            os.waitpid(pid, 0)
        reader.join(5)
        for _pid, master, _w in kids:
            os.close(master)
        host.stop()
        rss, pss, own = (statistics.mean(r[k] for r in rows) for k in range(3))
        return (f"RSS {rss:.1f} MB, PSS {pss:.1f} MB, private {own:.1f} MB per app "
                f"({joined} of {count} joined)")

    toynet.install()
    print(f"{count} joined apps on ptys at one referee, idle {idle:g} s:")
    print(f"  started as today (a fresh interpreter each): {measure(True)}")
    preload()  # as the server's zygote does
    print(f"  forked from a process that imported the app: {measure(False)}")


LIMITS = """\
What limits the sessions: each SSH session runs its own app process, forked from
the server's zygote (Python, Textual, the app and the rulesets imported once and
shared copy-on-write: the PSS above; RSS counts the shared pages in every process),
and every change at a table repaints every screen at it in its own process (the CPU
per move above, nearly all of it the apps'). Memory bounds the count (about 23 GB
free / PSS per playing session here), CPU the moves per second (the CPU per move
over the cores free); a game's store writes wait for the disk on the store's
writer threads, and its terminals wait for them, not the server's other games (the
line above: what held the loop). To halve
the memory again: one process serving many sessions' screens (Textual runs one app
per driver in a process, so the app would have to drive each terminal through its
SSH channel, e.g. Textual's web driver protocol), or lighter screens for watchers.
See docs/club-scale.md."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--every", type=float, default=3.0,
                        help="seconds between a game's moves (default 3)")
    parser.add_argument("--batch", type=int, default=5,
                        help="sessions started at once (default 5)")
    parser.add_argument("--store", default="",
                        help="the club store: an empty PostgreSQL database "
                        "(postgresql://...), or private-postgres to start one for the "
                        "run (default: an SQLite file in a temporary folder)")
    parser.add_argument("--front-ends", type=int, default=0,
                        help="club serve processes on the store (default: 2 on "
                        "PostgreSQL, 1 on SQLite)")
    parser.add_argument("--appends", type=int, default=2000,
                        help="events appended to measure the store's throughput "
                        "(default 2000; 0: skip)")
    parser.add_argument("--fork-memory", type=int, default=0, metavar="N",
                        help="only measure the memory of N joined apps started as today "
                        "and forked from a pre-imported process")
    parser.add_argument("--no-zygote", action="store_true",
                        help="start each session's app as a process of its own (as before "
                        "the zygote), to compare")
    parser.add_argument("--no-fsync", action="store_true",
                        help="private-postgres without fsync (as the tests' server), to "
                        "compare")
    parser.add_argument("--app-nice", type=niceness, default=APP_NICE, metavar="N",
                        help="run the sessions' apps N niceness levels below the server, "
                        f"as club serve --app-nice (default {APP_NICE}; 0: off)")
    parser.add_argument("--serve", nargs=6,
                        metavar=("STORE", "RUNDIR", "FRONT", "FRONTS", "ZYGOTE", "NICE"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(serve(args.serve[0], Path(args.serve[1]), int(args.serve[2]),
                          int(args.serve[3]), args.serve[4] == "yes", int(args.serve[5])))
        return
    if args.fork_memory:
        fork_memory(args.fork_memory)
        return
    private = None
    store = args.store
    if store == "private-postgres":
        from pgserver import PgServer

        private = PgServer(durable=not args.no_fsync).start()  # fsync on, as in production
        print(f"private PostgreSQL with fsync {'off' if args.no_fsync else 'on'}")
        store = private.database(own=True)
        postmaster = int((private.data / "postmaster.pid").read_text().split()[0])
        print(f"private PostgreSQL at niceness {os.getpriority(os.PRIO_PROCESS, postmaster)} "
              f"(this benchmark's {os.getpriority(os.PRIO_PROCESS, 0)}; its backends "
              "inherit it)")
    if not args.front_ends:
        args.front_ends = 2 if store.startswith("postgres") else 1
    try:
        asyncio.run(run(args, store))
    finally:
        if private is not None:
            private.stop()


if __name__ == "__main__":
    main()

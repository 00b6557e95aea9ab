"""The club at work: what the hub's requests do, and the games in play.

:class:`Club` answers a member's lobby (:mod:`.hub`) from the club store and hosts
each game in play as today's referee hosts a save: a
:class:`~deathzap_tui.net.referee.Table` over a :class:`~deathzap_tui.session.Session`
on the game's :class:`~deathzap_tui.club.gamestore.ClubGameStore`, served by a
:class:`~deathzap_tui.net.referee.Referee` on a socket of its own in the club's
private run directory. A socket per game, not one multiplexed through the hub,
because the referee (its per-viewer views, limits, undo by agreement, the action in
progress kept) and the joined battle screen (``net/client.py``) then work unchanged:
a lobby opens a game by connecting to the socket :meth:`Club.open` names, as the side
the hub says is its own. The run directory is the server user's alone (mode 0700),
and the only processes that run there are the server's own lobby apps.

A game is loaded when it is opened and unloaded once nobody has been connected to it
for ``unload_after`` seconds. Each event is kept in the store (with its number)
before the referee acknowledges it; a store that cannot be written stops that game
(the referee tells its terminals why) and nothing acknowledged is lost.

When a game moves, its players' lobbies get an ``event`` (``moved``, ``your-move``,
``game-over``), and ``--notify`` runs for "your-move" (when the member to move is not
at the table), "challenge" (one addressed to a member) and "game-over".

Several front-ends on one database (issue 24, PostgreSQL): the store tells each what
the others write (:meth:`~deathzap_tui.club.sqlstore.SqlClubStore.follow`). A game
hosted here is then caught up from the event table by sequence number, and takes the
action in flight as the store has it (:meth:`Club.catch_up`): a move made on another
front-end reaches this one's terminals, and an action begun there goes on here at the
same step with the same dice if that front-end dies. Every hosted game is caught up
again whenever the store's notices were interrupted. Two front-ends racing on one
game are decided by the store's unique event number: the loser's table loads the game
again and tells its player what happened meanwhile (:meth:`Club._conflict`).

The store's waits are off the front-end's event loop (issue 24): a game's writes
are made on the store's writer threads while the loop serves the other games
(:class:`~deathzap_tui.gamestore.WriteBehind`; its referee tells its terminals once
they are kept), and so are the reads that catch a game up and load it. Whatever
changes a hosted game's table (its requests, the notices of other front-ends, its
lobby's news of a move) takes the game's turn (:class:`~deathzap_tui.net.referee.Turn`),
so it happens in order and after what came before it was kept.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deathzap_tui.club.across import Across
from deathzap_tui.club.gamestore import ClubGameStore
from deathzap_tui.club.hub import HubError
from deathzap_tui.club.members import ClubError, PublicKey, check_name
from deathzap_tui.club.notify import Notifier
from deathzap_tui.club.sqlstore import checked_force
from deathzap_tui.club.store import Challenge, ClubStore, GameInfo, Member
from deathzap_tui.forcefile import read_force_text
from deathzap_tui.gamestore import StoreError
from deathzap_tui.headless.text import clean
from deathzap_tui.net import lastseen
from deathzap_tui.net.limits import Limits
from deathzap_tui.net.referee import Referee, Table
from deathzap_tui.paths import forces_dir as default_forces
from deathzap_tui.rules import registry
from deathzap_tui.rules.events import Event
from deathzap_tui.rules.game import Game
from deathzap_tui.rules.problems import InvalidInput
from deathzap_tui.rules.ruleset import SIDES, BoardView
from deathzap_tui.session import Session, new_deal_seed

Push = Callable[[dict[str, Any]], None]
SHIPPED_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,59}")
PLAYER_TERMINALS = 3
SEAT_LEASES = 4
"""Sweeps a front-end's seats at a game count for without being said again (it says
them at each of its own sweeps): then it is taken for gone."""
"""Sessions of one member that may have the same game open at once (each shows the
one table, so they stay consistent)."""


@dataclass(frozen=True)
class ClubLimits:
    """What one member may do (issue 23): each a budget against a flood, not a rule
    of play. Tests shorten the times."""

    new_games_per_hour: int = 20
    """Challenges a member may make in any hour."""
    forces: int = 50
    """Forces a member may keep."""
    unload_after: float = 120.0
    """Seconds a game stays loaded with nobody at its table."""
    sweep_every: float = 15.0


@dataclass
class Hosted:
    """A game in play: its table, served on its own socket."""

    game_id: int
    players: dict[str, str]
    """side -> member."""
    table: Table
    referee: Referee
    socket: Path
    opened: float
    watching: asyncio.Task[None] | None = None
    whose: str = ""
    """The side the last ``your-move`` was for."""


@dataclass
class Summary:
    """A game's line in a lobby, as it stood at its last event."""

    title: str
    turn: str
    whose: str
    over: bool
    result: str
    players: dict[str, str] = field(default_factory=dict)


class Club:
    """The hub's handler (see :class:`deathzap_tui.club.hub.Handler`) and the host
    of every game in play."""

    def __init__(self, store: ClubStore, rundir: Path, *, notifier: Notifier | None = None,
                 limits: ClubLimits | None = None, referee_limits: Limits | None = None,
                 forces_dir: Path | None = None, log: Callable[[str], None] = print,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.rundir = rundir
        self.notifier = notifier
        self.limits = limits or ClubLimits()
        self.referee_limits = referee_limits or Limits(player_terminals=PLAYER_TERMINALS)
        self.forces_dir = forces_dir or default_forces()
        self.log = log
        self.clock = clock
        self.hosted: dict[int, Hosted] = {}
        self._loading: dict[int, asyncio.Lock] = {}
        self._summaries: dict[int, Summary] = {}
        self._subscribers: dict[str, list[Push]] = {}
        self._sweeping: asyncio.Task[None] | None = None
        self._following: asyncio.Task[None] | None = None
        self._behind: set[int] = set()
        """Games another front-end changed, to catch up once this loop turn ends."""
        self._opening: set[int] = set()
        """Games being loaded (:meth:`host`): read on a writer thread meanwhile."""
        self._missed: set[int] = set()
        """Of those, games another front-end changed meanwhile (caught up once hosted)."""
        self._players: dict[int, tuple[str | None, ...]] = {}
        """Game -> its members (:meth:`_players_of`)."""
        self.across = Across(store, ttl=SEAT_LEASES * self.limits.sweep_every)
        """What a game's tables on other front-ends and this one's tell each other."""

    async def start(self) -> None:
        self._sweeping = asyncio.ensure_future(self._sweep())
        following = self.store.follow(self._changed_elsewhere, self._resync, self.log)
        if following is not None:
            self._following = asyncio.ensure_future(following)

    async def close(self) -> None:
        for task in (self._sweeping, self._following):
            if task is not None:
                task.cancel()
        for game_id in list(self.hosted):
            await self._unload(game_id)

    # --- members (the SSH front door) -------------------------------------------
    def member_for_key(self, blob: bytes) -> str | None:
        member = self.store.member_by_key(blob)
        return member.name if member is not None else None

    def register(self, name: str, key_line: str) -> Member:
        """A new member named ``name`` with the key that logged in; :class:`ClubError`
        saying why not (a bad or taken name)."""
        return self.store.add_member(check_name(name), PublicKey.parse(key_line))

    # --- subscriptions -----------------------------------------------------------
    def subscribe(self, member: str, push: Push) -> None:
        pushes = self._subscribers.setdefault(member, [])
        if push not in pushes:
            pushes.append(push)

    def unsubscribe(self, member: str, push: Push) -> None:
        pushes = self._subscribers.get(member, [])
        with contextlib.suppress(ValueError):
            pushes.remove(push)
        if not pushes:
            self._subscribers.pop(member, None)

    def _push(self, member: str | None, what: str, text: str, **ids: int) -> None:
        for push in list(self._subscribers.get(member or "", ())):
            push({"t": "event", "what": what, "text": clean(text, oneline=True), **ids})

    def _notify(self, member: str | None, game: int | str, what: str) -> None:
        if member and self.notifier is not None:
            self.notifier.notify(member, game, what)

    # --- requests ----------------------------------------------------------------
    async def handle(self, member: str, msg: dict[str, Any]) -> dict[str, Any]:
        handler = getattr(self, f"_do_{msg['t']}")
        try:
            result = handler(member, msg)
            if asyncio.iscoroutine(result):
                result = await result
            return result
        except (ClubError, StoreError, OSError) as exc:
            raise HubError(clean(str(exc), oneline=True)) from None

    def _do_lobby(self, member: str, msg: dict[str, Any]) -> dict[str, Any]:
        now = self.clock()
        mine = [self._game_row(info, member, now) for info in self.store.games_of(member)]
        playing = sorted((r for r in mine if not r["over"]),
                         key=lambda r: (not r["yours"], -r["last_move"]))
        return {
            "games": playing,
            "finished": [r for r in mine if r["over"]],
            "challenges": [self._challenge_row(c, member)
                           for c in self.store.challenges_for(member)],
            "watch": [self._game_row(info, member, now) for info in self.store.public_games()
                      if member not in (info.red, info.black) and not info.over],
        }

    def _do_forces(self, member: str, msg: dict[str, Any]) -> dict[str, Any]:
        return {"forces": [{"name": clean(f.name, oneline=True), "ruleset": f.ruleset}
                           for f in self.store.forces(member)]}

    def _do_save_force(self, member: str, msg: dict[str, Any]) -> dict[str, Any]:
        loaded = checked_force(msg["toml"], "the force")
        known = {f.name for f in self.store.forces(member)}
        if loaded.name not in known and len(known) >= self.limits.forces:
            raise HubError(f"you keep {len(known)} forces already, the most a member "
                           "may; save over one of them instead")
        saved = self.store.save_force(member, msg["toml"])
        return {"force": {"name": clean(saved.name, oneline=True), "ruleset": saved.ruleset}}

    def _do_challenge(self, member: str, msg: dict[str, Any]) -> dict[str, Any]:
        budget = self.limits.new_games_per_hour
        if self.store.count_actions(_member_key(member), "new-game", 3600) >= budget:
            raise HubError(f"you made {budget} challenges in the last hour, the most a "
                           "member may; try again later")
        text, loaded = self._force(member, msg["force"])
        if loaded.ruleset.id != msg["ruleset"]:
            raise HubError(f"the force is for {loaded.ruleset.id}, not {msg['ruleset']}")
        opponent = msg["opponent"] or None
        if opponent is not None:
            opponent = self.store.member(opponent).name
            if opponent == member:
                raise HubError("challenge another member, or make an open challenge")
        try:
            options = loaded.ruleset.options(msg["options"])
        except (InvalidInput, ValueError, TypeError) as exc:
            raise HubError(f"options: {exc}") from None
        challenge = self.store.add_challenge(member, text, opponent=opponent,
                                             options=dict(options), public=msg["public"])
        self.store.note_action(_member_key(member), "new-game")
        ids = {"challenge": challenge.id}
        if opponent is not None:
            self._push(opponent, "challenge", f"{member} challenges you to "
                       f"{loaded.ruleset.title}", **ids)
            self._notify(opponent, f"challenge-{challenge.id}", "challenge")
        else:
            for other in list(self._subscribers):
                if other != member:
                    self._push(other, "challenge", f"{member} made an open challenge "
                               f"({loaded.ruleset.title})", **ids)
        return {"challenge": self._challenge_row(challenge, member)}

    def _do_accept(self, member: str, msg: dict[str, Any]) -> dict[str, Any]:
        challenge = self._challenge(member, msg["challenge"])
        if challenge.challenger == member:
            raise HubError("that is your own challenge; decline withdraws it")
        _text, loaded = self._force(member, msg["force"])
        if loaded.ruleset.id != challenge.ruleset:
            raise HubError(f"the challenge is for {challenge.ruleset}; your force is for "
                           f"{loaded.ruleset.id}")
        theirs = checked_force(challenge.force, "the challenger's force")
        challenge = self.store.take_challenge(challenge.id)  # a second taker fails here
        ruleset = loaded.ruleset
        if secrets.randbelow(2):
            (red, red_force), (black, black_force) = (member, loaded), \
                (challenge.challenger, theirs)
        else:
            (red, red_force), (black, black_force) = (challenge.challenger, theirs), \
                (member, loaded)
        game = Game(ruleset, red_force.force, black_force.force,
                    ruleset.options(challenge.options), secrets.randbelow(2**31),
                    deal_seed=new_deal_seed())
        games = self.store.new_game(red=red, black=black, public=challenge.public)
        games.create(game)
        game_id = games.game_id_or_fail()
        summary = self._summarise(game, Table(Session(game, None, store=games)),
                                  {"red": red, "black": black})
        self._summaries[game_id] = summary
        self._push(challenge.challenger, "accepted",
                   f"{member} accepted your challenge: game {game_id}", game=game_id)
        self._your_move(game_id, summary, at_table=set())
        info = self.store.game_info(game_id, member)
        return {"game": self._game_row(info, member, self.clock())}

    def _do_decline(self, member: str, msg: dict[str, Any]) -> dict[str, Any]:
        challenge = self._challenge(member, msg["challenge"])
        if challenge.challenger != member and challenge.opponent != member:
            raise HubError("an open challenge is declined by not taking it; only its "
                           "maker can withdraw it")
        self.store.take_challenge(challenge.id)
        if challenge.challenger != member:
            self._push(challenge.challenger, "challenge",
                       f"{member} declined your challenge", challenge=challenge.id)
        return {}

    async def _do_open(self, member: str, msg: dict[str, Any]) -> dict[str, Any]:
        info, side = self._visible(member, msg["game"])
        loaded = info.id in self.hosted
        hosted = await self.host(info.id)
        hosted.opened = self.clock()
        since: list[str] = []
        async with hosted.referee.turn:  # the game as kept: no move whose writes wait
            if loaded and self._following is not None:
                await self.catch_up_off_loop(hosted)  # a notice lost with its front-end
            if side in SIDES:
                game = hosted.table.game
                since = lastseen.since(game, min(info.seen, len(game.log)), side)
                self.store.mark_seen(info.id, member, len(game.log))
        return {"socket": str(hosted.socket), "side": side,
                "since": [clean(line) for line in since],
                "game": self._game_row(self.store.game_info(info.id, member), member,
                                       self.clock())}

    def _do_public(self, member: str, msg: dict[str, Any]) -> dict[str, Any]:
        info, side = self._visible(member, msg["game"])
        if side not in SIDES:
            raise HubError("only its players can make a game public or private")
        self.store.set_public(info.id, msg["public"])
        return {}

    async def _do_report(self, member: str, msg: dict[str, Any]) -> dict[str, Any]:
        info, _side = self._visible(member, msg["game"])
        if not info.over:
            raise HubError("the report is ready when the game is over")
        hosted = await self.host(info.id)
        return {"report": await hosted.referee.report()}

    def _do_add_key(self, member: str, msg: dict[str, Any]) -> dict[str, Any]:
        self.store.add_key(member, PublicKey.parse(msg["key"]))
        return {}

    # --- games in play -----------------------------------------------------------
    async def host(self, game_id: int) -> Hosted:
        """The game's table, loaded and served if it was not."""
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        async with lock:
            hosted = self.hosted.get(game_id)
            if hosted is not None:
                return hosted
            self._opening.add(game_id)
            try:
                hosted = await self._serve_game(game_id)
            except BaseException:
                self._missed.discard(game_id)
                raise
            finally:
                self._opening.discard(game_id)
            if game_id in self._missed:  # changed elsewhere while it was read
                self._missed.discard(game_id)
                self._catch_up_later(hosted)
            return hosted

    async def _serve_game(self, game_id: int) -> Hosted:
        """Load the game (:meth:`_load`) and serve it."""
        store, players, table = await self.store.in_thread(lambda: self._load(game_id))
        session = table.session
        sock = self.rundir / f"game-{game_id}.sock"
        referee = Referee(table, sock, log=lambda text: self.log(f"game {game_id}: {text}"),
                          limits=self.referee_limits,
                          conflict=lambda side: self._conflict(hosted, side),
                          writes=store)
        await referee.start()
        self.across.attach(game_id, table)
        summary = self._summarise(session.game, table, players)
        hosted = Hosted(game_id, players, table, referee, sock, self.clock(),
                        whose=summary.whose)
        self._summaries[game_id] = summary
        hosted.watching = asyncio.ensure_future(self._watch(hosted))
        self._listen(hosted, session.game)
        self.hosted[game_id] = hosted
        self.log(f"game {game_id} loaded ({len(session.game.log)} events)")
        return hosted

    def _load(self, game_id: int) -> tuple[ClubGameStore, dict[str, str], Table]:
        """The game's store, players (side -> member) and table, loaded from the club's
        store (on one of its writer threads: the reads, and the replay of a long game,
        keep the event loop free; on SQLite, whose one writer thread also makes every
        game's writes, these wait behind it)."""
        info = self.store.game_info(game_id)
        store = self.store.game_store(game_id)
        players = {s: m for s, m in (("red", info.red), ("black", info.black)) if m}

        def seen(side: str, events: int) -> None:
            """Mark ``side``'s member as having seen the events the table has, those
            kept (a referee closing while a move's write waits has it applied)."""
            if side in players:
                with contextlib.suppress(StoreError):
                    self.store.mark_seen(game_id, players[side], min(events, store.kept))

        return store, players, Table(Session.open(store), seen=seen)

    async def _watch(self, hosted: Hosted) -> None:
        """Stop the game when its store cannot be written (the referee has told the
        terminal why); it is loaded again, from what was kept, when next opened."""
        try:
            await hosted.referee.serve_until_closed()
        except OSError as exc:
            self.log(f"game {hosted.game_id} stopped: {exc}")
            await self._unload(hosted.game_id)

    async def _unload(self, game_id: int) -> None:
        hosted = self.hosted.pop(game_id, None)
        if hosted is None:
            return
        self.across.detach(game_id)
        if hosted.watching is not None and hosted.watching is not asyncio.current_task():
            hosted.watching.cancel()
        await hosted.referee.close()
        self.log(f"game {game_id} unloaded")

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(self.limits.sweep_every)
            now = self.clock()
            for game_id, hosted in list(self.hosted.items()):
                async with hosted.referee.turn:
                    self.across.refresh(game_id, hosted.table, hosted.referee)
                if not any(hosted.table.connected.values()) \
                        and now - hosted.opened >= self.limits.unload_after:
                    await self._unload(game_id)

    def _listen(self, hosted: Hosted, game: Game) -> None:
        game.listeners.append(lambda game, event: self._moved(hosted, game, event))

    # --- several front-ends (issue 24) -------------------------------------------
    def _in_turn(self, hosted: Hosted, change: Callable[[], None]) -> None:
        """``change`` the hosted game's table in its turn (:attr:`Referee.turn`): now
        if nothing holds or waits for it, else once what does is done and kept (a
        request here whose writes are on their way to the store), in the order
        asked; not if the game is unloaded meanwhile."""
        def if_hosted() -> None:
            if self.hosted.get(hosted.game_id) is hosted:
                change()

        hosted.referee.turn.soon(if_hosted)

    def _changed_elsewhere(self, game_id: int, what: str, data: str = "") -> None:
        """The store's notice: another front-end changed game ``game_id`` (``data``:
        the change, if the notice carries it), or its table there told this one's
        something (:mod:`.across`); taken in the game's turn."""
        hosted = self.hosted.get(game_id)
        if hosted is not None:
            self._in_turn(hosted, lambda: self._heard(hosted, what, data))
            return
        if game_id in self._opening:
            self._missed.add(game_id)
        if what == "event":
            self._summaries.pop(game_id, None)  # its lobby line is read again
            for member in self._players_of(game_id) if self._subscribers else ():
                self._push(member, "moved", f"game {game_id} moved", game=game_id)

    def _heard(self, hosted: Hosted, what: str, data: str) -> None:
        game_id = hosted.game_id
        if self.across.heard(
                game_id, what, hosted.table, hosted.referee, lambda: self.catch_up(hosted)):
            return
        if game_id in self._behind or not self.take(hosted, what, data):
            if not self._behind:
                asyncio.get_running_loop().call_soon(self._catch_up_behind)
            self._behind.add(game_id)

    def _players_of(self, game_id: int) -> tuple[str | None, ...]:
        """The game's two members (red, black), read once: every front-end hears of
        every game's moves, and a game's players never change."""
        players = self._players.get(game_id)
        if players is None:
            try:
                info = self.store.game_info(game_id)
            except (ClubError, StoreError):
                return ()
            players = self._players[game_id] = (info.red, info.black)
        return players

    def _resync(self) -> None:
        """Notices may have been missed (the store's connection was down): catch up
        every game hosted here, and read every lobby line again."""
        self._summaries = {k: v for k, v in self._summaries.items() if k in self.hosted}
        for game_id, hosted in self.hosted.items():
            self.across.resync(game_id, hosted.table)
            hosted.referee.presence_changed()
        self._behind.update(self.hosted)
        self._catch_up_behind()

    def _catch_up_behind(self) -> None:
        behind, self._behind = self._behind, set()
        for game_id in sorted(behind):
            hosted = self.hosted.get(game_id)
            if hosted is not None:
                self._catch_up_later(hosted)

    def _catch_up_later(self, hosted: Hosted) -> None:
        """Catch the hosted game up (:meth:`catch_up_off_loop`) in its turn, in its
        place in line from now; not if it is unloaded meanwhile."""
        async def if_hosted() -> None:
            if self.hosted.get(hosted.game_id) is hosted:
                await self.catch_up_off_loop(hosted)

        hosted.referee.turn.later(if_hosted)

    def catch_up(self, hosted: Hosted) -> None:
        """Bring a hosted game up to its store: the events kept after the ones it has
        (by sequence number) and the action in flight as kept with them, read in one
        go (:meth:`_apply`)."""
        self._caught_up(hosted, self._since(hosted, len(hosted.table.game.log)))

    async def catch_up_off_loop(self, hosted: Hosted) -> None:
        """:meth:`catch_up`, its read made on a writer thread of the store; in the
        game's turn (nothing changes the table meanwhile)."""
        count = len(hosted.table.game.log)
        self._caught_up(hosted, await self.store.in_thread(lambda: self._since(hosted, count)))

    @staticmethod
    def _since(hosted: Hosted, count: int) -> tuple[list[Event], str | None] | Exception:
        """The game's events after the first ``count`` and its action in flight, as
        kept (:meth:`ClubGameStore.since`), or why they cannot be read."""
        store = hosted.table.session.store
        assert isinstance(store, ClubGameStore)
        try:
            return store.since(count)
        except Exception as exc:  # a store gone, an event that cannot be read
            return exc

    def _caught_up(self, hosted: Hosted,
                   read: tuple[list[Event], str | None] | Exception) -> None:
        if isinstance(read, Exception):
            self.log(f"game {hosted.game_id}: cannot catch up with the store ({read}); "
                     "loading it again")
            self._reload(hosted)
            return
        self._apply(hosted, *read)

    def take(self, hosted: Hosted, what: str, data: str) -> bool:
        """Bring a hosted game up to another front-end's change from its notice
        alone (``data``: :meth:`~deathzap_tui.club.sqlstore.SqlClubStore._announce`),
        reading nothing: an event if it is the next by number (one it has already is
        taken as it is); an action's record if the game here is in step with the
        notices (``ClubGameStore.in_step``) and the record fits its events. False if
        not taken (then :meth:`catch_up`)."""
        table = hosted.table
        game, store = table.game, table.session.store
        assert isinstance(store, ClubGameStore)
        if what == "event":
            seq, _, raw = data.partition(" ")
            if not raw or not seq.isdigit() or int(seq) > len(game.log):
                return False
            if int(seq) < len(game.log):
                return True  # had already (read with a later one)
            try:
                events = store.events_from(len(game.log), [raw])
            except StoreError:
                return False
            if self._apply(hosted, events, None):  # the event's commit cleared the record
                store.in_step = True
            return True
        if what == "action" and data and store.in_step \
                and store.in_flight.fits(data, game.log):
            self._apply(hosted, [], None if data == "null" else data)
            return True
        return False

    def _apply(self, hosted: Hosted, events: list[Event], kept: str | None) -> bool:
        """Apply another front-end's ``events`` to a hosted game and take the action
        in flight as ``kept`` (its record as kept with them; ``None``, JSON ``null``:
        none). Events are applied without this front-end's listeners (they are kept
        already: writing them again would be refused); its players' lobbies still
        hear of them. False if the game could not take them (it is loaded again)."""
        table = hosted.table
        game, store = table.game, table.session.store
        assert isinstance(store, ClubGameStore)
        before = _in_progress(table)
        new: list[Event] = []
        try:
            listeners, game.listeners[:] = list(game.listeners), []
            try:
                for event in events:
                    game.apply(event)
                    new.append(event)
            finally:
                game.listeners[:] = listeners
            with store.in_flight.read_with(kept):
                table.follow()
        except Exception as exc:  # a store gone, an event this game cannot take
            self.log(f"game {hosted.game_id}: cannot catch up with the store ({exc}); "
                     "loading it again")
            self._reload(hosted)
            return False
        if not new and _in_progress(table) == before:
            return True  # nothing new for its terminals (a committed action's record cleared)
        hosted.referee.changed()
        for event in new:
            self._after_move(hosted, event, here=False)
        return True

    def _reload(self, hosted: Hosted) -> bool:
        """Load the game again, whole, from its store, into the same table."""
        try:
            session = Session.open(hosted.table.session.store)
        except StoreError as exc:
            self.log(f"game {hosted.game_id}: cannot load it again ({exc})")
            return False
        self._listen(hosted, session.game)
        hosted.table.follow(session)
        hosted.referee.changed(anew=True)
        return True

    def _conflict(self, hosted: Hosted, side: str) -> str:
        """The store kept another front-end's event under the number this table's
        last event wanted: load the game as kept, and say what happened meanwhile."""
        known = len(hosted.table.game.log) - 1  # the event refused is the last one
        if not self._reload(hosted):
            return "the club's store is unavailable; try again in a moment"
        game = hosted.table.game
        lines = lastseen.since(game, min(known, len(game.log)), side if side in SIDES
                               else None)
        said = "; ".join(clean(line, oneline=True) for line in lines[-5:])
        return ("the game moved on meanwhile (a move made at the same moment was kept "
                "first), so yours was not: " + (said or "look at the board again"))

    def _moved(self, hosted: Hosted, game: Game, event: Event) -> None:
        """A game's listener: the event is on its way to the store. Its lobbies hear
        of it once it is kept (:meth:`ClubGameStore.then`; never if the store refused
        it: another front-end's event came first, or the store is gone), in the
        game's turn after the request that made it (its table has settled then) and
        after whatever took a place in line before (a catch-up that loaded the game
        again: the news is made from the table as it is then)."""
        store = hosted.table.session.store
        assert isinstance(store, ClubGameStore)
        store.then(lambda: self._in_turn(hosted, lambda: self._after_move(hosted, event)))

    def _after_move(self, hosted: Hosted, event: Event, *, here: bool = True) -> None:
        """Lobbies hear of a move; ``--notify`` runs only on the front-end where it
        was made (``here``), so a club's several front-ends notify once."""
        table, game_id = hosted.table, hosted.game_id
        summary = self._summarise(table.game, table, hosted.players)
        self._summaries[game_id] = summary
        who = event.by
        text = f"game {game_id}: {hosted.players.get(who, who) or 'the table'} moved"
        for side, member in hosted.players.items():
            if side != who:
                self._push(member, "moved", text, game=game_id)
        if summary.over:
            for member in hosted.players.values():
                self._push(member, "game-over", f"game {game_id}: "
                           f"{summary.result or 'game over'}", game=game_id)
                if here:
                    self._notify(member, game_id, "game-over")
            return
        if summary.whose != hosted.whose:
            hosted.whose = summary.whose
            at_table = {s for s in SIDES if table.connected[s]}
            self._your_move(game_id, summary, at_table, notify=here)

    def _your_move(self, game_id: int, summary: Summary, at_table: set[str], *,
                   notify: bool = True) -> None:
        member = summary.players.get(summary.whose)
        if member is None:
            return
        self._push(member, "your-move", f"game {game_id}: your move", game=game_id)
        if notify and summary.whose not in at_table:
            self._notify(member, game_id, "your-move")

    # --- rows ----------------------------------------------------------------------
    def _summary(self, info: GameInfo) -> Summary:
        summary = self._summaries.get(info.id)
        if summary is None:
            players = {s: m for s, m in (("red", info.red), ("black", info.black)) if m}
            session = Session.open(self.store.game_store(info.id))
            summary = self._summarise(session.game, Table(session), players)
            self._summaries[info.id] = summary
        return summary

    @staticmethod
    def _summarise(game: Game, table: Table, players: dict[str, str]) -> Summary:
        view: BoardView = game.ruleset.view(game.state)
        turn = table.turn()
        return Summary(game.ruleset.title, _turn_text(view), turn["side"], bool(view.over),
                       clean(view.result, oneline=True), dict(players))

    def _game_row(self, info: GameInfo, member: str, now: float) -> dict[str, Any]:
        summary = self._summary(info)
        side = "red" if info.red == member else "black" if info.black == member else "watch"
        opponent = {"red": info.black, "black": info.red}.get(side)
        return {
            "game": info.id, "ruleset": info.ruleset, "title": summary.title, "side": side,
            "opponent": clean(opponent or "", oneline=True) if side != "watch" else
            f"{clean(info.red or '?', oneline=True)} v {clean(info.black or '?', oneline=True)}",
            "turn": summary.turn, "whose": summary.whose,
            "yours": side in SIDES and summary.whose == side and not summary.over,
            "last_move": info.updated, "ago": max(0, int(now - info.updated)),
            "unread": max(0, info.events - info.seen) if side in SIDES else 0,
            "public": info.public, "over": info.over or summary.over,
            "result": summary.result,
        }

    def _challenge_row(self, c: Challenge, member: str) -> dict[str, Any]:
        try:
            title = registry.get(c.ruleset).title
        except Exception:  # a ruleset this build no longer has
            title = c.ruleset
        try:
            force = checked_force(c.force, "force").name
        except ClubError:
            force = "?"
        return {"challenge": c.id, "ruleset": c.ruleset, "title": title,
                "by": clean(c.challenger, oneline=True),
                "to": clean(c.opponent or "", oneline=True),
                "force": clean(force, oneline=True), "options": dict(c.options),
                "created": c.created, "public": c.public, "mine": c.challenger == member}

    # --- look-ups ------------------------------------------------------------------
    def _visible(self, member: str, game_id: int) -> tuple[GameInfo, str]:
        """A game ``member`` may see, and as whom: its side, or "watch" for a public
        game of others. A private game of others is answered as no game at all."""
        try:
            info = self.store.game_info(game_id, member)
        except ClubError:
            info = None
        if info is not None:
            if info.red == member:
                return info, "red"
            if info.black == member:
                return info, "black"
            if info.public:
                return info, "watch"
        raise HubError(f"game {game_id}: no such game for you to see")

    def _challenge(self, member: str, challenge_id: int) -> Challenge:
        for challenge in self.store.challenges_for(member):
            if challenge.id == challenge_id:
                return challenge
        raise HubError(f"challenge {challenge_id}: no such challenge for you (taken, "
                       "withdrawn or never made)")

    def _force(self, member: str, spec: dict[str, str]) -> tuple[str, Any]:
        """A :data:`ForceSpec <deathzap_tui.club.hub>` as TOML text and the force read
        from it (checked as ``deathzap check``)."""
        (kind, value), = spec.items()
        if kind == "shipped":
            if not SHIPPED_ID.fullmatch(value):
                raise HubError(f"no shipped force {value!r}")
            path = self.forces_dir / f"{value}.toml"
            try:
                text = read_force_text(path)
            except InvalidInput:
                raise HubError(f"no shipped force {value!r}") from None
        elif kind == "saved":
            text = self.store.force(member, value).text
        else:
            text = value
        return text, checked_force(text, kind if kind != "toml" else "your force")


def _in_progress(table: Table) -> tuple[Any, ...] | None:
    """The action in progress at ``table``, as its terminals are shown it."""
    p = table.pending
    if p is None:
        return None
    return p.action.by, dict(p.action.intent), list(p.action.resolution.answers), \
        list(p.answerers)


def _member_key(member: str) -> str:
    """The counters' key for a member's own limits (over all of their keys)."""
    return f"member:{member}"


def _turn_text(view: BoardView) -> str:
    if view.clock is not None:
        c = view.clock
        return f"{c.unit} {c.number}" + (f"/{c.limit}" if c.limit else "")
    if view.deck is not None:
        up = f"card {view.deck.current}" if view.deck.current else "no card yet"
        return f"{up}, {view.deck.cards_left} left"
    return ""

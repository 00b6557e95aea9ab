"""The club hub protocol: what a member's lobby asks of the club server.

``deathzap club serve`` runs one hub on a Unix socket in a private directory (mode
0700, inside the store's directory). Every SSH session of a member runs the lobby as
its own process on a pty::

    python -m deathzap_tui club session --hub SOCK --member NAME

with the environment variable :data:`TOKEN_ENV` set to a secret the server made for
that session. The lobby says ``hello`` with that token and the hub answers with the
member it stands for: the server decides who a session is (by the SSH key that
logged in), never the client; ``--member`` is only for the lobby's title and must
match. A token is good for one SSH session and dies with it.

Framing is the referee's (:mod:`deathzap_tui.net.protocol`: a 4-byte big-endian
length, then one UTF-8 JSON object), with a larger cap on requests
(:data:`MAX_REQUEST_FRAME`) since a force's TOML text may come with one. A request
carries an integer ``id``, repeated by its ``ok`` or ``error`` reply. Free text in
replies (member names, force names, results) is cleaned on the server
(:func:`deathzap_tui.app.common.text.clean`), and a screen must still escape markup.

Lobby -> hub::

    hello      {v, token}                         first; -> welcome
    lobby      {id}                               everything the lobby shows, at once:
               -> ok {games, challenges, finished, watch}
    forces     {id}                               -> ok {forces: [ForceRow]} (my saved)
    save_force {id, toml}                         checked like `deathzap check`, kept
               under the force's own name (replacing one of that name)
               -> ok {force: ForceRow}  |  error {message} (every error, placed)
    challenge  {id, ruleset, opponent?, options?, force, public?}
               opponent: a member name, or "" (the default) for an open challenge;
               options: the ruleset's options; force: ForceSpec; public: the game
               may be watched. Sides are drawn when it is accepted.
               -> ok {challenge: ChallengeRow}
    accept     {id, challenge, force}              -> ok {game: GameRow}
    decline    {id, challenge}                     -> ok {}  (the challenger withdraws)
    open       {id, game}                          -> ok {socket, side, since, game}
               socket: the game's referee (net/referee.py protocol; say hello as
               ``side``: "red"/"black" for my games, "watch" for a public game of
               others); since: what happened since I last opened it, as I may see it
    public     {id, game, public: bool}            make my game watchable (or not)
    report     {id, game}                          -> ok {report}  (a finished game)
    add_key    {id, key}                           an OpenSSH public key line
    subscribe  {id}                                -> ok {}, then ``event`` pushes
    ping       {id}

Hub -> lobby::

    welcome {v, member}
    ok      {id, ...}
    error   {id?, message}
    event   {what, game?, challenge?, text}       pushed to subscribers
            what: "your-move" | "moved" | "challenge" | "accepted" | "game-over"
    bye     {message}

Rows (all times are seconds since the epoch, UTC; ``ago`` is seconds before now)::

    GameRow      {game, ruleset, title, side, opponent, turn, whose, yours: bool,
                  last_move, ago, unread, public: bool, over: bool, result}
                 ``turn``: the board's turn/round text; ``whose``: "red"/"black"/"";
                 ``yours``: the next move is mine; ``unread``: events since I last
                 opened it. ``games`` lists yours-to-move first, then by last move.
    ChallengeRow {challenge, ruleset, title, by, to, force, options, created,
                  public: bool, mine: bool}
                 ``to`` is "" for an open challenge; ``force``: the name of the
                 challenger's force; ``mine``: I made it.
    ForceRow     {name, ruleset}
    ForceSpec    {"shipped": ID} | {"saved": NAME} | {"toml": TEXT}
                 ``shipped`` ids are the names of the files in deathzap_tui/forces
                 (e.g. "dz3_red"); a saved or given force must pass `deathzap check`.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import secrets
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol

from deathzap_tui.forcefile import MAX_BYTES as MAX_FORCE_BYTES
from deathzap_tui.net import protocol
from deathzap_tui.net.limits import Rate
from deathzap_tui.net.protocol import BadMessage, plain, schema_fields, whole

VERSION = 1
TOKEN_ENV = "DEATHZAP_CLUB_TOKEN"
"""The environment variable that carries a session's token to its lobby process."""
MAX_REQUEST_FRAME = MAX_FORCE_BYTES + 64 * 1024
"""A request may carry a whole force file; nothing else is big."""
MAX_NAME = 60
EVENTS = ("your-move", "moved", "challenge", "accepted", "game-over")
"""What an ``event`` push may say happened."""
MAX_BAD_MESSAGES = 20

_FIELDS: dict[str, tuple[str, ...]] = {
    "hello": ("v", "token"),
    "lobby": ("id",),
    "forces": ("id",),
    "save_force": ("id", "toml"),
    "challenge": ("id", "ruleset", "opponent", "options", "force", "public"),
    "accept": ("id", "challenge", "force"),
    "decline": ("id", "challenge"),
    "open": ("id", "game"),
    "public": ("id", "game", "public"),
    "report": ("id", "game"),
    "add_key": ("id", "key"),
    "subscribe": ("id",),
    "ping": ("id",),
}
_OPTIONAL = {"options", "public", "opponent"}
READ_ONLY = frozenset({"lobby", "forces", "report", "ping"})
"""Requests that change nothing in the club."""


def _text(msg: Mapping[str, Any], key: str, limit: int = MAX_NAME) -> str:
    value = msg.get(key)
    if not isinstance(value, str) or len(value) > limit:
        raise BadMessage(f"{msg['t']}: {key!r} must be a text of at most {limit} characters")
    return value


def check_force_spec(value: Any, where: str) -> dict[str, str]:
    """A :data:`ForceSpec <deathzap_tui.club.hub>`: exactly one of shipped, saved, toml."""
    if not isinstance(value, dict) or len(value) != 1:
        raise BadMessage(f"{where}: a force is one of shipped, saved or toml")
    (kind, text), = value.items()
    if kind not in ("shipped", "saved", "toml") or not isinstance(text, str):
        raise BadMessage(f"{where}: a force is one of shipped, saved or toml (a text)")
    limit = MAX_FORCE_BYTES if kind == "toml" else MAX_NAME
    if len(text) > limit:
        raise BadMessage(f"{where}.{kind}: longer than {limit} characters")
    return {kind: text}


def check_request(msg: dict[str, Any]) -> dict[str, Any]:
    """Validate a lobby's message against its schema; return it (normalised).
    :class:`~deathzap_tui.net.protocol.BadMessage` names what is wrong."""
    t = msg["t"]
    fields = schema_fields(msg, _FIELDS)
    missing = [f for f in fields if f not in msg and f not in _OPTIONAL]
    if missing:
        raise BadMessage(f"{t}: missing field {missing[0]!r}")
    if t == "hello":
        whole(msg, "v")
        _text(msg, "token", 200)
        return msg
    whole(msg, "id")
    for key in ("game", "challenge"):
        if key in fields:
            whole(msg, key)
    if t == "save_force":
        _text(msg, "toml", MAX_FORCE_BYTES)
    elif t == "challenge":
        _text(msg, "ruleset")
        msg["opponent"] = _text(msg, "opponent") if "opponent" in msg else ""
        options = msg.get("options", {})
        if not isinstance(options, dict):
            raise BadMessage("challenge: options must be an object")
        msg["options"] = plain(options, "options")
        msg["public"] = msg.get("public", False)
        if not isinstance(msg["public"], bool):
            raise BadMessage("challenge: public must be true or false")
        msg["force"] = check_force_spec(msg["force"], "challenge.force")
    elif t == "accept":
        msg["force"] = check_force_spec(msg["force"], "accept.force")
    elif t == "public" and not isinstance(msg.get("public"), bool):
        raise BadMessage("public: public must be true or false")
    elif t == "add_key":
        _text(msg, "key", 16 * 1024)
    return msg


class HubError(Exception):
    """The hub refused a request (or the link to it broke); the message says why."""


class HubClient:
    """A lobby's link to the hub: ``await connect(path, token)``, then ``await
    request("lobby")`` etc. (the ``ok`` reply without ``t`` and ``id``, or
    :class:`HubError`); pushed ``event`` messages land in :attr:`events`."""

    def __init__(self) -> None:
        self.member = ""
        self.events: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._reading: asyncio.Task[None] | None = None

    async def connect(self, path: str, token: str) -> str:
        """Say hello with the session's token; the member the hub says it stands for."""
        self._reader, self._writer = await asyncio.open_unix_connection(
            path, limit=protocol.MAX_SERVER_FRAME)
        self._writer.write(protocol.encode({"t": "hello", "v": VERSION, "token": token}))
        body = await protocol.read_frame(self._reader, protocol.MAX_SERVER_FRAME)
        reply = protocol.decode(body) if body is not None else {"t": "error",
                                                                "message": "hub closed"}
        if reply["t"] != "welcome":
            await self.close()
            raise HubError(str(reply.get("message", "the hub refused the session")))
        self.member = str(reply["member"])
        self._reading = asyncio.ensure_future(self._read())
        return self.member

    async def request(self, t: str, **fields: Any) -> dict[str, Any]:
        if self._writer is None or self._reading is None or self._reading.done():
            raise HubError("not connected to the club")
        rid = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[rid] = future
        self._writer.write(protocol.encode({"t": t, "id": rid, **fields}))
        return await future

    async def close(self) -> None:
        if self._reading is not None:
            self._reading.cancel()
        if self._writer is not None:
            self._writer.close()
            with contextlib.suppress(Exception):
                await self._writer.wait_closed()
        self._fail("the link to the club was closed")

    async def _read(self) -> None:
        assert self._reader is not None
        why = "the club server went away"
        try:
            while (body := await protocol.read_frame(self._reader,
                                                     protocol.MAX_SERVER_FRAME)) is not None:
                msg = protocol.decode(body)
                if msg["t"] == "event":
                    self.events.put_nowait(msg)
                elif msg["t"] == "bye":
                    why = str(msg.get("message", why))
                    break
                elif (future := self._waiting.pop(msg.get("id"), None)) is not None:
                    if msg["t"] == "ok":
                        future.set_result({k: v for k, v in msg.items()
                                           if k not in ("t", "id")})
                    else:
                        future.set_exception(HubError(str(msg.get("message", ""))))
        except (OSError, protocol.ProtocolError, BadMessage) as exc:
            why = f"the link to the club broke ({exc})"
        finally:
            self._fail(why)

    def _fail(self, why: str) -> None:
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(HubError(why))
        self._waiting.clear()


class Handler(Protocol):
    """What the hub serves: the club (:class:`deathzap_tui.club.hosting.Club`)."""

    async def handle(self, member: str, msg: dict[str, Any]) -> dict[str, Any]:
        """The ``ok`` reply's fields for a checked request, or :class:`HubError`."""

    def subscribe(self, member: str, push: Callable[[dict[str, Any]], None]) -> None:
        """Send ``event`` messages for ``member`` through ``push`` from now on."""

    def unsubscribe(self, member: str, push: Callable[[dict[str, Any]], None]) -> None:
        ...


class HubServer:
    """The hub on a Unix socket (in a private directory: see the module doc).

    :meth:`issue` makes a session's token; a lobby says hello with it and is then
    that member until it goes. Requests from one lobby are taken one at a time, paced
    (:class:`~deathzap_tui.net.limits.Rate`); a lobby that sends too many bad
    messages, or stalls inside a frame, is dropped.
    """

    def __init__(self, handler: Handler, path: Path, *, hello_timeout: float = 10.0,
                 stall_timeout: float = 10.0, pace: tuple[float, int] = (20.0, 40),
                 log: Callable[[str], None] = print) -> None:
        self.handler = handler
        self.path = path
        self.hello_timeout = hello_timeout
        self.stall_timeout = stall_timeout
        self.pace = pace
        self.log = log
        self._tokens: dict[str, str] = {}
        self._server: asyncio.AbstractServer | None = None
        self._writers: set[asyncio.StreamWriter] = set()

    def issue(self, member: str) -> str:
        """A new secret token standing for ``member`` (until :meth:`revoke`)."""
        token = secrets.token_urlsafe(24)
        self._tokens[token] = member
        return token

    def revoke(self, token: str) -> None:
        self._tokens.pop(token, None)

    async def start(self) -> None:
        old = os.umask(0o177)  # the socket: owner only, in an owner-only directory
        try:
            self._server = await asyncio.start_unix_server(
                self._serve, str(self.path), limit=MAX_REQUEST_FRAME + 8)
        finally:
            os.umask(old)

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for writer in list(self._writers):
            with contextlib.suppress(Exception):
                writer.write(protocol.encode({"t": "bye",
                                              "message": "the club server is stopping"}))
            writer.close()
        if self._server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2)
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.add(writer)

        def send(message: Mapping[str, Any]) -> None:
            if not writer.is_closing():
                writer.write(protocol.encode(message))

        member = ""
        try:
            member = await self._hello(reader, send)
            if member:
                await self._loop(member, reader, send)
        except (ConnectionError, protocol.ProtocolError) as exc:
            self.log(f"hub: lobby of {member or '?'}: {exc}")
        finally:
            if member:
                self.handler.unsubscribe(member, send)
            self._writers.discard(writer)
            writer.close()

    async def _hello(self, reader: asyncio.StreamReader,
                     send: Callable[[Mapping[str, Any]], None]) -> str:
        try:
            body = await asyncio.wait_for(protocol.read_frame(reader, MAX_REQUEST_FRAME),
                                          self.hello_timeout)
            if body is None:
                return ""
            msg = check_request(protocol.decode(body))
            if msg["t"] != "hello":
                raise BadMessage("the first message must be hello")
        except (BadMessage, TimeoutError) as exc:
            send({"t": "error", "message": f"bad hello: {exc or 'timed out'}"})
            return ""
        if msg["v"] != VERSION:
            send({"t": "error", "message": f"hub protocol version {msg['v']}; this club "
                                           f"speaks {VERSION}"})
            return ""
        member = self._tokens.get(msg["token"], "")
        if not member:
            send({"t": "error", "message": "this session is not known to the club"})
            return ""
        send({"t": "welcome", "v": VERSION, "member": member})
        return member

    async def _loop(self, member: str, reader: asyncio.StreamReader,
                    send: Callable[[Mapping[str, Any]], None]) -> None:
        bad = 0
        pace = Rate(*self.pace)
        while (body := await protocol.read_frame(reader, MAX_REQUEST_FRAME,
                                                 self.stall_timeout)) is not None:
            if wait := pace.spend():
                await asyncio.sleep(wait)
            rid = None
            try:
                msg = protocol.decode(body)
                rid = msg.get("id") if type(msg.get("id")) is int else None
                msg = check_request(msg)
                if msg["t"] == "hello":
                    raise BadMessage("hello was already said")
                if msg["t"] == "subscribe":
                    self.handler.subscribe(member, send)
                    reply: dict[str, Any] = {}
                elif msg["t"] == "ping":
                    reply = {}
                else:
                    reply = await self.handler.handle(member, msg)
            except BadMessage as exc:
                bad += 1
                send({"t": "error", "id": rid, "message": f"bad message: {exc}"})
                if bad >= MAX_BAD_MESSAGES:
                    raise protocol.ProtocolError("too many bad messages") from None
                continue
            except HubError as exc:
                send({"t": "error", "id": rid, "message": str(exc)})
                continue
            except Exception as exc:  # a bug must cost one request, not the club
                self.log(f"hub: {msg.get('t')} for {member} failed: {exc!r}")
                send({"t": "error", "id": rid,
                      "message": f"the club could not do that ({type(exc).__name__})"})
                continue
            send({"t": "ok", "id": rid, **reply})

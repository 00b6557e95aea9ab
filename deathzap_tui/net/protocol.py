"""The referee protocol: framing and message checks.

A frame is a 4-byte big-endian length followed by that many bytes of UTF-8 JSON, one
object per frame. Frames from clients are capped at :data:`MAX_CLIENT_FRAME` bytes
(a client has nothing big to say); frames from the referee at
:data:`MAX_SERVER_FRAME`. A frame over the cap, or a length that is not followed by
its bytes, ends the connection (the stream cannot be trusted after it), and so does
a frame begun and not finished within the referee's stall timeout; a frame that is
well framed but not a valid message is answered with an ``error`` and ignored.

Every message is a JSON object with ``"t"`` (its type). The client speaks first with
``hello`` (protocol version, the side it plays); the referee answers ``welcome`` or
``error`` + close. Requests carry an integer ``id`` that the referee's ``ok`` /
``error`` reply repeats; ``state`` messages are pushed whenever the game changes;
``presence`` when only who is connected changed (at most a few times a second).

Client -> referee::

    hello   {v, side: red|black|watch, name?}
    begin   {id, intent}                  start resolving an intent
    answer  {id, aid, answer}             answer the pending step of action aid
    back    {id, aid}                     take back the last answer (your own)
    cancel  {id, aid}                     drop the action (the acting player only)
    commit  {id, aid}                     write the finished action (acting player)
    undo    {id} / redo {id}              ask the opponent to agree to undo / redo
    reply   {id, accept: bool}            agree to (or decline) the opponent's request
    report  {id}                          the end-of-game report (once the game is over)
    ping    {id}

Referee -> client::

    welcome {v, side, ruleset, title, names: {red, black}}
    ok      {id, ...}                     e.g. begin -> {aid}, commit -> {event},
                                          report -> {report}
    error   {id?, message}
    state   {seq, ...}                    the game as this client may see it
                                          (``ended``: how the last action ended)
    presence {presence: {red, black, watch}}  how many terminals each side has
    notice  {message}                     e.g. the opponent declined your undo
    bye     {message}
"""

from __future__ import annotations

import asyncio
import json
import math
import socket
import struct
from collections.abc import Mapping
from typing import Any

VERSION = 1
MAX_CLIENT_FRAME = 64 * 1024
MAX_SERVER_FRAME = 8 * 1024 * 1024
_HEADER = struct.Struct(">I")
SIDES = ("red", "black")
ROLES = (*SIDES, "watch")
MAX_TEXT = 200
MAX_INT = 2**53


class ProtocolError(Exception):
    """The peer broke the framing; the connection must be closed."""


class BadMessage(ValueError):
    """A well-framed message that is not valid; answer with an error, carry on."""


def connect_unix(path: str, timeout: float) -> socket.socket:
    """A connection to the referee's socket at ``path``, made blocking so that it
    waits its turn (up to ``timeout`` s) when the referee's queue of new connections
    is full, as under a flood, instead of failing at once as a non-blocking connect
    does. Returned non-blocking, for asyncio; run it in a thread."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        seconds = int(timeout)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO,
                        struct.pack("ll", seconds, int((timeout - seconds) * 1e6)))
        sock.connect(path)
        sock.setblocking(False)
    except OSError:
        sock.close()
        raise
    return sock


def encode(message: Mapping[str, Any]) -> bytes:
    body = json.dumps(message, ensure_ascii=False, separators=(",", ":"),
                      allow_nan=False).encode("utf-8")
    return _HEADER.pack(len(body)) + body


async def read_frame(reader: asyncio.StreamReader, limit: int,
                     stall: float | None = None) -> bytes | None:
    """The next frame's body; ``None`` at a clean end of stream. Waits for ever for a
    frame to begin; once begun, it must arrive in full within ``stall`` seconds (if
    given), or :class:`ProtocolError`: half a frame must not hold a connection."""
    try:
        first = await reader.readexactly(1)
    except asyncio.IncompleteReadError:
        return None
    try:
        async with asyncio.timeout(stall):
            try:
                header = first + await reader.readexactly(_HEADER.size - 1)
            except asyncio.IncompleteReadError:
                raise ProtocolError("connection closed inside a frame header") from None
            (size,) = _HEADER.unpack(header)
            if size > limit:
                raise ProtocolError(f"frame of {size} bytes is over the {limit}-byte limit")
            try:
                return await reader.readexactly(size)
            except asyncio.IncompleteReadError:
                raise ProtocolError("connection closed inside a frame") from None
    except TimeoutError:
        raise ProtocolError(f"a frame stalled: not complete after {stall:g} s") from None


def _no_constants(name: str) -> Any:
    raise BadMessage(f"{name} is not allowed")


def decode(body: bytes) -> dict[str, Any]:
    """Parse one frame into a message object; :class:`BadMessage` if it is not one."""
    try:
        data = json.loads(body.decode("utf-8"), parse_constant=_no_constants)
    except UnicodeDecodeError:
        raise BadMessage("a frame must be UTF-8 text") from None
    except (ValueError, RecursionError) as exc:
        if isinstance(exc, BadMessage):
            raise
        raise BadMessage(f"not JSON ({type(exc).__name__})") from None
    if not isinstance(data, dict) or not isinstance(data.get("t"), str):
        raise BadMessage("a message is a JSON object with a \"t\" field")
    return data


# --- checking what clients send ------------------------------------------------

def plain(value: Any, where: str, depth: int = 0) -> Any:
    """Small plain data (what an intent or answer may hold), or BadMessage."""
    if depth > 4:
        raise BadMessage(f"{where}: nested too deeply")
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        if abs(value) > MAX_INT:
            raise BadMessage(f"{where}: number out of range")
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise BadMessage(f"{where}: number out of range")
        return value
    if isinstance(value, str):
        if len(value) > MAX_TEXT:
            raise BadMessage(f"{where}: text longer than {MAX_TEXT} characters")
        return value
    if isinstance(value, list):
        if len(value) > 64:
            raise BadMessage(f"{where}: list too long")
        return [plain(v, f"{where}[{i}]", depth + 1) for i, v in enumerate(value)]
    if isinstance(value, dict):
        if len(value) > 32:
            raise BadMessage(f"{where}: too many fields")
        for k in value:
            if len(k) > MAX_TEXT:
                raise BadMessage(f"{where}: field name too long")
        return {k: plain(v, f"{where}.{k}", depth + 1) for k, v in value.items()}
    raise BadMessage(f"{where}: null is not allowed")


def whole(msg: Mapping[str, Any], key: str) -> int:
    """``msg[key]``, a whole number from 0 to :data:`MAX_INT`; :class:`BadMessage`
    naming the message type and field otherwise."""
    value = msg.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_INT:
        raise BadMessage(f"{msg.get('t')}: {key!r} must be a non-negative integer")
    return value


_FIELDS: dict[str, tuple[str, ...]] = {
    "hello": ("v", "side", "name"),
    "begin": ("id", "intent"),
    "answer": ("id", "aid", "answer"),
    "back": ("id", "aid"),
    "cancel": ("id", "aid"),
    "commit": ("id", "aid"),
    "undo": ("id",),
    "redo": ("id",),
    "reply": ("id", "accept"),
    "report": ("id",),
    "ping": ("id",),
}


def schema_fields(msg: Mapping[str, Any], schema: Mapping[str, tuple[str, ...]]
                  ) -> tuple[str, ...]:
    """The fields ``schema`` gives ``msg``'s type (its ``"t"``); :class:`BadMessage`
    for a type the schema does not know or a field that type does not have."""
    t = msg["t"]
    fields = schema.get(t)
    if fields is None:
        raise BadMessage(f"unknown message type {t[:40]!r}")
    extra = set(msg) - {"t", *fields}
    if extra:
        raise BadMessage(f"{t}: unexpected field {sorted(extra)[0][:40]!r}")
    return fields


def check_client(msg: dict[str, Any]) -> dict[str, Any]:
    """Validate a client message against its schema; return it (normalised)."""
    t = msg["t"]
    fields = schema_fields(msg, _FIELDS)
    if t == "hello":
        whole(msg, "v")
        if msg.get("side") not in ROLES:
            raise BadMessage(f"hello: side must be one of {', '.join(ROLES)}")
        name = msg.get("name", "")
        if not isinstance(name, str) or len(name) > 60:
            raise BadMessage("hello: name must be a short text")
        return msg
    whole(msg, "id")
    if "aid" in fields:
        whole(msg, "aid")
    if t == "begin":
        intent = msg.get("intent")
        if not isinstance(intent, dict) or not isinstance(intent.get("type"), str):
            raise BadMessage("begin: intent must be an object with a \"type\"")
        msg["intent"] = plain(intent, "intent")
    elif t == "answer":
        if "answer" not in msg:
            raise BadMessage("answer: no answer")
        msg["answer"] = check_answer_data(msg["answer"])
    elif t == "reply" and not isinstance(msg.get("accept"), bool):
        raise BadMessage("reply: accept must be true or false")
    return msg


def check_answer_data(data: Any) -> Any:
    """An answer as a client may send it: text, a whole number, dice faces or a
    count of successes, or ``{"roll": true}`` (let the referee roll). A client can
    never send faces it claims were generated."""
    if isinstance(data, bool):
        raise BadMessage("answer: true/false is not an answer")
    if isinstance(data, str):
        if len(data) > MAX_TEXT:
            raise BadMessage("answer: text too long")
        return data
    if isinstance(data, int):
        if abs(data) > MAX_INT:
            raise BadMessage("answer: number out of range")
        return data
    if isinstance(data, dict):
        if data == {"roll": True}:
            return data
        if set(data) == {"successes"}:
            whole(data, "successes")
            return data
        if set(data) <= {"faces", "generated"}:
            if data.get("generated", False) is not False:
                raise BadMessage("answer: generated dice are rolled by the referee; "
                                 "send {\"roll\": true}")
            faces = data.get("faces")
            if (not isinstance(faces, list) or len(faces) > 100
                    or not all(type(f) is int and 0 <= f <= 100 for f in faces)):
                raise BadMessage("answer: faces must be a list of small numbers")
            return data
    raise BadMessage("answer: not an answer")

"""A blocking protocol-level client for the tests: records every byte it receives."""

from __future__ import annotations

import json
import socket
import struct
import time
from pathlib import Path
from typing import Any

from deathzap_tui.net import protocol


class RawClient:
    def __init__(self, path: Path, side: str | None = None, timeout: float = 5.0) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(str(path))
        self.received = bytearray()
        self._buf = bytearray()
        self.ids = 0
        if side is not None:
            self.send({"t": "hello", "v": protocol.VERSION, "side": side})

    def send(self, msg: dict[str, Any]) -> None:
        self.sock.sendall(protocol.encode(msg))

    def send_raw(self, data: bytes) -> None:
        self.sock.sendall(data)

    def request(self, t: str, **fields: Any) -> dict[str, Any]:
        """Send a request and return its ok/error reply (pushes are recorded)."""
        self.ids += 1
        self.send({"t": t, "id": self.ids, **fields})
        return self.until(lambda m: m["t"] in ("ok", "error") and m.get("id") == self.ids)

    def recv(self) -> dict[str, Any] | None:
        while True:
            if len(self._buf) >= 4:
                (n,) = struct.unpack(">I", self._buf[:4])
                if len(self._buf) >= 4 + n:
                    body = bytes(self._buf[4:4 + n])
                    del self._buf[:4 + n]
                    return json.loads(body)
            chunk = self.sock.recv(65536)
            if not chunk:
                return None
            self.received += chunk
            self._buf += chunk

    def until(self, pred, timeout: float = 5.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            msg = self.recv()
            if msg is None:
                raise EOFError("connection closed")
            if pred(msg):
                return msg
        raise TimeoutError

    def drain(self, quiet: float = 0.2) -> list[dict[str, Any]]:
        """Read everything that arrives until the line is quiet for ``quiet`` s."""
        out = []
        self.sock.settimeout(quiet)
        try:
            while (msg := self.recv()) is not None:
                out.append(msg)
        except TimeoutError:
            pass
        finally:
            self.sock.settimeout(5.0)
        return out

    def close(self) -> None:
        self.sock.close()

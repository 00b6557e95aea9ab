"""Stands in for the lobby app in the SSH tests: run as ``hubprobe.py --hub SOCK
--member NAME`` on a session's pty, it says hello to the hub with the session's token
and prints ``member=NAME hub=MEMBER``; then each JSON line typed (a hub request,
without ``id``; the pty is raw, so a line ends with CR) is sent and its reply printed
as ``REPLY`` and one JSON line (``{"error": ...}`` for a refusal). ``quit`` ends it."""

from __future__ import annotations

import asyncio
import json
import os
import sys

from deathzap_tui.club.hub import TOKEN_ENV, HubClient, HubError


def say(text: str) -> None:
    sys.stdout.write(text + "\r\n")
    sys.stdout.flush()


async def main() -> int:
    hub, member = sys.argv[sys.argv.index("--hub") + 1], sys.argv[sys.argv.index("--member") + 1]
    client = HubClient()
    try:
        said = await client.connect(hub, os.environ.get(TOKEN_ENV, ""))
    except HubError as exc:
        say(f"refused: {exc}")
        return 1
    say(f"member={member} hub={said}")
    loop = asyncio.get_running_loop()
    buf = b""
    try:
        while True:
            data = await loop.run_in_executor(None, os.read, 0, 65536)
            if not data:
                return 0
            buf += data.replace(b"\r", b"\n")
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                if not line.strip():
                    continue
                if line.strip() == b"quit":
                    return 0
                msg = json.loads(line)
                try:
                    reply = await client.request(msg.pop("t"), **msg)
                except HubError as exc:
                    reply = {"error": str(exc)}
                say("REPLY " + json.dumps(reply))
    finally:
        await client.close()


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))

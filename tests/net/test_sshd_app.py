"""End to end: ``deathzap serve-ssh``'s server running the real app (``deathzap
join``) on a pty for an asyncssh client, against a real referee playing DZ3."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import asyncssh
import pytest
from dz3play import force_names

from deathzap_tui.net import sshd


@pytest.fixture
def ssh_keys(tmp_path: Path):
    red = asyncssh.generate_private_key("ssh-ed25519")
    stranger = asyncssh.generate_private_key("ssh-ed25519")
    f = tmp_path / "keys.toml"
    f.write_text(f'[[players]]\nside = "red"\n'
                 f'key = "{red.export_public_key().decode().strip()}"\n')
    return {"red": red, "stranger": stranger, "file": f}


async def read_until(stream, text: bytes, buf: bytearray, timeout: float = 20) -> bytes:
    async with asyncio.timeout(timeout):
        while text not in buf:
            chunk = await stream.read(65536)
            if not chunk:
                break
            buf += chunk
    return bytes(buf)


def test_ssh_client_gets_the_real_app_and_a_wrong_key_is_refused(dz3_host, ssh_keys,
                                                                 tmp_path) -> None:
    red_name, black_name = force_names()

    async def main() -> None:
        server = sshd.GameSSHServer(sshd.load_keys(ssh_keys["file"]),
                                    sshd.host_key(tmp_path / "hk"),
                                    sshd.join_command(dz3_host.socket_path), port=0,
                                    log=lambda text: None)
        await server.start()
        try:
            with pytest.raises(asyncssh.PermissionDenied):
                async with asyncssh.connect("127.0.0.1", server.port, username="red",
                                            client_keys=[ssh_keys["stranger"]],
                                            known_hosts=None, agent_path=None):
                    pass
            async with asyncssh.connect("127.0.0.1", server.port, username="anyone",
                                        client_keys=[ssh_keys["red"]], known_hosts=None,
                                        agent_path=None) as conn:
                proc = await conn.create_process(term_type="xterm-256color",
                                                 term_size=(120, 36), encoding=None)
                buf = bytearray()
                out = await read_until(proc.stdout, red_name.encode(), buf)
                assert red_name.encode() in out
                out = await read_until(proc.stdout, black_name.encode(), buf)
                assert b"you: RED" in await read_until(proc.stdout, b"you: RED", buf)
                assert b"\x1b[?1000h" not in out  # no mouse reporting asked of the terminal
                # The app joined the referee as red (the key decides the side).
                deadline = time.monotonic() + 5
                while dz3_host.table.connected["red"] != 1 and time.monotonic() < deadline:
                    await asyncio.sleep(0.05)
                assert dz3_host.table.connected["red"] == 1
                proc.stdin.write(b"\x11")  # ctrl+q
                await asyncio.wait_for(proc.wait(), 15)
            deadline = time.monotonic() + 5
            while dz3_host.table.connected["red"] and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            assert dz3_host.table.connected["red"] == 0
        finally:
            await server.close()

    asyncio.run(main())

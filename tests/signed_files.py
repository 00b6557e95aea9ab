"""Spoiling a signed file the way the cache and kept-report tests do: a file the
project signs (a save's cache, a finished game's kept report) must be ignored once
any of its bytes change or it is cut short."""

from __future__ import annotations

from pathlib import Path

SPOILS = ("payload", "mac", "truncate")
"""What :func:`spoil` can do to a file: flip a byte of its payload or of its MAC
(right after its magic), or cut it short."""


def spoil(file: Path, how: str, magic: bytes) -> None:
    """Spoil the signed ``file`` (which starts with ``magic``) as ``how`` says."""
    raw = bytearray(file.read_bytes())
    if how == "payload":
        raw[-10] ^= 0xFF
    elif how == "mac":
        raw[len(magic)] ^= 0xFF
    elif how == "truncate":
        raw = raw[:40]
    else:
        raise ValueError(f"not a way to spoil a file: {how!r}")
    file.write_bytes(bytes(raw))

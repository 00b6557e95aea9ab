"""Member names and SSH public keys, checked before a club store keeps them.

Pure checks on text, no storage: the store, the host-side commands and the lobby
all refuse the same things with the same messages.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import unicodedata
from dataclasses import dataclass

from deathzap_tui.gamestore import StoreError
from deathzap_tui.rules.validation import show

NAME_MIN, NAME_MAX = 2, 24
"""A member name's length in characters (issue 23)."""
KEY_TYPES = frozenset({
    "ssh-ed25519", "ssh-rsa", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384",
    "ecdsa-sha2-nistp521", "sk-ssh-ed25519@openssh.com",
    "sk-ecdsa-sha2-nistp256@openssh.com",
})
"""The public key types OpenSSH clients log in with (no DSA: OpenSSH dropped it)."""
MAX_KEY_CHARS = 16 * 1024
"""A public key line is under 1 KB even for 8192-bit RSA; anything longer is not one."""


class ClubError(StoreError):
    """Something a club store refuses (an unknown member, a name taken, a bad key...);
    the message says what and where."""


def check_name(name: str) -> str:
    """``name`` if it may name a member: 2–24 printable characters, no control,
    format (bidi, zero-width) or separator characters other than inner spaces, not
    starting with ``-`` (a ``--notify`` command is given it as an argument)."""
    if not isinstance(name, str):
        raise ClubError("a member name must be text")
    bad = next((ch for ch in name if not ch.isprintable()), None)
    if bad is not None:
        raise ClubError(f"member name {show(name)}: contains the non-printable character "
                        f"U+{ord(bad):04X} (no control, bidi or invisible characters)")
    if name != name.strip():
        raise ClubError(f"member name {show(name)}: must not start or end with a space")
    if name.startswith("-"):  # --notify passes it as an argument: never as an option
        raise ClubError(f"member name {show(name)}: must not start with '-'")
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise ClubError(f"member name {show(name)}: is {len(name)} characters long; a "
                        f"name has {NAME_MIN} to {NAME_MAX}")
    return name


def name_key(name: str) -> str:
    """What two names must not share: ``Alice`` and ``ALICE`` (or a full-width
    ``Ａlice``) are the same member."""
    return unicodedata.normalize("NFKC", name).casefold()


def fingerprint(blob: bytes) -> str:
    """OpenSSH's ``SHA256:...`` fingerprint of the key blob ``blob``."""
    digest = base64.b64encode(hashlib.sha256(blob).digest()).decode("ascii")
    return "SHA256:" + digest.rstrip("=")


@dataclass(frozen=True)
class PublicKey:
    """An SSH public key: its type, the key blob (what an SSH server is shown at
    login) and the comment of the line it came from."""

    type: str
    blob: bytes
    comment: str = ""

    @property
    def fingerprint(self) -> str:
        """OpenSSH's ``SHA256:...`` fingerprint."""
        return fingerprint(self.blob)

    @property
    def text(self) -> str:
        """The key as an ``authorized_keys`` line."""
        line = f"{self.type} {base64.b64encode(self.blob).decode('ascii')}"
        return f"{line} {self.comment}" if self.comment else line

    @classmethod
    def parse(cls, text: str) -> PublicKey:
        """Read an OpenSSH public key line (``ssh-ed25519 AAAA... comment``), checking
        that its blob is well formed and of the type the line says."""
        if not isinstance(text, str) or len(text) > MAX_KEY_CHARS:
            raise ClubError("not an SSH public key (expected one line such as "
                            "\"ssh-ed25519 AAAA... you@host\")")
        parts = text.strip().split(None, 2)
        if len(parts) < 2 or parts[0] not in KEY_TYPES:
            kinds = ", ".join(sorted(KEY_TYPES))
            raise ClubError(f"not an SSH public key: {show(text)} (expected a line "
                            f"starting with one of {kinds}, then the key)")
        kind, data = parts[0], parts[1]
        comment = parts[2].strip() if len(parts) > 2 else ""
        try:
            blob = base64.b64decode(data, validate=True)
        except (binascii.Error, ValueError):
            raise ClubError(f"{kind} key: the key text is not base64") from None
        size = int.from_bytes(blob[:4], "big")
        if len(blob) < 4 + size or blob[4:4 + size] != kind.encode("ascii") \
                or len(blob) == 4 + size:
            raise ClubError(f"{kind} key: the key data is not a {kind} key "
                            "(truncated, or of another type)")
        if any(not ch.isprintable() for ch in comment):
            raise ClubError(f"{kind} key: the comment {show(comment)} holds non-printable "
                            "characters")
        return cls(kind, blob, comment)

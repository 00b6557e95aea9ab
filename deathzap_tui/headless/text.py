"""Making untrusted text (force and unit names, anything derived from files) safe.

Force files are user input: a name holding ``\\x1b]52;...`` must never reach the
terminal. Everything the engine hands us is treated as untrusted, because it quotes
names from files. (Escaping Textual markup as well is ``app.text.safe``.)
"""

from __future__ import annotations

import re

_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f"  # C0 (but tab/newline) and C1 controls, DEL
    "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"  # bidi marks, embeddings, isolates
    "\ufff9-\ufffb]"  # interlinear annotations
)


def clean(text: object, *, oneline: bool = False) -> str:
    """``text`` as a str without control characters or bidi overrides."""
    out = _UNSAFE.sub("", str(text))
    return " ".join(out.split()) if oneline else out.replace("\t", " ")

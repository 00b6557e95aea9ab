"""Making untrusted text (force and unit names, anything derived from files) safe
for Textual: :func:`safe` escapes markup too; :func:`clean` (no Textual) lives in
:mod:`deathzap_tui.headless.text`, re-exported here for the app.

Force files are user input: a unit called ``[@click=app.quit]x[/]`` must not become
a link, and a name holding ``\\x1b]52;...`` must never reach the terminal. Everything
the engine hands us is treated as untrusted, because it quotes names from files.
"""

from __future__ import annotations

from textual.markup import escape

from deathzap_tui.headless.text import clean as clean


def safe(text: object, *, oneline: bool = False) -> str:
    """``clean`` plus markup escaping, for places that parse Textual markup."""
    return escape(clean(text, oneline=oneline))

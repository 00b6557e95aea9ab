"""An Input with a steady cursor: no repaint every half second (cheaper over SSH,
and snapshots do not depend on the blink phase)."""

from __future__ import annotations

from textual.reactive import reactive
from textual.widgets import Input


class SteadyInput(Input):
    cursor_blink = reactive(False, init=False)

"""An Input with a steady cursor (no repaint every half second: cheaper over SSH, and
snapshots do not depend on the blink phase) that applies its editing keys in the
order they were typed."""

from __future__ import annotations

from textual import events
from textual.reactive import reactive
from textual.widgets import Input


class SteadyInput(Input):
    cursor_blink = reactive(False, init=False)

    async def _on_key(self, event: events.Key) -> None:
        """A key bound to one of the input's own actions (backspace, delete, the
        cursor keys, Enter...) is applied here, in the order the keys came, as a
        typed character is. Left to the bindings, it would be applied only once the
        key had bubbled up to the app, after the characters typed after it in the
        same burst (a fast typist, a paste): a backspace then took the wrong
        character, and the one typed after it was lost (issue 22)."""
        bindings = self._bindings.key_to_bindings.get(event.key)
        if bindings:
            event.stop()
            event.prevent_default()
            await self.run_action(bindings[0].action)
            return
        await super()._on_key(event)

"""The command palette: every action of the current screen, plus the app's own."""

from __future__ import annotations

from typing import Any

from textual.command import Hit, Hits, Provider

from deathzap_tui.app.common.text import clean, safe


class PaletteCommands(Provider):
    """Every action of the current screen (``palette_commands``) plus the app's."""

    def _commands(self) -> list[tuple[str, str, Any]]:
        screen = self.screen
        out: list[tuple[str, str, Any]] = []
        if hasattr(screen, "palette_commands"):
            out.extend(screen.palette_commands())
        app: Any = self.app
        out.append(("Help: rules", "Search the ruleset's rules", app.action_help))
        out.append(("Quick resolve", "Resolve one attack or morale test outside a game",
                    app.action_quick_resolve))
        out.append(("New game / resume", "Go to the start screen", app.action_start_screen))
        return out

    async def discover(self) -> Hits:
        for title, help_text, callback in self._commands():
            yield Hit(1.0, safe(title), callback, text=clean(title), help=safe(help_text))

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, callback in self._commands():
            score = matcher.match(clean(title))
            if score > 0:
                yield Hit(score, matcher.highlight(safe(title)), callback, text=clean(title),
                          help=safe(help_text))

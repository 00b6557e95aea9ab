"""Issue 11: ``deathzap resolve`` opens on forces of a ruleset that offers quick
resolution, names units by their names (never an internal id), and says nothing
is saved."""

from __future__ import annotations

import shutil

from app_helpers import aiotest
from textual.widgets import Select

from deathzap_tui.app.app import DeathzapApp, Launch
from deathzap_tui.app.quick.quick import QuickResolveScreen
from deathzap_tui.paths import PROJECT_ROOT
from deathzap_tui.rules import registry


def _prompts(screen: QuickResolveScreen, select: str) -> list[str]:
    return [str(p) for p, v in screen.query_one(select, Select)._options if v != Select.NULL]


def _values(screen: QuickResolveScreen, select: str) -> list[object]:
    return [v for _p, v in screen.query_one(select, Select)._options if v != Select.NULL]


@aiotest
async def test_opens_on_a_ruleset_with_quick_resolution(workdir, demo_paths) -> None:
    # A Command Hand force sorts first in forces/; the screen opens on the two demos
    # of the default ruleset (Deathzap 3) all the same.
    shutil.copy(PROJECT_ROOT / "forces" / "ch-cinder-collective.toml", workdir / "forces")
    app = DeathzapApp(Launch("resolve"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, QuickResolveScreen)
        files = [screen.query_one(f"#{r}-file").value for r in ("attacker", "target")]
        assert files == [f"forces/{p.name}" for p in demo_paths]
        assert screen.query_one("#kind", Select).value == "shoot"
        assert _values(screen, "#kind") == ["shoot", "melee", "morale"]
        sources = _prompts(screen, "#attacker-source")
        # Every ruleset offers quick resolution (issue 26), so a unit of each may be
        # typed in.
        assert all(any(registry.get(rid).title in s for s in sources)
                   for rid in registry.ids())
        units = _prompts(screen, "#target-unit")
        assert units and all(". " in u and ".0" not in u for u in units)
        title = str(screen.query_one(".screen-title").render())
        assert "no save" in title

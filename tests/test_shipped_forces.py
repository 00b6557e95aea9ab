"""Every force file shipped in ``forces/``, whatever its ruleset: it loads, its source
written back as TOML loads as the same force (saves embed the source), and each
ruleset has a pair of them for the start screen to preselect."""

from __future__ import annotations

from pathlib import Path

import pytest
import tomli_w

from deathzap_tui.forcefile import force_from_text, load_force
from deathzap_tui.headless.forcelist import forces_for, pair_for, ruleset_of
from deathzap_tui.rules import registry

FORCES = sorted((Path(__file__).resolve().parent.parent / "forces").glob("*.toml"))


@pytest.mark.parametrize("path", FORCES, ids=[p.name for p in FORCES])
def test_a_shipped_force_round_trips_through_the_loader(path: Path) -> None:
    first = load_force(path)
    assert first.ruleset.id == ruleset_of(path)
    again = force_from_text(tomli_w.dumps(dict(first.force.source)), "again.toml").force
    assert again == first.force and again.source == first.force.source


@pytest.mark.parametrize("ruleset_id", registry.ids())
def test_every_ruleset_ships_a_pair_the_start_screen_preselects(ruleset_id: str) -> None:
    listed = forces_for(FORCES, ruleset_id)
    assert len(listed) >= 2 and all(ruleset_of(p) == ruleset_id for p in listed)
    red, black = pair_for(FORCES, ruleset_id)
    assert red != black and {red, black} <= set(listed)

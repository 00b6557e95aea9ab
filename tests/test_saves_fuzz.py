"""Random bytes and random TOML never crash the save loader: every failure is a
SaveError naming the file (issue 2)."""

from __future__ import annotations

import copy
import random
from pathlib import Path

import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deathzap_tui import saves
from deathzap_tui.forcefile import load_force
from deathzap_tui.rules.game import Game

FORCES = Path(__file__).resolve().parent.parent / "forces"
FUZZ = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])


def load_or_save_error(path: Path) -> None:
    try:
        saves.load_game(path)
    except saves.SaveError as exc:
        assert str(path) in str(exc)


@FUZZ
@given(st.binary(max_size=2000))
def test_random_bytes(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "fuzz.toml"
    path.write_bytes(data)
    load_or_save_error(path)


toml_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=20,
)


def _valid_save() -> dict:
    red = load_force(FORCES / "mortans-men.toml")
    black = load_force(FORCES / "gutter-saints.toml")
    game = Game(red.ruleset, red.force, black.force, red.ruleset.options(), 3)
    game.play({"type": "rolloff"}, ["6", "1", "south"])
    return saves.game_to_data(game)


VALID = _valid_save()


def _strip_none(value):
    if isinstance(value, dict):
        return {k: _strip_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_strip_none(v) for v in value if v is not None]
    return value


@FUZZ
@given(st.data())
def test_a_valid_save_with_one_value_replaced(tmp_path: Path, data: st.DataObject) -> None:
    """Replace one value anywhere in a real save: still only clear errors."""
    save = copy.deepcopy(VALID)
    rnd = random.Random(data.draw(st.integers(0, 2**32)))
    parent: dict | list | None = None
    key: str | int | None = None
    node: dict | list = save
    for _ in range(rnd.randint(1, 6)):
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            break
        parent, key = node, rnd.choice(keys)
        child = node[key]
        if not isinstance(child, dict | list) or rnd.random() < 0.3:
            break
        node = child
    if parent is None:
        return
    parent[key] = _strip_none(data.draw(toml_values))
    try:
        text = tomli_w.dumps(save)
    except (TypeError, ValueError):
        return  # not representable in TOML: nothing to load
    path = tmp_path / "fuzz.toml"
    path.write_text(text, encoding="utf-8")
    load_or_save_error(path)

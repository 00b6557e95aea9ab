"""Hostile input never escapes the loader as anything but ``InvalidInput``."""

from __future__ import annotations

import copy
import string
import tempfile
from pathlib import Path
from typing import Any

import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deathzap_tui.forcefile import (
    force_from_data,
    force_from_text,
    key_path,
    line_index,
    load_force,
    locate,
)
from deathzap_tui.rules.problems import InvalidInput

FUZZ = settings(max_examples=200, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])

KEYS = ["name", "ruleset", "expected_points", "weapons", "units", "shots", "power",
        "rules", "profiles", "skill", "move", "melee_attacks", "shield_strength",
        "shields", "vehicle", "figures", "count", "leader", "command", "small-arms"]
WORDS = ["basic", "regular", "elite", "light", "medium", "heavy", "strike",
         "short-range", "small-arms", "deathzap3", "classic", "", "\x1b[2J", "\u202e"]

scalars = st.one_of(
    st.integers(min_value=-(10**20), max_value=10**20), st.sampled_from([0, 1, 6, 13, 25]),
    st.floats(allow_nan=True, allow_infinity=True), st.booleans(),
    st.sampled_from(WORDS), st.text(max_size=8),
)
keys = st.one_of(st.sampled_from(KEYS), st.text(max_size=6))
nested = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=5),
    max_leaves=30,
)


def ok_or_invalid(load: Any, *args: Any) -> None:
    """Run a loader: it may succeed or raise InvalidInput, nothing else. A force it
    accepts must also price without error."""
    try:
        loaded = load(*args)
    except InvalidInput as e:
        assert e.problems and all(p.message for p in e.problems)
        return
    loaded.ruleset.points(loaded.force)


@FUZZ
@given(st.binary(max_size=400))
def test_random_bytes(raw: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "f.toml"
        path.write_bytes(raw)
        ok_or_invalid(load_force, path)


LINES = [
    'name = "Fuzz"', 'ruleset = "deathzap3"', 'ruleset = 3', "[weapons.small-arms]",
    "[weapons.gun]", "shots = 1", "shots = 0", "shots = true", 'power = "light"',
    'power = "mega"', 'rules = ["strike", "short-range"]', 'rules = ["strike", "strike"]',
    'profiles = [ { name = "A", shots = 1, power = "heavy" }, { shots = 2, power = "light" } ]',
    "[[units]]", 'name = "Squad"', 'skill = "basic"', "move = 6", "move = nan",
    "melee_attacks = 1", 'shield_strength = "light"', "shields = 6", "shields = inf",
    "vehicle = true", "vehicle = false", "[[units.figures]]", 'weapons = ["small-arms"]',
    'figures = [ { name = "A", count = 5, weapons = ["small-arms"] } ]',
    'figures = [ { name = "L", leader = true, command = 6 }, { name = "B", weapons = ["gun"] } ]',
    "figures = []", "count = 99999", "expected_points = 249", "[extra]", "x = [[[1]]]",
    "x = 99999999999999999999999999", 'name = "\\u001b[2J"', "= broken", "[", '"',
]


@FUZZ
@given(st.lists(st.sampled_from(LINES), max_size=30))
def test_random_toml_documents(lines: list[str]) -> None:
    ok_or_invalid(force_from_text, "\n".join(lines), "fuzz.toml")


@FUZZ
@given(nested)
def test_random_nested_data(data: object) -> None:
    ok_or_invalid(force_from_data, data, "fuzz")


VALID: dict[str, Any] = {
    "name": "Fuzz",
    "weapons": {
        "small-arms": {"shots": 1, "power": "light"},
        "destroyer": {"profiles": [
            {"name": "Strike", "shots": 1, "power": "heavy", "rules": ["strike"]},
            {"name": "Spread", "shots": 2, "power": "light"}]},
    },
    "units": [{
        "name": "Squad", "skill": "basic", "move": 6, "melee_attacks": 1,
        "shield_strength": "light", "shields": 6, "vehicle": False,
        "figures": [
            {"name": "Leader", "leader": True, "command": 6, "weapons": ["small-arms"]},
            {"name": "Gunner", "count": 2, "weapons": ["destroyer"]},
        ],
    }],
}


def containers(value: Any) -> list[Any]:
    out = [value]
    children = value.values() if isinstance(value, dict) else value
    for child in children:
        if isinstance(child, (dict, list)):
            out.extend(containers(child))
    return out


@FUZZ
@given(st.data())
def test_mutated_valid_force(draw: st.DataObject) -> None:
    """One value of a valid force replaced, added or removed: the validator sees
    almost-right data deep inside, where it is most likely to slip."""
    data = copy.deepcopy(VALID)
    for _ in range(draw.draw(st.integers(1, 3))):
        target = draw.draw(st.sampled_from(containers(data)))
        if isinstance(target, dict):
            key = draw.draw(st.sampled_from([*target, *KEYS]))
            if draw.draw(st.booleans()) and key in target:
                del target[key]
            else:
                target[key] = draw.draw(nested)
        elif target:
            target[draw.draw(st.integers(0, len(target) - 1))] = draw.draw(nested)
    ok_or_invalid(force_from_data, data, "fuzz")


# --- the path -> line index agrees with tomli-w output --------------------------------

bare = st.text(alphabet=string.ascii_lowercase + "-_", min_size=1, max_size=6)
toml_values = st.recursive(
    st.integers(-5, 5) | st.text(max_size=5) | st.booleans(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(bare, inner, max_size=3),
    max_leaves=15,
)


def leaf_paths(value: Any, path: str = "") -> list[str]:
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in leaf_paths(v, key_path(path, k))]
    if isinstance(value, list) and value:
        return [p for i, v in enumerate(value) for p in leaf_paths(v, f"{path}[{i}]")]
    return [path]


@FUZZ
@given(st.dictionaries(bare, toml_values, min_size=1, max_size=4), st.booleans())
def test_every_value_in_written_toml_is_located(data: dict[str, Any],
                                                multiline: bool) -> None:
    text = tomli_w.dumps(data, multiline_strings=multiline)
    index = line_index(text)
    lines = text.split("\n")  # TOML lines end at \n only (not at \x85 as splitlines)
    for path in leaf_paths(data):
        line = locate(index, path)
        assert line is not None, (path, text)
        last = path.rsplit(".", 1)[-1].split("[", 1)[0]
        # the located line names the key, or is an element of an array under it
        assert last in lines[line - 1] or "[" in path.rsplit(".", 1)[-1], (path, text)

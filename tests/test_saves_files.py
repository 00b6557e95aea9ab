"""Save files: names stay inside the saves folder, broken files give clear errors
and are never modified, writes are atomic."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from deathzap_tui import saves
from deathzap_tui.saves import SaveError, save_path


@pytest.mark.parametrize("name", ["game1", "game1.toml", "Red-vs-Black_2.v2"])
def test_plain_names_land_in_the_saves_folder(saves_dir: Path, name: str) -> None:
    path = save_path(name)
    assert path.parent == saves_dir.resolve() and path.suffix == ".toml"


def test_a_path_into_the_saves_folder_is_accepted(saves_dir: Path) -> None:
    assert save_path(saves_dir / "x.toml") == saves_dir.resolve() / "x.toml"
    assert save_path("saves/x.toml") == saves_dir.resolve() / "x.toml"


@pytest.mark.parametrize("name", [
    "../evil", "../../etc/passwd", "/tmp/evil.toml", "sub/dir.toml", "saves/../x",
    ".hidden", "", "a b", "na\x1bme", "x" * 200, "..", "game.",
])
def test_names_that_escape_or_look_odd_are_refused(saves_dir: Path, name: str) -> None:
    with pytest.raises(SaveError):
        save_path(name)


def test_default_names_come_from_the_forces_and_date() -> None:
    import datetime as dt

    name = saves.default_save_name("Mortan's Men", "The Iron Choir!",
                                   dt.datetime(2026, 11, 21, 9, 5))
    assert name == "mortan-s-men-vs-the-iron-choir-20261121-0905"
    save_path(name, Path("/tmp"))  # and it is a valid save name


@pytest.mark.parametrize(("content", "reason"), [
    (b"format = \"deathzap-save\"\nversion = 1\nseed = ", "not valid TOML"),
    (b"\xff\xfe\x00garbage", "not a text"),
    (b"format = \"something-else\"\n", "not a deathzap save"),
    (b"format = \"deathzap-save\"\nversion = 99\n", "version 99"),
    (b"format = \"deathzap-save\"\nversion = 1\nruleset = \"chess\"\n", "unknown ruleset"),
    (b"format = \"deathzap-save\"\nversion = 1\nruleset = \"deathzap3\"\n", "'seed'"),
    (b"[" * 5000, "unreadable|not valid TOML"),
])
def test_broken_saves_give_a_clear_error_and_stay_untouched(
        saves_dir: Path, content: bytes, reason: str) -> None:
    path = saves_dir / "broken.toml"
    path.write_bytes(content)
    with pytest.raises(SaveError, match=reason) as info:
        saves.load_game(path)
    assert str(path) in str(info.value)
    assert path.read_bytes() == content


def test_missing_save(saves_dir: Path) -> None:
    with pytest.raises(SaveError, match="no such save"):
        saves.load_game(saves_dir / "nope.toml")


def test_atomic_write_replaces_whole_file_and_leaves_no_temp(saves_dir: Path) -> None:
    path = saves_dir / "a.toml"
    saves.write_atomic(path, "one = 1\n")
    saves.write_atomic(path, "two = 2\n")
    assert path.read_text() == "two = 2\n"
    assert sorted(os.listdir(saves_dir)) == ["a.toml"]

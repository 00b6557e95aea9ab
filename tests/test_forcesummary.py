"""What the start screen says of a force file, kept from one run to the next (issue
21): said alike kept or read, never of the file as it was before an edit, of other
code or from a file this user's key did not sign; a force with problems is never
kept."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from signed_files import SPOILS, spoil
from subprocess_env import child_env

from deathzap_tui import forcefile, forcesummary, savesign
from deathzap_tui.forcefile import load_force, read_force_text
from deathzap_tui.forcesummary import ForceSummary
from deathzap_tui.paths import PROJECT_ROOT, kept_forces_path
from deathzap_tui.savesign import sign

DEMOS = sorted((PROJECT_ROOT / "forces").glob("demo-*.toml"))[:2]


@pytest.fixture
def force(tmp_path: Path) -> Path:
    """A copy of the first demo force, kept described."""
    path = tmp_path / DEMOS[0].name
    path.write_bytes(DEMOS[0].read_bytes())
    forcesummary.keep(read_force_text(path), ForceSummary.of(load_force(path)))
    return path


def test_a_kept_summary_is_what_reading_the_file_says(force: Path) -> None:
    summary = forcesummary.read(force)
    assert summary == ForceSummary.of(load_force(force))
    assert summary is not None and summary.points is not None and summary.units > 0


def test_an_edited_file_is_read_again(force: Path) -> None:
    force.write_text(force.read_text(encoding="utf-8").replace(
        'name = "', 'name = "Renamed ', 1), encoding="utf-8")
    assert forcesummary.read(force) is None
    forcesummary.keep(read_force_text(force), ForceSummary.of(load_force(force)))
    renamed = forcesummary.read(force)
    assert renamed is not None and renamed.name.startswith("Renamed ")


def test_a_summary_of_other_code_or_another_key_is_ignored(
        force: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert forcesummary.read(force) is not None
    with monkeypatch.context() as patch:  # other rules code made it
        patch.setattr(savesign, "RULES_VERSION", savesign.RULES_VERSION + 1)
        assert forcesummary.read(force) is None
    monkeypatch.setenv("DEATHZAP_CACHE_KEY", str(tmp_path / "another" / "cache.key"))
    assert forcesummary.read(force) is None


@pytest.mark.parametrize("how", SPOILS)
def test_a_spoiled_file_of_summaries_is_ignored(force: Path, how: str) -> None:
    spoil(kept_forces_path(), how, forcesummary.MAGIC)
    assert forcesummary.read(force) is None


@pytest.mark.parametrize("payload", [b"", b"not json", b"[]", b"[" * 100_000, b'{"a": 1}'])
def test_a_signed_file_that_holds_no_summaries_is_ignored(force: Path, payload: bytes) -> None:
    sign(kept_forces_path(), forcesummary.MAGIC, lambda: payload)
    assert forcesummary.read(force) is None


def test_a_summary_with_fields_of_the_wrong_kind_is_ignored(force: Path) -> None:
    key = forcesummary.text_key(read_force_text(force))
    for wrong in (["N", 9, 500], ["N", "9", 500, 0], [None, 9, 500, 0], ["N", True, 500, 0],
                  ["N", 9, "500", 0], ["N", 9, 500, 0.5], {"name": "N"}):
        sign(kept_forces_path(), forcesummary.MAGIC,
             lambda w=wrong: json.dumps({key: w}).encode())
        assert forcesummary.read(force) is None, wrong
    sign(kept_forces_path(), forcesummary.MAGIC,
         lambda: json.dumps({key: ["N", 9, None, 0]}).encode())
    assert forcesummary.read(force) == ForceSummary("N", 9, None, 0)


def test_a_link_or_a_missing_file_is_never_looked_up(force: Path, tmp_path: Path) -> None:
    link = tmp_path / "link.toml"
    link.symlink_to(force)
    assert forcesummary.read(link) is None
    assert forcesummary.read(tmp_path / "missing.toml") is None


def test_the_start_screen_reads_kept_forces_without_their_rules_code(
        tmp_path: Path) -> None:
    """The start screen's forces, described once, are said again from their summaries,
    importing neither the force files' TOML reader nor the ruleset's force code."""
    env = child_env(DEATHZAP_CACHE_KEY=str(tmp_path / "key" / "cache.key"))
    script = textwrap.dedent(f"""
        import sys
        from pathlib import Path
        from deathzap_tui import forcesummary
        paths = [Path(p) for p in {[str(p) for p in DEMOS]!r}]
        said = [forcesummary.read(p) for p in paths]
        print(all(said), sorted(m for m in sys.modules
                                if m in ("tomllib", "deathzap_tui.forcefile")
                                or m.startswith("deathzap_tui.rules.deathzap3.")))
    """)
    first = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                           text=True, check=True)
    assert first.stdout.split()[0] == "False"  # nothing kept yet
    for path in DEMOS:  # as the start screen keeps them
        subprocess.run([sys.executable, "-c", textwrap.dedent(f"""
            from pathlib import Path
            from deathzap_tui import forcesummary
            from deathzap_tui.forcefile import load_force, read_force_text
            path = Path({str(path)!r})
            forcesummary.keep(read_force_text(path),
                              forcesummary.ForceSummary.of(load_force(path)))
        """)], env=env, check=True)
    again = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                           text=True, check=True)
    assert again.stdout.strip() == "True []"


def test_a_summary_is_looked_up_for_every_file_a_force_file_may_be() -> None:
    """The lookup's size limit is the force file's own (kept apart so that the start
    screen does not import the force file code to look a summary up)."""
    assert forcesummary.MAX_FORCE_BYTES == forcefile.MAX_BYTES

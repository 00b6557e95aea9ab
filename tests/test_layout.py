"""The test suite's own layout (issue 20): helpers are imported by name from the
folders pytest's ``pythonpath`` lists, so no two modules under tests/ may share a
name and none edits ``sys.path``; and :mod:`lanes` puts a test in the slow lane by what
it uses."""

from __future__ import annotations

import re
import textwrap
from collections import Counter
from pathlib import Path

import lanes
import pytest

TESTS = Path(__file__).resolve().parent
MODULES = [p for p in TESTS.rglob("*.py") if "__snapshots__" not in p.parts]


def test_no_two_test_modules_share_a_name() -> None:
    names = Counter(p.name for p in MODULES if p.name != "conftest.py")
    assert [name for name, n in names.items() if n > 1] == []


def test_no_test_edits_sys_path() -> None:
    """A child Python gets the helper folders as PYTHONPATH (subprocess_env.py)."""
    edits = re.compile(r"sys\.path(\.insert|\.append|\[)")
    assert [str(p.relative_to(TESTS)) for p in MODULES
            if edits.search(p.read_text(encoding="utf-8"))] == []


@pytest.fixture
def module(tmp_path: Path) -> Path:
    path = tmp_path / "test_sample.py"
    path.write_text(textwrap.dedent("""
        import subprocess, sys

        def deathzap(*args):
            return subprocess.run([sys.executable, "-m", "deathzap_tui", *args])

        def refused(*args):
            return deathzap(*args).returncode == 1

        def run_test(count):  # a helper that happens to share Textual's name
            return count

        def test_through_two_helpers():
            assert refused("log", "nothing")

        def test_a_local_run_test():
            assert run_test(3) == 3

        def test_an_app():
            async def main():
                async with App().run_test() as pilot:
                    await pilot.press("q")

        def headless(app, player):
            app.run(headless=True, auto_pilot=player)

        def test_an_app_run_headless():
            headless(App(), None)
    """), encoding="utf-8")
    return path


def test_lanes_follow_a_test_into_the_helpers_of_its_module(module: Path) -> None:
    assert lanes.STARTS_A_PROCESS & lanes._names_used(module, "test_through_two_helpers")
    assert not lanes.STARTS_AN_APP & lanes._names_used(module, "test_a_local_run_test")
    assert not lanes.STARTS_A_PROCESS & lanes._names_used(module, "test_a_local_run_test")
    assert lanes.STARTS_AN_APP & lanes._names_used(module, "test_an_app")
    assert lanes.STARTS_AN_APP & lanes._names_used(module, "test_an_app_run_headless")

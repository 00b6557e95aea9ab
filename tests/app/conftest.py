"""App test fixtures: a private forces/ and saves/ folder, sessions at known points.

Every test runs in a temporary working directory holding copies of the two demo
forces, with ``DEATHZAP_SAVES_DIR``/``DEATHZAP_FORCES_DIR`` pointing there, so the
screens (and their snapshots) never depend on the developer's own files.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from deathzap_tui.paths import PROJECT_ROOT

DEMOS = sorted((PROJECT_ROOT / "forces").glob("demo-*.toml"))[:2]
SEED = 7


@pytest.fixture(autouse=True)
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    forces = tmp_path / "forces"
    saves = tmp_path / "saves"
    forces.mkdir()
    saves.mkdir()
    for demo in DEMOS:
        shutil.copy(demo, forces / demo.name)
    monkeypatch.setenv("DEATHZAP_FORCES_DIR", str(forces))
    monkeypatch.setenv("DEATHZAP_SAVES_DIR", str(saves))
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def demo_paths(workdir: Path) -> tuple[Path, Path]:
    red, black = (workdir / "forces" / d.name for d in DEMOS)
    return red, black

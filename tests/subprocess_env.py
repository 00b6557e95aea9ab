"""The environment of a child Python a test starts (a referee, a club server, a
writer to kill): it imports the tests' helper modules (``toynet``, ``dz3_fixtures``,
``club_fixtures``...) by name as the tests do, from the folders pytest's
``pythonpath`` names in pyproject.toml, passed to it as ``PYTHONPATH``. A test never
edits ``sys.path``, in its own process or in a child's."""

from __future__ import annotations

import functools
import os
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@functools.cache
def helper_folders() -> tuple[str, ...]:
    """The checkout and the folders of pytest's ``pythonpath``, absolute."""
    with open(ROOT / "pyproject.toml", "rb") as f:
        names: list[str] = tomllib.load(f)["tool"]["pytest"]["ini_options"]["pythonpath"]
    return (str(ROOT), *(str(ROOT / name) for name in names))


def child_env(**extra: str) -> dict[str, str]:
    """This process's environment with ``extra`` set and the helper folders first on
    ``PYTHONPATH``."""
    inherited = [os.environ["PYTHONPATH"]] if os.environ.get("PYTHONPATH") else []
    return {**os.environ, **extra,
            "PYTHONPATH": os.pathsep.join([*helper_folders(), *inherited])}
